"""bench/gpu.py stays runnable where no GPU is: its --check compiles every
implementation of the typical kernels (pydev to PTX, the CUDA C++ with NVRTC
when installed, Numba's when installed) and runs pydev's on the host target
against the NumPy references the GPU run checks with; its GPU path runs
through under the fake CUDA driver."""

import os
import subprocess
import sys
import textwrap

import pytest

from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TYPICAL = ("vector_add", "saxpy", "block_sum", "warp_sum", "histogram", "transpose", "stencil", "push")
COMPUTE_BOUND = ("nbody", "matmul", "mandelbrot", "softmax")


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
    assert "pydev: 12 kernels compile to PTX" in r.stdout
    for name in TYPICAL + COMPUTE_BOUND:
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
    names = TYPICAL + COMPUTE_BOUND
    for name in names:
        assert f"| {name} | " in r.stdout, r.stdout
    assert "WRONG RESULTS: " + ", ".join(f"pydev {n}" for n in names) in r.stdout, r.stdout


# Runs in its own process: test/gpu/kernels.py is not python/tests/kernels.py.
COMPUTE_BOUND_ON_THE_HOST = """
import importlib.util, os, sys
import numpy as np
os.environ["PYDEV_TARGET"] = "host"
sys.path[:0] = [os.path.join(ROOT, "test", "gpu"), os.path.join(ROOT, "bench")]
spec = importlib.util.spec_from_file_location("gpu_bench", os.path.join(ROOT, "bench", "gpu.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
import cuda.device as device
import kernels
import pydev

for c in bench.cases(12):
    if c["name"] not in NAMES:
        continue
    poisoned = {k: v.copy() for k, v in {**c["ins"], **c["outs"]}.items()}
    arrays = {k: pydev.to_device(v.copy()) for k, v in poisoned.items()}
    device.launch(
        getattr(kernels, c["name"]), *bench.pydev_args(c, arrays), grid=c["grid"], block=c["block"],
        stream=pydev.default_stream(),
    )
    pydev.default_stream().synchronize()
    for k, want in c["ref"]().items():
        got = np.asarray(pydev.to_host(arrays[k]))
        # the check is live: the poisoned output does not pass it
        print(c["name"], bench.close(c, k, got, want), not bench.close(c, k, poisoned[k], want))
"""


@pytest.mark.parametrize("name", COMPUTE_BOUND)
def test_compute_bound_kernels_match_numpy_on_the_host(name, tmp_path):
    """bench/gpu.py's n-body, tiled matrix multiply, Mandelbrot and row
    softmax (test/gpu/kernels.py) on the host target at small sizes, with the
    harness's own references and checks (its CUDA C++ compiles under NVRTC in
    the --check test above; it runs, with Numba-CUDA's, only on a GPU)."""
    pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")
    script = f"ROOT = {ROOT!r}\nNAMES = {(name,)!r}\n" + textwrap.dedent(COMPUTE_BOUND_ON_THE_HOST)
    env = dict(os.environ, PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [name, "True", "True"], r.stdout
