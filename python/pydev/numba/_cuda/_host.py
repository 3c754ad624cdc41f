"""The host API of a Numba-CUDA driver program, with numba-cuda 0.30's
signatures: streams, events, arrays (`to_device`, `device_array`, pinned
and mapped memory), devices (`cuda.gpus`, device attributes, contexts).

Arrays are pydev's own: `cuda.to_device` and friends return
`pydev.DeviceArray`s (which have Numba's `copy_to_host(ary, stream)`,
indexing, `reshape`, `split`, ...), so they pass to `device.launch` and
every DLPack consumer as they are. A call that pydev cannot honour raises
an error naming it; no argument is dropped."""

import collections
import contextlib
import os
import time

import numpy as np

import pydev as _pydev

from .. import types as _t

# --- streams --------------------------------------------------------------------------------

_streams = []


def _stream_of(s):
    """Numba's stream argument: 0 or None is the default stream."""
    if s is None or (isinstance(s, int) and not isinstance(s, bool) and s == 0):
        return _pydev.default_stream()
    return s


def _handle_of(s):
    """The driver handle of a cuda stream argument (0: the legacy default stream)."""
    s = _stream_of(s)
    if isinstance(s, _pydev.Stream):
        return s.handle
    proto = getattr(s, "__cuda_stream__", None)
    if proto is None:
        raise TypeError(
            f"stream must be a stream (cuda.stream(), a pydev.Stream, an object with __cuda_stream__) or 0, got {type(s).__name__}"
        )
    return (proto() if callable(proto) else proto)[1]


def stream():
    """A new stream of the active target (a `pydev.Stream`, with Numba's
    `synchronize()` and `auto_synchronize()`)."""
    s = _pydev.create_stream()
    _streams.append(s)
    return s


def default_stream():
    """The default stream of the current device (a `pydev.Stream`); also
    `legacy_default_stream()` and `per_thread_default_stream()`."""
    return _pydev.default_stream()


legacy_default_stream = per_thread_default_stream = default_stream


def external_stream(ptr):
    """A stream made elsewhere (a CUstream handle), as Numba's
    `cuda.external_stream`: launches and copies on it are queued there."""
    if _pydev.active_target() != "cuda":
        raise NotImplementedError("cuda.external_stream(ptr): the host target has no CUDA streams")
    return _pydev.Stream("cuda", handle=int(ptr), device=_pydev.current_device())


def synchronize():
    """Waits for every launch (the default stream and the streams made here)."""
    _pydev.default_stream().synchronize()
    for s in list(_streams):
        s.synchronize()


def close():
    """Numba's `cuda.close()`: waits for every launch. pydev keeps the
    device's primary context (shared with the other CUDA libraries of the
    process), so later calls go on working."""
    synchronize()


@contextlib.contextmanager
def defer_cleanup():
    """Numba's `cuda.defer_cleanup()`: pydev frees memory when its last
    reference goes (after the launches that use it), so there is nothing
    to defer."""
    yield


# --- events ---------------------------------------------------------------------------------


class Event:
    """Numba's event (`cuda.event(timing=True)`): `record(stream)`,
    `synchronize()`, `wait(stream)`, `query()`, `elapsed_time(end)` in
    milliseconds. On cuda a driver event; on the host target, where a
    launch has run when it returns, the time (perf_counter) at `record`."""

    def __init__(self, timing=True):
        self.timing = bool(timing)
        self._recorded = None  # host: the time of the last record
        self._driver = None
        if _pydev.active_target() == "cuda":
            from . import _driver

            self._driver = _driver.Event(self.timing)

    def record(self, stream=0):
        if self._driver is not None:
            self._driver.record(_handle_of(stream))
        else:
            _stream_of(stream).synchronize()
            self._recorded = time.perf_counter()

    def synchronize(self):
        if self._driver is not None:
            self._driver.synchronize()

    def wait(self, stream=0):
        """Work queued on `stream` after this call waits for the event."""
        if self._driver is not None:
            self._driver.wait(_handle_of(stream))

    def query(self):
        """True when the work before the last `record` is done."""
        return self._driver.query() if self._driver is not None else True

    def elapsed_time(self, evtend):
        return event_elapsed_time(self, evtend)

    def __repr__(self):
        return f"<pydev.numba event timing={self.timing} on the {_pydev.active_target()} target>"


