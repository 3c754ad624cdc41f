"""The package end to end on the host target: kernels compile on first
launch and run with CUDA semantics; fresh random inputs, poisoned outputs."""
import numpy as np
import pytest

pytest.importorskip("pydev._pydev")

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402

import kernels  # noqa: E402

RNG = np.random.default_rng(20261122)


@pytest.fixture(autouse=True)
def host(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "host")


def stream():
    return pydev.default_stream()


def test_vector_add():
    a, b = RNG.random(3000, dtype=np.float32), RNG.random(3000, dtype=np.float32)
    out = np.full(3000, np.nan, dtype=np.float32)
    device.launch(kernels.vector_add, out, a, b, grid=12, block=256, stream=stream())
    np.testing.assert_array_equal(out, a + b)


def test_saxpy_grid_stride_with_python_scalar():
    x, y = RNG.random(10000, dtype=np.float32), RNG.random(10000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.saxpy, 2.5, x, y, out, grid=8, block=128, stream=stream())
    np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)


def test_block_reduction_with_shared_memory():
    x = RNG.random(5000, dtype=np.float32)
    out = np.full(20, np.nan, dtype=np.float32)
    device.launch(kernels.block_sum, out, x, grid=20, block=256, stream=stream())
    np.testing.assert_allclose(out, np.pad(x, (0, 120)).reshape(20, 256).sum(1), rtol=1e-5)


def test_warp_shuffles():
    x = RNG.standard_normal(256).astype(np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.warp_max, out, x, grid=2, block=128, stream=stream())
    np.testing.assert_array_equal(out, np.repeat(x.reshape(-1, 32).max(1), 32))


def test_atomic_histogram():
    data = RNG.integers(0, 1 << 20, 20000, dtype=np.int32)
    bins = np.zeros(97, dtype=np.uint32)
    device.launch(kernels.histogram, bins, data, grid=(79, 1), block=(256, 1, 1), stream=stream())
    np.testing.assert_array_equal(bins, np.bincount(data % 97, minlength=97))


def test_arrays_of_structs_with_vectors():
    ps = np.zeros(500, dtype=kernels.Particle.dtype)
    ps["pos"] = RNG.random((500, 4), dtype=np.float32)
    ps["mass"] = RNG.random(500, dtype=np.float32)
    want = ps.copy()
    want["pos"][:, 0] += np.float32(0.5)
    want["pos"][:, 3] *= ps["mass"]
    device.launch(kernels.push, ps, np.float32(0.5), grid=2, block=256, stream=stream())
    np.testing.assert_allclose(ps["pos"], want["pos"])


def test_device_functions_and_numpy_scalars():
    x = RNG.random(100).astype(np.float64)
    out = np.full_like(x, np.nan)
    device.launch(kernels.scaled, out, x, np.float64(3.0), grid=1, block=128, stream=stream())
    np.testing.assert_allclose(out, 3 * x)
    assert kernels.scale(2.0, 4.0) == 8.0  # heterogeneous: plain Python on the host


def test_device_arrays_and_to_host():
    a = pydev.to_device(RNG.random(64, dtype=np.float32))
    b = pydev.to_device(RNG.random(64, dtype=np.float32))
    out = pydev.device_array(64, np.float32)
    device.launch(kernels.vector_add, out, a, b, grid=1, block=64, stream=stream())
    np.testing.assert_array_equal(out.copy_to_host(), a.copy_to_host() + b.copy_to_host())
    np.testing.assert_array_equal(pydev.to_host(out), out.copy_to_host())
    assert out.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(out), out.copy_to_host())


def test_second_launch_compiles_nothing():
    x = RNG.random(128, dtype=np.float32)
    out = np.empty_like(x)
    before = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=128, stream=stream())
    mid = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=128, stream=stream())
    after = pydev.stats()
    assert after["compiles"] == mid["compiles"]
    assert after["memory_hits"] == mid["memory_hits"] + 1
    assert mid["compiles"] - before["compiles"] <= 1


def test_disk_cache_survives_the_dispatch_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "disk"))
    x = RNG.random(32, dtype=np.float64)
    out = np.empty_like(x)
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=32, stream=stream())
    files = list((tmp_path / "disk").iterdir())
    assert len(files) == 1 and files[0].read_text().startswith("module")
    kernels.vector_add._dispatch.clear()
    before = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=32, stream=stream())
    after = pydev.stats()
    assert after["compiles"] == before["compiles"] and after["disk_hits"] == before["disk_hits"] + 1
    np.testing.assert_array_equal(out, 2 * x)


