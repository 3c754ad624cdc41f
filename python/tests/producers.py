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


class DLPackElements:
    """Seen through DLPack only, exported by this producer itself (not by
    the wrapped array): a 1-D NumPy array or DeviceArray of any element type
    device code takes (bfloat16 and float8 too, which NumPy's own
    `__dlpack__` refuses), or, with `lanes`, the rows of a 2-D one as one
    tensor of vectors of DLPack type (code, bits, lanes), as a library with
    vector element types exports them."""

    def __init__(self, arr, lanes=None):
        self.arr, self.lanes = arr, lanes
        self.exports = 0

    def __dlpack__(self, **kw):
        import numpy as np

        from pydev import _dlpack

        a, on_cuda = self.arr, not isinstance(self.arr, np.ndarray)
        dtype = a.dtype if self.lanes is None else np.dtype((a.dtype, (self.lanes,)))
        ptr = a._ptr if on_cuda else a.ctypes.data
        self.exports += 1
        return _dlpack.make_capsule(ptr, a.shape[:1], dtype, 2 if on_cuda else 1, a, versioned=True)

    def __dlpack_device__(self):
        import numpy as np

        return (1, 0) if isinstance(self.arr, np.ndarray) else (2, 0)
