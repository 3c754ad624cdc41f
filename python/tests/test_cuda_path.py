"""The cuda target's Python side (device memory, copies, stream ordering,
CAI v3 streams, DLPack export, PTX compile and launch calls) against a fake
driver in host memory, so it runs without a GPU or the native module.
test_gpu.py runs the real thing."""

import ctypes
import types

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _arrays, _dlpack, _launch, _native

import kernels
from producers import DLPackOnly


class FakeDriver(types.ModuleType):
    """The cuda part of pydev._pydev, with "device memory" in host memory."""

    class CompileError(Exception):
        pass

    class LaunchError(RuntimeError):
        pass

    def __init__(self):
        super().__init__("fake_pydev_cuda")
        self.mem, self.calls, self.next_stream = {}, [], 0x1000
        fake = self

        class CudaProgram:
            def __init__(self, ptx, kernel):
                assert ptx.startswith("// PTX")
                fake.calls.append(("load", kernel))
                self.kernel = kernel

            def launch(self, grid, block, shared, stream, args):
                fake.calls.append(("launch", self.kernel, grid, block, shared, stream, [bytes(a) for a in args]))

        self.CudaProgram = CudaProgram

    def version(self):
        return "fake"

    def cuda_status(self):
        return (True, "")

    def compile(
        self,
        filename,
        source,
        function,
        signature,
        consts,
        target,
        stage,
        boundscheck=None,
        libdevice=None,
        program=None,
        line_info=False,
        debuginfo=False,
        fmad=True,
    ):
        self.calls.append(("compile", function, signature, target, stage))
        return f"// PTX {function} {signature} {target}"

    def stats(self):
        return {}

    # One device, 0, whose context is always current.
    def cuda_device_count(self):
        return 1

    def cuda_current_device(self):
        return 0

    def cuda_set_device(self, device):
        assert device == 0, device

    def cuda_current_context(self):
        return 1

    def cuda_set_context(self, ctx):
        assert ctx == 1, ctx

    def cuda_pointer_device(self, ptr):
        return 0 if any(base <= ptr < base + len(buf) for base, buf in self.mem.items()) else None

    def cuda_alloc(self, n, device=None):
        buf = ctypes.create_string_buffer(max(n, 1))
        self.mem[ctypes.addressof(buf)] = buf
        return ctypes.addressof(buf)

    def cuda_free(self, ptr, device=None):
        self.mem.pop(ptr)

    def cuda_memcpy_htod(self, dst, src, n, stream, device=None):
        data = memoryview(src).cast("B")
        assert data.nbytes >= n
        ctypes.memmove(dst, bytes(data[:n]), n)
        self.calls.append(("htod", n, stream))

    def cuda_memcpy_dtoh(self, dst, src, n, stream, device=None):
        view = memoryview(dst).cast("B")
        view[:n] = ctypes.string_at(src, n)
        self.calls.append(("dtoh", n, stream))

    def cuda_stream_create(self, device=None):
        self.next_stream += 0x10
        return self.next_stream

    def cuda_stream_synchronize(self, h, device=None):
        self.calls.append(("sync", h))

    def cuda_stream_wait(self, waiter, waited, device=None):
        self.calls.append(("wait", waiter, waited))

    def cuda_synchronize(self, device=None):
        self.calls.append(("sync-all",))

    # pydev.Stream's fences (its work is done at once here).
    STREAM_GENERATION = 256

    def cuda_fence(self, h, device=None):
        self.calls.append(("fence", h))
        return len(self.calls)

    def cuda_fence_done(self, fence, device, wait=False):
        return True

    def cuda_fence_release(self, fence, device):
        pass

    def of(self, kind):
        return [c for c in self.calls if c[0] == kind]


@pytest.fixture
def drv(monkeypatch):
    d = FakeDriver()
    monkeypatch.setattr(_native, "_MODULE", d)
    monkeypatch.setattr(_native, "_FINGERPRINT", None)
    monkeypatch.setattr(_native, "_STATUS", None)
    monkeypatch.setattr(_launch, "_ARCHS", {})
    monkeypatch.delenv("PYDEV_TARGET", raising=False)
    monkeypatch.delenv("PYDEV_ARCH", raising=False)
    for k in (kernels.vector_add, kernels.saxpy):
        k._dispatch.clear()
    yield d
    for k in (kernels.vector_add, kernels.saxpy):
        k._dispatch.clear()
    monkeypatch.setattr(_native, "_STATUS", None)
    monkeypatch.setattr(_native, "_FINGERPRINT", None)
    monkeypatch.setattr(_launch, "_ARCHS", {})


