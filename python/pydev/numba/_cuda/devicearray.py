"""`cuda.devicearray`: the names of numba-cuda's device-array module that
driver code calls, on pydev's arrays. `DeviceNDArray` is `pydev.DeviceArray`
(what `cuda.to_device` and friends return); `auto_device(obj)` gives a
device array for `obj` and whether it copied; `from_array_like(ary)` an
uninitialised device array like `ary`."""

import numpy as np

import pydev as _pydev

from . import _host

DeviceNDArray = DeviceNDArrayBase = _pydev.DeviceArray

errmsg_contiguous_buffer = (
    "Array contains non-contiguous buffer and cannot be transferred as a single memory region. "
    "Please ensure contiguous buffer with numpy .ascontiguousarray()"
)


def is_cuda_ndarray(obj):
    """True for a device array (pydev's, or one with `__cuda_array_interface__`)."""
    return _host.is_cuda_array(obj)


def require_cuda_ndarray(obj):
    """A ValueError unless `obj` is a device array."""
    if not is_cuda_ndarray(obj):
        raise ValueError("require an cuda ndarray object")


def verify_cuda_ndarray_interface(obj):
    """Checks that `obj` is a device array with shape, strides, dtype and size."""
    require_cuda_ndarray(obj)
    for attr, typ in (("shape", tuple), ("strides", tuple), ("dtype", np.dtype), ("size", int)):
        if not isinstance(getattr(obj, attr, None), typ):
            raise AttributeError(f"{attr} must be of type {typ.__name__}")


def sentry_contiguous(ary):
    """A ValueError unless `ary`'s elements are one contiguous block (C or F order)."""
    flags = ary.flags
    if not (flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"]):
        raise ValueError(errmsg_contiguous_buffer)


def from_array_like(ary, stream=0, gpu_data=None):
    """An uninitialised device array with the shape, dtype and layout of `ary`."""
    if gpu_data is not None:
        raise NotImplementedError("devicearray.from_array_like(..., gpu_data=...): pydev allocates its arrays itself")
    return _host.device_array_like(ary, stream=stream)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(device array, converted): `obj` itself and False for a device array;
    else a copy on the device of `obj` (a NumPy array, which must be
    contiguous, or anything `np.asarray` reads) and True; `copy=False`
    leaves the new array uninitialised."""
    if _host.is_cuda_array(obj):
        return obj, False
    obj = np.asarray(obj)
    sentry_contiguous(obj)
    return _host.to_device(obj, stream=stream, copy=copy), True