def event(timing=True):
    """A new `Event` (`record(stream)`, `synchronize()`, `elapsed_time(other)`)."""
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events made with timing=True."""
    for e, which in ((evtstart, "start"), (evtend, "end")):
        if not isinstance(e, Event):
            raise TypeError(
                f"cuda.event_elapsed_time: the {which} event must be a cuda.event(), got {type(e).__name__}"
            )
        if not e.timing:
            raise ValueError(
                f"cuda.event_elapsed_time: the {which} event was made with timing=False and records no time"
            )
    if evtstart._driver is not None and evtend._driver is not None:
        return evtstart._driver.elapsed_ms(evtend._driver)
    if evtstart._driver is not None or evtend._driver is not None:
        raise ValueError("cuda.event_elapsed_time: the two events belong to different targets")
    for e, which in ((evtstart, "start"), (evtend, "end")):
        if e._recorded is None:
            raise ValueError(f"cuda.event_elapsed_time: the {which} event has not been recorded")
    return (evtend._recorded - evtstart._recorded) * 1e3


# --- arrays ---------------------------------------------------------------------------------


def _np_dtype(dtype):
    if isinstance(dtype, _t.Record):
        return dtype.dtype_np
    if isinstance(dtype, _t.Type) and hasattr(dtype, "dtype"):
        return dtype.dtype
    return np.dtype(dtype)


def _layout(shape, itemsize, strides, order, what):
    """The order of the axes in memory (outermost first) of a new compact
    array from Numba's `strides=` (bytes) or `order=` ("C" / "F")."""
    n = len(shape)
    if strides is None:
        if order not in ("C", "F"):
            raise ValueError(f"{what}: order must be 'C' or 'F', got {order!r}")
        return tuple(range(n)) if order == "C" else tuple(reversed(range(n)))
    strides = (int(strides),) if np.ndim(strides) == 0 else tuple(int(s) for s in strides)
    if len(strides) != n:
        raise ValueError(f"{what}: strides {strides} do not match the shape {shape}")
    axes = tuple(sorted(range(n), key=lambda k: -strides[k]))
    acc, want = itemsize, [0] * n
    for k in reversed(axes):
        want[k] = acc
        acc *= max(shape[k], 1)
    if any(shape[k] > 1 and strides[k] != want[k] for k in range(n)):
        raise NotImplementedError(
            f"{what}(strides={strides}): pydev arrays are compact; these strides are not those of a compact "
            f"array of shape {shape} and item size {itemsize}"
        )
    return axes


