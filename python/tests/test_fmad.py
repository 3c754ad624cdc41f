"""`fmad=False` (issue 35 item 4): no multiply-add contraction, so each `*`
and `+` rounds as NumPy's does, on both targets; by default `a * b + c`
may become one fused multiply-add (nvcc's `-fmad=true`). It is an option
of `@device.kernel`/`@device.func`, `pydev.Program`, `pydev.compile` and
pydev.numba's `cuda.jit`, and `PYDEV_FMAD=0` sets it for a whole process."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _native

pytestmark = pytest.mark.skipif(not _native.available(), reason="needs the native module")

SIG = "float32[::1], float32[::1], float32[::1], float32[::1]"
N = 1 << 14


@device.kernel
def fused(out, x, y, z):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i] * y[i] + z[i]


@device.kernel(fmad=False)
def rounded(out, x, y, z):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i] * y[i] + z[i]


@device.func(fmad=False)
def muladd(a, b, c):
    return a * b + c


@device.kernel
def calls_rounded_func(out, x, y, z):
    i = device.tid(1)
    if i < out.size:
        out[i] = muladd(x[i], y[i], z[i])


def inputs(seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(N).astype(np.float32) for _ in range(3)]


def run(kernel, x, y, z):
    out = np.full(N, np.nan, np.float32)
    device.launch(kernel, out, x, y, z, grid=N // 128, block=128, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    return out


def host_only():
    if pydev.active_target() != "host":
        pytest.skip("launches on the host target")


@pytest.mark.parametrize("kernel", [rounded, calls_rounded_func], ids=["kernel", "func"])
def test_fmad_false_rounds_as_numpy_on_the_host(kernel):
    host_only()
    x, y, z = inputs(41)
    np.testing.assert_array_equal(run(kernel, x, y, z), x * y + z)


def test_the_default_contracts_and_fmad_false_does_not_in_the_ir():
    assert "contract" in pydev.compile(fused, SIG, "host", "llvm")
    assert "contract" not in pydev.compile(rounded, SIG, "host", "llvm")
    assert "contract" not in pydev.compile(calls_rounded_func, SIG, "host", "llvm")


def fp_ops(ptx):
    return [line.split()[0] for line in ptx.splitlines() if line.strip().startswith(("fma.", "mul.", "add."))]


def test_ptx_has_an_fma_by_default_and_rounded_mul_add_with_fmad_false():
    # mul.rn/add.rn: ptxas fuses a plain mul.f32 + add.f32, never the .rn forms.
    assert "fma.rn.f32" in fp_ops(pydev.compile(fused, SIG, "sm_90", "ptx"))
    ops = fp_ops(pydev.compile(rounded, SIG, "sm_90", "ptx"))
    assert "mul.rn.f32" in ops and "add.rn.f32" in ops and not any(o.startswith("fma") for o in ops), ops
    # pydev.compile's fmad= overrides the kernel's own setting.
    ops = fp_ops(pydev.compile(fused, SIG, "sm_90", "ptx", fmad=False))
    assert "mul.rn.f32" in ops and not any(o.startswith("fma") for o in ops), ops


def program_text():
    from pydev import ir

    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")] * 4)
    i = k.global_id()
    out, x, y, z = k.args
    with k.if_(i < out.size):
        out[i] = x[i] * y[i] + z[i]
    return str(m)


def test_program_fmad_false_on_both_targets():
    text = program_text()
    with pytest.raises(TypeError, match="fmad must be True, False or None"):
        pydev.Program(text, fmad=0)
    ops = fp_ops(pydev.Program(text, fmad=False).compile("sm_90", "ptx"))
    assert "mul.rn.f32" in ops and not any(o.startswith("fma") for o in ops), ops
    assert any(o.startswith("fma") for o in fp_ops(pydev.Program(text).compile("sm_90", "ptx")))
    if pydev.active_target() == "host":
        x, y, z = inputs(42)
        np.testing.assert_array_equal(run(pydev.Program(text, fmad=False), x, y, z), x * y + z)


def test_numba_jit_fmad_false():
    host_only()
    from pydev.numba import cuda

    @cuda.jit(fmad=False)
    def k(out, x, y, z):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * y[i] + z[i]

    x, y, z = inputs(43)
    out = np.full(N, np.nan, np.float32)
    k[N // 128, 128](out, x, y, z)
    np.testing.assert_array_equal(out, x * y + z)
    with pytest.raises(TypeError, match="fmad"):
        cuda.jit(fmad="no")


def test_decorator_rejects_a_non_bool():
    with pytest.raises(TypeError, match="fmad=...\\) takes True or False"):

        @device.kernel(fmad=1)
        def k(out):
            out[0] = 1


def test_pydev_fmad_0_turns_contraction_off_for_a_process(tmp_path):
    host_only()
    script = tmp_path / "fmad_env.py"
    script.write_text(
        textwrap.dedent(
            """
            import numpy as np, pydev, cuda.device as device

            @device.kernel
            def k(out, x, y, z):
                i = device.tid(1)
                if i < out.size:
                    out[i] = x[i] * y[i] + z[i]

            rng = np.random.default_rng(44)
            x, y, z = (rng.standard_normal(4096).astype(np.float32) for _ in range(3))
            out = np.full(4096, np.nan, np.float32)
            device.launch(k, out, x, y, z, grid=32, block=128, stream=pydev.default_stream())
            assert np.array_equal(out, x * y + z), int((out != x * y + z).sum())
            assert "contract" not in pydev.compile(k, [out, x, y, z], "host", "llvm")
            print("ok")
            """
        )
    )
    env = dict(os.environ, PYDEV_FMAD="0", PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_fmad_false_rounds_as_numpy_on_a_gpu():
    from conftest import gpu_available

    if not gpu_available():
        pytest.skip("no CUDA driver or device")
    x, y, z = inputs(45)
    out = pydev.to_device(np.full(N, np.nan, np.float32))
    dx, dy, dz = (pydev.to_device(a) for a in (x, y, z))
    stream = pydev.default_stream()
    device.launch(rounded, out, dx, dy, dz, grid=N // 128, block=128, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(pydev.to_host(out), x * y + z)


FASTMATH_IR = """
module {
  func.func @k(%out: !pydev.array<f32, 1>, %x: !pydev.array<f32, 1>) attributes {pydev.kernel} {
    %i = pydev.constant 0 : si64
    %v = pydev.array_load %x[%i] : <f32, 1>, si64 -> f32
    %s = math.sin %v : f32
    %d = pydev.truediv %s, %v : f32, f32 -> f32
    pydev.array_store %d, %out[%i] : f32, <f32, 1>, si64
    return
  }
}"""


def test_fastmath_in_the_ptx():
    # What docs/backend.md says fastmath=True does, exactly: `/` becomes
    # div.approx; the math functions stay accurate and nothing flushes
    # denormals.
    from pydev import _toolchain

    if not _toolchain.libdevice():
        pytest.skip("math.sin on sm_XX needs libdevice")
    precise = pydev.Program(FASTMATH_IR).compile("sm_90", "ptx")
    fast = pydev.Program(FASTMATH_IR, fastmath=True).compile("sm_90", "ptx")
    assert "div.rn.f32" in precise and "div.approx" not in precise
    assert "div.approx.f32" in fast and "div.rn.f32" not in fast
    assert ".ftz" not in fast and "sin.approx" not in fast
