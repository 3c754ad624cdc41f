"""bench/gpu.py stays runnable where no GPU is: its --check compiles every
implementation of the typical kernels (pydev to PTX, the CUDA C++ with NVRTC
when installed, Numba's when installed) and runs pydev's on the host target
against the NumPy references the GPU run checks with; its GPU path runs
through under the fake CUDA driver."""

import os
import subprocess
import sys

from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_gpu_bench_check_mode():
    env = {k: v for k, v in os.environ.items() if k != "PYDEV_TARGET"}
    r = subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench", "gpu.py"), "--check", "--log2n", "12"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pydev: 8 kernels compile to PTX" in r.stdout
    for name in ("vector_add", "saxpy", "block_sum", "warp_sum", "histogram", "transpose", "stencil", "push"):
        assert f"host {name}: ok" in r.stdout, r.stdout


def test_gpu_bench_runs_through_under_the_fake_driver(fake_driver):  # noqa: F811 - the fixture
    # The GPU path of the harness (pydev arrays and launches, the events,
    # the device copy, the table) against test/fakecuda. Its kernels do not
    # run, so every result check must fail: the checks are live.
    env = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH")}
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        [fake_driver] + [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    )
    r = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "bench", "gpu.py"),
            "--no-launch",
            "--log2n",
            "12",
            "--repeat",
            "2",
            "--trials",
            "1",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    names = ("vector_add", "saxpy", "block_sum", "warp_sum", "histogram", "transpose", "stencil", "push")
    for name in names:
        assert f"| {name} | " in r.stdout, r.stdout
    assert "WRONG RESULTS: " + ", ".join(f"pydev {n}" for n in names) in r.stdout, r.stdout
