"""Array arguments: DLPack capsules (from NumPy's own __dlpack__ and from
pydev's exporter), the CUDA Array Interface with fake producers, NumPy
arrays, signature derivation, the kernel ABI descriptors, where arrays
live, and DeviceArray / streams / targets on the host. No native module
needed (except where a test says so)."""

import ctypes
import struct
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _arrays, _dlpack, _launch, _native

import kernels

# NumPy exports DLPack 1.0 ("dltensor_versioned", read-only flag) from 2.1 on.
NUMPY_DLPACK_1 = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)
needs_dlpack_1 = pytest.mark.skipif(not NUMPY_DLPACK_1, reason="NumPy < 2.1 exports no versioned DLPack capsules")


# --- DLPack ---------------------------------------------------------------------------------


class Producer:
    """Exports `array` through NumPy's __dlpack__ only (no __array_interface__)."""

    def __init__(self, array, versioned=True):
        self.array, self.versioned, self.calls = array, versioned, []

    def __dlpack__(self, stream=None, max_version=None, **kw):
        self.calls.append({"stream": stream, "max_version": max_version, **kw})
        if self.versioned and max_version is not None:
            return self.array.__dlpack__(stream=stream, max_version=max_version)
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class OldProducer(Producer):
    """A producer from before DLPack 1.0: no max_version keyword."""

    def __dlpack__(self, stream=None):
        self.calls.append({"stream": stream})
        return self.array.__dlpack__()


@needs_dlpack_1
def test_dlpack_versioned_capsule_from_numpy():
    a = np.arange(24, dtype=np.int16).reshape(4, 6)[1:, ::2]
    p = Producer(a)
    arg = _arrays.array_arg(p, 0)
    assert p.calls == [{"stream": None, "max_version": (1, 0)}]
    assert arg.protocol == "DLPack" and arg.device == "cpu"
    assert arg.data == a.ctypes.data and arg.shape == (3, 3) and arg.strides == (6, 2) and arg.dtype == np.int16
    assert not arg.readonly
    assert arg.signature([], 0) == "int16[:, :]"
    assert arg.keep[1].capsule is not None


def test_dlpack_unversioned_capsule_and_old_producers():
    a = np.linspace(0, 1, 10)
    arg = _arrays.array_arg(Producer(a, versioned=False), 3)
    assert (
        arg.shape == (10,)
        and arg.strides == (1,)
        and arg.dtype == np.float64
        and arg.signature([], 3) == "float64[::1]"
    )
    old = OldProducer(a)
    arg = _arrays.array_arg(old, 3)
    assert arg.shape == (10,) and old.calls == [{"stream": None}]


@needs_dlpack_1
def test_dlpack_read_only_flag():
    a = np.arange(5, dtype=np.float32)
    a.flags.writeable = False
    arg = _arrays.array_arg(Producer(a), 1)
    assert arg.readonly and arg.signature([], 1) == "readonly float32[::1]"
    # An unversioned capsule cannot say read-only: NumPy refuses to export it.
    with pytest.raises(ValueError, match="argument 1 \\(DLPack\\): the producer cannot export it"):
        _arrays.array_arg(Producer(a, versioned=False), 1)


@needs_dlpack_1
def test_dlpack_consumer_renames_the_capsule_and_calls_the_deleter():
    a = np.arange(8, dtype=np.float32)
    capsule = a.__dlpack__(max_version=(1, 0))
    refs = sys.getrefcount(a)
    t = _dlpack.DLPackTensor(capsule, "argument 0 (DLPack)")
    assert "used_dltensor_versioned" in repr(capsule)
    assert t.data == a.ctypes.data and t.shape == (8,)
    del capsule
    assert sys.getrefcount(a) == refs  # the tensor (now ours) still holds the array
    t.release()
    assert sys.getrefcount(a) == refs - 1
    t.release()  # at most once
    with pytest.raises(ValueError, match="did not return an unconsumed DLPack capsule"):
        c = a.__dlpack__()
        _dlpack.DLPackTensor(c, "argument 0 (DLPack)")
        _dlpack.DLPackTensor(c, "argument 0 (DLPack)")


