"""Kernel array arguments from DLPack and the CUDA Array Interface (v2, v3),
validated, without copying user data; `DeviceArray`, which exports both."""
import ctypes
import os

import numpy as np

from . import _types

# --- DLPack ----------------------------------------------------------------------

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", _Deleter),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


DLPACK_FLAG_READ_ONLY = 1

_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# DLPack dtype code -> NumPy kind; float8 codes of DLPack 1.1.
_DL_CODES = {0: "i", 1: "u", 2: "f", 5: "c", 6: "b"}


def _dl_dtype(dt, where):
    if dt.lanes != 1:
        raise ValueError(f"{where}: DLPack vectors of {dt.lanes} lanes are not supported")
    if dt.code == 4 and dt.bits == 16:
        return np.dtype(_types.bfloat16)
    if dt.code == 10 and dt.bits == 8:
        return np.dtype(_types.float8e4m3)
    if dt.code == 12 and dt.bits == 8:
        return np.dtype(_types.float8e5m2)
    kind = _DL_CODES.get(dt.code)
    if kind is None:
        raise ValueError(f"{where}: unknown DLPack dtype code {dt.code}")
    if kind == "b":
        return np.dtype(np.bool_)
    return np.dtype(f"{kind}{dt.bits // 8}")


class ArrayArg:
    """A validated array argument: the pointer and layout the kernel ABI
    wants, and what must stay alive while the kernel runs."""

    def __init__(self, data, shape, strides, dtype, readonly, device, keep, stream=None):
        self.data, self.shape, self.strides = data, tuple(shape), tuple(strides)
        self.dtype, self.readonly, self.device = np.dtype(dtype), readonly, device
        self.keep, self.stream = keep, stream

    def descriptor(self):
        """`{T* data; u64 shape[n]; u64 strides[n]}`, strides in elements."""
        words = [self.data, *self.shape, *[s & 0xFFFFFFFFFFFFFFFF for s in self.strides]]
        return np.array(words, dtype=np.uint64).tobytes()

    def signature(self, struct_names):
        return ("readonly " if self.readonly else "") + element_name(self.dtype, struct_names) + "[" + dims(self.shape, self.strides) + "]"


def element_name(dt, struct_names):
    name = _types.dtype_name(dt)
    if name is not None:
        return name
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        if len(shape) == 1 and _types.dtype_name(base):
            return f"{_types.dtype_name(base)}x{shape[0]}"
    if dt.fields:
        for cls_name, cls_dtype in struct_names.items():
            if cls_dtype == dt:
                return cls_name
        parts = [f"{n}: {element_name(dt.fields[n][0], struct_names)}" for n in dt.names]
        return "{" + ", ".join(parts) + "}"
    raise ValueError(f"arrays of {dt} cannot be passed to a kernel")


def dims(shape, strides):
    """`:`, `::1` per dimension: C order marks the last, F order the first."""
    n = len(shape)
    if n == 0:
        return ""
    c = all(strides[k] == int(np.prod(shape[k + 1:])) or shape[k] == 1 for k in range(n))
    f = n > 1 and all(strides[k] == int(np.prod(shape[:k])) or shape[k] == 1 for k in range(n))
    parts = [":"] * n
    if c:
        parts[-1] = "::1"
    elif f:
        parts[0] = "::1"
    return ", ".join(parts)


def from_dlpack(obj, position, stream=None):
    where = f"argument {position} (DLPack)"
    try:
        capsule = obj.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:
        capsule = obj.__dlpack__()
    if _api.PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        managed = DLManagedTensorVersioned.from_address(_api.PyCapsule_GetPointer(capsule, b"dltensor_versioned"))
        tensor, readonly = managed.dl_tensor, bool(managed.flags & DLPACK_FLAG_READ_ONLY)
    elif _api.PyCapsule_IsValid(capsule, b"dltensor"):
        managed = DLManagedTensor.from_address(_api.PyCapsule_GetPointer(capsule, b"dltensor"))
        tensor, readonly = managed.dl_tensor, False
    else:
        raise ValueError(f"{where}: __dlpack__ did not return a DLPack capsule")
    dtype = _dl_dtype(tensor.dtype, where)
    shape = [tensor.shape[k] for k in range(tensor.ndim)]
    if tensor.strides:
        strides = [tensor.strides[k] for k in range(tensor.ndim)]
    else:
        strides = [int(np.prod(shape[k + 1:])) for k in range(tensor.ndim)]
    size = int(np.prod(shape)) if shape else 1
    if not tensor.data and size:
        raise ValueError(f"{where}: data pointer is NULL for {size} elements")
    device = {kDLCPU: "cpu", kDLCUDAHost: "cpu", kDLCUDA: "cuda", kDLCUDAManaged: "cuda"}.get(tensor.device.device_type)
    if device is None:
        raise ValueError(f"{where}: arrays on DLPack device type {tensor.device.device_type} are not supported")
    data = (tensor.data or 0) + tensor.byte_offset
    # The capsule keeps the producer's memory alive until it is released.
    return ArrayArg(data, shape, strides, dtype, readonly, device, keep=(obj, capsule))


