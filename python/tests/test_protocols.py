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


@pytest.fixture(params=["native", "ctypes"])
def consumer(request, monkeypatch):
    """DLPack capsules consumed by the native reader (python/src/protocols.rs
    `dlpack_read`) and by the ctypes fallback of the pure-Python package."""
    if request.param == "native":
        if not _dlpack._native_reader():
            pytest.skip("the native module pydev._pydev is not built (make wheel)")
    else:
        monkeypatch.setattr(_dlpack, "_native_consume", False)
    return request.param


@pytest.fixture(params=["native", "python"])
def cai_reader(request, monkeypatch):
    """CUDA Array Interface dicts read by the native reader (`cai_read`, the
    launch fast path's too) and by the pure-Python one."""
    if request.param == "native":
        if not _arrays._cai_reader():
            pytest.skip("the native module pydev._pydev is not built (make wheel)")
    else:
        monkeypatch.setattr(_arrays, "_native_cai", False)
    return request.param


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
def test_dlpack_versioned_capsule_from_numpy(consumer):
    a = np.arange(24, dtype=np.int16).reshape(4, 6)[1:, ::2]
    p = Producer(a)
    arg = _arrays.array_arg(p, 0)
    assert p.calls == [{"stream": None, "max_version": (1, 0)}]
    assert arg.protocol == "DLPack" and arg.device == "cpu"
    assert arg.data == a.ctypes.data and arg.shape == (3, 3) and arg.strides == (6, 2) and arg.dtype == np.int16
    assert not arg.readonly
    assert arg.signature([], 0) == "int16[:, :]"
    assert arg.keep[1].capsule is not None


def test_dlpack_unversioned_capsule_and_old_producers(consumer):
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
def test_dlpack_read_only_flag(consumer):
    a = np.arange(5, dtype=np.float32)
    a.flags.writeable = False
    arg = _arrays.array_arg(Producer(a), 1)
    assert arg.readonly and arg.signature([], 1) == "readonly float32[::1]"
    # An unversioned capsule cannot say read-only: NumPy refuses to export it.
    with pytest.raises(ValueError, match="argument 1 \\(DLPack\\): the producer cannot export it"):
        _arrays.array_arg(Producer(a, versioned=False), 1)


@needs_dlpack_1
def test_dlpack_consumer_renames_the_capsule_and_calls_the_deleter(consumer):
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


def test_dlpack_null_strides_byte_offset_and_device_type(consumer):
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


def test_dlpack_dtypes(consumer):
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


def _crafted_capsule(p, owner):
    """A capsule of pydev's exporter whose tensor is then rewritten as `p` says."""
    versioned = p["versioned"]
    strides = (12, 4, 1) if p["strides"] else None
    cap = _dlpack.make_capsule(
        owner.ctypes.data, (2, 3, 4), owner.dtype, 1, owner=owner, strides=strides, versioned=versioned
    )
    name = b"dltensor_versioned" if versioned else b"dltensor"
    cls = _dlpack.DLManagedTensorVersioned if versioned else _dlpack.DLManagedTensor
    m = cls.from_address(_dlpack._GetPointer(cap, name))
    t = m.dl_tensor
    t.device = _dlpack.DLDevice(p["device"], p["device_id"])
    t.dtype = _dlpack.DLDataType(*p["dtype"])
    t.ndim = p["ndim"]
    for k, e in enumerate(p["shape"]):
        t.shape[k] = e
    if p["null"]:
        t.data = None
    t.byte_offset = p["offset"]
    if versioned:
        m.version.major, m.version.minor, m.flags = p["major"], 7, p["flags"]
    return cap


def _consumed(reader, capsule):
    saved = _dlpack._native_consume
    _dlpack._native_consume = reader
    try:
        t = _dlpack.DLPackTensor(capsule, "argument 9 (DLPack)")
    except Exception as e:
        return type(e), str(e)
    finally:
        _dlpack._native_consume = saved
    out = (t.data, t.shape, t.strides, t.dtype, t.device, t.device_type, t.device_id, t.readonly)
    assert "used_dltensor" in repr(capsule)
    t.release()
    return "ok", out


