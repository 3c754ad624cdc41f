"""bfloat16 results in bfloat16's subnormal range on the host target: an
add of two bfloat16 values rounds its float32 sum to nearest even, keeping
subnormals, as a GPU's `cvt.rn.bf16.f32` does. (On CPUs with AVX512-BF16,
LLVM's `vcvtneps2bf16` would flush them to zero: the host JIT's target
features leave those conversions out.)"""

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import ir

SEED = 20261128


def bf16_rn(x32):
    """bfloat16 bits of float32 values, to nearest even (no NaNs here)."""
    u = np.asarray(x32, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_bf16_add_keeps_subnormals(native, host_target):
    m = ir.Module()
    k = m.kernel("add", [ir.array(ir.bf16, 1, "c")] * 3)
    a, b, out = k.args
    i = k.global_id()
    with k.if_(i < out.size):
        out[i] = a[i] + b[i]
    prog = pydev.Program(m, kernel="add")

    rng = np.random.default_rng(SEED)
    n = 256
    # bfloat16 bits of values around bfloat16's smallest normal (2**-126):
    # subnormal ones (exponent 0) and normal ones just above
    bits_a = rng.integers(0x0001, 0x0100, n, dtype=np.uint16) | (rng.integers(0, 2, n, dtype=np.uint16) << 15)
    bits_b = rng.integers(0x0001, 0x0100, n, dtype=np.uint16) | (rng.integers(0, 2, n, dtype=np.uint16) << 15)
    to32 = lambda bits: (bits.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
    want = bf16_rn(to32(bits_a) + to32(bits_b))
    assert np.count_nonzero(((want & 0x7F80) == 0) & ((want & 0x7F) != 0)) > n // 4  # many subnormal results

    ml_dtypes = pytest.importorskip("ml_dtypes")
    xa, xb = bits_a.view(ml_dtypes.bfloat16), bits_b.view(ml_dtypes.bfloat16)
    out_arr = np.full(n, 0x7FC1, np.uint16).view(ml_dtypes.bfloat16)  # poisoned: a NaN
    device.launch(prog, xa, xb, out_arr, grid=(n + 63) // 64, block=64, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    np.testing.assert_array_equal(out_arr.view(np.uint16), want)