def _typestr(typestr, descr, where):
    if not isinstance(typestr, str) or len(typestr) < 3 or typestr[0] not in "<>|=":
        raise ValueError(f"{where}: unknown typestr {typestr!r}")
    try:
        if typestr[1] == "V" and descr is not None and descr != [("", typestr)]:
            return np.dtype(descr)
        dt = np.dtype(typestr)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: unknown typestr {typestr!r}") from None
    if dt.kind not in "biufcV":
        raise ValueError(f"{where}: unknown typestr {typestr!r}")
    return dt


def from_cai(obj, position):
    where = f"argument {position} (CUDA Array Interface)"
    cai = obj.__cuda_array_interface__
    if not isinstance(cai, dict):
        raise ValueError(f"{where}: __cuda_array_interface__ must be a dict")
    version = cai.get("version")
    if version not in (0, 1, 2, 3):
        raise ValueError(f"{where}: unsupported version {version!r} (0 to 3 are)")
    if cai.get("mask") is not None:
        raise NotImplementedError(f"{where}: masked arrays are not supported")
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ValueError(f"{where}: missing '{key}'")
    shape = tuple(cai["shape"])
    if any(not isinstance(e, int) or e < 0 for e in shape):
        raise ValueError(f"{where}: shape {shape} must be non-negative integers")
    dtype = _typestr(cai["typestr"], cai.get("descr"), where)
    data = cai["data"]
    if not (isinstance(data, tuple) and len(data) == 2):
        raise ValueError(f"{where}: data must be a (pointer, read_only) tuple")
    ptr, readonly = data
    size = int(np.prod(shape)) if shape else 1
    if not ptr and size:
        raise ValueError(f"{where}: data pointer is 0 for {size} elements")
    strides = cai.get("strides")
    if strides is None:
        elem = [int(np.prod(shape[k + 1:])) for k in range(len(shape))]
    else:
        if len(strides) != len(shape):
            raise ValueError(f"{where}: {len(strides)} strides for {len(shape)} dimensions")
        bad = [s for s in strides if s % dtype.itemsize]
        if bad:
            raise ValueError(f"{where}: stride {bad[0]} is not a multiple of the item size {dtype.itemsize}")
        elem = [s // dtype.itemsize for s in strides]
    stream = cai.get("stream") if version == 3 else None
    if stream == 0:
        raise ValueError(f"{where}: stream 0 is invalid (1 is the legacy default stream, 2 the per-thread default)")
    return ArrayArg(ptr or 0, shape, elem, dtype, bool(readonly), "cuda", keep=obj, stream=stream)


def from_array_interface(obj, position):
    a = np.asarray(obj)
    return from_numpy(a, position)


def from_numpy(a, position):
    strides = [s // a.itemsize for s in a.strides]
    if any(s % a.itemsize for s in a.strides):
        raise ValueError(f"argument {position}: strides {a.strides} are not multiples of the item size {a.itemsize}")
    return ArrayArg(a.ctypes.data, a.shape, strides, a.dtype, not a.flags.writeable, "cpu", keep=a)


def array_arg(obj, position, stream=None):
    """The ArrayArg of an array-like argument, or None if `obj` is no array.
    DLPack wins over the CUDA Array Interface (spec); protocol data is
    validated before anything checks where the array lives."""
    if isinstance(obj, np.generic):
        return None  # NumPy scalars are numbers, not arrays
    if isinstance(obj, np.ndarray):
        # NumPy's own layout (structured dtypes too, which DLPack cannot carry).
        return from_numpy(obj, position)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return from_dlpack(obj, position, stream)
    if hasattr(obj, "__cuda_array_interface__"):
        return from_cai(obj, position)
    if isinstance(obj, np.ndarray) or hasattr(obj, "__array_interface__"):
        return from_array_interface(obj, position)
    return None


# --- DeviceArray ---------------------------------------------------------------------


class DeviceArray:
    """An array on the active target. On `host` it wraps a NumPy array and
    exports DLPack and `__array_interface__`; on `cuda` it owns device memory
    and exports the CUDA Array Interface v3 (with its stream) and DLPack."""

    def __init__(self, shape, dtype, target, stream=None, _host=None):
        self.shape = tuple(shape) if isinstance(shape, (tuple, list)) else (int(shape),)
        self.dtype = np.dtype(dtype)
        self.target = target
        self.stream = stream
        self._host = _host
        self._ptr = 0
        if target == "host":
            if self._host is None:
                self._host = np.empty(self.shape, self.dtype)
        else:
            from . import _native

            self._ptr = _native().cuda_alloc(max(self.nbytes, 1))

    @property
    def size(self):
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def ndim(self):
        return len(self.shape)

    def __del__(self):
        if getattr(self, "_ptr", 0):
            try:
                from . import _native

                _native().cuda_free(self._ptr)
            except Exception:
                pass

    # host
    @property
    def __array_interface__(self):
        if self.target != "host":
            raise AttributeError("__array_interface__ is for host arrays: use copy_to_host()")
        return self._host.__array_interface__

    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        if self.target == "host":
            try:
                return self._host.__dlpack__(stream=stream, max_version=max_version) if max_version else self._host.__dlpack__(stream=stream)
            except TypeError:
                return self._host.__dlpack__()
        return make_capsule(self._ptr, self.shape, self.dtype, kDLCUDA, owner=self)

    def __dlpack_device__(self):
        return (kDLCPU, 0) if self.target == "host" else (kDLCUDA, 0)

    @property
    def __cuda_array_interface__(self):
        if self.target == "host":
            raise AttributeError("host arrays export DLPack and __array_interface__, not the CUDA Array Interface")
        stream = getattr(self.stream, "handle", None)
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self._ptr, False), "strides": None, "version": 3, "stream": stream or 1}

    def copy_to_host(self):
        if self.target == "host":
            return self._host.copy()
        from . import _native

        out = np.empty(self.shape, self.dtype)
        _native().cuda_memcpy_dtoh(out, self._ptr, self.nbytes, getattr(self.stream, "handle", 0) or 0)
        return out

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, target={self.target})"