def test_dlpack_readers_agree():
    """The native DLPack reader and the ctypes one: the same tensors, and
    the same errors with the same messages, on many rewritten capsules (a
    fixed seed); every tensor consumed is released."""
    import random

    native = _dlpack._native_reader()
    if not native:
        pytest.skip("the native module pydev._pydev is not built (make wheel)")
    rng = random.Random(30)
    owner = np.zeros(64, np.float32)
    before = _dlpack.live_exports()
    seen = set()
    kinds = ["DLPack version", "device type", "dtype (code", "lanes", "ndim", "negative extent", "NULL"]
    dtypes = [(2, 32, 1), (0, 8, 1), (1, 64, 1), (5, 128, 1), (6, 8, 1), (4, 16, 1), (10, 8, 1), (12, 8, 1), (2, 32, 4)]
    bad_dtypes = [(3, 64, 1), (2, 8, 1), (6, 16, 1), (2, 32, 8), (5, 64, 2), (6, 8, 3), (2, 32, 0)]
    for _ in range(1500):
        p = {
            "versioned": rng.random() < 0.6,
            "strides": rng.random() < 0.5,
            "device": rng.choice([1, 2, 3, 13]) if rng.random() < 0.9 else rng.choice([4, 10, 0]),
            "device_id": rng.choice([0, 1, 3]),
            "dtype": rng.choice(dtypes) if rng.random() < 0.85 else rng.choice(bad_dtypes),
            "ndim": rng.choice([0, 1, 2, 3]) if rng.random() < 0.95 else -1,
            "shape": [rng.choice([0, 1, 2, 5]) if rng.random() < 0.95 else -2 for _ in range(3)],
            "null": rng.random() < 0.1,
            "offset": rng.choice([0, 0, 8, 64]),
            "major": 1 if rng.random() < 0.95 else rng.choice([0, 2]),
            "flags": rng.choice([0, 1, 2, 3]),
        }
        ours, theirs = _consumed(native, _crafted_capsule(p, owner)), _consumed(False, _crafted_capsule(p, owner))
        assert ours == theirs, p
        seen.add("ok" if ours[0] == "ok" else next(k for k in kinds if k in ours[1]))
    assert seen == {"ok", *kinds}, seen
    not_capsule = [_consumed(r, object()) for r in (native, False)]
    assert not_capsule[0] == not_capsule[1] and "did not return an unconsumed DLPack capsule" in not_capsule[0][1]
    assert _dlpack.live_exports() == before


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


def test_pydev_capsules_are_consumable_and_freed(exporter, consumer):
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


def test_cai_well_formed(cai_reader):
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
def test_cai_typestrs(typestr, dtype, name, cai_reader):
    arg = _arrays.array_arg(cai(typestr=typestr), 0)
    assert arg.dtype == dtype and arg.signature([], 0) == f"{name}[::1]"


def test_cai_structured_typestr_with_descr(cai_reader):
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
def test_cai_validation_names_the_argument(over, error, message, cai_reader):
    with pytest.raises(error, match=f"^argument 2 \\(CUDA Array Interface\\): {message}"):
        _arrays.array_arg(cai(**over), 2)


def test_cai_not_a_dict(cai_reader):
    with pytest.raises(
        ValueError, match="argument 0 \\(CUDA Array Interface\\): __cuda_array_interface__ must be a dict"
    ):
        _arrays.array_arg(FakeCAI.__new__(type("X", (), {"__cuda_array_interface__": 3})), 0)


@pytest.mark.parametrize(
    "over, message",
    [
        ({"typestr": "|V0"}, "unknown typestr '|V0'"),
        ({"typestr": "<f3"}, "unknown typestr '<f3'"),
        ({"typestr": "<i16"}, "unknown typestr '<i16'"),
        ({"typestr": "<f\u0664"}, "unknown typestr '<f\u0664'"),  # a digit, not an ASCII one
        ({"typestr": 4}, "unknown typestr 4"),
        ({"shape": (True,)}, "shape must be a tuple of non-negative ints, got \\(True,\\)"),
        ({"shape": (2**63,)}, "shape must be"),
        ({"data": (2**64, False)}, "data must be"),
        ({"strides": (2**63,)}, "strides must be a tuple of 1 ints or None"),
        ({"typestr": "|V8", "descr": "ab"}, "descr must be a list of \\(name, format\\[, shape\\]\\) tuples"),
        ({"typestr": "|V8", "descr": [("a", "<f4", 2, 1)]}, "malformed descr entry \\('a', '<f4', 2, 1\\)"),
        ({"typestr": "|V8", "descr": [(5, "<f4")]}, "malformed descr entry \\(5, '<f4'\\)"),
        ({"typestr": "|V8", "descr": [("a", "<f4", -1)]}, "malformed descr entry"),
        ({"typestr": "|V8", "descr": [("a", "<f4"), ("a", "<f4")]}, "malformed descr: field 'a' occurs more than once"),
        ({"typestr": "|V8", "descr": [("a", "<f8"), ("b", "<f4")]}, "descr describes 12 bytes, typestr 8"),
        ({"typestr": "|V8", "descr": [("a", ">f8")]}, "big-endian typestr '>f8' is not supported"),
        ({"typestr": "|V8", "descr": [("a", [("x", "<q8")])]}, "unknown typestr '<q8' \\(supported kinds"),
        ({"shape": (2**20, 2**20, 2**20), "data": (0, False)}, f"the data pointer is 0 for {2**60} elements"),
        ({"shape": (2**40, 2**40, 2**40)}, "shape \\(1099511627776, 1099511627776, 1099511627776\\) is too large"),
    ],
)
def test_cai_more_validation(over, message, cai_reader):
    with pytest.raises(ValueError, match=f"^argument 2 \\(CUDA Array Interface\\): {message}"):
        _arrays.array_arg(cai(**over), 2)


