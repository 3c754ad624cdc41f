# Kernels that test/gpu/run.py compiles with pydevc and runs on a GPU
# against NumPy.
import cuda.device as device


@device.kernel
def saxpy(a, x, y, out):
    start = device.tid(1)
    stride = device.grid_size(1)
    for i in range(start, x.size, stride):
        out[i] = a * x[i] + y[i]


@device.kernel
def histogram(bins, data):
    i = device.tid(1)
    if i < data.size:
        b = data[i] % bins.size
        device.atomic_ref(bins, b).add(1, memory="relaxed", scope="device")


@device.kernel
def warp_sum(out, x):
    i = device.tid(1)
    v = x[i] if i < x.size else 0.0
    mask = device.activemask()
    offset = 16
    while offset > 0:
        v += device.shfl_down_sync(mask, v, offset)
        offset //= 2
    if device.lane_id == 0:
        device.atomic_ref(out, 0).add(v, memory="relaxed", scope="device")


@device.kernel
def block_votes(counts, ballots, x):
    i = device.tid(1)
    positive = x[i] > 0.0
    n = device.syncthreads_count(lambda: positive)
    b = device.ballot_sync(device.activemask(), lambda: positive)
    if device.thread_idx.x == 0:
        counts[device.block_idx.x] = n
    if device.lane_id == 0:
        ballots[i // 32] = device.popc(device.int32(b))


@device.kernel
def python_ints(out, a, b):
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        out[i, 2] = max(a[i], b[i])
        out[i, 3] = -a[i] if a[i] < 0 else a[i]
