"""`pydev.pinned_array`: page-locked host memory (docs/backend.md).

On the cuda target the memory comes from the driver (`cuMemHostAlloc`,
through the native module) and is freed (`cuMemFreeHost`) when the last
NumPy array over it is collected; copies from and to it need no staging
buffer. `mapped=True` also maps it into the device's address space: the
array's `__cuda_array_interface__` is the device's view of the same
memory. On the host target both are plain NumPy arrays."""

import numpy as np

from . import _native


class _HostAllocation:
    """Owns `nbytes` of page-locked memory; NumPy arrays over it keep it
    alive (their base), and it is freed when it is collected."""

    __slots__ = ("ptr", "device_ptr", "nbytes", "__array_interface__", "_free")

    def __init__(self, nbytes, mapped):
        native = _native.get()
        self.ptr, self.device_ptr = native.cuda_host_alloc(nbytes, mapped)
        self._free = native.cuda_host_free
        self.nbytes = nbytes
        self.__array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "data": (self.ptr, False), "version": 3}

    def __del__(self):
        ptr, self.ptr = self.ptr, 0
        if ptr:
            try:
                self._free(ptr)
            except Exception:  # noqa: S110 - a lost context at exit: nothing left to free
                pass


class MappedArray(np.ndarray):
    """A NumPy array over mapped page-locked memory (`pinned_array(...,
    mapped=True)` on cuda): `__cuda_array_interface__` is the device's
    address of the same memory. A kernel argument on cuda as any CUDA
    Array Interface object (`device.launch` takes a NumPy array as host
    memory: pass `a.device_view()`)."""

    def _allocation(self):
        base = self
        while isinstance(base, np.ndarray):
            base = base.base
        return base if isinstance(base, _HostAllocation) else None

    @property
    def __cuda_array_interface__(self):
        alloc = self._allocation()
        if alloc is None or not alloc.device_ptr:
            raise AttributeError("__cuda_array_interface__: this array is not over mapped memory")
        offset = self.__array_interface__["data"][0] - alloc.ptr
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "descr": self.dtype.descr,
            "data": (alloc.device_ptr + offset, False),
            "strides": None if self.flags.c_contiguous else self.strides,
            "version": 3,
            "stream": None,
        }

    def device_view(self):
        """An object whose `__cuda_array_interface__` is this array's device view (a kernel argument on cuda)."""
        return _DeviceView(self)


class _DeviceView:
    __slots__ = ("array", "__cuda_array_interface__")

    def __init__(self, array):
        self.array = array  # keeps the memory alive
        self.__cuda_array_interface__ = array.__cuda_array_interface__


def pinned_array(shape, dtype=np.float64, *, mapped=False, order="C", target=None):
    """An uninitialised NumPy array of `shape` and `dtype` in page-locked
    host memory on the cuda target (`mapped=True`: also mapped into the
    device's address space, a `MappedArray`); a plain NumPy array on the
    host target. The memory is freed when the array (and every view of it)
    is collected."""
    from . import active_target

    dtype = np.dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    target = target or active_target()
    if target != "cuda":
        return np.empty(shape, dtype=dtype, order=order)
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    alloc = _HostAllocation(max(n, 1), bool(mapped))
    a = np.asarray(alloc)[:n].view(dtype).reshape(shape, order=order)
    return a.view(MappedArray) if mapped else a