def test_dlpack_null_strides_byte_offset_and_device_type():
    a = np.arange(12, dtype=np.float32)
    cap = _dlpack.make_capsule(a.ctypes.data, (3, 4), a.dtype, _dlpack.kDLCPU, owner=a)
    managed = _dlpack.DLManagedTensor.from_address(_dlpack._GetPointer(cap, b"dltensor"))
    managed.dl_tensor.byte_offset = 8
    managed.dl_tensor.shape[0] = 2
    t = _dlpack.DLPackTensor(cap, "argument 0 (DLPack)")
    assert t.strides == (4, 1) and t.data == a.ctypes.data + 8 and t.shape == (2, 4)
    for device_type, name in [(2, "cuda"), (3, "cuda_host"), (13, "cuda_managed")]:
        cap = _dlpack.make_capsule(a.ctypes.data, (12,), a.dtype, device_type, owner=a)
        assert _dlpack.DLPackTensor(cap, "x").device == name
    cap = _dlpack.make_capsule(a.ctypes.data, (12,), a.dtype, 10, owner=a)  # ROCm
    with pytest.raises(ValueError, match="argument 4 \\(DLPack\\): arrays on DLPack device type 10 are not supported"):
        _dlpack.DLPackTensor(cap, "argument 4 (DLPack)")
    cap = _dlpack.make_capsule(0, (12,), a.dtype, 1, owner=a)
    with pytest.raises(ValueError, match="NULL for 12 elements"):
        _dlpack.DLPackTensor(cap, "x")
    assert _dlpack.DLPackTensor(_dlpack.make_capsule(0, (0,), a.dtype, 1, owner=a), "x").shape == (0,)


def test_dlpack_dtypes():
    a = np.zeros(16, np.uint8)

    def parse(code, bits, lanes=1):
        cap = _dlpack.make_capsule(a.ctypes.data, (2,), np.uint8, 1, owner=a)
        m = _dlpack.DLManagedTensor.from_address(_dlpack._GetPointer(cap, b"dltensor"))
        m.dl_tensor.dtype = _dlpack.DLDataType(code, bits, lanes)
        return _dlpack.DLPackTensor(cap, "argument 2 (DLPack)").dtype

    assert parse(0, 8) == np.int8 and parse(1, 64) == np.uint64 and parse(2, 16) == np.float16
    assert parse(5, 64) == np.complex64 and parse(6, 8) == np.bool_
    assert parse(4, 16) == np.dtype(device.bfloat16)
    assert parse(10, 8) == np.dtype(device.float8e4m3) and parse(12, 8) == np.dtype(device.float8e5m2)
    assert parse(2, 32, 4) == np.dtype((np.float32, (4,)))  # an array of float32x4
    with pytest.raises(ValueError, match="argument 2 \\(DLPack\\): DLPack dtype \\(code 3, 64 bits\\)"):
        parse(3, 64)
    with pytest.raises(ValueError, match="8 lanes"):
        parse(2, 32, 8)


@pytest.fixture(params=["native", "ctypes"])
def exporter(request, monkeypatch):
    """pydev's DLPack exports made by the native module, and by the ctypes
    fallback of the pure-Python package."""
    if request.param == "native":
        if not _dlpack._native_exporter():
            pytest.skip("the native module pydev._pydev is not built (make wheel)")
    else:
        monkeypatch.setattr(_dlpack, "_native_capsule", False)
    return request.param


def test_pydev_capsules_are_consumable_and_freed(exporter):
    a = np.arange(6, dtype=np.float32)
    before = _dlpack.live_exports()

    class Exporter:
        def __dlpack__(self, stream=None, max_version=None, **kw):
            return _dlpack.make_capsule(
                a.ctypes.data, a.shape, a.dtype, _dlpack.kDLCPU, owner=a, versioned=max_version is not None
            )

        def __dlpack_device__(self):
            return (1, 0)

    b = np.from_dlpack(Exporter())
    np.testing.assert_array_equal(b, a)
    assert _dlpack.live_exports() == before + 1
    del b
    assert _dlpack.live_exports() == before
    unconsumed = Exporter().__dlpack__()
    assert _dlpack.live_exports() == before + 1
    del unconsumed
    assert _dlpack.live_exports() == before
    v = _dlpack.make_capsule(a.ctypes.data, (2, 3), a.dtype, 1, owner=a, strides=(1, 2), versioned=True, readonly=True)
    t = _dlpack.DLPackTensor(v, "x")
    assert t.readonly and t.strides == (1, 2)
    with pytest.raises(BufferError):
        _dlpack.make_capsule(a.ctypes.data, (1,), np.dtype([("x", "f4")]), 1, owner=a)
    # a vector dtype is lanes; the owner lives while the export does
    owner = np.arange(8, dtype=np.float32)
    refs = sys.getrefcount(owner)
    c = _dlpack.make_capsule(owner.ctypes.data, (2,), np.dtype((np.float32, (4,))), 2, owner=owner, device_id=1)
    assert sys.getrefcount(owner) == refs + 1
    t = _dlpack.DLPackTensor(c, "x")
    assert (t.device, t.device_id, t.shape, t.dtype) == ("cuda", 1, (2,), np.dtype((np.float32, (4,))))
    t.release()
    del c
    assert sys.getrefcount(owner) == refs and _dlpack.live_exports() == before


