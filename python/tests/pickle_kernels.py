# Device code for test_pickle.py: importable, so its module-level objects
# pickle by reference; those that make_scaled makes are closures and pickle
# by value. The worker functions run in multiprocessing pools.
import numpy as np

import cuda.device as device
import pydev
from pydev.numba import cuda

BIAS = 2


@device.struct
class Pair:
    a: device.float32
    b: device.float32

    @device.func
    def total(self):
        return self.a + self.b


@device.func
def shifted(x):
    return x + BIAS


@device.kernel
def pair_sum(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = Pair(x[i], shifted(x[i])).total()


@cuda.jit(device=True)
def numba_square(x):
    return x * x


@cuda.jit
def numba_kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = numba_square(x[i]) + BIAS


def make_scaled(scale):
    """A closure-made kernel (by value: its qualname has <locals>)."""

    @device.func
    def scaled(x):
        return x * scale

    @device.kernel
    def scale_kernel(out, x):
        i = device.tid(1)
        if i < out.size:
            out[i] = scaled(shifted(x[i]))

    return scale_kernel


def launch_in_worker(kernel, x):
    """Runs in a pool worker: launches `kernel(out, x)` on the worker's
    target and returns `out` (poisoned with NaN first)."""
    out = np.full(x.shape, np.nan, x.dtype)
    device.launch(kernel, out, x, grid=(x.size + 63) // 64, block=64, stream=pydev.default_stream())
    return out, pydev.active_target()


def launch_on_block(block, kernel):
    """A dask array block through `kernel(out, block)` (map_blocks)."""
    return launch_in_worker(kernel, np.ascontiguousarray(block))[0]
