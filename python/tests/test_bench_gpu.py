"""bench/gpu.py stays runnable where no GPU is: its --check compiles every
implementation of the typical kernels (pydev to PTX, the CUDA C++ with NVRTC
when installed, Numba's when installed) and runs pydev's on the host target
against the NumPy references the GPU run checks with."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_gpu_bench_check_mode():
    env = {k: v for k, v in os.environ.items() if k != "PYDEV_TARGET"}
    r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gpu.py"), "--check", "--log2n", "12"], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pydev: 8 kernels compile to PTX" in r.stdout
    for name in ("vector_add", "saxpy", "block_sum", "warp_sum", "histogram", "transpose", "stencil", "push"):
        assert f"host {name}: ok" in r.stdout, r.stdout
