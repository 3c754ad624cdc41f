"""The test's view of test/fakecuda's libcuda.so (already loaded by the
native module through cudarc; dlopen gives the same library): the launches
the "driver" received and the stream waits it was asked for."""
import ctypes
import struct

LIB = ctypes.CDLL("libcuda.so")
LIB.fakecuda_launch.restype = ctypes.c_long
LIB.fakecuda_wait.restype = ctypes.c_uint64
LIB.fakecuda_live_allocations.restype = ctypes.c_long


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