def test_dlpack_wins_over_cai():
    class Both(Producer):
        __cuda_array_interface__ = {"shape": (3,), "typestr": "<f4", "data": (1, False), "version": 2}

    assert _arrays.array_arg(Both(np.ones(3, np.float32)), 0).device == "cpu"


def test_dlpack_stream_is_the_launch_stream_for_cuda_producers():
    class CudaProducer:
        def __init__(self):
            self.a = np.ones(4, np.float32)
            self.streams = []

        def __dlpack__(self, stream=None, max_version=None):
            self.streams.append(stream)
            return _dlpack.make_capsule(self.a.ctypes.data, (4,), self.a.dtype, _dlpack.kDLCUDA, owner=self.a)

        def __dlpack_device__(self):
            return (_dlpack.kDLCUDA, 0)

    p = CudaProducer()
    _arrays.array_arg(p, 0, stream=0)  # the legacy default stream is 1 in DLPack
    _arrays.array_arg(p, 0, stream=0x1234)
    _arrays.array_arg(p, 0, stream=None)  # host launches ask for no stream
    assert p.streams == [1, 0x1234, None]
    with pytest.raises(ValueError, match="argument 0: a host \\(CPU\\) array cannot be passed to a cuda launch"):
        _launch.pack_args(None, [Producer(np.ones(2))], "cuda", handle=5)
    assert _launch.pack_args(None, [p], "cuda", handle=5)[0] == "float32[::1]"


# --- the CUDA Array Interface ------------------------------------------------------------------


class FakeCAI:
    def __init__(self, **cai):
        self.__cuda_array_interface__ = cai


def cai(**over):
    d = {"shape": (4,), "typestr": "<f4", "data": (0x10000, False), "version": 3, "strides": None, "stream": None}
    d.update(over)
    return FakeCAI(**{k: v for k, v in d.items() if v is not _DROP})


_DROP = object()


def test_cai_well_formed():
    ok = _arrays.array_arg(cai(), 2)
    assert (ok.data, ok.shape, ok.strides, ok.device, ok.stream) == (0x10000, (4,), (1,), "cuda", None)
    assert ok.signature([], 2) == "float32[::1]" and ok.protocol == "CUDA Array Interface"
    ro = _arrays.array_arg(cai(data=(0x10000, True), shape=(2, 3), strides=(4, 8)), 0)
    assert ro.signature([], 0) == "readonly float32[::1, :]" and ro.strides == (1, 2)
    assert _arrays.array_arg(cai(shape=(2, 3), strides=(24, 4)), 0).signature([], 0) == "float32[:, :]"
    assert _arrays.array_arg(cai(strides=(-4,)), 0).strides == (-1,)
    assert _arrays.array_arg(cai(shape=(0,), data=(0, False)), 3).shape == (0,)
    for version in (0, 1, 2):
        assert _arrays.array_arg(cai(version=version, stream=_DROP), 0).stream is None
    assert _arrays.array_arg(cai(version=2, stream=0), 0).stream is None  # before v3 there is no stream
    assert _arrays.array_arg(cai(stream=1), 0).stream == 1
    assert _arrays.array_arg(cai(stream=2), 0).stream == 2
    assert _arrays.array_arg(cai(stream=0xABC), 0).stream == 0xABC
    assert _arrays.array_arg(cai(mask=None), 0).shape == (4,)


