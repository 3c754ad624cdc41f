"""Stand-ins for other libraries' device arrays that speak one protocol
only (a Numba-like CUDA Array Interface producer, a DLPack-only one), each
wrapping an array it keeps alive."""

_OWN = object()


class CAIOnly:
    """Seen through the CUDA Array Interface only; `stream` (when given)
    replaces the interface's v3 `stream` entry."""

    def __init__(self, arr, stream=_OWN):
        self.arr = arr
        cai = arr.__cuda_array_interface__
        self.__cuda_array_interface__ = cai if stream is _OWN else dict(cai, stream=stream)


class CAILive:
    """Seen through the CUDA Array Interface only, its dict made anew on
    every access (as CuPy's and Numba's properties make theirs): a launch
    pays the producer's export too (bench/launch.py)."""

    def __init__(self, arr):
        self.arr = arr

    @property
    def __cuda_array_interface__(self):
        return self.arr.__cuda_array_interface__


class DLPackOnly:
    """Seen through DLPack only: exports delegate to the wrapped array."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack__(self, **kw):
        return self.arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()
