"""A sum of a whole array in one launch, built with pydev.ir as a framework
would: each thread adds a grid-stride slice (a loop-carried value), each warp
adds its 32 sums with shuffles, one lane per warp leaves the warp's sum in
shared memory, warp 0 adds those with shuffles again, and thread 0 adds the
block's sum to the result with a relaxed device-scope atomic.
docs/backend.md shows this program as its second worked example.

Run: python3 examples/ir_block_reduce.py
"""

import numpy as np

import cuda.device as device
import pydev
from pydev import ir

BLOCK, WARP = 256, 32
m = ir.Module()
# block_reduce(x, total): total[0] += sum(x), launched with blocks of BLOCK threads.
k = m.kernel("block_reduce", [ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
x, total = k.args
t = k.thread_id()
lane, warp = t % WARP, t // WARP
full = k.cast(k.constant(0xFFFFFFFF, ir.ui32), ir.warp_mask())


def warp_sum(v):  # after it, lane 0 holds the sum of the warp's 32 values
    for offset in (16, 8, 4, 2, 1):
        v = v + k.ops.shfl(full, v, k.constant(offset, ir.si32), kind="down", result=ir.f32)
    return v


loop = k.for_range(k.global_id(), k.cast(x.size, ir.si32), k.grid_dim() * k.block_dim(), carry=[0.0])
with loop as i:
    (acc,) = loop.carried
    loop.next(acc + x[i])
(mine,) = loop.results

partial = k.shared_array(ir.f32, BLOCK // WARP)
s = warp_sum(mine)
with k.if_(lane == 0):
    partial[warp] = s
k.syncthreads()
with k.if_(warp == 0):  # warp 0 alone shuffles; the other warps have finished
    b = k.if_(lane < BLOCK // WARP, results=[ir.f32])
    with b:
        b.yield_(partial[lane])
    with b.else_():
        b.yield_(0.0)
    block_sum = warp_sum(b.results[0])
    with k.if_(lane == 0):
        ref = k.ops.atomic_ref(total, k.constant(0, ir.si64), result=ir.atomic_ref(ir.f32))
        k.ops.atomic_rmw(ref, block_sum, kind="add", memory="relaxed", scope="device", result=ir.f32)
assert m.verify() == ["block_reduce"]
program = pydev.Program(m, kernel="block_reduce")

if __name__ == "__main__":
    rng = np.random.default_rng(36)
    for n in (1, 1000, 100_003):
        xs = rng.standard_normal(n).astype(np.float32)
        out = pydev.to_device(np.zeros(1, np.float32))  # the atomic adds to it
        stream = pydev.default_stream()
        device.launch(program, pydev.to_device(xs), out, grid=16, block=BLOCK, stream=stream)
        stream.synchronize()
        got, want = out.copy_to_host()[0], xs.sum(dtype=np.float64)
        assert abs(got - want) <= 1e-5 * np.abs(xs).sum() + 1e-6, (n, got, want)
        print(f"ok: block_reduce of {n} values on {pydev.active_target()}: {got:.4f} (NumPy {want:.4f})")