def _shape(shape):
    return (int(shape),) if np.ndim(shape) == 0 else tuple(int(s) for s in shape)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised pydev.DeviceArray; `order="F"` or compact `strides`
    lay its axes out in memory as asked (a transposed view of a C-ordered
    allocation)."""
    shape, dtype = _shape(shape), _np_dtype(dtype)
    axes = _layout(shape, dtype.itemsize, strides, order, "cuda.device_array")
    a = _pydev.device_array(tuple(shape[k] for k in axes), dtype, stream=_stream_of(stream))
    if axes == tuple(range(len(shape))):
        return a
    inverse = [0] * len(axes)
    for i, k in enumerate(axes):
        inverse[k] = i
    return a.transpose(tuple(inverse))


def _like_strides(ary):
    """Numba's `_contiguous_strides_like_array`: compact strides with the
    axes of `ary` in the order of its strides (None: C order)."""
    strides = getattr(ary, "strides", None)
    if not isinstance(strides, tuple) or len(ary.shape) < 2:  # no byte strides (PyTorch's is a method): C order
        return None
    flags = getattr(ary, "flags", None)
    if flags is not None and (flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"]):
        return None if flags["C_CONTIGUOUS"] else _compact(ary.shape, ary.dtype.itemsize, reversed(range(ary.ndim)))
    return _compact(ary.shape, ary.dtype.itemsize, sorted(range(len(ary.shape)), key=lambda k: -abs(strides[k])))


def _compact(shape, itemsize, axes):
    out, acc = [0] * len(shape), itemsize
    for k in reversed(list(axes)):
        out[k] = acc
        acc *= max(shape[k], 1)
    return tuple(out)


def device_array_like(ary, stream=0):
    """An uninitialised array with the shape, dtype and axis order of `ary`."""
    return device_array(ary.shape, ary.dtype, strides=_like_strides(ary), stream=stream)


def to_device(obj, stream=0, copy=True, to=None):
    """A pydev.DeviceArray with the contents of `obj` (its layout kept);
    `to=`: copies into that device array instead and returns it;
    `copy=False`: an uninitialised array like `obj` (Numba's)."""
    if to is not None:
        if copy:
            to.copy_to_device(obj, stream=stream)
        return to
    if not copy:
        return device_array_like(np.asarray(obj) if not hasattr(obj, "shape") else obj, stream=stream)
    return _pydev.to_device(obj, stream=_stream_of(stream))


def _plain_order(ary):
    # NumPy's flags and a DeviceArray's dict both take these keys.
    flags = ary.flags
    return "F" if flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"] else "C"


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory on the cuda target
    (`pydev.pinned_array`: cuMemHostAlloc, freed when the array is
    collected); a plain NumPy array on the host target."""
    if strides is not None:
        raise NotImplementedError(
            "cuda.pinned_array(..., strides=...) is not supported by pydev.numba: use order='C' or 'F'"
        )
    return _pydev.pinned_array(shape, _np_dtype(dtype), order=order)


def pinned_array_like(ary):
    """`pinned_array` with the shape, dtype and order of `ary`."""
    return pinned_array(ary.shape, ary.dtype, order=_plain_order(ary))


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A NumPy array in page-locked host memory mapped into the device's
    address space on the cuda target (`pydev.pinned_array(...,
    mapped=True)`): kernels read and write it in place; a plain NumPy array
    on the host target. The memory is always portable; write-combined
    memory (`wc=True`) is refused."""
    if strides is not None:
        raise NotImplementedError(
            "cuda.mapped_array(..., strides=...) is not supported by pydev.numba: use order='C' or 'F'"
        )
    if wc:
        raise NotImplementedError("cuda.mapped_array(..., wc=True): pydev does not allocate write-combined memory")
    return _pydev.pinned_array(shape, _np_dtype(dtype), order=order, mapped=True)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """`mapped_array` with the shape, dtype and order of `ary`."""
    return mapped_array(ary.shape, ary.dtype, order=_plain_order(ary), portable=portable, wc=wc)


class ManagedArray(np.ndarray):
    """A NumPy array over CUDA managed memory (`cuda.managed_array` on the
    cuda target): the host reads and writes it as any NumPy array, and its
    `__cuda_array_interface__` is the same address for the device, with the
    stream it was made with (None for the default stream), as Numba's
    ManagedNDArray exports it."""

    def __array_finalize__(self, obj):
        self._pydev_stream = getattr(obj, "_pydev_stream", None)

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "descr": self.dtype.descr,
            "data": (self.__array_interface__["data"][0] if self.size else 0, False),
            "strides": None if self.flags.c_contiguous else self.strides,
            "version": 3,
            "stream": self._pydev_stream,
        }


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An array in memory both the host and the device read and write. On
    the cuda target the driver's managed memory (`cuMemAllocManaged`,
    attached globally or, with `attach_global=False`, to the host), a NumPy
    array (`ManagedArray`) with `__cuda_array_interface__`, freed when the
    last view is collected. On the host target the device's memory is the
    host's: a plain NumPy array, as `mapped_array` gives there."""
    if strides is not None:
        raise NotImplementedError(
            "cuda.managed_array(..., strides=...) is not supported by pydev.numba: use order='C' or 'F'"
        )
    dtype = _np_dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"cuda.managed_array: order must be 'C' or 'F', got {order!r}")
    if _pydev.active_target() != "cuda":
        return np.empty(shape, dtype=dtype, order=order)
    from . import _driver

    shape = _shape(shape)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    alloc = _driver.ManagedAllocation(max(n, 1), bool(attach_global))
    a = np.asarray(alloc)[:n].view(dtype).reshape(shape, order=order).view(ManagedArray)
    s = _stream_of(stream)
    a._pydev_stream = None if s is _pydev.default_stream() or stream in (None, 0) else _handle_of(s)
    return a


