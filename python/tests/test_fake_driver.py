"""The native cuda path (cudarc, PTX loading with its JIT log, device memory,
streams, parameter packing and the launch fast path) against test/fakecuda,
a stand-in libcuda.so that records what each launch hands the driver, so it
runs without a GPU. Kernels do not run there: test_gpu.py runs them.

Each test runs a script in a fresh process with the fake on
LD_LIBRARY_PATH, since a process loads its driver once."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "test", "fakecuda", "fakecuda.c")

PRELUDE = """
import gc, struct
import numpy as np
import cuda.device as device
import pydev
from pydev import _native
import fakecuda, kernels
rng = np.random.default_rng(7)
def fast():
    return pydev.stats()["fast_launches"]
"""


@pytest.fixture(scope="session")
def fake_driver(tmp_path_factory):
    pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")
    cc = shutil.which("gcc") or shutil.which("cc")
    assert cc, "building the fake CUDA driver needs a C compiler (gcc)"
    out = tmp_path_factory.mktemp("fakecuda")
    subprocess.run(
        [cc, "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", str(out / "libcuda.so"), SOURCE], check=True
    )
    return str(out)


def prepend(path, search_path):
    """`path` first in a search path like $PYTHONPATH (None or "": unset)."""
    return os.pathsep.join([path] + [p for p in (search_path or "").split(os.pathsep) if p and p != path])


@pytest.fixture
def run(fake_driver, tmp_path):
    def run(code, **env):
        # This environment plus the fake driver and the tests' modules first
        # (PYTHONPATH kept: pydev may be found through it).
        e = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH", "PYDEV_CACHE")}
        e.update(
            LD_LIBRARY_PATH=prepend(fake_driver, e.get("LD_LIBRARY_PATH")),
            PYTHONPATH=prepend(HERE, e.get("PYTHONPATH")),
            PYDEV_CACHE_DIR=str(tmp_path / "cache"),
            PYTHONUNBUFFERED="1",
        )
        e.update(env)
        r = subprocess.run(
            [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
            cwd=HERE,
            env=e,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 0, f"the script failed:\n{r.stdout}\n{r.stderr}"
        return r.stdout

    return run


def test_the_fake_driver_makes_cuda_the_active_target(run):
    run("""
        assert pydev.active_target() == "cuda"
        from pydev import _launch
        assert _launch.cuda_arch() == "sm_90"  # compute capability 9.0, from the driver
        s, t = pydev.create_stream(), pydev.create_stream()
        assert s.target == "cuda" and s.handle not in (0, t.handle)
        assert pydev.default_stream().handle == 0
    """)


def test_no_device_is_reported_not_hidden(run):
    run(
        """
        assert pydev.active_target() == "host"
        import os
        os.environ["PYDEV_TARGET"] = "cuda"
        try:
            pydev.active_target()
        except pydev.TargetUnavailable as e:
            assert "no device" in str(e), e
        else:
            raise AssertionError("PYDEV_TARGET=cuda without a device must raise")
    """,
        FAKECUDA_NO_DEVICE="1",
    )


def test_launches_pack_what_the_ptx_declares(run):
    run("""
        n = 1000
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        y = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        s = pydev.create_stream()
        device.launch(kernels.saxpy, 2.5, x, y, out, grid=(4, 2), block=(128, 2), stream=s, shared=64)
        [l] = fakecuda.launches()
        assert (l.kernel, l.grid, l.block, l.shared, l.stream) == ("saxpy", (4, 2, 1), (128, 2, 1), 64, s.handle), vars(l)
        # a float32, then {T* data; u64 shape[1]; i64 strides[1]} per array
        assert l.sizes == [4, 24, 24, 24], l.sizes
        assert struct.unpack("<f", l.params[0]) == (2.5,)
        for i, arr in ((1, x), (2, y), (3, out)):
            assert l.descriptor(i) == (arr._ptr, (n,), (1,)), (i, l.descriptor(i))

        # a 2-d array, and a struct, a vector and a tuple by value
        m = pydev.to_device(rng.random((3, 5), dtype=np.float32))
        t = pydev.device_array((5, 3), np.float32)
        device.launch(kernels.transpose2d, t, m, grid=1, block=(8, 8), stream=s)
        l = fakecuda.launches()[-1]
        assert l.sizes == [40, 40] and l.descriptor(1) == (m._ptr, (3, 5), (5, 1)), l.descriptor(1)
        w = pydev.device_array(40, np.float32)
        p = kernels.Particle(device.float32x4(1.0, 2.0, 3.0, 4.0), 2.0)
        device.launch(kernels.weigh, w, p, device.float32x2(0.5, 1.25), grid=1, block=64, stream=s)
        l = fakecuda.launches()[-1]
        assert l.sizes == [24, 32, 8], l.sizes  # Particle is {float4 pos; float mass} padded to 32
        assert struct.unpack("<4ff", l.params[1][:20]) == (1.0, 2.0, 3.0, 4.0, 2.0)
        assert struct.unpack("<2f", l.params[2]) == (0.5, 1.25)
        a = pydev.to_device(rng.random(50, dtype=np.float32))
        b = pydev.device_array(50, np.float32)
        device.launch(kernels.affine, b, a, (2.0, -1.0), grid=1, block=64, stream=s)
        l = fakecuda.launches()[-1]
        assert l.kernel == "affine" and len(l.sizes) == 3, vars(l)
    """)


def test_device_memory_round_trips_and_is_freed(run):
    run("""
        before = fakecuda.live_allocations()
        for dtype in (np.float32, np.int64, np.uint8, np.complex128):
            h = (rng.random((7, 9)) * 100).astype(dtype)
            d = pydev.to_device(h)
            assert d.shape == (7, 9) and d.dtype == np.dtype(dtype)
            assert np.array_equal(d.copy_to_host(), h)
        e = pydev.device_array(0, np.float32)
        assert e.copy_to_host().shape == (0,)
        u = pydev.device_array(16, np.uint8)  # fresh memory is not zeros (the fake poisons it)
        assert (u.copy_to_host() == 0xAB).all()
        del d, e, u
        gc.collect()
        assert fakecuda.live_allocations() == before, fakecuda.live_allocations()
    """)


def test_to_device_keeps_fortran_order_and_strided_views_compact(run):
    run("""
        from pydev import _arrays
        before = fakecuda.live_allocations()
        s = pydev.create_stream()
        h = np.asfortranarray(rng.random((7, 5), dtype=np.float32))
        d = pydev.to_device(h)
        assert d.shape == (7, 5) and d.strides == h.strides == (4, 28), d.strides
        # The device memory holds the elements in Fortran order...
        raw = np.empty(h.nbytes, np.uint8)
        _native.get().cuda_memcpy_dtoh(raw, d._ptr, h.nbytes, 0)
        assert np.array_equal(raw.view(np.float32), h.ravel(order="F"))
        # ...and every copy and export says so.
        for back in (d.copy_to_host(), pydev.to_host(d), pydev.to_device(d).copy_to_host()):
            assert back.flags.f_contiguous and back.strides == h.strides, back.strides
            assert np.array_equal(back, h)
        cai = d.__cuda_array_interface__
        assert cai["strides"] == (4, 28) and cai["shape"] == (7, 5) and cai["data"] == (d._ptr, False), cai
        t = _arrays.from_dlpack(d, 0)
        assert (t.data, t.shape, t.strides, t.device) == (d._ptr, (7, 5), (1, 7), "cuda"), vars(t)
        assert _arrays.from_cai(d, 0).strides == (1, 7)
        from producers import CAIOnly
        back = pydev.to_device(CAIOnly(d)).copy_to_host()
        assert back.flags.f_contiguous and np.array_equal(back, h)
        # A launch hands the kernel Fortran element strides (m[i, j] is
        # element i + 7 j), on the general path and on the fast path.
        out = pydev.device_array((5, 7), np.float32)
        for _ in range(2):
            device.launch(kernels.transpose2d, out, d, grid=1, block=(8, 8), stream=s)
            l = fakecuda.launches()[-1]
            assert l.descriptor(1) == (d._ptr, (7, 5), (1, 7)), l.descriptor(1)
            assert l.descriptor(0) == (out._ptr, (5, 7), (7, 1)), l.descriptor(0)
        assert fast() >= 1
        # C order is unchanged; a strided view is copied compactly in the
        # order of its strides, as numpy.array(v, order="K") copies it.
        c = pydev.to_device(np.ascontiguousarray(h))
        assert c.strides == (20, 4) and c.__cuda_array_interface__["strides"] is None
        assert np.array_equal(c.copy_to_host(), h)
        g = rng.random((4, 6, 5))
        for v in (h[1:, ::2], h[::-1], h.T[:, ::-2], g.transpose(2, 0, 1), g.transpose(1, 2, 0)[::2, :, 1:]):
            dv = pydev.to_device(v)
            want = np.array(v, order="K")
            assert dv.strides == want.strides, (v.strides, dv.strides, want.strides)
            back = dv.copy_to_host()
            assert back.strides == want.strides and np.array_equal(back, v)
            if v.ndim == 2:
                o = pydev.device_array(v.shape[::-1], np.float32)
                device.launch(kernels.transpose2d, o, dv, grid=1, block=(8, 8), stream=s)
                l = fakecuda.launches()[-1]
                assert l.descriptor(1) == (dv._ptr, v.shape, tuple(s // v.itemsize for s in want.strides)), l.descriptor(1)
        s.synchronize()  # a stream keeps its launches' arguments alive until then
        del d, c, dv, out, o, t
        gc.collect()
        assert fakecuda.live_allocations() == before, fakecuda.live_allocations()
    """)


def test_a_stream_lets_go_of_arguments_the_gpu_has_run_without_synchronizing(run):
    # Arguments are kept in generations closed by fences (events); a
    # generation the GPU has passed is let go at the next fence, so a
    # program that never synchronizes holds at most a few generations, and
    # no launch synchronizes the stream.
    run("""
        import weakref, time, ctypes
        from pydev import _streams
        gen, fences = _native.get().STREAM_GENERATION, _streams.MAX_FENCES
        s = pydev.create_stream()
        n = 64
        x, y = pydev.to_device(rng.random(n, dtype=np.float32)), pydev.to_device(rng.random(n, dtype=np.float32))
        refs = []
        def launch(count):
            for _ in range(count):
                out = pydev.device_array(n, np.float32)
                refs.append(weakref.ref(out))
                device.launch(kernels.saxpy, 1.5, x, y, out, grid=1, block=n, stream=s)
        def alive():
            gc.collect()
            return [r() is not None for r in refs]
        syncs = lambda: fakecuda.calls("cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize")

        # An idle GPU: each fence is passed when the next generation closes.
        fakecuda.reset_calls()
        launch(3 * (gen + 1) + 7)
        assert fast() > 3 * gen, pydev.stats()  # the fast path keeps arguments too
        a = alive()
        assert a == [False] * (3 * (gen + 1)) + [True] * 7, (a.count(True), a.index(True))
        assert len(s._keep) == 7 and s._fences == []
        assert set(syncs().values()) == {0}, syncs()
        assert fakecuda.calls("cuEventRecord", "cuEventCreate") == {"cuEventRecord": 3, "cuEventCreate": 1}  # one pooled event

        # A busy GPU: generations stay until their fence is passed; with
        # more than MAX_FENCES in flight a launch waits for the oldest only.
        s.synchronize()
        refs.clear()
        fakecuda.LIB.fakecuda_busy.argtypes = [ctypes.c_double]
        t0 = time.perf_counter()
        fakecuda.LIB.fakecuda_busy(0.5)
        launch(fences * (gen + 1))
        assert time.perf_counter() - t0 < 0.4 and len(s._fences) == fences and all(alive())
        launch(gen + 1)
        assert time.perf_counter() - t0 >= 0.45  # waited for the oldest fence
        assert s._fences == [] and len(s._keep) == 0 and not any(alive())
        assert set(syncs().values()) == {0}, syncs()

        # synchronize lets go of everything and gives the fences back.
        fakecuda.LIB.fakecuda_busy(0.3)
        launch(2 * (gen + 1) + 3)
        assert len(s._fences) == 2
        s.synchronize()
        assert s._fences == [] and s._keep == [] and not any(alive())
        created = fakecuda.calls("cuEventCreate")["cuEventCreate"]
        fakecuda.LIB.fakecuda_busy(0.0)
        launch(4 * (gen + 1))
        assert fakecuda.calls("cuEventCreate")["cuEventCreate"] == created  # pooled, reused
    """)


def test_second_launch_takes_the_fast_path_with_its_own_arguments(run):
    run("""
        n = 256
        s = pydev.create_stream()
        args = lambda: (pydev.to_device(rng.random(n, dtype=np.float32)), pydev.to_device(rng.random(n, dtype=np.float32)), pydev.device_array(n, np.float32))
        x, y, out = args()
        device.launch(kernels.saxpy, 1.5, x, y, out, grid=1, block=256, stream=s)
        assert fast() == 0
        x2, y2, out2 = args()
        before = pydev.stats()
        device.launch(kernels.saxpy, -3.0, x2, y2, out2, grid=2, block=128, stream=s)
        after = pydev.stats()
        assert fast() == 1 and after["compiles"] == before["compiles"], after
        l = fakecuda.launches()[-1]
        assert struct.unpack("<f", l.params[0]) == (-3.0,)
        assert [l.descriptor(i)[0] for i in (1, 2, 3)] == [x2._ptr, y2._ptr, out2._ptr]
        assert (l.grid, l.block, l.stream) == ((2, 1, 1), (128, 1, 1), s.handle)
        # the arguments stay alive on the stream until it synchronizes
        assert any(out2 in k for k in s._keep) and out2._last_stream == s.handle
        s.synchronize()
        assert s._keep == []
        # other types: the general path once, then fast again
        xd = pydev.to_device(rng.random(n))
        yd, od = pydev.to_device(rng.random(n)), pydev.device_array(n, np.float64)
        device.launch(kernels.saxpy, 1.5, xd, yd, od, grid=1, block=256, stream=s)
        assert fast() == 1
        device.launch(kernels.saxpy, 1.5, xd, yd, od, grid=1, block=256, stream=s)
        assert fast() == 2
        l = fakecuda.launches()[-1]
        assert l.sizes == [4, 24, 24, 24] and l.descriptor(1)[0] == xd._ptr
        # a Python int is an int32: one outside it leaves the fast path, and
        # the general path refuses it, naming the argument
        device.launch(kernels.scaled, od, xd, 3, grid=1, block=256, stream=s)
        device.launch(kernels.scaled, od, xd, 3, grid=1, block=256, stream=s)
        l = fakecuda.launches()[-1]
        assert fast() == 3 and l.sizes == [24, 24, 4] and struct.unpack("<i", l.params[2]) == (3,)
        count = len(fakecuda.launches())
        try:
            device.launch(kernels.scaled, od, xd, 1 << 40, grid=1, block=256, stream=s)
        except OverflowError as e:
            assert "argument 2" in str(e), e
        else:
            raise AssertionError("1 << 40 is no int32")
        device.launch(kernels.scaled, od, xd, np.int64(1 << 40), grid=1, block=256, stream=s)
        l = fakecuda.launches()[-1]
        assert len(fakecuda.launches()) == count + 1 and l.sizes == [24, 24, 8] and struct.unpack("<q", l.params[2]) == (1 << 40,)
    """)


def test_a_fast_launch_runs_no_python_beyond_device_launch(run):
    """device.launch hands a registered launch to the native entry: no
    pydev Python function runs (sys.setprofile sees every Python call), on a
    pydev.Stream and on a __cuda_stream__ object; a launch its Dispatch
    refuses asks it only once; launch dimensions it does not take (NumPy
    ints, bools, zero, four of them) go to the general path, which launches
    or names them as before."""
    run("""
        import sys

        class CoreStream:
            def __init__(self, handle):
                self.handle = handle
            def __cuda_stream__(self):
                return (0, self.handle)

        n = 64
        s = pydev.create_stream()
        x, y = (pydev.to_device(rng.random(n, dtype=np.float32)) for _ in range(2))
        out = pydev.device_array(n, np.float32)
        theirs = CoreStream(s.handle)
        for stream in (s, theirs):
            device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=stream)
            s.synchronize()
            calls = []
            before = fast()
            sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_qualname) if event == "call" else None)
            try:
                device.launch(kernels.vector_add, out, x, y, grid=(1,), block=n, stream=stream)
            finally:
                sys.setprofile(None)
            # (the stream object's own __cuda_stream__ is the user's Python)
            assert fast() == before + 1 and calls == ["launch"] + ["CoreStream.__cuda_stream__"] * (stream is theirs), calls
        # A launch the Dispatch refuses after exporting its DLPack arrays
        # (here: an int64 where an int was registered) asks it once, not
        # again from Python; the general path then exports them itself.
        from producers import DLPackOnly

        class Counted(DLPackOnly):
            exports = 0
            asked = []
            def __dlpack__(self, **kw):
                Counted.exports += 1
                Counted.asked.append(kw)
                return super().__dlpack__(**kw)

        cout, cx = Counted(pydev.device_array(n, np.float32)), Counted(x)
        for _ in range(2):
            device.launch(kernels.scaled, cout, cx, 3, grid=1, block=n, stream=s)
        Counted.exports = 0
        Counted.asked.clear()
        device.launch(kernels.scaled, cout, cx, 3, grid=1, block=n, stream=s)
        assert Counted.exports == 2, Counted.exports  # the fast path: one export each
        # ... asked for the launch's stream, as a versioned capsule
        assert Counted.asked == [{"stream": s.handle, "max_version": (1, 0)}] * 2, Counted.asked
        s.synchronize()
        for _ in range(2):
            device.launch(kernels.scaled, cout, cx, 3, grid=1, block=n, stream=CoreStream(0))
        Counted.asked.clear()
        before = fast()
        device.launch(kernels.scaled, cout, cx, 3, grid=1, block=n, stream=CoreStream(0))
        assert fast() == before + 1 and Counted.asked == [{"stream": 1, "max_version": (1, 0)}] * 2, Counted.asked  # the legacy default stream is 1
        Counted.exports = 0
        device.launch(kernels.scaled, cout, cx, np.int64(3), grid=1, block=n, stream=s)
        # the native try's 2, then the general path's 4 (packing, then the
        # registration's key); no second try from Python (8 before)
        assert Counted.exports == 2 + 4, Counted.exports
        s.synchronize()
        before = fast()
        device.launch(kernels.vector_add, out, x, y, grid=np.int32(1), block=(np.int64(n),), stream=s)
        assert fast() == before and fakecuda.launches()[-1].block == (n, 1, 1)
        for grid, error, message in ((0, ValueError, "grid must be positive in every dimension"), (True, TypeError, "grid must be an int or a tuple of 1 to 3 ints"),
                                     ((1, 1, 1, 1), TypeError, "grid must be an int or a tuple of 1 to 3 ints"), (1 << 32, ValueError, "is too large")):
            try:
                device.launch(kernels.vector_add, out, x, y, grid=grid, block=n, stream=s)
            except error as e:
                assert message in str(e), e
            else:
                raise AssertionError(f"grid={grid!r} was launched")
    """)


def test_an_array_used_on_another_stream_makes_the_launch_wait(run):
    run("""
        n = 64
        s1, s2 = pydev.create_stream(), pydev.create_stream()
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        y = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        device.launch(kernels.vector_add, out, x, y, grid=1, block=64, stream=s1)
        device.launch(kernels.vector_add, out, x, y, grid=1, block=64, stream=s1)
        assert fast() == 1 and fakecuda.waits() == []
        # on s2, the arrays' pending work on s1 comes first: the general path waits
        device.launch(kernels.vector_add, out, x, y, grid=1, block=64, stream=s2)
        assert fast() == 1
        assert fakecuda.waits() == [(s2.handle, s1.handle)], fakecuda.waits()
        device.launch(kernels.vector_add, out, x, y, grid=1, block=64, stream=s2)
        assert fast() == 2 and len(fakecuda.waits()) == 1
        assert [l.stream for l in fakecuda.launches()] == [s1.handle, s1.handle, s2.handle, s2.handle]
    """)


def test_foreign_stream_objects_take_the_fast_path(run):
    run("""
        from pydev import _dlpack
        from dlpack_exchange import exchange_type

        class CoreStream:  # a cuda.core Stream, or any __cuda_stream__ object
            def __init__(self, handle):
                self.handle = handle
            def __cuda_stream__(self):
                return (0, self.handle)

        n = 64
        s, other = pydev.create_stream(), pydev.create_stream()
        theirs = CoreStream(s.handle)
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        y = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        for _ in range(3):
            device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=theirs)
        assert fast() == 2, pydev.stats()
        assert [l.stream for l in fakecuda.launches()] == [s.handle] * 3
        assert s._keep == []  # the stream's owner keeps the arguments alive
        # the arrays' pending work on that stream comes first on another one
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=CoreStream(other.handle))
        assert fast() == 2 and fakecuda.waits() == [(other.handle, s.handle)], fakecuda.waits()
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=CoreStream(other.handle))
        assert fast() == 3

        # what is no stream is refused as on the general path
        class Old:
            def __cuda_stream__(self):
                return (1, s.handle)
        for bad, message in ((Old(), "has version 1"), (object(), "stream must be a pydev.Stream")):
            try:
                device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=bad)
            except TypeError as e:
                assert message in str(e), e
            else:
                raise AssertionError("no stream")
        assert fast() == 3

        # exchange-API exports are released once the launch is queued
        Torch = exchange_type("Torch", stream=s.handle)
        a, b, c = (Torch(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(3))
        for _ in range(3):
            device.launch(kernels.vector_add, c, a, b, grid=1, block=n, stream=theirs)
        assert fast() == 5 and Torch.dunder == 3
        gc.collect()
        assert _dlpack.live_exports() == 0, _dlpack.live_exports()
        assert fakecuda.launches()[-1].descriptor(0) == (c.arr._ptr, (n,), (1,))
    """)


def test_host_arrays_and_foreign_device_arrays(run):
    run("""
        n = 32
        s = pydev.create_stream()
        out = pydev.device_array(n, np.float32)
        src = pydev.to_device(rng.random(n, dtype=np.float32))
        try:
            device.launch(kernels.vector_add, out, np.zeros(n, np.float32), src, grid=1, block=32, stream=s)
        except ValueError as e:
            assert "argument 1" in str(e), e
        else:
            raise AssertionError("a NumPy array on cuda must be refused")

        from producers import CAIOnly as CAI, DLPackOnly as DLPack  # another library's device arrays

        other = pydev.create_stream()
        device.launch(kernels.vector_add, out, CAI(src, other.handle), DLPack(src), grid=1, block=32, stream=s)
        l = fakecuda.launches()[-1]
        assert l.descriptor(1) == (src._ptr, (n,), (1,)) and l.descriptor(2) == (src._ptr, (n,), (1,))
        assert (s.handle, other.handle) in fakecuda.waits(), fakecuda.waits()
    """)


def test_dlpack_producers_take_the_fast_path_and_are_released(run):
    run("""
        from pydev import _dlpack

        class Foreign:  # another library's cuda array: DLPack only (CuPy and PyTorch also have it)
            def __init__(self, arr):
                self.arr = arr
            def __dlpack__(self, **kw):
                self.stream = kw.get("stream")
                return self.arr.__dlpack__(**kw)
            def __dlpack_device__(self):
                return self.arr.__dlpack_device__()

        n = 96
        s = pydev.create_stream()
        x = Foreign(pydev.to_device(rng.random(n, dtype=np.float32)))
        y = Foreign(pydev.to_device(rng.random(n, dtype=np.float32)))
        out = Foreign(pydev.device_array(n, np.float32))
        device.launch(kernels.saxpy, 2.0, x, y, out, grid=1, block=96, stream=s)
        assert fast() == 0
        for k in range(3):
            device.launch(kernels.saxpy, float(k), x, y, out, grid=1, block=96, stream=s)
        assert fast() == 3, pydev.stats()
        l = fakecuda.launches()[-1]
        assert struct.unpack("<f", l.params[0]) == (2.0,)
        assert [l.descriptor(i) for i in (1, 2, 3)] == [(a.arr._ptr, (n,), (1,)) for a in (x, y, out)]
        assert x.stream == s.handle  # the producer orders its work before the launch's stream
        # the exports stay alive until the stream synchronizes, then their deleters run
        assert _dlpack.live_exports() >= 9
        s.synchronize()
        gc.collect()
        assert _dlpack.live_exports() == 0, _dlpack.live_exports()

        # another dtype or rank is another key: the general path once, then fast
        m = Foreign(pydev.to_device(rng.random((4, 6))))
        t = Foreign(pydev.device_array((6, 4), np.float64))
        device.launch(kernels.transpose2d, t, m, grid=1, block=(8, 8), stream=s)
        device.launch(kernels.transpose2d, t, m, grid=1, block=(8, 8), stream=s)
        assert fast() == 4
        assert fakecuda.launches()[-1].descriptor(1) == (m.arr._ptr, (4, 6), (6, 1))

        # a registered producer type whose memory is not on the GPU (its
        # export fails or is no cuda array) is the general path's to refuse
        bad = Foreign(np.zeros(n, np.float32))
        try:
            device.launch(kernels.saxpy, 2.0, bad, y, out, grid=1, block=96, stream=s)
        except ValueError as e:
            assert "argument 1" in str(e), e
        else:
            raise AssertionError("host memory on cuda must be refused")
        assert fast() == 4
    """)


def test_dlpack_arrays_of_every_element_type_take_the_fast_path_on_cuda(run):
    # Issue 35 item 1 in DLPack form: numbers of every width, complex,
    # bool, bfloat16, float8 and vectors (lanes 2 to 4), exported by a
    # producer of its own (not pydev's DeviceArray), each launched natively
    # from its second launch with its own descriptor.
    run("""
        from producers import DLPackElements
        try:
            import ml_dtypes
            extra = [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]
        except ImportError:
            extra = []
        n = 40
        s = pydev.create_stream()
        kinds = [(np.dtype(t), None) for t in ["float32", "float64", "float16", "complex64", "int8", "uint64", "bool"]]
        kinds += [(np.dtype(t), None) for t in extra]
        kinds += [(np.dtype("float32"), 2), (np.dtype("float32"), 3), (np.dtype("int32"), 4), (np.dtype("float16"), 2)]
        for dtype, lanes in kinds:
            shape = (n,) if lanes is None else (n, lanes)
            for k in range(2):
                src = pydev.to_device(rng.random(shape).astype(dtype))
                dst = pydev.device_array(shape, dtype)
                a, out = DLPackElements(src, lanes), DLPackElements(dst, lanes)
                before = fast()
                device.launch(kernels.copy, out, a, grid=1, block=64, stream=s)
                assert fast() - before == k, (dtype, lanes, k, pydev.stats())
                if k:
                    assert a.exports == 1, (dtype, lanes, a.exports)  # one export a fast launch
                l = fakecuda.launches()[-1]
                assert [l.descriptor(i) for i in (0, 1)] == [(dst._ptr, (n,), (1,)), (src._ptr, (n,), (1,))], (dtype, lanes)
        s.synchronize()
    """)


def test_dlpack_exchange_api_producers_export_without_calling_python(run):
    run("""
        from pydev import _dlpack
        from dlpack_exchange import exchange_type

        n = 80
        s, theirs = pydev.create_stream(), pydev.create_stream()
        Torch = exchange_type("Torch", stream=theirs.handle)  # PyTorch publishes such a table
        x, y = (Torch(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(2))
        out = Torch(pydev.device_array(n, np.float32))
        device.launch(kernels.saxpy, 2.0, x, y, out, grid=1, block=n, stream=s)
        assert fast() == 0 and Torch.dunder == 3  # the general path calls __dlpack__
        exports, queries, waits = Torch.exports, Torch.stream_queries, len(fakecuda.waits())
        for k in range(4):
            device.launch(kernels.saxpy, float(k), x, y, out, grid=1, block=n, stream=s)
        assert fast() == 4, pydev.stats()
        # no __dlpack__ from Python: three C exports and one stream query per launch
        assert Torch.dunder == 3
        assert (Torch.exports - exports, Torch.stream_queries - queries) == (12, 4)
        l = fakecuda.launches()[-1]
        assert struct.unpack("<f", l.params[0]) == (3.0,)
        assert [l.descriptor(i) for i in (1, 2, 3)] == [(a.arr._ptr, (n,), (1,)) for a in (x, y, out)]
        # the launch's stream waits for the producer's current work stream,
        # as __dlpack__(stream=...) would have had the producer arrange
        assert fakecuda.waits()[waits:] == [(s.handle, theirs.handle)] * 4, fakecuda.waits()
        # the consumer owns the exported tensors until the stream synchronizes
        assert _dlpack.live_exports() >= 12
        s.synchronize()
        gc.collect()
        assert _dlpack.live_exports() == 0, _dlpack.live_exports()

        # a producer working on the launch's own stream needs no wait; the
        # legacy default stream is one stream whether named 0 or 1
        Legacy = exchange_type("Legacy", stream=0)
        a, b, c = (Legacy(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(3))
        d = pydev.default_stream()
        for k in range(3):
            device.launch(kernels.saxpy, 1.5, a, b, c, grid=1, block=n, stream=d)
        assert fast() == 6 and Legacy.dunder == 3
        waits = len(fakecuda.waits())
        device.launch(kernels.saxpy, 1.5, a, b, c, grid=1, block=n, stream=s)
        assert fakecuda.waits()[waits:] == [(s.handle, 1)], fakecuda.waits()

        # a table of a newer major version is walked back (prev_api) to version 1
        Newer = exchange_type("Newer", major=2)
        e, f, g = (Newer(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(3))
        device.launch(kernels.saxpy, 1.0, e, f, g, grid=1, block=n, stream=s)
        device.launch(kernels.saxpy, 1.0, e, f, g, grid=1, block=n, stream=s)
        assert Newer.dunder == 3 and Newer.exports == 6 and fast() == 8

        # exports that fail send every launch to the general path (__dlpack__)
        Broken = exchange_type("Broken", fail=True)
        h, i, j = (Broken(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(3))
        device.launch(kernels.saxpy, 1.0, h, i, j, grid=1, block=n, stream=s)
        device.launch(kernels.saxpy, 1.0, h, i, j, grid=1, block=n, stream=s)
        assert Broken.dunder == 6 and fast() == 8
        assert fakecuda.launches()[-1].descriptor(3) == (j.arr._ptr, (n,), (1,))
        s.synchronize()
        d.synchronize()
        gc.collect()
        assert _dlpack.live_exports() == 0, _dlpack.live_exports()
    """)


def test_cuda_array_interface_producers_take_the_fast_path(run):
    run("""
        import os

        class Numba:  # a CUDA Array Interface v3 producer without DLPack
            def __init__(self, arr, stream=None, **extra):
                self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, stream=stream, **extra)

        n = 40
        s, other = pydev.create_stream(), pydev.create_stream()
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        y = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        device.launch(kernels.vector_add, Numba(out), Numba(x), Numba(y), grid=1, block=64, stream=s)
        assert fast() == 0
        device.launch(kernels.vector_add, Numba(out), Numba(x), Numba(y), grid=1, block=64, stream=s)
        assert fast() == 1
        l = fakecuda.launches()[-1]
        assert [l.descriptor(i) for i in range(3)] == [(a._ptr, (n,), (1,)) for a in (out, x, y)]
        # v3 streams: the launch waits for the producer's stream, on the fast path too
        assert fakecuda.waits() == []
        device.launch(kernels.vector_add, Numba(out), Numba(x, other.handle), Numba(y, other.handle), grid=1, block=64, stream=s)
        assert fast() == 2 and fakecuda.waits() == [(s.handle, other.handle)], fakecuda.waits()
        os.environ["PYDEV_CAI_SYNC"] = "0"
        device.launch(kernels.vector_add, Numba(out), Numba(x, other.handle), Numba(y), grid=1, block=64, stream=s)
        assert fast() == 3 and len(fakecuda.waits()) == 1
        del os.environ["PYDEV_CAI_SYNC"]
        # strided views are another key (the general path once, then fast)
        half = dict(x.__cuda_array_interface__, shape=(n // 2,), strides=(8,))
        v = Numba(x)
        v.__cuda_array_interface__ = half
        device.launch(kernels.vector_add, Numba(out), v, Numba(y), grid=1, block=64, stream=s)
        device.launch(kernels.vector_add, Numba(out), v, Numba(y), grid=1, block=64, stream=s)
        assert fast() == 4 and fakecuda.launches()[-1].descriptor(1) == (x._ptr, (n // 2,), (2,))
        # what the fast path does not read is the general path's to refuse
        for extra, error, text in ((dict(mask=1), NotImplementedError, "masked"), (dict(version=9), ValueError, "version")):
            try:
                device.launch(kernels.vector_add, Numba(out), Numba(x, **extra), Numba(y), grid=1, block=64, stream=s)
            except error as e:
                assert "argument 1" in str(e) and text in str(e), e
            else:
                raise AssertionError(extra)
        try:
            device.launch(kernels.vector_add, Numba(out), Numba(x, 0), Numba(y), grid=1, block=64, stream=s)
        except ValueError as e:
            assert "stream 0 is invalid" in str(e), e
        assert fast() == 4
    """)


def test_arrays_of_structs_take_the_fast_path_on_cuda(run):
    # Issue 35: DeviceArrays and CUDA Array Interface arrays of structs are
    # keyed by their dtype (CAI: typestr and descr), not sent to the general
    # path at every launch.
    run("""
        class Numba:  # a CUDA Array Interface v3 producer without DLPack
            def __init__(self, arr):
                self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, stream=None)

        n = 24
        s = pydev.create_stream()
        host = np.zeros(n, kernels.Particle.dtype)
        host["mass"] = rng.random(n)
        ps = pydev.to_device(host)
        for k in range(3):
            device.launch(kernels.push, ps, 0.5 + k, grid=1, block=32, stream=s)
        assert fast() == 2, pydev.stats()
        l = fakecuda.launches()[-1]
        assert l.descriptor(0) == (ps._ptr, (n,), (1,))
        assert struct.unpack("<f", l.params[1]) == (2.5,)
        cai = Numba(ps)
        assert "descr" in cai.__cuda_array_interface__
        for k in range(3):
            device.launch(kernels.push, Numba(ps), 1.0, grid=1, block=32, stream=s)
        assert fast() == 4, pydev.stats()
        assert fakecuda.launches()[-1].descriptor(0) == (ps._ptr, (n,), (1,))
    """)


def test_cuda_array_interface_changes_between_launches_are_honoured(run):
    # The fast path remembers a CUDA Array Interface element (typestr and
    # descr) rather than parsing it at every launch: a producer that changes
    # its one dict in place between launches of the same kernel (descr,
    # typestr, strides, data, read-only flag, stream) is read anew each time.
    run("""
        class Numba:  # one dict, kept and changed in place
            def __init__(self, arr):
                self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, stream=None)

        def compiles():
            return pydev.stats()["compiles"]

        n = 24
        s, other = pydev.create_stream(), pydev.create_stream()
        host = np.zeros(n, kernels.Particle.dtype)
        host["mass"] = rng.random(n)
        ps = pydev.to_device(host)
        p = Numba(ps)
        cai = p.__cuda_array_interface__
        descr = cai["descr"]
        assert descr == [("pos", "<f4", (4,)), ("mass", "<f4"), ("", "|V12")], descr

        def push(expect_fast):
            before = fast()
            device.launch(kernels.push, p, 0.5, grid=1, block=32, stream=s)
            assert fast() == before + expect_fast, (expect_fast, pydev.stats())
            return fakecuda.launches()[-1].descriptor(0)

        push(0)
        assert push(1) == (ps._ptr, (n,), (1,))
        # the descr's list changed in place (mass first): another element
        c = compiles()
        descr[:] = [("mass", "<f4"), ("", "|V12"), ("pos", "<f4", (4,))]
        push(0)
        assert compiles() == c + 1
        push(1)
        # a field renamed in place: the kernel's p.mass no longer exists
        descr[0] = ("weight", "<f4")
        try:
            push(0)
        except Exception as e:
            assert "mass" in str(e), e
        else:
            raise AssertionError("a descr without the kernel's field must be refused")
        # back to the first descr: its entry launches again
        descr[:] = [("pos", "<f4", (4,)), ("mass", "<f4"), ("", "|V12")]
        c = compiles()
        assert push(1) == (ps._ptr, (n,), (1,)) and compiles() == c
        # a typestr of another size (same descr): another element, which
        # device code cannot take
        cai["typestr"] = "|V64"
        try:
            push(0)
        except ValueError as e:
            assert "itemsize is 64" in str(e), e
        else:
            raise AssertionError("an element of another size must be read anew")
        cai["typestr"] = "|V32"
        assert push(1) == (ps._ptr, (n,), (1,))
        # strides: another layout, then another stride of the same layout
        cai["shape"], cai["strides"] = (n // 2,), (64,)
        assert push(0) == (ps._ptr, (n // 2,), (2,))
        assert push(1) == (ps._ptr, (n // 2,), (2,))
        cai["shape"], cai["strides"] = (n // 3,), (96,)
        assert push(1) == (ps._ptr, (n // 3,), (3,))
        cai["shape"], cai["strides"] = (n,), None
        assert push(1) == (ps._ptr, (n,), (1,))
        # another pointer
        cai["data"] = (ps._ptr + 32, False)
        cai["shape"] = (n - 1,)
        assert push(1) == (ps._ptr + 32, (n - 1,), (1,))
        cai["data"], cai["shape"] = (ps._ptr, False), (n,)
        # read-only: the kernel writes it, which is an error
        cai["data"] = (ps._ptr, True)
        try:
            push(0)
        except Exception as e:
            assert "read-only" in str(e), e
        else:
            raise AssertionError("a kernel writing a read-only array must be refused")
        cai["data"] = (ps._ptr, False)
        assert push(1) == (ps._ptr, (n,), (1,))
        # the v3 stream: the launch waits for it, then no more
        waits = len(fakecuda.waits())
        cai["stream"] = other.handle
        push(1)
        assert fakecuda.waits()[waits:] == [(s.handle, other.handle)], fakecuda.waits()
        cai["stream"] = None
        push(1)
        assert len(fakecuda.waits()) == waits + 1, fakecuda.waits()

        # a plain element's typestr changed in place: another element
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        a = Numba(x)
        for k in range(2):
            device.launch(kernels.vector_add, out, a, a, grid=1, block=32, stream=s)
        c, before = compiles(), fast()
        a.__cuda_array_interface__["typestr"] = "<i4"
        device.launch(kernels.vector_add, out, a, a, grid=1, block=32, stream=s)
        assert fast() == before and compiles() == c + 1, pydev.stats()
        device.launch(kernels.vector_add, out, a, a, grid=1, block=32, stream=s)
        a.__cuda_array_interface__["typestr"] = "<f4"
        device.launch(kernels.vector_add, out, a, a, grid=1, block=32, stream=s)
        assert fast() == before + 2 and compiles() == c + 1, pydev.stats()
    """)


def test_ptx_the_driver_rejects_shows_its_jit_log(run):
    run("""
        native = _native.get()
        try:
            native.CudaProgram("not ptx\\n.entry k(\\n)\\n{\\n}\\n", "k")
        except RuntimeError as e:
            assert "could not load the PTX of 'k'" in str(e) and "fakecuda: no .version/.target" in str(e), e
        else:
            raise AssertionError("bad PTX must raise")
        ptx = native.compile("kernels.py", open("kernels.py").read(), "vector_add", "float32[::1], float32[::1], float32[::1]", {}, "sm_90", "ptx")
        try:
            native.CudaProgram(ptx, "saxpy")
        except RuntimeError as e:
            assert "declares no kernel 'saxpy'" in str(e), e
        prog = native.CudaProgram(ptx, "vector_add")
        assert prog.param_sizes == [24, 24, 24]
        try:
            prog.launch((1, 1, 1), (1, 1, 1), 0, 0, [bytes(24), bytes(24), bytes(16)])
        except RuntimeError as e:
            assert "takes 3 parameters of [24, 24, 24] bytes, but the launch packed 3 of [24, 24, 16]" in str(e), e
        else:
            raise AssertionError("a packing that disagrees with the PTX must be refused")
        assert fakecuda.launches() == []
    """)


def test_a_fresh_process_loads_the_ptx_from_the_disk_cache(run):
    script = """
        n = 64
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        device.launch(kernels.vector_add, out, x, x, grid=1, block=64, stream=pydev.default_stream())
        st = pydev.stats()
        print(st["compiles"], st["disk_hits"])
    """
    assert run(script).split() == ["1", "0"]
    assert run(script).split() == ["0", "1"]


def test_a_collected_kernel_unloads_its_module(run):
    # Item 6 of the runtime issue on cuda: a kernel object that is collected
    # releases its programs, whose CUmodules the driver unloads.
    run("""
    import linecache, weakref
    name = "<pydev-test-unloaded-kernel>"
    text = "import cuda.device as device\\n\\n@device.kernel\\ndef scale(a):\\n    i = device.tid(1)\\n    if i < a.size:\\n        a[i] = a[i] * 3.0\\n"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    before = fakecuda.LIB.fakecuda_live_modules()
    module = {}
    exec(compile(text, name, "exec"), module)
    k = module["scale"]
    a = pydev.to_device(rng.standard_normal(64).astype(np.float32))
    for _ in range(2):  # the second launch takes the fast path, which holds the program too
        device.launch(k, a, grid=1, block=64, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    assert fakecuda.LIB.fakecuda_live_modules() == before + 1
    ref = weakref.ref(k)
    del k, module
    gc.collect()
    assert ref() is None
    assert fakecuda.LIB.fakecuda_live_modules() == before, "the collected kernel's module is still loaded"
    """)


def test_an_exception_raised_on_the_gpu_is_raised_by_the_launch(run):
    # pydev.numba with debug=True on cuda: the kernel's record in its error
    # buffer (kind 5: an exception; its id as the index; pydev_passes::
    # error_record), written here as the raising thread would, is raised by
    # the launch as the exception of the program's table, with numba-cuda's
    # message; the buffer is reset and the next launch is clean.
    out = run("""
    import ctypes, linecache
    fakecuda.LIB.fakecuda_module_global.restype = ctypes.c_uint64
    fakecuda.LIB.fakecuda_module_global.argtypes = [ctypes.c_char_p]
    name = "<pydev-test-raising-kernel>"
    text = (
        "from pydev.numba import cuda\\n"
        "class MyError(Exception):\\n    pass\\n"
        "@cuda.jit(debug=True, opt=False)\\n"
        "def k(a):\\n"
        "    i = cuda.grid(1)\\n"
        "    if a[i] < 0:\\n"
        "        raise MyError('negative', 2)\\n"
        "    a[i] = 1.0\\n"
    )
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    module = {}
    exec(compile(text, name, "exec"), module)
    k, MyError = module["k"], module["MyError"]
    a = pydev.to_device(rng.standard_normal(64))
    k[2, 32](a)  # loads the module; nothing recorded
    at = fakecuda.LIB.fakecuda_module_global(b"__pydev_error")
    assert at, "the kernel has no error buffer"
    words = [1, 1, 5, 0, 0, 3, 0, 0, 1, 0, 0, 0]
    ctypes.memmove(at, struct.pack("<12I2q", *words, 0, 0), 64)
    try:
        k[2, 32](a)
    except MyError as e:
        assert e.args[1:] == (2,), e.args
        print(e.args[0])
    else:
        raise AssertionError("the launch did not raise")
    assert ctypes.string_at(at, 64) == bytes(64)
    k[2, 32](a)
    print("ok")
    """)
    first, last = out.rstrip().splitlines()[-2:]
    assert last == "ok", out
    assert first.endswith(", line 8, tid=[0, 0, 3] ctaid=[0, 0, 1]: negative"), first
    assert first.startswith("In function 'k', file "), first