def test_cai_structured_descr(cai_reader):
    # titles, nested structs, sub-arrays and padding, as NumPy's descr spells them
    dt = np.dtype(
        {
            "names": ["a", "p", "v"],
            "formats": ["<i2", np.dtype([("x", "<f4"), ("y", "<u1")], align=True), ("<f4", (2, 3))],
            "offsets": [0, 4, 16],
            "titles": ["A title", None, None],
            "itemsize": 48,
        }
    )
    arg = _arrays.array_arg(cai(typestr=dt.str, descr=dt.descr, shape=(3,), strides=(96,)), 0)
    assert arg.dtype.names == ("a", "p", "v") and arg.dtype.itemsize == 48 and arg.strides == (2,)
    assert [arg.dtype.fields[n][1] for n in arg.dtype.names] == [0, 4, 16]
    assert arg.dtype["p"] == dt["p"] and arg.dtype["v"].shape == (2, 3) and arg.dtype["v"].base == np.float32
    # NumPy's descr of a plain void is no structure
    plain = _arrays.array_arg(cai(typestr="|V8", descr=[("", "|V8")]), 0)
    assert plain.dtype == np.dtype("V8") and plain.dtype.names is None
    # descr is read for 'V' typestrs only (NumPy exports one for every array)
    assert _arrays.array_arg(cai(descr=[("", "<f4")]), 0).dtype == np.float32
    assert _arrays.array_arg(cai(descr="anything"), 0).dtype == np.float32


def test_cai_streams_and_read_only(cai_reader):
    for value, readonly in [(True, True), (False, False), (1, True), (0, False), (None, False), (np.bool_(True), True)]:
        assert _arrays.array_arg(cai(data=(0x10000, value)), 0).readonly is readonly
    assert _arrays.array_arg(cai(data=[np.uint64(0x20000), False]), 0).data == 0x20000
    s = _arrays.array_arg(cai(stream=np.int64(0x77)), 0).stream
    assert s == 0x77 and type(s) is int
    assert _arrays.array_arg(cai(version=np.int8(3), stream=2), 0).stream == 2
    assert _arrays.array_arg(cai(version=1, stream="ignored before v3"), 0).stream is None
    with pytest.raises(ValueError, match="stream must be an int or None, got True"):
        _arrays.array_arg(cai(stream=True), 0)
    shape = _arrays.array_arg(cai(shape=[np.int32(2), 3], strides=[np.int64(12), 4]), 0)
    assert (shape.shape, shape.strides) == ((2, 3), (3, 1)) and all(type(e) is int for e in shape.shape + shape.strides)
    # empty extents: C strides count them as 1 (as pydev._dlpack.c_strides)
    assert _arrays.array_arg(cai(shape=(2, 0, 3), data=(0, False)), 0).strides == (3, 3, 1)

    class Bad:
        def __bool__(self):
            raise RuntimeError("no truth")

    with pytest.raises(RuntimeError, match="no truth"):
        _arrays.array_arg(cai(data=(0x10000, Bad())), 0)


def _random_descr(rng, depth=0):
    names = ["a", "b", "c", "", ("t", "d"), ["u", "e"]]
    out = []
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(names)
        kind = rng.random()
        if kind < 0.15 and depth < 2:
            fmt = _random_descr(rng, depth + 1)
        elif kind < 0.9:
            fmt = rng.choice(["<f4", "|i1", "<u2", "<f8", "|V3", "|b1", "<c8", "<i8"])
        else:
            fmt = rng.choice([">f4", "<f3", 5, ("<f4",), "<x4"])
        entry = [name, fmt]
        r = rng.random()
        if r < 0.2:
            entry.append(rng.choice([2, (2, 3), [1], (), (0,), -1, (True,), 2.0]))
        elif r < 0.23:
            entry = [name]
        elif r < 0.25:
            entry = entry + [1, 2]
        out.append(tuple(entry) if rng.random() < 0.8 else entry)
    return out


