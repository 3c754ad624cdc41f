"""`cuda.kernels.transpose.transpose(a, b=None)`: numba-cuda's matrix
transpose, the tiled shared-memory kernel of NVIDIA's "efficient matrix
transpose" (each block stages a tile, padded by one column against bank
conflicts, so that both the read of `a` and the write of `b` go along rows)."""

import math

import numpy as np

from .. import _host

# One kernel per element type and tile shape, as numba-cuda compiles one per call.
_kernels = {}


def _kernel(dtype, tile_height, tile_width):
    key = (dtype, tile_height, tile_width)
    kernel = _kernels.get(key)
    if kernel is not None:
        return kernel
    from pydev.numba import cuda

    tile_shape = (tile_height, tile_width + 1)

    @cuda.jit
    def kernel(input, output):
        tile = cuda.shared.array(shape=tile_shape, dtype=dtype)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        bx = cuda.blockIdx.x * cuda.blockDim.x
        by = cuda.blockIdx.y * cuda.blockDim.y
        # This block's tile of `input` is rows by..by+h, columns bx..bx+w.
        if by + ty < input.shape[0] and bx + tx < input.shape[1]:
            tile[ty, tx] = input[by + ty, bx + tx]
        cuda.syncthreads()
        # ... and `output`'s rows bx..bx+w, columns by..by+h.
        if bx + ty < output.shape[0] and by + tx < output.shape[1]:
            output[bx + ty, by + tx] = tile[tx, ty]

    _kernels[key] = kernel
    return kernel


def transpose(a, b=None):
    """The transpose of the 2-D array `a` (a NumPy or device array) written
    into `b` (a device array of the transposed shape), or into a new device
    array when `b` is None; returns it. Runs on `a`'s stream when `a` is a
    device array."""
    stream = getattr(a, "stream", 0)
    if len(a.shape) != 2:
        raise ValueError(f"transpose: expected a 2-D array, got {len(a.shape)} dimensions")
    rows, cols = a.shape
    if b is None:
        b = _host.device_array((cols, rows), dtype=a.dtype, stream=stream)
    elif tuple(b.shape) != (cols, rows):
        raise ValueError(f"transpose: output shape {tuple(b.shape)} is not {(cols, rows)}")
    tpb = _host.get_current_device().MAX_THREADS_PER_BLOCK
    # The largest square tile of a power-of-two side within the thread limit.
    tile_height = tile_width = 2 ** (int(math.log2(tpb)) // 2)
    kernel = _kernel(np.dtype(a.dtype), tile_height, tile_width)
    blocks = ((cols + tile_width - 1) // tile_width, (rows + tile_height - 1) // tile_height)
    kernel[blocks, (tile_width, tile_height), stream](a, b)
    return b
