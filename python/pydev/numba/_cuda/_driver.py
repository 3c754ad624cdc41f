"""The few CUDA driver calls Numba's host API needs and pydev's native
module does not make (timing events, device attributes and name, memory
information, registering host memory), through ctypes on the process's
libcuda: the library pydev's native module loaded, so the same driver and
the same current context. Used on the cuda target only; a driver that
lacks an entry point makes the call that needs it a NotImplementedError
naming it."""

import ctypes

import pydev as _pydev

CUDA_ERROR_NOT_READY = 600
CU_EVENT_DISABLE_TIMING = 0x2
CU_MEMHOSTREGISTER_PORTABLE = 0x1
CU_MEMHOSTREGISTER_DEVICEMAP = 0x2

_lib = None


def lib():
    global _lib
    if _lib is None:
        # In the order cudarc (the native module) tries them: the same
        # library, the test's stand-in driver included.
        for name in ("libcuda.so", "libcuda.so.1"):
            try:
                _lib = ctypes.CDLL(name)
                break
            except OSError:
                continue
        else:
            raise _pydev.TargetUnavailable("the CUDA driver library (libcuda) cannot be loaded")
    return _lib


def call(what, name, *args):
    """Calls driver entry point `name`; an error names `what` (the Numba
    call being served) and the driver's error."""
    try:
        fn = getattr(lib(), name)
    except AttributeError:
        raise NotImplementedError(f"{what}: this CUDA driver has no {name}") from None
    rc = fn(*args)
    if rc == CUDA_ERROR_NOT_READY:
        return rc
    if rc != 0:
        msg = ctypes.c_char_p()
        try:
            lib().cuGetErrorName(rc, ctypes.byref(msg))
        except AttributeError:
            pass
        raise RuntimeError(f"{what}: {name} failed with CUDA error {rc} ({(msg.value or b'?').decode()})")
    return rc


def ensure_context():
    """Makes the current device's primary context current on this thread
    when no context is (the driver's calls below need one)."""
    ctx = ctypes.c_void_p()
    call("the current CUDA context", "cuCtxGetCurrent", ctypes.byref(ctx))
    if not ctx.value:
        _pydev.Device(_pydev.current_device()).set_current()


def device_attribute(devnum, code, what):
    dev, value = ctypes.c_int(), ctypes.c_int()
    call(what, "cuDeviceGet", ctypes.byref(dev), ctypes.c_int(devnum))
    call(what, "cuDeviceGetAttribute", ctypes.byref(value), ctypes.c_int(code), dev)
    return value.value


def device_name(devnum):
    """The driver's name of device `devnum`, or None when the driver has no cuDeviceGetName."""
    dev, buf = ctypes.c_int(), ctypes.create_string_buffer(256)
    try:
        call("get_current_device().name", "cuDeviceGet", ctypes.byref(dev), ctypes.c_int(devnum))
        call("get_current_device().name", "cuDeviceGetName", buf, ctypes.c_int(256), dev)
    except NotImplementedError:
        return None
    return buf.value.decode(errors="replace")


def device_uuid(devnum):
    """numba's "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" of device
    `devnum`, or None when the driver has no cuDeviceGetUuid."""
    dev, raw = ctypes.c_int(), ctypes.create_string_buffer(16)
    try:
        call("get_current_device().uuid", "cuDeviceGet", ctypes.byref(dev), ctypes.c_int(devnum))
        call("get_current_device().uuid", "cuDeviceGetUuid", raw, dev)
    except NotImplementedError:
        return None
    h = raw.raw.hex()
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def memory_info():
    ensure_context()
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    call("current_context().get_memory_info()", "cuMemGetInfo_v2", ctypes.byref(free), ctypes.byref(total))
    return free.value, total.value


class Event:
    """A driver event (cuEventCreate), destroyed with its owner."""

    def __init__(self, timing):
        ensure_context()
        self.handle = ctypes.c_void_p()
        call("cuda.event()", "cuEventCreate", ctypes.byref(self.handle), 0 if timing else CU_EVENT_DISABLE_TIMING)

    def record(self, stream):
        call("Event.record()", "cuEventRecord", self.handle, ctypes.c_void_p(stream))

    def synchronize(self):
        call("Event.synchronize()", "cuEventSynchronize", self.handle)

    def query(self):
        return call("Event.query()", "cuEventQuery", self.handle) == 0

    def wait(self, stream):
        call("Event.wait()", "cuStreamWaitEvent", ctypes.c_void_p(stream), self.handle, 0)

    def elapsed_ms(self, end):
        ms = ctypes.c_float()
        call("cuda.event_elapsed_time()", "cuEventElapsedTime", ctypes.byref(ms), self.handle, end.handle)
        return float(ms.value)

    def __del__(self):
        h = getattr(self, "handle", None)
        if h is not None and h.value:
            try:
                lib().cuEventDestroy_v2(h)
            except Exception:  # interpreter shutdown
                pass


def host_register(array, mapped, what):
    """Page-locks the memory of NumPy array `array` (and maps it into the
    device's address space when `mapped`); the device pointer of its first
    byte when mapped, else None."""
    ensure_context()
    ptr, size = array.__array_interface__["data"][0], max(array.nbytes, 1)
    flags = CU_MEMHOSTREGISTER_PORTABLE | (CU_MEMHOSTREGISTER_DEVICEMAP if mapped else 0)
    call(what, "cuMemHostRegister_v2", ctypes.c_void_p(ptr), ctypes.c_size_t(size), ctypes.c_uint(flags))
    if not mapped:
        return None
    dptr = ctypes.c_uint64()
    call(what, "cuMemHostGetDevicePointer_v2", ctypes.byref(dptr), ctypes.c_void_p(ptr), ctypes.c_uint(0))
    return dptr.value


def host_unregister(array, what):
    call(what, "cuMemHostUnregister", ctypes.c_void_p(array.__array_interface__["data"][0]))


CU_MEM_ATTACH_GLOBAL = 0x1
CU_MEM_ATTACH_HOST = 0x2


class ManagedAllocation:
    """`nbytes` of managed memory (cuMemAllocManaged); NumPy arrays over it
    (`np.asarray(allocation)`) keep it alive, and it is freed
    (cuMemFree_v2) when it is collected."""

    def __init__(self, nbytes, attach_global):
        ensure_context()
        ptr = ctypes.c_uint64()
        flags = CU_MEM_ATTACH_GLOBAL if attach_global else CU_MEM_ATTACH_HOST
        call(
            "cuda.managed_array()",
            "cuMemAllocManaged",
            ctypes.byref(ptr),
            ctypes.c_size_t(nbytes),
            ctypes.c_uint(flags),
        )
        self.ptr = ptr.value
        self.__array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "data": (self.ptr, False), "version": 3}

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                lib().cuMemFree_v2(ctypes.c_uint64(ptr))
            except Exception:  # interpreter shutdown
                pass
