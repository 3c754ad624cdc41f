"""The test's view of test/fakecuda's libcuda.so (already loaded by the
native module through cudarc; dlopen gives the same library): the launches
the "driver" received and the stream waits it was asked for."""

import ctypes
import struct

LIB = ctypes.CDLL("libcuda.so")
LIB.fakecuda_launch.restype = ctypes.c_long
LIB.fakecuda_wait.restype = ctypes.c_uint64
LIB.fakecuda_live_allocations.restype = ctypes.c_long
LIB.fakecuda_calls.restype = ctypes.c_long
LIB.fakecuda_calls.argtypes = [ctypes.c_char_p]
LIB.fakecuda_pointer_device.argtypes = [ctypes.c_uint64]


class Launch:
    def __init__(self, i):
        name = ctypes.create_string_buffer(256)
        dims = (ctypes.c_uint * 7)()
        stream = ctypes.c_uint64()
        nparams = ctypes.c_int()
        sizes = (ctypes.c_size_t * 64)()
        buf = ctypes.create_string_buffer(1 << 16)
        n = LIB.fakecuda_launch(i, name, 256, dims, ctypes.byref(stream), ctypes.byref(nparams), sizes, buf, 1 << 16)
        assert n >= 0, f"no launch {i}"
        self.kernel = name.value.decode()
        self.device = LIB.fakecuda_launch_device(i)  # the device it ran on
        self.arch = LIB.fakecuda_launch_arch(i)  # its module's .target (90: sm_90)
        self.grid, self.block, self.shared = tuple(dims[0:3]), tuple(dims[3:6]), dims[6]
        self.stream = stream.value
        self.sizes = list(sizes[: nparams.value])
        self.params, at = [], 0
        for size in self.sizes:
            self.params.append(buf.raw[at : at + size])
            at += size

    def descriptor(self, i):
        """(data pointer, shape, strides in elements) of array parameter i."""
        words = struct.unpack(f"<{len(self.params[i]) // 8}q", self.params[i])
        n = (len(words) - 1) // 2
        return words[0] & ((1 << 64) - 1), words[1 : 1 + n], words[1 + n :]


def launches():
    return [Launch(i) for i in range(LIB.fakecuda_launch_count())]


def waits():
    """(waiting stream, stream waited for) of each cuStreamWaitEvent."""
    return [(LIB.fakecuda_wait(i, 0), LIB.fakecuda_wait(i, 1)) for i in range(LIB.fakecuda_wait_count())]


def live_allocations():
    return LIB.fakecuda_live_allocations()


def calls(*names):
    """{entry point: calls so far} (fakecuda_calls), e.g. calls("cuLaunchKernel")."""
    out = {}
    for n in names:
        c = LIB.fakecuda_calls(n.encode())
        assert c >= 0, f"the fake driver does not count {n}"
        out[n] = c
    return out


def reset_calls():
    LIB.fakecuda_reset_calls()


def current_device():
    """The device of the calling thread's current context (-1: none)."""
    return LIB.fakecuda_current_device()


def pointer_device(ptr):
    """The device of the allocation holding `ptr` (-1: none)."""
    return LIB.fakecuda_pointer_device(ptr)


def set_current(device):
    """Makes `device`'s primary context current, as cuda.core's
    Device(n).set_current() or CuPy's and PyTorch's device selection do."""
    ctx = ctypes.c_void_p()
    assert LIB.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), device) == 0
    assert LIB.cuCtxSetCurrent(ctx) == 0