@pytest.mark.parametrize(
    "typestr, dtype, name",
    [
        ("<f4", np.float32, "float32"),
        ("|b1", np.bool_, "bool"),
        ("<c8", np.complex64, "complex64"),
        ("<c16", np.complex128, "complex128"),
        ("|i1", np.int8, "int8"),
        ("<u8", np.uint64, "uint64"),
        ("<f2", np.float16, "float16"),
    ],
)
def test_cai_typestrs(typestr, dtype, name):
    arg = _arrays.array_arg(cai(typestr=typestr), 0)
    assert arg.dtype == dtype and arg.signature([], 0) == f"{name}[::1]"


def test_cai_structured_typestr_with_descr():
    descr = [("a", "|i1"), ("", "|V7"), ("b", "<f8")]
    arg = _arrays.array_arg(cai(typestr="|V16", descr=descr, strides=None), 0)
    assert arg.dtype.names == ("a", "b") and arg.dtype.fields["b"][1] == 8 and arg.dtype.itemsize == 16
    assert arg.signature([], 0) == "{a: int8, b: float64}[::1]"
    packed = [("a", "|i1"), ("b", "<f8")]  # offsets 0 and 1: not the C layout
    with pytest.raises(ValueError, match="argument 5: the structured dtype .* does not have the C layout"):
        _arrays.array_arg(cai(typestr="|V9", descr=packed), 5).signature([], 5)


@pytest.mark.parametrize(
    "over, error, message",
    [
        ({"mask": object()}, NotImplementedError, "masked arrays"),
        ({"data": (0, False)}, ValueError, "the data pointer is 0 for 4 elements"),
        ({"strides": (6,)}, ValueError, "stride 6 is not a multiple of the item size 4"),
        ({"typestr": "<x9"}, ValueError, "unknown typestr '<x9'"),
        ({"typestr": "float32"}, ValueError, "unknown typestr 'float32'"),
        ({"typestr": "<O8"}, ValueError, "unknown typestr '<O8'"),
        ({"typestr": ">f4"}, ValueError, "big-endian"),
        ({"version": 4}, ValueError, "unsupported version 4"),
        ({"version": -1}, ValueError, "unsupported version -1"),
        ({"version": _DROP}, ValueError, "unsupported version None"),
        ({"stream": 0}, ValueError, "stream 0 is invalid"),
        ({"stream": "s"}, ValueError, "stream must be an int or None"),
        ({"shape": (-1,)}, ValueError, "shape must be"),
        ({"shape": _DROP}, ValueError, "the required key 'shape' is missing"),
        ({"data": 1234}, ValueError, "data must be a \\(pointer, read_only\\) tuple"),
        ({"strides": (4, 4)}, ValueError, "strides must be a tuple of 1 ints"),
    ],
)
def test_cai_validation_names_the_argument(over, error, message):
    with pytest.raises(error, match=f"^argument 2 \\(CUDA Array Interface\\): {message}"):
        _arrays.array_arg(cai(**over), 2)


def test_cai_not_a_dict():
    with pytest.raises(
        ValueError, match="argument 0 \\(CUDA Array Interface\\): __cuda_array_interface__ must be a dict"
    ):
        _arrays.array_arg(FakeCAI.__new__(type("X", (), {"__cuda_array_interface__": 3})), 0)


def test_protocol_errors_come_before_the_device_check():
    # The same error on both targets, then the device check.
    for target in ("host", "cuda"):
        with pytest.raises(ValueError, match="argument 1 \\(CUDA Array Interface\\): stride 6"):
            _launch.pack_args(None, [np.zeros(1, np.float32), cai(strides=(6,))], target)
    with pytest.raises(
        ValueError, match="argument 1: a CUDA device array \\(CUDA Array Interface\\) cannot be passed to a host launch"
    ):
        _launch.pack_args(None, [np.zeros(1, np.float32), cai()], "host")
    assert _launch.pack_args(None, [cai(), cai(data=(8, True))], "cuda")[0] == "float32[::1], readonly float32[::1]"