def set_memory_manager(mm_plugin):
    """Numba's External Memory Management plugins: not supported (pydev
    allocates device memory itself, on both targets)."""
    raise NotImplementedError(
        f"cuda.set_memory_manager({getattr(mm_plugin, '__name__', mm_plugin)!r}): pydev.numba allocates device memory "
        "with pydev's own allocator; External Memory Management plugins are not supported"
    )


def _host_arrays(arrays, what):
    out = []
    for i, a in enumerate(arrays):
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{what}: argument {i} must be a NumPy array, got {type(a).__name__}")
        if a.size and not (a.flags.c_contiguous or a.flags.f_contiguous):
            raise ValueError(f"{what}: argument {i} is not contiguous, so its memory cannot be registered")
        out.append(a)
    return out


@contextlib.contextmanager
def pinned(*arylist):
    """Page-locks the memory of NumPy arrays for the block (faster and
    asynchronous copies on cuda); on the host target nothing needs doing."""
    arrays = _host_arrays(arylist, "cuda.pinned")
    if _pydev.active_target() != "cuda":
        yield
        return
    from . import _driver

    done = []
    try:
        for a in arrays:
            if a.size:
                _driver.host_register(a, False, "cuda.pinned")
                done.append(a)
        yield
    finally:
        for a in done:
            _driver.host_unregister(a, "cuda.pinned")


class _MappedView:
    """The device's view of a mapped host array (`cuda.mapped`): a kernel
    argument on cuda through `__cuda_array_interface__`."""

    def __init__(self, array, device_ptr):
        self.array = array  # the host memory stays alive with its view
        self.shape, self.dtype, self.size, self.ndim = array.shape, array.dtype, array.size, array.ndim
        self.__cuda_array_interface__ = {
            "shape": array.shape,
            "typestr": array.dtype.str,
            "descr": array.dtype.descr,
            "data": (device_ptr, False),
            "strides": None if array.flags.c_contiguous else array.strides,
            "version": 3,
            "stream": None,
        }

    def copy_to_host(self, ary=None, stream=0):
        _stream_of(stream).synchronize()
        if ary is None:
            return self.array.copy(order="K")
        ary.reshape(self.array.shape)[...] = self.array
        return ary


@contextlib.contextmanager
def mapped(*arylist, stream=0):
    """Maps NumPy arrays into the device's address space for the block
    and yields their device views (one, or a list for several). On the
    host target a NumPy array is already a device array: it is yielded as
    it is."""
    arrays = _host_arrays(arylist, "cuda.mapped")
    _stream_of(stream)
    if _pydev.active_target() != "cuda":
        yield arrays[0] if len(arrays) == 1 else arrays
        return
    from . import _driver

    done, views = [], []
    try:
        for a in arrays:
            ptr = _driver.host_register(a, True, "cuda.mapped") if a.size else 0
            if a.size:
                done.append(a)
            views.append(_MappedView(a, ptr))
        yield views[0] if len(views) == 1 else views
    finally:
        for a in done:
            _driver.host_unregister(a, "cuda.mapped")


