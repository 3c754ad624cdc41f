"""The package end to end on the host target: kernels compile on first
launch and run with CUDA semantics. Fresh random inputs, poisoned outputs.
Skipped where the native module is not built."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _cache

import kernels
from generated_kernels import distinct_kernels

SEED = 20261122


@pytest.fixture(autouse=True)
def _host(native, host_target):
    pass


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def stream():
    return pydev.default_stream()


def test_vector_add(rng):
    a, b = rng.random(3000, dtype=np.float32), rng.random(3000, dtype=np.float32)
    out = np.full(3000, np.nan, dtype=np.float32)
    device.launch(kernels.vector_add, out, a, b, grid=12, block=256, stream=stream())
    np.testing.assert_array_equal(out, a + b)


def test_saxpy_grid_stride_with_python_scalar(rng):
    x, y = rng.random(10000, dtype=np.float32), rng.random(10000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.saxpy, 2.5, x, y, out, grid=8, block=128, stream=stream())
    np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)


def test_block_reduction_with_shared_memory_and_syncthreads(rng):
    x = rng.random(5000, dtype=np.float32)
    out = np.full(20, np.nan, dtype=np.float32)
    device.launch(kernels.block_sum, out, x, grid=20, block=256, stream=stream())
    np.testing.assert_allclose(out, np.pad(x, (0, 120)).reshape(20, 256).sum(1), rtol=1e-5)


def test_warp_shuffle_reductions(rng):
    x = rng.standard_normal(256).astype(np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.warp_max, out, x, grid=2, block=128, stream=stream())
    np.testing.assert_array_equal(out, np.repeat(x.reshape(-1, 32).max(1), 32))
    sums = np.full(8, np.nan, np.float32)
    device.launch(kernels.warp_sum, sums, x, grid=2, block=128, stream=stream())
    np.testing.assert_allclose(sums, x.reshape(8, 32).sum(1), rtol=1e-5, atol=1e-5)


def test_atomic_histogram(rng):
    data = rng.integers(0, 1 << 20, 20000, dtype=np.int32)
    bins = np.zeros(97, dtype=np.uint32)
    device.launch(kernels.histogram, bins, data, grid=(79, 1), block=(256, 1, 1), stream=stream())
    np.testing.assert_array_equal(bins, np.bincount(data % 97, minlength=97))


def test_arrays_of_structs_with_vectors(rng):
    ps = np.zeros(500, dtype=kernels.Particle.dtype)
    ps["pos"] = rng.random((500, 4), dtype=np.float32)
    ps["mass"] = rng.random(500, dtype=np.float32)
    want = ps.copy()
    want["pos"][:, 0] += np.float32(0.5)
    want["pos"][:, 3] *= ps["mass"]
    device.launch(kernels.push, ps, np.float32(0.5), grid=2, block=256, stream=stream())
    np.testing.assert_allclose(ps["pos"], want["pos"])


def test_structs_and_vectors_by_value(rng):
    pos = rng.random(4, dtype=np.float32)
    p = kernels.Particle(device.float32x4(*pos), 2.0)
    out = np.full(40, np.nan, np.float32)
    device.launch(kernels.weigh, out, p, device.float32x2(0.5, 1.25), grid=1, block=64, stream=stream())
    np.testing.assert_allclose(out, np.float32(pos.sum() * 2 * 0.5 + 1.25), rtol=1e-6)


def test_device_functions_and_numpy_scalars(rng):
    x = rng.random(100)
    out = np.full_like(x, np.nan)
    device.launch(kernels.scaled, out, x, np.float64(3.0), grid=1, block=128, stream=stream())
    np.testing.assert_allclose(out, 3 * x)


def test_tuple_arguments_by_value(rng):
    x = rng.random(50, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.affine, out, x, (3, 0.25), grid=1, block=64, stream=stream())
    np.testing.assert_allclose(out, 3 * x + np.float32(0.25), rtol=1e-6)


def test_layouts_c_fortran_and_strided(rng):
    m = rng.random((37, 21))
    for src in (m, np.asfortranarray(m), m[::2, ::-3], m.T.copy().T):
        out = np.full((src.shape[1], src.shape[0]), np.nan)
        device.launch(kernels.transpose2d, out, src, grid=(3, 3), block=(16, 16), stream=stream())
        np.testing.assert_array_equal(out, src.T)


def test_dlpack_producers_and_device_arrays(rng):
    class Producer:  # DLPack only
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None, max_version=None):
            if max_version is None:
                return self.a.__dlpack__(stream=stream)
            return self.a.__dlpack__(stream=stream, max_version=max_version)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = rng.random(64, dtype=np.float32)
    b = pydev.to_device(rng.random(64, dtype=np.float32))
    out = pydev.device_array(64, np.float32)
    device.launch(kernels.vector_add, out, Producer(a), b, grid=1, block=64, stream=stream())
    np.testing.assert_array_equal(out.copy_to_host(), a + b.copy_to_host())
    np.testing.assert_array_equal(pydev.to_host(out), out.copy_to_host())
    np.testing.assert_array_equal(np.from_dlpack(out), out.copy_to_host())


def test_to_device_keeps_fortran_order(rng):
    # As CuPy and Numba: the DeviceArray of a Fortran-ordered array has its
    # strides, and its copies and exports give them back with the values.
    h = np.asfortranarray(rng.random((7, 5)))
    d = pydev.to_device(h)
    assert d.shape == (7, 5) and d.strides == h.strides == (8, 56), d.strides
    assert d.__array_interface__["strides"] == (8, 56)
    for back in (
        d.copy_to_host(),
        pydev.to_host(d),
        np.asarray(d),
        np.from_dlpack(d),
        pydev.to_device(d).copy_to_host(),
    ):
        assert back.flags.f_contiguous and back.strides == h.strides, back.strides
        np.testing.assert_array_equal(back, h)
    assert np.shares_memory(np.from_dlpack(d), np.asarray(d)) and not np.shares_memory(np.asarray(d), h)
    # Kernels read (and write) its elements through those strides.
    out = np.full((5, 7), np.nan)
    device.launch(kernels.transpose2d, out, d, grid=1, block=(8, 8), stream=stream())
    stream().synchronize()
    np.testing.assert_array_equal(out, h.T)
    t = pydev.to_device(np.asfortranarray(np.full((5, 7), np.nan)))
    device.launch(kernels.transpose2d, t, d, grid=1, block=(8, 8), stream=stream())
    stream().synchronize()
    back = t.copy_to_host()
    assert back.flags.f_contiguous
    np.testing.assert_array_equal(back, h.T)
    # A strided view is copied compactly in the order of its strides.
    for v in (h[1:, ::2], h.T[::-1], rng.random((4, 6, 5)).transpose(2, 0, 1)[:, ::2]):
        dv = pydev.to_device(v)
        assert dv.strides == np.array(v, order="K").strides, (v.strides, dv.strides)
        np.testing.assert_array_equal(dv.copy_to_host(), v)
    # The copy is a copy.
    h[0, 0] = -1.0
    assert d.copy_to_host()[0, 0] != -1.0


def test_target_inside_a_kernel():
    out = np.zeros(1, np.int32)
    device.launch(kernels.on_host, out, grid=1, block=1, stream=stream())
    assert out[0] == 1


def test_module_constants(rng):
    x = rng.random(10, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.times_global, out, x, grid=1, block=32, stream=stream())
    np.testing.assert_allclose(out, 3 * x)


def test_a_kernel_compiles_through_its_program_in_one_native_call(rng, monkeypatch):
    """A kernel's first compile makes the pydev.Program of its
    specialization (cuda/device/_kernel.py), which compiles straight from
    the source: the frontend's IR is neither printed nor parsed again. The
    Program's `text`, printed when asked for, is the IR with its Python
    locations, and a Program made of it computes the same."""
    monkeypatch.setenv("PYDEV_CACHE", "0")
    x = rng.random(64, dtype=np.float32)
    out = np.full_like(x, np.nan)
    kernels.vector_add._dispatch.clear()
    before = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=stream())
    after = pydev.stats()
    np.testing.assert_array_equal(out, 2 * x)
    assert after["compiles"] - before["compiles"] == 1
    assert after["native_compiles"] - before["native_compiles"] == 1, (before, after)
    sig = "float32[::1], float32[::1], float32[::1]"
    spec = kernels.vector_add._specialize(
        sig, "host", "host", kernels.vector_add._consts(), kernels.vector_add._program(())[0]
    )
    assert spec._text is None
    assert "kernels.py" in spec.text and "pydev.kernel" in spec.text
    again = np.full_like(x, np.nan)
    device.launch(pydev.Program(spec.text, spec.kernel), again, x, x, grid=1, block=64, stream=stream())
    np.testing.assert_array_equal(again, out)


def test_second_launch_compiles_nothing(rng):
    x = rng.random(128, dtype=np.float32)
    out = np.full_like(x, np.nan)
    kernels.vector_add._dispatch.clear()
    before = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=128, stream=stream())
    mid = pydev.stats()
    out[:] = np.nan
    device.launch(kernels.vector_add, out, x, x, grid=1, block=128, stream=stream())
    after = pydev.stats()
    np.testing.assert_array_equal(out, 2 * x)
    assert mid["compiles"] == before["compiles"] + 1
    assert after["compiles"] == mid["compiles"] and after["memory_hits"] == mid["memory_hits"] + 1
    assert after["native_compiles"] == mid["native_compiles"] and after["launches"] == mid["launches"] + 1


def test_disk_cache_survives_the_dispatch_cache(rng):
    x = rng.random(32)
    out = np.full_like(x, np.nan)
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=32, stream=stream())
    entries = _cache.entries()
    assert len(entries) == 1
    assert "llvm.func" in _cache.load(os.path.basename(entries[0])[:-4])
    kernels.vector_add._dispatch.clear()
    before = pydev.stats()
    out[:] = np.nan
    device.launch(kernels.vector_add, out, x, x, grid=1, block=32, stream=stream())
    after = pydev.stats()
    assert after["compiles"] == before["compiles"] and after["disk_hits"] == before["disk_hits"] + 1
    np.testing.assert_array_equal(out, 2 * x)


def test_cache_off(monkeypatch, tmp_path, rng):
    monkeypatch.setenv("PYDEV_CACHE", "0")
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "off"))
    x = rng.random(16, dtype=np.float32)
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, np.empty_like(x), x, x, grid=1, block=16, stream=stream())
    assert not (tmp_path / "off").exists()


def test_disk_cache_is_safe_under_concurrent_processes(tmp_path):
    # Four processes compile the same kernel into one cache at once: all
    # run correctly and the cache holds one complete entry.
    import pydev as pkg

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, numpy as np\n"
        f"sys.path[:0] = [{os.path.dirname(os.path.dirname(pkg.__file__))!r}, {os.path.dirname(kernels.__file__)!r}]\n"
        "import pydev, cuda.device as device, kernels\n"
        "x = np.random.default_rng().random(64, dtype=np.float32)\n"
        "out = np.full(64, np.nan, np.float32)\n"
        "device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=pydev.default_stream())\n"
        "assert np.array_equal(out, 2 * x)\n"
    )
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "shared-cache"))
    procs = [
        subprocess.Popen([sys.executable, str(script)], env=env, stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    os.environ["PYDEV_CACHE_DIR"] = str(tmp_path / "shared-cache")
    entries = _cache.entries()
    assert len(entries) == 1 and "llvm.func" in _cache.load(os.path.basename(entries[0])[:-4])


def test_compile_every_stage():
    sig = "float32[::1], readonly float32[::1], readonly float32[::1]"
    assert "FunctionDef" in pydev.compile(kernels.vector_add, sig, stage="python-ast")
    assert "pydev.array_load" in pydev.compile(kernels.vector_add, sig, stage="pydev")
    assert "gpu.module" in pydev.compile(kernels.vector_add, sig, stage="pydev-opt")
    assert "llvm.func" in pydev.compile(kernels.vector_add, sig, target="host", stage="llvm")
    assert "define void @vector_add" in pydev.compile(kernels.vector_add, sig, target="host", stage="llvm-ir")
    ptx = pydev.compile(kernels.vector_add, sig, target="sm_80", stage="ptx")
    assert ".target sm_80" in ptx and ".visible .entry vector_add(" in ptx
    x = np.zeros(4, np.float32)
    assert ".visible .entry vector_add(" in pydev.compile(kernels.vector_add, [x, x, x], target="sm_90")
    assert "llvm.func" in pydev.compile(kernels.vector_add, [x, x, x], target="host")


def _location(needle):
    with open(kernels.__file__) as f:
        for n, line in enumerate(f, 1):
            if needle in line:
                return n, line.index(needle) + 1
    raise AssertionError(needle)


def test_kernel_returning_a_value_is_a_compile_error():
    with pytest.raises(pydev.CompileError) as e:
        device.launch(kernels.returns_value, np.zeros(1), grid=1, block=1, stream=stream())
    line, col = _location("return 1")
    msg = str(e.value)
    assert f"kernels.py:{line}:{col}: error:" in msg and "return 1" in msg


def test_wrong_argument_count_is_a_type_error_before_compiling():
    x = np.zeros(4, np.float32)
    before = pydev.stats()["compiles"]
    with pytest.raises(TypeError, match=r"kernel 'vector_add' takes 3 arguments \(out, a, b\), got 2"):
        device.launch(kernels.vector_add, x, x, grid=1, block=4, stream=stream())
    with pytest.raises(TypeError, match=r"takes 3 arguments \(out, a, b\), got 4"):
        device.launch(kernels.vector_add, x, x, x, x, grid=1, block=4, stream=stream())
    assert pydev.stats()["compiles"] == before


def test_unsupported_chip_is_a_value_error():
    with pytest.raises(ValueError, match=r"unknown target 'sm_60': expected host or one of sm_70, .*sm_121"):
        pydev.compile(kernels.vector_add, "float32[::1], float32[::1], float32[::1]", target="sm_60", stage="ptx")


def test_compile_errors_carry_file_line_col():
    with pytest.raises(pydev.CompileError) as e:
        device.launch(kernels.undefined_name, np.zeros(1), grid=1, block=1, stream=stream())
    line, col = _location("NOT_DEFINED_ANYWHERE")
    msg = str(e.value)
    assert f"{kernels.__file__}:{line}:{col}: error:" in msg and "NOT_DEFINED_ANYWHERE" in msg.splitlines()[0]
    assert "out[0] = NOT_DEFINED_ANYWHERE" in msg


def test_writing_a_read_only_array_is_a_compile_error(rng):
    x = rng.random(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    out.flags.writeable = False
    with pytest.raises(pydev.CompileError, match="read-only|readonly"):
        device.launch(kernels.vector_add, out, x, x, grid=1, block=8, stream=stream())


def test_runtime_errors_name_the_kernel():
    a = np.full(64, 7, np.int32)
    b = np.ones(64, np.int32)
    b[9] = 0
    with pytest.raises(pydev.LaunchError, match="divide"):
        device.launch(kernels.divide, np.zeros(64, np.int32), a, b, grid=1, block=64, stream=stream())


def test_print_in_device_code(capfd):
    x = np.array([0.5, 2.0, -1.25], np.float32)
    device.launch(kernels.shout, x, grid=1, block=3, stream=stream())
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == ["lane 0 holds 0.5", "lane 1 holds 2", "lane 2 holds -1.25"]


def test_streams_on_the_host(rng):
    s = pydev.create_stream()
    x = rng.random(64, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, 2 * x)

    class CoreLikeStream:  # any __cuda_stream__ object is accepted
        def __cuda_stream__(self):
            return (0, 0)

    out[:] = np.nan
    device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=CoreLikeStream())
    np.testing.assert_array_equal(out, 2 * x)


def test_bounds_checks_are_part_of_the_cache_key(monkeypatch, tmp_path):
    # A build without bounds checks must not serve PYDEV_BOUNDSCHECK=1.
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "bc"))
    out = np.zeros(40, np.int32)
    big = np.zeros(64, np.int32)
    device.launch(kernels.overrun, big, grid=1, block=64, stream=pydev.default_stream())
    kernels.overrun._dispatch.clear() if hasattr(kernels.overrun, "_dispatch") else None
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    with pytest.raises(
        pydev.LaunchError, match=r"index 40 is out of bounds for an axis of extent 40 at .*kernels.py:\d+"
    ):
        device.launch(kernels.overrun, out, grid=1, block=64, stream=pydev.default_stream())


def test_repeated_launches_take_the_fast_path_and_stay_correct(rng):
    # After the first launch, launches with arguments of the same types skip
    # protocol parsing: each must still read its own arrays and scalars.
    n = 1000
    before = pydev.stats()
    for k in range(5):
        x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        out = np.full(n, np.nan, dtype=np.float32)
        a = float(rng.uniform(-4, 4))
        device.launch(kernels.saxpy, a, x, y, out, grid=4, block=256, stream=stream())
        np.testing.assert_allclose(out, np.float32(a) * x + y, rtol=1e-6, atol=1e-6)  # fma contracts
    after = pydev.stats()
    assert after["launches"] == before["launches"] + 5
    assert after["compiles"] <= before["compiles"] + 1
    # Another layout is another key: a strided view gets its own program.
    big = rng.random(2 * n, dtype=np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    device.launch(kernels.saxpy, 2.0, big[::2], y, out, grid=4, block=256, stream=stream())
    np.testing.assert_allclose(out, 2 * big[::2] + y, rtol=1e-6, atol=1e-6)
    # NumPy scalars and bools pack by their own type on the fast path.
    for k in range(3):
        x64 = rng.random(100)
        out64 = np.full_like(x64, np.nan)
        f = np.float64(rng.uniform(-2, 2))
        device.launch(kernels.scaled, out64, x64, f, grid=1, block=128, stream=stream())
        np.testing.assert_allclose(out64, f * x64)
    # A read-only array is another key too (and works).
    ro = x.copy()
    ro.flags.writeable = False
    out = np.full(n, np.nan, dtype=np.float32)
    device.launch(kernels.vector_add, out, ro, y, grid=4, block=256, stream=stream())
    np.testing.assert_array_equal(out, ro + y)


def test_fast_path_checks_ints_and_constants(rng, monkeypatch):
    x = rng.random(16, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(kernels.scaled, out, x, 2, grid=1, block=32, stream=stream())
    np.testing.assert_allclose(out, x * 2)
    # An int that does not fit in int32 still says so on the fast path's key.
    with pytest.raises(OverflowError, match="argument 2: the Python int 4294967296 does not fit in int32"):
        device.launch(kernels.scaled, out, x, 1 << 32, grid=1, block=32, stream=stream())
    # A module constant changed after the first launch: the kernel recompiles.
    device.launch(kernels.times_global, out, x, grid=1, block=32, stream=stream())
    np.testing.assert_allclose(out, 3 * x)
    monkeypatch.setattr(kernels, "SCALE", 5)
    out[:] = np.nan
    device.launch(kernels.times_global, out, x, grid=1, block=32, stream=stream())
    np.testing.assert_allclose(out, 5 * x)
    # Bad launch configurations are still errors after a fast launch.
    with pytest.raises(ValueError, match="grid must be positive"):
        device.launch(kernels.times_global, out, x, grid=0, block=32, stream=stream())
    with pytest.raises(TypeError, match="stream must be"):
        device.launch(kernels.times_global, out, x, grid=1, block=32, stream=None)


@device.kernel
def _local_across_rendezvous(x, out):
    t = device.thread_idx.x
    i = device.tid(1)
    loc = device.local_array((2, 3), device.float32)
    for j in range(3):
        loc[0, j] = x[i] * (j + 1)
        loc[1, j] = x[i] - j
    device.syncthreads()
    s = loc[0, 0] + loc[0, 1] + loc[0, 2] - loc[1, 2]
    # A warp operation is a rendezvous too: the array outlives it.
    s += device.shfl_xor_sync(0xFFFFFFFF, loc[1, 0], 1)
    out[i] = s + loc[1, 1] * t


def test_local_arrays_survive_barriers_and_warp_operations(rng):
    # Host regression: barrier fission splits the kernel at each rendezvous;
    # a local array's memory must live in the thread's frame, including
    # when only its descriptor (not its pointer) crosses the rendezvous.
    x = rng.standard_normal(256).astype(np.float32)
    out = np.full(256, np.nan, np.float32)
    device.launch(_local_across_rendezvous, x, out, grid=2, block=128, stream=stream())
    stream().synchronize()
    t = np.arange(256) % 128
    partner = x.reshape(-1, 2)[:, ::-1].reshape(-1)
    expected = x * 6 - (x - 2) + partner + (x - 1) * t
    np.testing.assert_allclose(out, expected.astype(np.float32), rtol=1e-5, atol=1e-5)


def test_collected_kernels_release_their_programs(rng):
    # A kernel's fast-path table holds its module's globals, which hold the
    # kernel: the cycle goes through a native object, which must show it to
    # the cycle collector or every collected kernel keeps its JIT code.
    import gc
    import linecache
    import weakref

    name = "<pydev-test-collected-kernel>"
    text = "import cuda.device as device\n\n@device.kernel\ndef scale(a):\n    i = device.tid(1)\n    if i < a.size:\n        a[i] = a[i] * 3.0\n"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    module = {}
    exec(compile(text, name, "exec"), module)
    k = module["scale"]
    x = rng.standard_normal(100).astype(np.float32)
    a = x.copy()
    for _ in range(2):  # the second launch takes the fast path
        device.launch(k, a, grid=1, block=128, stream=stream())
    stream().synchronize()
    np.testing.assert_allclose(a, x * 9, rtol=1e-6)
    assert k._dispatch, "the kernel has loaded programs"
    ref = weakref.ref(k)
    del k, module
    gc.collect()
    assert ref() is None, f"the kernel is still referenced by {[type(r).__name__ for r in gc.get_referrers(ref())]}"


def test_a_live_kernel_costs_under_100_kb(monkeypatch, rng):
    # Every host program is a JITDylib of one process-wide LLJIT: its code and
    # symbols, not a JIT, target machine and LLVM context of its own (which
    # cost 870 KB a kernel).
    import gc

    monkeypatch.setenv("PYDEV_CACHE", "0")

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    x = rng.standard_normal(64).astype(np.float32)
    live = []
    for k in distinct_kernels(10, "warm"):  # the first kernels build the JIT
        device.launch(k, x.copy(), grid=1, block=64, stream=stream())
        live.append(k)
    gc.collect()
    before = rss()
    n = 80
    for i, k in enumerate(distinct_kernels(n, "live")):
        a = x.copy()
        device.launch(k, a, grid=1, block=64, stream=stream())
        np.testing.assert_array_equal(a, x + np.float32(i))
        live.append(k)
    gc.collect()
    per_kernel = (rss() - before) / n
    assert per_kernel < 100 * 1024, f"{per_kernel / 1024:.0f} KB per live kernel"


def stats_of_two_processes(script, tmp_path):
    """pydev.stats() of two runs of `script` in new processes sharing one
    disk cache (host target; the script prints them last)."""
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYDEV_CACHE", None)
    runs = []
    for _ in range(2):
        r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    return runs


def test_a_new_process_runs_no_llvm_for_a_cached_program(tmp_path):
    # A pydev.Program uses the disk cache as kernels do (issue 35 item 2):
    # in a new process its compiled text and host image come from the
    # cache; only its IR is parsed and verified (one MLIR context), as
    # Program() promises.
    script = tmp_path / "run.py"
    script.write_text(
        "import json, numpy as np\n"
        "import pydev, cuda.device as device\n"
        "from pydev import ir\n"
        "m = ir.Module()\n"
        "k = m.kernel('k', [ir.array(ir.f32, 1, 'c'), ir.array(ir.f32, 1, 'c')])\n"
        "i = k.global_id()\n"
        "with k.if_(i < k.args[0].size):\n"
        "    k.args[0][i] = k.args[1][i] * k.constant(3.0, ir.f32)\n"
        "x = np.random.default_rng(6).random(64, dtype=np.float32)\n"
        "out = np.full(64, np.nan, np.float32)\n"
        "device.launch(pydev.Program(m), out, x, grid=1, block=64, stream=pydev.default_stream())\n"
        "assert np.array_equal(out, np.float32(3) * x)\n"
        "print(json.dumps(pydev.stats()))\n"
    )
    first, second = stats_of_two_processes(script, tmp_path)
    assert first["compiles"] == 1 and first["jit_compiles"] == 1, first
    assert second["compiles"] == 0 and second["disk_hits"] == 1 and second["jit_compiles"] == 0, second


def test_a_new_process_runs_no_llvm_for_a_cached_host_kernel(tmp_path):
    # The disk cache keeps each host kernel's image (object code and the
    # module's metadata) beside its text, keyed with the CPU it was compiled
    # for: a new process only links it, with no MLIR context and no LLVM.
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, json, numpy as np\n"
        f"sys.path.insert(0, {os.path.dirname(kernels.__file__)!r})\n"
        "import pydev, cuda.device as device, kernels\n"
        "x = np.random.default_rng(5).random(64, dtype=np.float32)\n"
        "out = np.full(64, np.nan, np.float32)\n"
        "device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=pydev.default_stream())\n"
        "assert np.array_equal(out, 2 * x)\n"
        "print(json.dumps(pydev.stats()))\n"
    )
    first, second = stats_of_two_processes(script, tmp_path)
    assert first["compiles"] == 1 and first["jit_compiles"] == 1, first
    assert second["compiles"] == 0 and second["disk_hits"] == 1 and second["jit_compiles"] == 0, second
    assert first["mlir_contexts"] >= 1 and second["mlir_contexts"] == 0, second
    objects = [f for _, _, fs in os.walk(tmp_path / "cache") for f in fs if f.endswith(".image")]
    assert len(objects) == 1, objects
