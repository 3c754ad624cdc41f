"""Two frontends, one backend (docs/ARCHITECTURE.md, "Layers"): a
cuda.device kernel, a pydev.numba kernel and a pydev.Program compile
through the same stage check and launch through the same device.launch;
the backend's modules import no frontend."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev.numba import cuda

HERE = os.path.dirname(os.path.abspath(__file__))


@device.kernel
def saxpy_device(a, x, y, out):
    i = device.tid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def saxpy_numba(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit(device=True)
def numba_helper(v):
    return v + 1


SIG = "float32, float32[::1], float32[::1], float32[::1]"


@pytest.fixture
def rng():
    return np.random.default_rng(30)


def saxpy_program():
    return pydev.Program(pydev.compile(saxpy_device, SIG, target="host", stage="pydev"), kernel="saxpy_device")


def numba_argtypes():
    x = np.zeros(4, np.float32)
    return [np.float32(1.0), x, x, x]


def test_pydev_compile_takes_all_three(native):
    x = np.zeros(4, np.float32)
    for target, stage, marker in (("sm_90", "ptx", ".entry"), ("host", "llvm", "llvm.func")):
        assert marker in pydev.compile(saxpy_device, SIG, target=target, stage=stage)
        assert marker in pydev.compile(saxpy_numba, numba_argtypes(), target=target, stage=stage)
        assert marker in pydev.compile(saxpy_program(), None, target=target, stage=stage)
    # A Numba signature or Numba types name the specialization as example arguments do.
    by_sig = pydev.compile(saxpy_numba, "void(float32, float32[::1], float32[::1], float32[::1])", target="sm_90")
    assert by_sig == pydev.compile(saxpy_numba, numba_argtypes(), target="sm_90")
    # The kernel's default stage is the target's (ptx / llvm) for all three.
    assert ".entry" in pydev.compile(saxpy_numba, [np.float32(2), x, x, x])


@pytest.mark.parametrize("which", ["device", "numba", "program"])
def test_one_stage_check(native, which):
    f, argtypes = {
        "device": (saxpy_device, SIG),
        "numba": (saxpy_numba, numba_argtypes()),
        "program": (saxpy_program(), None),
    }[which]
    with pytest.raises(ValueError, match=r"target must be 'host' or 'sm_XX' \(e.g. 'sm_90'\), got 'gpu'"):
        pydev.compile(f, argtypes, target="gpu")
    with pytest.raises(ValueError, match="stage must be one of python-ast, pydev, .*, got 'sass'"):
        pydev.compile(f, argtypes, target="sm_90", stage="sass")
    with pytest.raises(ValueError, match="stage 'ptx' needs an sm_XX target, not 'host'"):
        pydev.compile(f, argtypes, target="host", stage="ptx")
    with pytest.raises(
        ValueError, match=r"stage 'cubin' needs an sm_XX target \(the host's linkable stage is 'object'\)"
    ):
        pydev.compile(f, argtypes, target="host", stage="cubin")


def test_compile_refuses_what_is_no_kernel(native):
    with pytest.raises(TypeError, match="a pydev.Program or a pydev.numba kernel, got <built-in function print>"):
        pydev.compile(print, SIG)
    with pytest.raises(TypeError, match="'numba_helper' is a device function"):
        pydev.compile(numba_helper, ["float32"], target="sm_90")
    with pytest.raises(TypeError, match="has its own signature"):
        pydev.compile(saxpy_program(), SIG)


@pytest.mark.parametrize("which", ["device", "numba", "program"])
def test_device_launch_takes_all_three(native, host_target, rng, which):
    f = {"device": saxpy_device, "numba": saxpy_numba, "program": saxpy_program()}[which]
    x, y = rng.random(3000, dtype=np.float32), rng.random(3000, dtype=np.float32)
    s = pydev.default_stream()
    for a in (2.5, -0.75, 3.0):  # the first launch compiles, the others hit the caches
        out = np.full_like(x, np.nan)
        device.launch(f, np.float32(a), x, y, out, grid=12, block=256, stream=s)
        s.synchronize()
        np.testing.assert_allclose(out, np.float32(a) * x + y, rtol=1e-6, atol=1e-6)  # fma: one rounding


def test_device_launch_refuses_a_numba_device_function(native, host_target):
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match="'numba_helper' is a device function"):
        device.launch(numba_helper, x, grid=1, block=1, stream=pydev.default_stream())


def test_the_backend_imports_no_frontend():
    """Every backend module imports (and launches a Program) without
    cuda.device or pydev.numba being imported."""
    code = textwrap.dedent(
        """
        import sys
        import pydev
        from pydev import _arrays, _c_types, _cache, _cudalink, _dlpack, _host_link, _interop, _launch, _link_paths, _native, _program
        from pydev import _stages, _streams, _toolchain, _types, ir
        bad = sorted(m for m in sys.modules if m == "cuda.device" or m.startswith("pydev.numba"))
        print(",".join(bad))
        """
    )
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], cwd=HERE, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", f"the backend imported a frontend: {r.stdout}"