_STRUCTURED = [
    np.dtype([("a", "i1"), ("b", "f8")], align=True),
    np.dtype([("a", "i1"), ("b", "f8")]),
    np.dtype([("x", "<f4", (4,)), ("n", [("p", "u2"), ("q", "c8")])], align=True),
    np.dtype({"names": ["a", "b"], "formats": ["u1", "f4"], "offsets": [0, 8], "itemsize": 16, "titles": ["T", None]}),
    np.dtype([("m", "f8", (2, 2))]),
]


def _random_cai(rng):
    """A CUDA Array Interface dict, each key well formed, ill formed
    (about one in ten) or missing."""
    good_bad = {
        "version": ([3, 3, 2, 0, 1, np.int32(3)], [4, -1, None, True, 3.0, "3"]),
        "shape": (
            [(4,), (2, 3), (), [3, 0], (0,), (2, 2, 2), (np.int64(5),), (2**20, 2**20, 2**20)],
            [(-1,), (True,), (2.0,), 3, None, (2**63,), (2**40, 2**40, 2**40)],
        ),
        "typestr": (
            ["<f4", "|i1", "<u8", "<c16", "|b1", "=u2", "<f016", "|V16", "|V8", ">V8", ">i1", "<f2", "<i2"],
            ["<x9", "float32", "<O8", ">f4", "|V0", "<f3", 4, None, "<f\u0664", "<b2", "|V2147483648", "<f"],
        ),
        "data": (
            [(0x10000, False), (0x10000, True), [0x20000, 0], (np.uint64(0x30000), np.bool_(True)), (0, False)],
            [(-1, False), (2**64, False), (True, False), 1234, (1,), (1.5, False)],
        ),
        "strides": (
            [None, (4,), (8, 4), (4, 8), (-4,), (16, 4), (0, 0), (16,), (48, 16, 4)],
            [(6,), (True,), (2**63,), "x"],
        ),
        "stream": ([None, 1, 2, 0xABC, np.int64(5), -3], [0, "s", True, 2.0]),
    }
    d = {}
    for key, (good, bad) in good_bad.items():
        r = rng.random()
        if r < 0.85:
            d[key] = rng.choice(good)
        elif r < 0.95:
            d[key] = rng.choice(bad)
    if rng.random() < 0.05:
        d["mask"] = rng.choice([None, object(), [1]])
    if isinstance(d.get("typestr"), str) and "V" in d["typestr"]:
        r = rng.random()
        if r < 0.4:  # NumPy's own descr of a structured dtype
            dt = rng.choice(_STRUCTURED)
            d["typestr"], d["descr"] = dt.str, dt.descr
        elif r < 0.75:
            d["descr"] = _random_descr(rng)
        elif r < 0.85:
            d["descr"] = [("", d["typestr"])]
        elif r < 0.95:
            d["descr"] = rng.choice(["ab", 3, None, (("a", "<f4"),)])
    elif rng.random() < 0.3:
        d["descr"] = [("", "<f4")]
    return d if rng.random() < 0.98 else rng.choice([3, [d], None])


def _outcome(read, cai, position):
    try:
        return "ok", repr(read(cai, position))
    except Exception as e:
        return type(e), str(e)


def test_cai_readers_agree():
    """The native reader and its pure-Python twin: the same results and
    the same exceptions with the same messages, on many valid and invalid
    dicts (a fixed seed), and the same dtypes of what they read."""
    import random

    native = _arrays._cai_reader()
    if not native:
        pytest.skip("the native module pydev._pydev is not built (make wheel)")
    rng = random.Random(30)
    seen = {"ok": 0}
    for i in range(6000):
        d = _random_cai(rng)
        ours, theirs = _outcome(native, d, i), _outcome(_arrays.read_cai, d, i)
        assert ours == theirs, d
        if ours[0] == "ok":
            seen["ok"] += 1
            _, _, _, typestr, fields, _, _ = native(d, i)
            assert _arrays.cai_dtype(typestr, fields, i).itemsize == int(typestr[2:])
            seen["structured"] = seen.get("structured", 0) + (fields is not None)
        else:
            seen[ours[1].split(": ", 1)[1][:20]] = True
    # every kind of outcome came up
    assert seen["ok"] > 500 and seen["structured"] > 50 and len(seen) > 25, (seen["ok"], sorted(seen))


def test_protocol_errors_come_before_the_device_check(cai_reader):
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