def test_cache_off(monkeypatch, tmp_path):
    monkeypatch.setenv("PYDEV_CACHE", "0")
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "off"))
    x = RNG.random(16, dtype=np.float32)
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, np.empty_like(x), x, x, grid=1, block=16, stream=stream())
    assert not (tmp_path / "off").exists()


def test_compile_every_stage():
    sig = "float32[::1], readonly float32[::1], readonly float32[::1]"
    assert "FunctionDef" in pydev.compile(kernels.vector_add, sig, stage="python-ast")
    assert "pydev.array_load" in pydev.compile(kernels.vector_add, sig, stage="pydev")
    assert "gpu.module" in pydev.compile(kernels.vector_add, sig, stage="pydev-opt")
    assert "llvm.func" in pydev.compile(kernels.vector_add, sig, target="host", stage="llvm")
    assert "define void @vector_add" in pydev.compile(kernels.vector_add, sig, target="host", stage="llvm-ir")
    ptx = pydev.compile(kernels.vector_add, sig, target="sm_80", stage="ptx")
    assert ".target sm_80" in ptx and ".visible .entry vector_add(" in ptx
    # Example arguments instead of a signature.
    x = np.zeros(4, np.float32)
    assert ".visible .entry vector_add(" in pydev.compile(kernels.vector_add, [x, x, x], target="sm_90", stage="ptx")


def test_compile_errors_carry_the_location():
    with pytest.raises(pydev.CompileError) as e:
        device.launch(kernels.returns_value, np.zeros(1), grid=1, block=1, stream=stream())
    msg = str(e.value)
    assert "kernels.py:" in msg and "return 1" in msg


def test_runtime_errors_name_the_kernel():
    a = np.full(64, 7, np.int32)
    b = np.ones(64, np.int32)
    b[9] = 0
    with pytest.raises(pydev.LaunchError, match="kernel 'divide' failed on the host: integer division by zero at .*kernels.py"):
        device.launch(kernels.divide, np.zeros(64, np.int32), a, b, grid=1, block=64, stream=stream())


def test_launch_argument_errors():
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match="stream"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=4, stream=None)
    with pytest.raises(TypeError, match="grid"):
        device.launch(kernels.vector_add, x, x, x, grid="big", block=4, stream=stream())
    with pytest.raises(TypeError, match="argument 1"):
        device.launch(kernels.vector_add, x, object(), x, grid=1, block=4, stream=stream())
    with pytest.raises(TypeError, match="launched with device.launch"):
        kernels.vector_add(x, x, x)


def test_active_target_and_streams(monkeypatch):
    assert pydev.active_target() == "host"
    s = pydev.create_stream()
    s.synchronize()
    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    if not pydev._native().cuda_status()[0]:
        with pytest.raises(pydev.TargetUnavailable, match="cuda target is unavailable"):
            pydev.active_target()


def test_print_in_device_code(capfd):
    x = np.array([0.5, 2.0, -1.25], np.float32)
    device.launch(kernels.shout, x, grid=1, block=3, stream=stream())
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == ["lane 0 holds 0.5", "lane 1 holds 2", "lane 2 holds -1.25"]


def test_disk_cache_is_safe_under_concurrent_processes(tmp_path):
    # Four processes compile the same kernel into one cache at once: all
    # run correctly and the cache holds one complete entry.
    import os
    import subprocess
    import sys

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, numpy as np, pydev, cuda.device as device\n"
        f"sys.path.insert(0, {os.path.dirname(kernels.__file__)!r})\n"
        "import kernels\n"
        "x = np.arange(64, dtype=np.float32)\n"
        "out = np.full(64, np.nan, np.float32)\n"
        "device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=pydev.default_stream())\n"
        "assert np.array_equal(out, 2 * x)\n"
    )
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "shared-cache"))
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    entries = [f for f in (tmp_path / "shared-cache").iterdir() if not f.name.startswith(".tmp")]
    assert len(entries) == 1 and entries[0].read_text().startswith("module")


def test_tuple_arguments_by_value():
    x = RNG.random(50, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.affine, out, x, (3, 0.25), grid=1, block=64, stream=stream())
    np.testing.assert_allclose(out, 3 * x + np.float32(0.25), rtol=1e-6)


def test_writing_a_read_only_array_is_a_compile_error():
    x = RNG.random(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    out.flags.writeable = False
    with pytest.raises(pydev.CompileError, match="read-only|readonly"):
        device.launch(kernels.vector_add, out, x, x, grid=1, block=8, stream=stream())
