"""`cuda.Reduce` / `cuda.reduce`: numba-cuda's reduction object, a full
reduction of a 1-d array by a binary device function, with pydev.numba
kernels. The kernels and the launch plan are numba-cuda's
(numba/cuda/kernels/reduction.py, BSD-2-Clause, Copyright (c) 2025 NVIDIA
CORPORATION & AFFILIATES): blocks of 4 warps reduce strided chunks into one
partial each, then one block reduces the partials."""

import threading

import numpy as np

_WARPSIZE = 32
_NUMWARPS = 4


def _gpu_reduce_factory(fn, nbtype):
    from pydev.numba import cuda

    reduce_op = cuda.jit(device=True)(fn)
    inner_sm_size = _WARPSIZE + 1  # plus one to avoid shared-memory bank conflicts
    max_blocksize = _NUMWARPS * _WARPSIZE

    @cuda.jit(device=True)
    def inner_warp_reduction(sm_partials, init):
        """Reduces within one warp."""
        tid = cuda.threadIdx.x
        warpid = tid // _WARPSIZE
        laneid = tid % _WARPSIZE

        sm_this = sm_partials[warpid, :]
        sm_this[laneid] = init
        cuda.syncwarp()

        width = _WARPSIZE // 2
        while width:
            if laneid < width:
                old = sm_this[laneid]
                sm_this[laneid] = reduce_op(old, sm_this[laneid + width])
            cuda.syncwarp()
            width //= 2

    @cuda.jit(device=True)
    def device_reduce_full_block(arr, partials, sm_partials):
        """Blocks take chunks of 128 elements round-robin, each thread
        combining its elements; then the block reduces to one partial."""
        tid = cuda.threadIdx.x
        blkid = cuda.blockIdx.x
        blksz = cuda.blockDim.x
        gridsz = cuda.gridDim.x

        start = tid + blksz * blkid
        stop = arr.size
        step = blksz * gridsz

        tmp = arr[start]
        for i in range(start + step, stop, step):
            tmp = reduce_op(tmp, arr[i])

        cuda.syncthreads()
        inner_warp_reduction(sm_partials, tmp)
        cuda.syncthreads()
        # the first slot of each of the 4 warps holds its result
        if tid < 2:
            sm_partials[tid, 0] = reduce_op(sm_partials[tid, 0], sm_partials[tid + 2, 0])
            cuda.syncwarp()
        if tid == 0:
            partials[blkid] = reduce_op(sm_partials[0, 0], sm_partials[1, 0])

    @cuda.jit(device=True)
    def device_reduce_partial_block(arr, partials, sm_partials):
        """One block of arr.size threads (at most 128) reduces arr."""
        tid = cuda.threadIdx.x
        blkid = cuda.blockIdx.x
        blksz = cuda.blockDim.x
        warpid = tid // _WARPSIZE
        laneid = tid % _WARPSIZE

        size = arr.size
        value = arr[tid]
        sm_partials[warpid, laneid] = value

        cuda.syncthreads()

        if (warpid + 1) * _WARPSIZE < size:
            inner_warp_reduction(sm_partials, value)
        else:
            # a partly populated warp: its first lane reduces it in turn
            if laneid == 0:
                sm_this = sm_partials[warpid, :]
                base = warpid * _WARPSIZE
                for i in range(1, size - base):
                    sm_this[0] = reduce_op(sm_this[0], sm_this[i])

        cuda.syncthreads()
        if tid == 0:
            num_active_warps = (blksz + _WARPSIZE - 1) // _WARPSIZE
            result = sm_partials[0, 0]
            for i in range(1, num_active_warps):
                result = reduce_op(result, sm_partials[i, 0])
            partials[blkid] = result

    def gpu_reduce_block_strided(arr, partials, init, use_init):
        """Reduces arr into partials (one per block); block 0 folds in init
        when use_init. Blocks of a multiple of 32 threads, at most 128."""
        tid = cuda.threadIdx.x
        sm_partials = cuda.shared.array((_NUMWARPS, inner_sm_size), dtype=nbtype)
        if cuda.blockDim.x == max_blocksize:
            device_reduce_full_block(arr, partials, sm_partials)
        else:
            device_reduce_partial_block(arr, partials, sm_partials)
        if use_init and tid == 0 and cuda.blockIdx.x == 0:
            partials[0] = reduce_op(partials[0], init)

    return cuda.jit(gpu_reduce_block_strided)


class Reduce:
    """A reduction object that reduces values with a binary function,
    compiled once per dtype as a device function (`cuda.jit(device=True)`)
    and kept in this object."""

    _cache = {}
    _lock = threading.Lock()

    def __init__(self, functor):
        """functor: a binary function, compiled as a CUDA device function."""
        self._functor = functor

    def _compile(self, dtype):
        from pydev.numba import types

        key = self._functor, dtype
        with self._lock:
            kernel = self._cache.get(key)
            if kernel is None:
                kernel = self._cache[key] = _gpu_reduce_factory(self._functor, types.from_dtype(dtype))
        return kernel

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces `arr` (a host or device 1-d array; its first `size`
        elements when given) starting from `init` (converted to arr's
        dtype). Returns the result, or None when `res` (a device array) is
        given: the result is then written to `res[0]` on the device, on
        `stream`."""
        from pydev.numba import cuda

        if arr.ndim != 1:
            raise TypeError("only support 1D array")
        if size is not None:
            arr = arr[:size]
        init = arr.dtype.type(init)
        if arr.size < 1:
            return init
        kernel = self._compile(arr.dtype)

        blocksize = _NUMWARPS * _WARPSIZE
        size_full = (arr.size // blocksize) * blocksize
        size_partial = arr.size - size_full
        full_blockct = min(size_full // blocksize, _WARPSIZE * 2)

        partials_size = full_blockct + (1 if size_partial else 0)
        partials = cuda.device_array(shape=partials_size, dtype=arr.dtype)
        if isinstance(arr, np.ndarray):  # one copy for the launches below
            arr = cuda.to_device(arr, stream=stream)

        if size_full:
            kernel[full_blockct, blocksize, stream](arr[:size_full], partials[:full_blockct], init, True)
        if size_partial:
            kernel[1, size_partial, stream](arr[size_full:], partials[full_blockct:], init, not full_blockct)
        if partials.size > 1:
            kernel[1, partials_size, stream](partials, partials, init, False)

        if res is not None:
            res[:1].copy_to_device(partials[:1], stream=stream)
            return None
        return partials[0]


reduce = Reduce