_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
_keepalive = {}


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _delete(address):
    _keepalive.pop(address, None)


_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@_CapsuleDestructor
def _capsule_destructor(capsule):
    # An unconsumed capsule (still named "dltensor") releases its tensor.
    name = b"dltensor"
    if ctypes.pythonapi.PyCapsule_IsValid(ctypes.cast(capsule, ctypes.py_object), name):
        address = ctypes.pythonapi.PyCapsule_GetPointer(ctypes.cast(capsule, ctypes.py_object), name)
        _keepalive.pop(address, None)


def make_capsule(ptr, shape, dtype, device_type, owner):
    """A DLPack 'dltensor' capsule for memory at `ptr` kept alive by `owner`."""
    dtype = np.dtype(dtype)
    n = len(shape)
    shape_arr = (ctypes.c_int64 * max(n, 1))(*shape)
    managed = DLManagedTensor()
    managed.dl_tensor.data = ptr
    managed.dl_tensor.device = DLDevice(device_type, 0)
    managed.dl_tensor.ndim = n
    managed.dl_tensor.dtype = DLDataType(_CODES[dtype.kind], dtype.itemsize * 8, 1)
    managed.dl_tensor.shape = ctypes.cast(shape_arr, ctypes.POINTER(ctypes.c_int64))
    managed.dl_tensor.strides = None
    managed.dl_tensor.byte_offset = 0
    managed.deleter = _delete
    address = ctypes.addressof(managed)
    _keepalive[address] = (managed, shape_arr, owner)
    return _api.PyCapsule_New(address, b"dltensor", ctypes.cast(_capsule_destructor, ctypes.c_void_p))


def cai_sync_enabled():
    return os.environ.get("PYDEV_CAI_SYNC", "1") != "0"
