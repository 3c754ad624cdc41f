"""DLPack: consuming a producer's capsule ("dltensor" or
"dltensor_versioned": DLManagedTensor / DLManagedTensorVersioned, DLPack
1.x), and exporting memory as a capsule (pydev.DeviceArray.__dlpack__).

Consuming follows the DLPack Python specification: the consumer renames the
capsule to "used_dltensor" / "used_dltensor_versioned", which makes it the
owner of the managed tensor, and calls the tensor's deleter once it no
longer needs the memory (here: when the DLPackTensor is released). Both
directions are native (python/src/protocols.rs `dlpack_read`, the reader
the launch fast path uses too, and capi.rs `dlpack_capsule`) when the
native module is there; ctypes (pydev._dlpack_c) serves the pure-Python
package, with the same rules and messages."""

import ctypes
import functools
import sys
import math
import weakref

import numpy as np

from . import _types

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
DEVICE_NAMES = {kDLCPU: "cpu", kDLCUDA: "cuda", kDLCUDAHost: "cuda_host", kDLCUDAManaged: "cuda_managed"}

kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
kDLFloat8_e4m3fn, kDLFloat8_e5m2 = 10, 12

DLPACK_FLAG_BITMASK_READ_ONLY = 1 << 0
DLPACK_FLAG_BITMASK_IS_COPIED = 1 << 1


def __getattr__(name):
    # DLPack's ctypes structures and the capsule API (pydev._dlpack_c),
    # imported on first use; not for the import system's own probes
    # (`__path__`, ...).
    if name.startswith("__"):
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    from . import _dlpack_c

    try:
        return getattr(_dlpack_c, name)
    except AttributeError:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'") from None


def _dtype_from_dl(dt, where):
    return _dtype_of_dl(dt.code, dt.bits, dt.lanes, where)


def _dtype_of_dl(code, bits, lanes, where):
    """The NumPy dtype of DLPack type (code, bits, lanes); ValueError
    "{where}: ..." for one device code does not have."""
    base = None
    if code in (kDLInt, kDLUInt) and bits in (8, 16, 32, 64):
        base = np.dtype(f"{'i' if code == kDLInt else 'u'}{bits // 8}")
    elif code == kDLFloat and bits in (16, 32, 64):
        base = np.dtype(f"f{bits // 8}")
    elif code == kDLComplex and bits in (64, 128):
        base = np.dtype(f"c{bits // 8}")
    elif code == kDLBool and bits == 8:
        base = np.dtype(np.bool_)
    elif code == kDLBfloat and bits == 16:
        base = np.dtype(_types.bfloat16)
    elif code == kDLFloat8_e4m3fn and bits == 8:
        base = np.dtype(_types.float8e4m3)
    elif code == kDLFloat8_e5m2 and bits == 8:
        base = np.dtype(_types.float8e5m2)
    if base is None:
        raise ValueError(f"{where}: DLPack dtype (code {code}, {bits} bits) is not supported by device code")
    if lanes == 1:
        return base
    if 2 <= lanes <= 4 and code != kDLComplex and code != kDLBool:
        return np.dtype((base, (lanes,)))  # an array of vectors (float32x4, ...)
    raise ValueError(f"{where}: DLPack dtype with {lanes} lanes is not supported (vectors have 1 to 4)")


def _dtype_to_dl(dt):
    from ._dlpack_c import DLDataType

    return DLDataType(*_dl_type(dt))