class CAIOnly:
    """An interface dict as given (the producers' CAIOnly wraps an array)."""

    def __init__(self, cai):
        self.__cuda_array_interface__ = cai


def test_cuda_is_the_default_target_with_a_device(drv):
    assert pydev.active_target() == "cuda"
    s = pydev.create_stream()
    assert s.target == "cuda" and s.__cuda_stream__() == (0, s.handle) and s.handle != 0
    assert pydev.default_stream().__cuda_stream__() == (0, 0)


def test_device_memory_round_trip(drv):
    rng = np.random.default_rng(5)
    x = rng.random((3, 5)).astype(np.float32)
    d = pydev.to_device(x)
    assert d.target == "cuda" and d._ptr in drv.mem
    np.testing.assert_array_equal(d.copy_to_host(), x)
    np.testing.assert_array_equal(pydev.to_host(d), x)
    z = pydev.zeros(7, np.int16)
    np.testing.assert_array_equal(z.copy_to_host(), np.zeros(7, np.int16))
    structs = np.zeros(3, kernels.Particle.dtype)
    structs["mass"] = [1, 2, 3]
    np.testing.assert_array_equal(pydev.to_device(structs).copy_to_host(), structs)
    with pytest.raises(TypeError, match="copy_to_host"):
        np.asarray(d)
    ptr = d._ptr
    del d
    assert ptr not in drv.mem  # freed with the array


def test_device_array_exports_cai_v3_and_dlpack(drv):
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    d = pydev.to_device(x)
    cai = d.__cuda_array_interface__
    assert cai == {
        "shape": (2, 3),
        "typestr": "<f8",
        "data": (d._ptr, False),
        "strides": None,
        "version": 3,
        "stream": None,
    }
    assert d.__dlpack_device__() == (2, 0)
    arg = _arrays.array_arg(DLPackOnly(d), 4, stream=0)
    assert arg.device == "cuda" and arg.data == d._ptr and arg.shape == (2, 3) and arg.strides == (3, 1)
    arg = _arrays.array_arg(CAIOnly(cai), 4)
    assert arg.device == "cuda" and arg.stream is None  # to_device's copy is complete: nothing to wait for
    np.testing.assert_array_equal(pydev.to_host(CAIOnly(cai)), x)
    strided = dict(cai, shape=(2, 2), strides=(24, -8), data=(d._ptr + 16, False))  # x[:, 2:0:-1]
    np.testing.assert_array_equal(pydev.to_host(CAIOnly(strided)), x[:, 2:0:-1])
    assert not hasattr(d, "__array_interface__")


def test_launch_compiles_ptx_and_passes_the_stream(drv, monkeypatch):
    rng = np.random.default_rng(6)
    s = pydev.create_stream()
    a, b = (
        pydev.to_device(rng.random(64, dtype=np.float32), stream=s),
        pydev.to_device(rng.random(64, dtype=np.float32), stream=s),
    )
    out = pydev.device_array(64, np.float32, stream=s)
    device.launch(kernels.vector_add, out, a, b, grid=1, block=64, stream=s)
    assert drv.of("compile") == [("compile", "vector_add", "float32[::1], float32[::1], float32[::1]", "sm_90", "ptx")]
    (launch,) = drv.of("launch")
    assert launch[1:6] == ("vector_add", (1, 1, 1), (64, 1, 1), 0, s.handle)
    assert launch[6][0] == np.array([out._ptr, 64, 1], np.uint64).tobytes()
    assert drv.of("wait") == []  # everything on one stream
    assert len(s._keep) == 1  # the arguments stay alive until the stream syncs
    s.synchronize()
    assert s._keep == [] and drv.of("sync")[-1] == ("sync", s.handle)
    device.launch(kernels.vector_add, out, a, b, grid=1, block=64, stream=s)
    assert len(drv.of("compile")) == 1  # the second launch compiles nothing
    monkeypatch.setenv("PYDEV_ARCH", "sm_80")
    device.launch(kernels.vector_add, out, a, b, grid=1, block=64, stream=s)
    assert drv.of("compile")[-1][3] == "sm_80"
    monkeypatch.setenv("PYDEV_ARCH", "80")
    with pytest.raises(ValueError, match="PYDEV_ARCH"):
        device.launch(kernels.vector_add, out, a, b, grid=1, block=64, stream=s)