def test_errors_through_device_launch_on_host(host_target):
    x = np.zeros(4, np.float32)
    s = pydev.default_stream()
    with pytest.raises(ValueError, match="argument 2: a CUDA device array"):
        device.launch(kernels.vector_add, x, x, cai(), grid=1, block=4, stream=s)
    with pytest.raises(NotImplementedError, match="argument 1 \\(CUDA Array Interface\\)"):
        device.launch(kernels.vector_add, x, cai(mask=[1]), x, grid=1, block=4, stream=s)
    with pytest.raises(TypeError, match="argument 1: a object cannot be passed to a kernel"):
        device.launch(kernels.vector_add, x, object(), x, grid=1, block=4, stream=s)
    with pytest.raises(ValueError, match="argument 0: 0-dimensional arrays"):
        device.launch(kernels.vector_add, np.zeros((), np.float32), x, x, grid=1, block=4, stream=s)


# --- NumPy arrays and signatures ---------------------------------------------------------------


def test_numpy_layouts_and_signatures():
    def sig(a):
        return _launch.signature_of(None, [a], "host")

    c = np.zeros((3, 4), np.float32)
    assert sig(c) == "float32[:, ::1]"
    assert sig(np.asfortranarray(c)) == "float32[::1, :]"
    assert sig(c[:, ::2]) == "float32[:, :]"
    assert sig(c.T) == "float32[::1, :]"
    assert sig(np.zeros(5)) == "float64[::1]"
    assert sig(np.zeros(5)[::-1]) == "float64[:]"
    assert sig(np.zeros((1, 5))[:, :]) == "float64[:, ::1]"
    assert sig(np.zeros((2, 3, 4), np.int8)) == "int8[:, :, ::1]"
    ro = np.zeros(3, np.uint16)
    ro.flags.writeable = False
    assert sig(ro) == "readonly uint16[::1]"
    assert sig(np.zeros(2, np.dtype(device.bfloat16))) == "bfloat16[::1]"
    assert sig(np.zeros(4, np.complex128)) == "complex128[::1]"
    assert sig(np.zeros(4, bool)) == "bool[::1]"


def test_arrays_of_structs_are_named_by_their_class():
    assert (
        _launch.signature_of(kernels.push, [np.zeros(3, kernels.Particle.dtype), np.float32(1)], "host")
        == "Particle[::1], float32"
    )
    anon = np.zeros(3, np.dtype([("a", "i1"), ("b", "f8")], align=True))
    assert _launch.signature_of(kernels.push, [anon], "host") == "{a: int8, b: float64}[::1]"
    with pytest.raises(ValueError, match="argument 0: the structured dtype"):
        _launch.signature_of(kernels.push, [np.zeros(3, [("a", "i1"), ("b", "f8")])], "host")
    with pytest.raises(ValueError, match="argument 0: arrays of <U3 cannot be passed"):
        _launch.signature_of(None, [np.zeros(2, "U3")], "host")
    with pytest.raises(ValueError, match="argument 0: arrays of Python objects"):
        _launch.signature_of(None, [np.zeros(2, object)], "host")


def test_signature_of_scalars_vectors_structs_tuples():
    p = kernels.Particle(device.float32x4(1, 2, 3, 4), 0.5)
    sig = _launch.signature_of(
        kernels.weigh,
        [np.zeros(2, np.float32), p, device.float32x2(1, 2), 1, 2.0, True, 1j, np.int64(3), (1, 2.0), np.float16(1)],
        "host",
    )
    assert sig == "float32[::1], Particle, float32x2, int32, float32, bool, complex64, int64, (int32, float32), float16"


def test_array_interface_objects():
    class AI:
        def __init__(self, a):
            self.a = a
            self.__array_interface__ = a.__array_interface__

    a = np.arange(6.0).reshape(2, 3)
    arg = _arrays.array_arg(AI(a), 0)
    assert (
        arg.device == "cpu"
        and arg.data == a.ctypes.data
        and arg.shape == (2, 3)
        and arg.signature([], 0) == "float64[:, ::1]"
    )


def test_kernel_abi_descriptors():
    a = np.zeros((3, 4), np.float32)
    _, packed, arrays = _launch.pack_args(None, [a, a[::-1, ::2], 7], "host")
    assert packed[0] == struct.pack("<QQQqq", a.ctypes.data, 3, 4, 4, 1)
    v = a[::-1, ::2]
    assert packed[1] == struct.pack("<QQQqq", v.ctypes.data, 3, 2, -4, 2)
    assert struct.unpack("<QQQQQ", packed[1])[3] == 2**64 - 4  # two's complement
    assert packed[2] == struct.pack("<i", 7)
    assert [x.keep is a for x in arrays] == [True, False]