def _dl_type(dt):
    """(code, bits, lanes) of NumPy dtype `dt` in DLPack."""
    dt = np.dtype(dt)
    lanes = 1
    if dt.subdtype is not None and len(dt.subdtype[1]) == 1:
        dt, lanes = dt.subdtype[0], dt.subdtype[1][0]
    name = _types.dtype_name(dt)
    codes = {"bool": kDLBool, "bfloat16": kDLBfloat, "float8e4m3": kDLFloat8_e4m3fn, "float8e5m2": kDLFloat8_e5m2}
    if name is None:
        raise BufferError(f"arrays of {dt} cannot be exported through DLPack")
    if name in codes:
        code = codes[name]
    else:
        code = {"i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}[dt.kind]
    return code, dt.itemsize * 8, lanes


def _release(deleter, managed):
    if deleter:
        from ._dlpack_c import _Deleter

        _Deleter(deleter)(managed)


_native_consume = None  # pydev._pydev.dlpack_read, looked up on first use (False: ctypes)
_dl_dtypes = {}  # (code, bits, lanes) -> dtype, of tensors the native reader accepted


def _native_reader():
    global _native_consume
    if _native_consume is None:
        try:
            from ._pydev import dlpack_read
        except ImportError:  # the pure-Python package: ctypes
            dlpack_read = False
        _native_consume = dlpack_read
    return _native_consume


class DLPackTensor:
    """A consumed DLPack tensor: data pointer (byte_offset applied), shape,
    strides in elements, NumPy dtype, read-only flag and device. Owns the
    managed tensor: its deleter runs when this object is released. Read
    by the native module's reader where it is there, else through ctypes."""

    def __init__(self, capsule, where):
        read = _native_consume if _native_consume is not None else _native_reader()
        if read:
            # The native owner calls the deleter when freed or released.
            self.data, self.shape, self.strides, dl, device, self.readonly, self._owner = read(capsule, where)
            self.capsule = capsule
            self.device_type, self.device_id = device
            self.device = DEVICE_NAMES[self.device_type]
            dt = _dl_dtypes.get(dl)
            if dt is None:
                dt = _dl_dtypes[dl] = _dtype_of_dl(*dl, where)
            self.dtype = dt
            return
        self._owner = None
        self._consume_ctypes(capsule, where)

    def release(self):
        """Calls the producer's deleter now (at most once)."""
        if self._owner is not None:
            self._owner.release()
        else:
            self._finalizer()

    def _consume_ctypes(self, capsule, where):
        from ._dlpack_c import (
            _NAMES,
            DLManagedTensor,
            DLManagedTensorVersioned,
            _ErrClear,
            _GetPointer,
            _IsValid,
            _SetName,
        )

        if _IsValid(capsule, b"dltensor_versioned"):
            address = _GetPointer(capsule, b"dltensor_versioned")
            managed = DLManagedTensorVersioned.from_address(address)
            if managed.version.major != 1:
                raise ValueError(
                    f"{where}: DLPack version {managed.version.major}.{managed.version.minor} is not supported (1.x is)"
                )
            tensor, self.readonly = managed.dl_tensor, bool(managed.flags & DLPACK_FLAG_BITMASK_READ_ONLY)
            used = b"used_dltensor_versioned"
        elif _IsValid(capsule, b"dltensor"):
            address = _GetPointer(capsule, b"dltensor")
            managed = DLManagedTensor.from_address(address)
            tensor, self.readonly = managed.dl_tensor, False
            used = b"used_dltensor"
        else:
            _ErrClear()
            raise ValueError(
                f"{where}: __dlpack__() did not return an unconsumed DLPack capsule ('dltensor' or 'dltensor_versioned')"
            )
        # From here on this object owns the tensor.
        if _SetName(capsule, ctypes.addressof(_NAMES[used])) != 0:
            raise ValueError(f"{where}: the DLPack capsule could not be marked as used")
        self.capsule = capsule
        self._finalizer = weakref.finalize(self, _release, managed.deleter, address)
        self.device_type = tensor.device.device_type
        self.device_id = tensor.device.device_id
        self.device = DEVICE_NAMES.get(self.device_type)
        if self.device is None:
            raise ValueError(
                f"{where}: arrays on DLPack device type {self.device_type} are not supported (CPU, CUDA, CUDA host and managed memory are)"
            )
        self.dtype = _dtype_from_dl(tensor.dtype, where)
        ndim = tensor.ndim
        if ndim < 0:
            raise ValueError(f"{where}: ndim is {ndim}")
        self.shape = tuple(int(tensor.shape[k]) for k in range(ndim))
        if any(s < 0 for s in self.shape):
            raise ValueError(f"{where}: negative extent in shape {self.shape}")
        if tensor.strides and ndim:
            self.strides = tuple(int(tensor.strides[k]) for k in range(ndim))
        else:  # NULL strides: C order
            self.strides = c_strides(self.shape)
        size = int(math.prod(self.shape)) if self.shape else 1
        if not tensor.data and size:
            raise ValueError(f"{where}: the data pointer is NULL for {size} elements")
        self.data = (tensor.data or 0) + int(tensor.byte_offset)


def c_strides(shape):
    """Element strides of a C-contiguous array of `shape`."""
    out, acc = [], 1
    for extent in reversed(shape):
        out.append(acc)
        acc *= max(int(extent), 1)
    return tuple(reversed(out))


# --- exporting --------------------------------------------------------------------------


def _ctypes_exports():
    """How many tensors the ctypes exporter (pydev._dlpack_c, which keeps
    them) has alive: none when it was never imported."""
    c = sys.modules.get("pydev._dlpack_c")
    return len(c._exports) if c is not None else 0


_native_capsule = None  # pydev._pydev.dlpack_capsule, looked up on the first export
_dl_types = {}  # dtype -> (code, bits, lanes)


def _native_exporter():
    global _native_capsule
    if _native_capsule is None:
        try:
            from ._pydev import dlpack_capsule
        except ImportError:  # the pure-Python package: ctypes below
            dlpack_capsule = False
        _native_capsule = dlpack_capsule
    return _native_capsule


def make_capsule(ptr, shape, dtype, device_type, owner, device_id=0, strides=None, readonly=False, versioned=False):
    """A DLPack capsule for the memory at `ptr` (kept alive by `owner` until
    the consumer calls the deleter or the capsule dies unconsumed): made
    natively (a few hundred ns) when the native module is there."""
    native = _native_capsule if _native_capsule is not None else _native_exporter()
    if native:
        dl = _dl_types.get(dtype)
        if dl is None:
            dl = _dl_types[dtype] = _dl_type(dtype)
        return native(ptr or 0, shape, dl, (device_type, device_id), owner, strides, readonly, versioned)
    from ._dlpack_c import (
        _NAMES,
        DLDevice,
        _exports,
        DLManagedTensor,
        DLManagedTensorVersioned,
        DLPackVersion,
        _capsule_destructor,
        _delete_export,
        _New,
    )

    n = len(shape)
    shape_arr = (ctypes.c_int64 * max(n, 1))(*shape)
    strides_arr = (ctypes.c_int64 * max(n, 1))(*strides) if strides is not None else None
    managed = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    t = managed.dl_tensor
    t.data = ptr or None
    t.device = DLDevice(device_type, device_id)
    t.ndim = n
    t.dtype = _dtype_to_dl(dtype)
    t.shape = ctypes.cast(shape_arr, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides_arr, ctypes.POINTER(ctypes.c_int64)) if strides_arr is not None else None
    t.byte_offset = 0
    managed.deleter = ctypes.cast(_delete_export, ctypes.c_void_p).value
    if versioned:
        managed.version = DLPackVersion(1, 0)
        managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY if readonly else 0
    address = ctypes.addressof(managed)
    _exports[address] = (managed, shape_arr, strides_arr, owner)
    name = _NAMES[b"dltensor_versioned" if versioned else b"dltensor"]
    return _New(address, ctypes.addressof(name), ctypes.cast(_capsule_destructor, ctypes.c_void_p).value)


def capsule_maker(ptr, shape, dtype, device_type, device_id=0):
    """`make_capsule` of this memory, all but the rest given: a callable
    `(owner, strides, readonly, versioned)`. The native exporter bound with
    functools.partial where it is there, so that an array's repeated
    exports (one per launch of a DLPack consumer) run no Python frame."""
    native = _native_capsule if _native_capsule is not None else _native_exporter()
    if native:
        dl = _dl_types.get(dtype)
        if dl is None:
            dl = _dl_types[dtype] = _dl_type(dtype)
        return functools.partial(native, ptr or 0, shape, dl, (device_type, device_id))
    return lambda owner, strides, readonly, versioned: make_capsule(
        ptr, shape, dtype, device_type, owner, device_id, strides, readonly, versioned
    )


def live_exports():
    """How many exported tensors are still alive (tests)."""
    native = _native_capsule if _native_capsule is not None else _native_exporter()
    if native:
        from ._pydev import dlpack_live_exports

        return _ctypes_exports() + dlpack_live_exports()
    return _ctypes_exports()
