"""CuPy and PyTorch arrays in pydev kernels, with no copies: kernels take
any DLPack or CUDA Array Interface array, and launch on any stream object
with __cuda_stream__ (docs/performance.md has the launch costs).

On the host target PyTorch CPU tensors are device arrays (DLPack, device
CPU); CuPy needs a GPU. Each part skips, saying why, when its library (or
a GPU) is missing; with neither library the program exits 0.
Run: python3 examples/cupy_torch_interop.py
"""

import importlib.util
import math
import sys

import numpy as np

import cuda.device as device
import pydev


@device.kernel
def softplus_scale(out, x, k):
    i = device.tid(1)
    if i < out.size:
        v = x[i]
        # softplus(v) = log(1 + exp(v)), written so that exp never overflows
        out[i] = k * (max(v, 0.0) + math.log(1.0 + math.exp(-abs(v))))


class RawStream:
    """Any object with __cuda_stream__ (version 0, the CUstream handle) is a stream."""

    def __init__(self, handle):
        self.handle = int(handle)

    def __cuda_stream__(self):
        return (0, self.handle)


def expected(x, k):
    x = x.astype(np.float64)
    return (k * np.logaddexp(0.0, x)).astype(np.float32)


def check(name, got, want):
    good = not np.isnan(got).any() and np.allclose(got, want, rtol=1e-5, atol=1e-6)
    print(f"{'ok' if good else 'MISMATCH'}: {name}")
    return good


def with_torch(rng, target):
    import torch

    dev = "cuda" if target == "cuda" else "cpu"
    x = torch.from_numpy(rng.standard_normal(50_000).astype(np.float32)).to(dev)
    out = torch.full_like(x, float("nan"))  # NaN: unwritten shows
    if dev == "cuda":
        stream = RawStream(torch.cuda.current_stream().cuda_stream)  # PyTorch's own stream
    else:
        stream = pydev.default_stream()
    device.launch(softplus_scale, out, x, 1.5, grid=(x.numel() + 255) // 256, block=256, stream=stream)
    if dev == "cuda":
        torch.cuda.synchronize()
    else:
        stream.synchronize()
    ok = check(
        f"PyTorch {torch.__version__} tensors on {dev}, written in place",
        out.cpu().numpy(),
        expected(x.cpu().numpy(), 1.5),
    )
    back = torch.from_dlpack(pydev.to_device(out.cpu().numpy()))  # a pydev array into PyTorch (DLPack)
    return ok and check("a pydev.DeviceArray read by torch.from_dlpack", back.cpu().numpy(), out.cpu().numpy())


def with_cupy(rng):
    import cupy

    x = cupy.asarray(rng.standard_normal(50_000).astype(np.float32))
    out = cupy.full_like(x, cupy.nan)
    s = cupy.cuda.Stream(non_blocking=True)
    device.launch(softplus_scale, out, x, 0.5, grid=(x.size + 255) // 256, block=256, stream=RawStream(s.ptr))
    s.synchronize()
    ok = check(f"CuPy {cupy.__version__} arrays on a CuPy stream", cupy.asnumpy(out), expected(cupy.asnumpy(x), 0.5))
    y = cupy.asarray(pydev.to_device(cupy.asnumpy(out)))  # pydev -> CuPy through the CUDA Array Interface
    return ok and check("a pydev.DeviceArray read by cupy.asarray", cupy.asnumpy(y), cupy.asnumpy(out))


def main():
    rng = np.random.default_rng(3)
    target = pydev.active_target()
    ok, ran = True, 0
    if importlib.util.find_spec("torch") is None:
        print("skipped PyTorch: not installed (pip install torch)")
    else:
        ok &= with_torch(rng, target)
        ran += 1
    if importlib.util.find_spec("cupy") is None:
        print("skipped CuPy: not installed (pip install cupy-cuda12x)")
    elif target != "cuda":
        print("skipped CuPy: its arrays live on a GPU, and the active target is", target)
    else:
        ok &= with_cupy(rng)
        ran += 1
    print("cupy_torch_interop", ("ok" if ok else "FAILED") if ran else "skipped", "on", target)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