def is_cuda_array(obj):
    """True for pydev's own arrays on every target, and for any object with
    `__cuda_array_interface__`."""
    return isinstance(obj, _pydev.DeviceArray) or hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A pydev.DeviceArray of `obj`'s memory: `obj` itself when it is one;
    for another object with `__cuda_array_interface__`, a view of its memory
    that keeps `obj` alive (`from_cuda_array_interface(...,
    owner=obj, sync=sync)`), as Numba's."""
    if isinstance(obj, _pydev.DeviceArray):
        return obj
    if not is_cuda_array(obj):
        raise TypeError(
            f"as_cuda_array() takes a pydev.DeviceArray or an object with __cuda_array_interface__, got {type(obj).__name__}"
        )
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A pydev.DeviceArray over the CUDA memory a CUDA Array Interface dict
    describes (no copy), keeping `owner` alive; with `sync` (and
    PYDEV_CAI_SYNC not 0, Numba's CUDA_ARRAY_INTERFACE_SYNC) it first waits
    for the dict's `stream`. The dict is validated first, on every target:
    a mask is Numba's NotImplementedError, a malformed entry a ValueError.
    On the host target the memory is a CUDA device's, which host kernels
    cannot read: a ValueError (the host target's arrays are DLPack /
    `__array_interface__` arrays, not CUDA Array Interface ones)."""
    from ... import _arrays

    what = "cuda.from_cuda_array_interface"
    if isinstance(desc, dict) and desc.get("mask") is not None:
        raise NotImplementedError(f"{what}: Masked arrays are not supported")
    dtype, shape, strides, ptr, _readonly, stream = _arrays.parse_cai(desc, what)
    if _pydev.active_target() != "cuda":
        raise ValueError(
            f"{what}: the CUDA Array Interface describes CUDA device memory, which the host target cannot read "
            "(run on the cuda target, or pass host arrays: NumPy, DLPack or pydev's own)"
        )
    if sync and stream is not None and _arrays.cai_sync_enabled():
        import ctypes

        from . import _driver

        _driver.ensure_context()
        _driver.call(what, "cuStreamSynchronize", ctypes.c_void_p(stream))
    own = None if stream is None else _pydev.Stream("cuda", handle=int(stream), device=_pydev.current_device())
    return _pydev.DeviceArray(shape, dtype, "cuda", stream=own, _view=(_ForeignMemory(owner), ptr, strides))


class _ForeignMemory:
    """The base of a DeviceArray view over memory another library owns
    (`from_cuda_array_interface`): it keeps the owner alive and is never
    freed by pydev; nothing pydev launched is pending on it."""

    __slots__ = ("owner", "_last_stream")

    def __init__(self, owner):
        self.owner = owner
        self._last_stream = None


# --- devices --------------------------------------------------------------------------------

# CUdevice_attribute codes (cuda.h) of the attributes Numba's Device reads.
_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1,
    "MAX_BLOCK_DIM_X": 2,
    "MAX_BLOCK_DIM_Y": 3,
    "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5,
    "MAX_GRID_DIM_Y": 6,
    "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8,
    "TOTAL_CONSTANT_MEMORY": 9,
    "WARP_SIZE": 10,
    "MAX_PITCH": 11,
    "MAX_REGISTERS_PER_BLOCK": 12,
    "CLOCK_RATE": 13,
    "TEXTURE_ALIGNMENT": 14,
    "GPU_OVERLAP": 15,
    "MULTIPROCESSOR_COUNT": 16,
    "KERNEL_EXEC_TIMEOUT": 17,
    "INTEGRATED": 18,
    "CAN_MAP_HOST_MEMORY": 19,
    "COMPUTE_MODE": 20,
    "CONCURRENT_KERNELS": 31,
    "ECC_ENABLED": 32,
    "PCI_BUS_ID": 33,
    "PCI_DEVICE_ID": 34,
    "TCC_DRIVER": 35,
    "MEMORY_CLOCK_RATE": 36,
    "GLOBAL_MEMORY_BUS_WIDTH": 37,
    "L2_CACHE_SIZE": 38,
    "MAX_THREADS_PER_MULTI_PROCESSOR": 39,
    "ASYNC_ENGINE_COUNT": 40,
    "UNIFIED_ADDRESSING": 41,
    "PCI_DOMAIN_ID": 50,
    "COMPUTE_CAPABILITY_MAJOR": 75,
    "COMPUTE_CAPABILITY_MINOR": 76,
    "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 81,
    "MAX_REGISTERS_PER_MULTIPROCESSOR": 82,
    "MANAGED_MEMORY": 83,
    "MULTI_GPU_BOARD": 84,
    "COOPERATIVE_LAUNCH": 95,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
}


def _host_attributes():
    """The host target's device as Numba reports a GPU: its launch limits
    are those of CUDA GPUs (1024 threads a block, warps of 32, 48 KiB of
    static shared memory), its multiprocessors the CPU's cores, and it
    reports compute capability 9.0 (the PTX pydev compiles for by default).
    It shares the host's memory (integrated, unified addressing, mapped
    and managed memory); launches run one at a time, when they are made."""
    sms = os.cpu_count() or 1
    return {
        "MAX_THREADS_PER_BLOCK": 1024,
        "MAX_BLOCK_DIM_X": 1024,
        "MAX_BLOCK_DIM_Y": 1024,
        "MAX_BLOCK_DIM_Z": 64,
        "MAX_GRID_DIM_X": 2**31 - 1,
        "MAX_GRID_DIM_Y": 65535,
        "MAX_GRID_DIM_Z": 65535,
        "MAX_SHARED_MEMORY_PER_BLOCK": 48 * 1024,
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 48 * 1024,
        "TOTAL_CONSTANT_MEMORY": 64 * 1024,
        "WARP_SIZE": 32,
        "MAX_REGISTERS_PER_BLOCK": 65536,
        "MULTIPROCESSOR_COUNT": sms,
        "MAX_THREADS_PER_MULTI_PROCESSOR": 2048,
        "COMPUTE_CAPABILITY_MAJOR": 9,
        "COMPUTE_CAPABILITY_MINOR": 0,
        "INTEGRATED": 1,
        "CAN_MAP_HOST_MEMORY": 1,
        "UNIFIED_ADDRESSING": 1,
        "MANAGED_MEMORY": 1,
        "CONCURRENT_KERNELS": 0,
        "ASYNC_ENGINE_COUNT": 0,
        "COOPERATIVE_LAUNCH": 0,
        "ECC_ENABLED": 0,
        "KERNEL_EXEC_TIMEOUT": 0,
        "COMPUTE_MODE": 0,
        "MULTI_GPU_BOARD": 0,
        "PCI_BUS_ID": 0,
        "PCI_DEVICE_ID": 0,
        "PCI_DOMAIN_ID": 0,
        "TCC_DRIVER": 0,
    }


class Device:
    """Numba's Device: `id`, `name` (a str, as numba-cuda 0.30's),
    `compute_capability`, `uuid`, and the driver's attributes by their
    CU_DEVICE_ATTRIBUTE_ names (`MAX_THREADS_PER_BLOCK`, `WARP_SIZE`,
    `MULTIPROCESSOR_COUNT`, ...), read when first asked. On the host target
    one device, 0, with the values of `_host_attributes`."""

    def __init__(self, devnum=None):
        if _pydev.active_target() == "host":
            if devnum not in (None, 0):
                raise ValueError(f"there is no device {devnum} on the host target (only device 0)")
            self.id, self.name, self.compute_capability = 0, "pydev host target (CPU)", (9, 0)
            self.uuid = "GPU-00000000-0000-0000-0000-000000000000"
            self._host = _host_attributes()
            return
        d = _pydev.Device(devnum)
        self.id = d.id
        self.compute_capability = d.compute_capability
        self._host = None
        from . import _driver

        self.name = _driver.device_name(self.id) or f"CUDA device {d.id} ({d.arch})"
        self.uuid = _driver.device_uuid(self.id)  # None where the driver cannot say

    def __getattr__(self, name):
        if not name.isupper():
            raise AttributeError(name)
        if self._host is not None:
            if name not in self._host:
                raise AttributeError(f"the host target's device has no attribute '{name}' in pydev.numba")
            return self._host[name]
        code = _ATTRIBUTES.get(name)
        if code is None:
            raise AttributeError(f"device attribute '{name}' is not known to pydev.numba")
        from . import _driver

        value = _driver.device_attribute(self.id, code, f"get_current_device().{name}")
        setattr(self, name, value)
        return value

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("pydev.numba.Device", self.id))

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}' on the {_pydev.active_target()} target (pydev.numba)>"

    def reset(self):
        synchronize()


MemoryInfo = collections.namedtuple("MemoryInfo", "free,total")


def _host_memory():
    """(free, total) bytes of the host's memory: MemAvailable and MemTotal
    of /proc/meminfo, else sysconf's page counts."""
    try:
        with open("/proc/meminfo") as f:
            info = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in f if line.split()[1:]}
        return info["MemAvailable"], info["MemTotal"]
    except (OSError, KeyError, ValueError, IndexError):
        page = os.sysconf("SC_PAGE_SIZE")
        return os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page