# --- DeviceArray, to_device, to_host on the host target -------------------------------------------


def test_device_arrays_on_the_host(host_target):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = pydev.to_device(x)
    assert isinstance(d, pydev.DeviceArray) and d.shape == (3, 4) and d.dtype == np.float32 and d.size == 12
    assert d.ndim == 2 and d.strides == (16, 4) and d.nbytes == 48 and len(d) == 3
    x[0, 0] = 99  # a copy
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(pydev.to_host(d), d.copy_to_host())
    np.testing.assert_array_equal(np.from_dlpack(d), d.copy_to_host())
    np.testing.assert_array_equal(np.asarray(d), d.copy_to_host())
    assert d.__dlpack_device__() == (1, 0)
    assert not hasattr(d, "__cuda_array_interface__")
    assert d.__array_interface__["shape"] == (3, 4)
    z = pydev.zeros((2, 2), np.int32)
    assert z.copy_to_host().tolist() == [[0, 0], [0, 0]] and z.dtype == np.int32
    e = pydev.device_array(5, np.float64)
    assert e.shape == (5,) and e.target == "host"
    s = pydev.zeros(3, kernels.Particle)
    assert s.dtype == kernels.Particle.dtype
    assert _launch.signature_of(kernels.push, [s, np.float32(0)], "host") == "Particle[::1], float32"
    arg = _arrays.array_arg(d, 1)
    assert arg.device == "cpu" and arg.keep is d


def test_to_host_of_protocol_arrays():
    a = np.arange(10, dtype=np.int64)
    np.testing.assert_array_equal(pydev.to_host(Producer(a[::-3])), a[::-3])
    b = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(pydev.to_host(Producer(b.T)), b.T)
    np.testing.assert_array_equal(pydev.to_host(Producer(np.zeros((0, 3)))), np.zeros((0, 3)))
    with pytest.raises(TypeError, match="to_host\\(\\) takes an array"):
        pydev.to_host(3)


# --- streams and targets ---------------------------------------------------------------------------


def test_streams():
    h = pydev.Stream("host")
    assert not hasattr(h, "__cuda_stream__")
    h.synchronize()
    c = pydev.Stream("cuda", 0xBEEF)
    assert c.__cuda_stream__() == (0, 0xBEEF)
    from pydev._streams import stream_handle

    assert stream_handle(c) == 0xBEEF

    class CoreLike:
        def __cuda_stream__(self):
            return (0, 42)

    assert stream_handle(CoreLike()) == 42


def test_host_target(host_target):
    assert pydev.active_target() == "host"
    s = pydev.default_stream()
    assert s.target == "host"
    pydev.create_stream().synchronize()


def test_target_selection(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "gpu")
    with pytest.raises(ValueError, match="PYDEV_TARGET must be 'cuda' or 'host'"):
        pydev.active_target()
    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    if not _native.available() or not _native.cuda_status()[0]:
        with pytest.raises(pydev.TargetUnavailable, match="PYDEV_TARGET=cuda, but the cuda target is unavailable: ."):
            pydev.active_target()
    else:
        assert pydev.active_target() == "cuda"
    monkeypatch.delenv("PYDEV_TARGET")
    if not _native.available():
        with pytest.raises(ImportError, match="native module"):
            pydev.active_target()
    else:
        assert pydev.active_target() == ("cuda" if _native.cuda_status()[0] else "host")


def test_stream_of_another_target_is_refused(host_target):
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="stream is a cuda pydev.Stream, but the active target is host"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=4, stream=pydev.Stream("cuda", 0))


def test_exceptions_exist_without_the_native_module():
    assert issubclass(pydev.CompileError, Exception)
    assert issubclass(pydev.LaunchError, RuntimeError)
    assert issubclass(pydev.TargetUnavailable, RuntimeError)
    assert pydev.__version__
    assert {"compiles", "disk_hits", "memory_hits", "launches"} <= set(pydev.stats())


def test_ctypes_structures_match_dlpack_h():
    assert ctypes.sizeof(_dlpack.DLTensor) == 48
    assert ctypes.sizeof(_dlpack.DLManagedTensor) == 64
    assert ctypes.sizeof(_dlpack.DLManagedTensorVersioned) == 80
    assert _dlpack.DLManagedTensorVersioned.dl_tensor.offset == 32
