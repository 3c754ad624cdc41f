# Kernels for runtime/src/tests.rs (the lit suite skips Inputs/): SIMT semantics on the host target.
import cuda.device as device


@device.kernel
def positions_3d(out):
    # out[z, y, x] over a 3-D grid of 3-D blocks
    x = device.block_idx.x * device.block_dim.x + device.thread_idx.x
    y = device.block_idx.y * device.block_dim.y + device.thread_idx.y
    z = device.block_idx.z * device.block_dim.z + device.thread_idx.z
    if x < out.shape[2] and y < out.shape[1] and z < out.shape[0]:
        out[z, y, x] = x + 10 * y + 100 * z + 1000 * device.lane_id


@device.kernel
def dyn_reverse(out, x):
    # dynamic shared memory sized by the launch; reverse each block's slice
    buf = device.dynamic_shared_array().view(device.float32)
    t = device.thread_idx.x
    n = device.block_dim.x
    i = device.block_idx.x * n + t
    buf[t] = x[i]
    device.syncthreads()
    out[i] = buf[n - 1 - t] + buf.size


@device.kernel
def warp_ops(out, x):
    i = device.tid(1)
    m = device.activemask()
    v = x[i]
    out[i, 0] = device.shfl_xor_sync(m, v, 1)
    out[i, 1] = device.shfl_up_sync(m, v, 3)
    out[i, 2] = device.shfl_sync(m, v, 5)
    out[i, 3] = device.match_any_sync(m, v % 3, 0)
    eq, pred = device.match_all_sync(m, v // 1000, 0)
    out[i, 4] = eq
    out[i, 5] = 1 if pred else 0
    out[i, 6] = device.lanemask_lt()
    device.syncwarp(m)
    out[i, 7] = 1 if device.any_sync(m, lambda: v > 900) else 0
    out[i, 8] = 1 if device.all_sync(m, lambda: v >= 0) else 0
    out[i, 9] = device.syncthreads_count(lambda: v % 2 == 0)
    out[i, 10] = 1 if device.syncthreads_and(lambda: v < 1000) else 0
    out[i, 11] = 1 if device.syncthreads_or(lambda: v == 7) else 0


@device.kernel
def atomics(out, x):
    i = device.tid(1)
    if i < x.size:
        device.atomic_ref(out, 0).add(x[i])
        device.atomic_ref(out, 1).max(x[i])
        device.atomic_ref(out, 2).min(x[i])
        device.atomic_ref(out, 3).xor(x[i])
        device.atomic_ref(out, 4).exch(x[i])
        old = device.atomic_ref(out, 5).cas(i, i + 1)


@device.kernel
def local_sort(out, x):
    # per-thread local array: insertion sort of 8 values
    i = device.tid(1)
    a = device.local_array(8, device.float64)
    for k in range(8):
        a[k] = x[i, k]
    for k in range(1, 8):
        j = k
        while j > 0 and a[j - 1] > a[j]:
            t = a[j]
            a[j] = a[j - 1]
            a[j - 1] = t
            j -= 1
    for k in range(8):
        out[i, k] = a[k]
