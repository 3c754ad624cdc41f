"""cuda.device on the host, and the argument protocols (DLPack, the CUDA
Array Interface) with fake producers: no GPU needed."""
import ctypes

import numpy as np
import pytest

import cuda.device as device
from pydev import _arrays, _launch


def test_decorators():
    def f(x):
        return x + 1

    g = device.func(f)
    assert g.underlying is f and g(1) == 2
    k = device.kernel(interop=True)(f)
    assert k.underlying is f
    with pytest.raises(TypeError, match="unexpected keyword argument 'link'"):
        device.kernel(link="x")
    with pytest.raises(TypeError, match="both"):
        device.func(device.kernel(f))
    with pytest.raises(TypeError, match="both"):
        device.kernel(device.func(f))


def test_device_only_entities_fail_on_host():
    with pytest.raises(RuntimeError, match="cuda.device.syncthreads is device-only"):
        device.syncthreads()
    with pytest.raises(RuntimeError, match="thread_idx is device-only"):
        device.thread_idx.x


def test_numbers_vectors_targets():
    assert device.int8(-3) == -3 and np.dtype(device.float32) == np.float32
    v = device.float32x4(1, 2, 3, 4)
    assert (v.x, v.w, len(v), list(v)) == (1, 4, 4, [1, 2, 3, 4])
    assert v == device.float32x4(1, 2, 3, 4) and device.float32x4.dtype == np.dtype((np.float32, (4,)))
    assert device.target(device.is_host) and not device.target(device.is_device)
    assert device.target(device.is_host | device.provides(device.sm80))
    assert not device.target(~device.any_target)
    assert device.machine_representation() == "itanium"
    assert device.popc(np.int32(7)) == 3 and device.clz(np.int32(1)) == 31 and device.ffs(np.int32(8)) == 4
    assert device.brev(np.uint32(1)) == np.uint32(1 << 31)


def test_struct_layout_matches_cuda():
    @device.struct
    class P:
        pos: device.float32x4
        mass: float

    assert P.dtype.itemsize == 32 and P.dtype.fields["pos"][1] == 0 and P.dtype.fields["mass"][1] == 16

    @device.struct(align=16)
    class C:
        real: float
        imag: float

    assert C.dtype.itemsize == 16

    @device.struct
    class Mixed:
        a: device.int8
        b: device.float64
        c: device.int16

    assert [Mixed.dtype.fields[n][1] for n in "abc"] == [0, 8, 16] and Mixed.dtype.itemsize == 24
    m = Mixed(1, c=3, b=2.5)
    assert (m.a, m.b, m.c) == (1, 2.5, 3)
    with pytest.raises(AttributeError, match="immutable"):
        m.a = 4
    with pytest.raises(TypeError, match="missing field 'b'"):
        Mixed(1)


class FakeCAI:
    def __init__(self, **cai):
        self.__cuda_array_interface__ = cai


def cai(**over):
    d = {"shape": (4,), "typestr": "<f4", "data": (0x10000, False), "version": 3, "strides": None, "stream": None}
    d.update(over)
    return FakeCAI(**d)


def test_cai_validation_names_the_argument():
    ok = _arrays.array_arg(cai(), 2)
    assert (ok.data, ok.shape, ok.strides, ok.device) == (0x10000, (4,), (1,), "cuda")
    assert ok.signature({}) == "float32[::1]"
    with pytest.raises(NotImplementedError, match="argument 2"):
        _arrays.array_arg(cai(mask=object()), 2)
    with pytest.raises(ValueError, match="argument 3 .*pointer is 0"):
        _arrays.array_arg(cai(data=(0, False)), 3)
    assert _arrays.array_arg(cai(shape=(0,), data=(0, False)), 3).shape == (0,)
    with pytest.raises(ValueError, match="argument 1 .*not a multiple of the item size"):
        _arrays.array_arg(cai(strides=(6,)), 1)
    with pytest.raises(ValueError, match="argument 0 .*unknown typestr"):
        _arrays.array_arg(cai(typestr="<x9"), 0)
    with pytest.raises(ValueError, match="argument 0 .*version"):
        _arrays.array_arg(cai(version=7), 0)
    with pytest.raises(ValueError, match="stream 0 is invalid"):
        _arrays.array_arg(cai(stream=0), 0)
    ro = _arrays.array_arg(cai(data=(0x10000, True), shape=(2, 3), strides=(4, 8)), 0)
    assert ro.signature({}) == "readonly float32[::1, :]" and ro.strides == (1, 2)


def test_cuda_arrays_on_host_launch_are_rejected():
    with pytest.raises(ValueError, match="argument 0: a CUDA device array cannot be passed to a host launch"):
        _launch.signature_of(None, [cai()], "host")


def test_cpu_arrays_on_cuda_launch_are_rejected():
    with pytest.raises(ValueError, match="argument 0: a host .* pydev.to_device"):
        _launch.signature_of(None, [np.zeros(3, np.float32)], "cuda")


def test_dlpack_from_numpy():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]
    arg = _arrays.array_arg(a, 0)
    assert arg.device == "cpu" and arg.shape == (3, 2) and arg.strides == (4, 2) and arg.dtype == np.int16
    assert arg.data == a.ctypes.data
    assert arg.signature({}) == "int16[:, :]"
    r = np.zeros(5, np.float64)
    r.flags.writeable = False
    assert _arrays.array_arg(r, 0).signature({}).startswith("readonly float64")


def test_dlpack_wins_over_cai():
    class Both:
        def __init__(self):
            self.a = np.ones(3, np.float32)
            self.__cuda_array_interface__ = {"shape": (3,), "typestr": "<f4", "data": (1, False), "version": 2}

        def __dlpack__(self, **kw):
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return (1, 0)

    assert _arrays.array_arg(Both(), 0).device == "cpu"


def test_our_dlpack_capsules_are_consumable():
    a = np.arange(6, dtype=np.float32)

    class Producer:
        def __dlpack__(self, stream=None, max_version=None):
            return _arrays.make_capsule(a.ctypes.data, a.shape, a.dtype, _arrays.kDLCPU, owner=a)

        def __dlpack_device__(self):
            return (1, 0)

    np.testing.assert_array_equal(np.from_dlpack(Producer()), a)


def test_scalars_and_tuples_pack_like_c():
    assert _launch._scalar(3, 0) == ("int32", np.int32(3).tobytes())
    assert _launch._scalar(np.uint8(3), 0) == ("uint8", b"\x03")
    t, b = _launch._scalar((np.int8(1), 2.0), 0)
    assert t == "(int8, float32)" and len(b) == 8 and b[0] == 1
    v = device.float32x2(1.0, 2.0)
    assert _launch._scalar(v, 0) == ("float32x2", np.array([1, 2], np.float32).tobytes())


def test_cache_key_depends_on_everything():
    pytest.importorskip("pydev._pydev")
    k = _launch.cache_key("src", {}, "sig", "host", "llvm", "k")
    assert k != _launch.cache_key("src", {}, "sig", "sm_90", "llvm", "k")
    assert k != _launch.cache_key("src2", {}, "sig", "host", "llvm", "k")
    assert k != _launch.cache_key("src", {"N": 1}, "sig", "host", "llvm", "k")
    assert k == _launch.cache_key("src", {}, "sig", "host", "llvm", "k")