class Context:
    """Numba's context of a device: `device`, `synchronize()`,
    `get_memory_info()` ((free, total) bytes; the host's memory on the
    host target), `create_event(timing)`, `reset()`."""

    def __init__(self, devnum=None):
        self.device = Device(devnum)

    def synchronize(self):
        synchronize()

    def get_memory_info(self):
        if _pydev.active_target() == "host":
            return MemoryInfo(*_host_memory())
        from . import _driver

        with _pydev.Device(self.device.id):
            return MemoryInfo(*_driver.memory_info())

    def create_event(self, timing=True):
        return Event(timing)

    def get_default_stream(self):
        return default_stream()

    def reset(self):
        synchronize()


def get_current_device():
    """The `Device` launches on this thread run on (the CPU on the host target)."""
    return Device()


def current_context(devnum=None):
    """The `Context` of device `devnum` (default: the current device):
    `get_memory_info()`, `synchronize()`, `device`."""
    return Context(devnum)


def select_device(n):
    """Makes device `n` current on this thread (`pydev.Device(n).set_current()`);
    on the host target only device 0 exists."""
    if _pydev.active_target() != "host":
        _pydev.Device(n).set_current()
    elif n != 0:
        raise ValueError(f"there is no device {n} on the host target (only device 0)")
    return Device()