def test_cpu_arrays_are_refused_on_cuda(drv):
    x = np.zeros(4, np.float32)
    d = pydev.to_device(x)
    with pytest.raises(
        ValueError,
        match="argument 1: a host \\(CPU\\) array cannot be passed to a cuda launch: copy it to the GPU with pydev.to_device",
    ):
        device.launch(kernels.vector_add, d, x, d, grid=1, block=4, stream=pydev.default_stream())
    with pytest.raises(ValueError, match="argument 2 \\(CUDA Array Interface\\): stride 2"):
        device.launch(
            kernels.vector_add,
            d,
            x,
            CAIOnly({"shape": (4,), "typestr": "<f4", "data": (8, False), "version": 3, "strides": (2,)}),
            grid=1,
            block=4,
            stream=pydev.default_stream(),
        )
    host = pydev.Stream("host")
    with pytest.raises(ValueError, match="stream is a host pydev.Stream"):
        device.launch(kernels.vector_add, d, d, d, grid=1, block=4, stream=host)


def test_cai_v3_streams_are_waited_on(drv, monkeypatch):
    d = pydev.to_device(np.zeros(4, np.float32))
    s = pydev.create_stream()

    def cai(stream, **over):
        c = {"shape": (4,), "typestr": "<f4", "data": (d._ptr, False), "version": 3, "strides": None, "stream": stream}
        c.update(over)
        return CAIOnly(c)

    def run(*args, stream=s):
        drv.calls.clear()
        device.launch(kernels.vector_add, d, *args, grid=1, block=4, stream=stream)
        return drv.of("wait")

    assert run(cai(0x77), cai(0x77)) == [("wait", s.handle, 0x77)]  # once per producer stream
    assert run(cai(None), cai(2, version=2)) == []  # nothing to wait for; v2 has no stream
    assert run(cai(2), cai(1)) == [("wait", s.handle, 2), ("wait", s.handle, 1)]
    # 1 is the legacy default stream (handle 0): only d, last used on s, is waited for
    assert run(cai(1), cai(1), stream=pydev.default_stream()) == [("wait", 0, s.handle)]
    monkeypatch.setenv("PYDEV_CAI_SYNC", "0")
    assert run(cai(0x77), cai(2)) == []
    monkeypatch.delenv("PYDEV_CAI_SYNC")
    with pytest.raises(ValueError, match="argument 2 \\(CUDA Array Interface\\): stream 0 is invalid"):
        run(cai(1), cai(0))


def test_device_arrays_order_their_streams(drv):
    s1, s2 = pydev.create_stream(), pydev.create_stream()
    a = pydev.to_device(np.zeros(8, np.float32))
    device.launch(kernels.vector_add, a, a, a, grid=1, block=8, stream=s1)  # a last used on s1
    assert a.__cuda_array_interface__["stream"] == s1.handle
    drv.calls.clear()
    b = pydev.to_device(np.zeros(8, np.float32))
    device.launch(kernels.vector_add, b, a, b, grid=1, block=8, stream=s2)
    assert drv.of("wait") == [("wait", s2.handle, s1.handle)]
    drv.calls.clear()
    a.copy_to_host()  # a's own stream (the default) waits for s2, where a was last used
    assert drv.of("wait") == [("wait", 0, s2.handle)] and drv.of("dtoh") == [("dtoh", 32, 0)]
    drv.calls.clear()
    a.__dlpack__(stream=0x999)  # a consumer's stream waits for the producer's
    assert drv.of("wait") == [("wait", 0x999, s2.handle)]
    drv.calls.clear()
    a.__dlpack__(stream=-1)  # -1: the consumer asks for no synchronization
    assert drv.of("wait") == []


def test_dlpack_consumers_see_cuda_device_arrays(drv):
    d = pydev.to_device(np.arange(5, dtype=np.int32))
    before = _dlpack.live_exports()
    cap = d.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    t = _dlpack.DLPackTensor(cap, "x")
    assert (t.device, t.data, t.shape, t.dtype) == ("cuda", d._ptr, (5,), np.int32)
    t.release()
    del cap
    assert _dlpack.live_exports() == before