def detect():
    """Prints the active target and its devices, as Numba's `cuda.detect()`; returns True."""
    print(f"pydev.numba: target {_pydev.active_target()}")
    for d in list_devices():
        print(f"  id {d.id} {d.name!r} compute capability {d.compute_capability}")
    return True


def list_devices():
    """The `Device` of each GPU (the CPU alone on the host target)."""
    if _pydev.active_target() == "host":
        return [Device()]
    return [Device(i) for i in range(_pydev.device_count())]


class _GPU:
    """`cuda.gpus[n]`: the device (its attributes are the Device's) and a
    context manager that makes it current for the block."""

    def __init__(self, devnum):
        self._devnum = devnum
        self._device = None
        self._entered = []

    def _dev(self):
        if self._device is None:
            self._device = Device(self._devnum)
        return self._device

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._dev(), name)

    def __enter__(self):
        d = _pydev.Device(self._devnum) if _pydev.active_target() == "cuda" else None
        if d is not None:
            d.__enter__()
        self._entered.append(d)
        return self

    def __exit__(self, *exc):
        d = self._entered.pop()
        if d is not None:
            d.__exit__(*exc)
        return False

    def __repr__(self):
        return f"<Managed Device {self._devnum}>"


class _GPUs:
    """`cuda.gpus`: the devices of the active target (one, 0, on host),
    indexable, iterable; `cuda.gpus.current` is the current one."""

    def _count(self):
        return 1 if _pydev.active_target() == "host" else _pydev.device_count()

    def __len__(self):
        return self._count()

    def __getitem__(self, devnum):
        if isinstance(devnum, slice):
            return [self[i] for i in range(self._count())[devnum]]
        devnum = int(devnum)
        n = self._count()
        if not -n <= devnum < n:
            raise IndexError(f"cuda.gpus[{devnum}]: there are {n} devices")
        return _GPU(devnum % n)

    def __iter__(self):
        return iter([self[i] for i in range(self._count())])

    @property
    def current(self):
        return self[_pydev.current_device()]

    def __str__(self):
        return ", ".join(repr(g) for g in self)


gpus = _GPUs()
