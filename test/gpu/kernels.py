# Kernels that test/gpu/run.py compiles with pydevc and runs on a GPU
# against NumPy.
import math

import cuda.device as device


@device.kernel
def vector_add(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


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
        out[i, 4] = (b[i] % 7) ** 3


@device.kernel
def block_sum(out, x):
    buf = device.shared_array(256, device.float32)
    t = device.thread_idx.x
    i = device.tid(1)
    buf[t] = x[i] if i < x.size else 0.0
    device.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        device.syncthreads()
        step //= 2
    if t == 0:
        out[device.block_idx.x] = buf[0]


TILE = 32


@device.kernel
def transpose(out, inp):
    tile = device.shared_array((TILE, TILE + 1), device.float32)
    x = device.block_idx.x * TILE + device.thread_idx.x
    y = device.block_idx.y * TILE + device.thread_idx.y
    if x < inp.shape[1] and y < inp.shape[0]:
        tile[device.thread_idx.y, device.thread_idx.x] = inp[y, x]
    device.syncthreads()
    x = device.block_idx.y * TILE + device.thread_idx.x
    y = device.block_idx.x * TILE + device.thread_idx.y
    if x < out.shape[1] and y < out.shape[0]:
        out[y, x] = tile[device.thread_idx.x, device.thread_idx.y]


@device.kernel
def local_scan(out, x):
    i = device.tid(1)
    acc = device.local_array(4, device.float32)
    s = 0.0
    for k in range(4):
        s += x[i * 4 + k]
        acc[k] = s
    for k in range(4):
        out[i * 4 + k] = acc[k]


@device.struct
class Particle:
    pos: device.float32x4
    mass: float


@device.kernel
def push(ps, dt):
    i = device.tid(1)
    if i < ps.size:
        p = ps[i]
        v = p.pos
        p.pos = device.float32x4(v.x + dt, v.y, v.z, v.w * p.mass)
        ps[i] = p


@device.kernel
def stencil(out, u):
    i, j = device.tid(2)
    n, m = u.shape
    if 0 < i and i < n - 1 and 0 < j and j < m - 1:
        out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]


@device.kernel
def float_extrema(out, x):
    i = device.tid(1)
    if i < x.size:
        device.atomic_ref(out, 0).nanmax(x[i], memory="relaxed", scope="device")
        device.atomic_ref(out, 1).nanmin(x[i], memory="relaxed", scope="device")
        device.atomic_ref(out, 2).max(x[i], memory="acq_rel", scope="device")
        device.atomic_ref(out, 3).min(x[i])


@device.kernel
def handoff(flag, out):
    if device.block_idx.x == 0:
        if device.thread_idx.x == 0:
            out[0] = 42
            device.atomic_ref(flag, 0).store(1, memory="release", scope="device")
            device.atomic_ref(flag, 0).notify_all()
    elif device.thread_idx.x == 0:
        device.atomic_ref(flag, 0).wait(0, memory="acquire", scope="device")
        out[1] = out[0] + 1


@device.kernel
def views(out, a, m):
    i = device.tid(1)
    r = a[::-1]
    e = a[1:-1:2]
    row = m[2]
    col = m[:, 1]
    flat = m.reshape(m.size)
    if i < r.size:
        out[i, 0] = r[i]
    if i < e.size:
        out[i, 1] = e[i]
    if i < row.size:
        out[i, 2] = row[i]
    if i < col.size:
        out[i, 3] = col[i]
    if i < flat.size:
        out[i, 4] = flat[i]


@device.kernel
def complex_math(out, z, w, x):
    i = device.tid(1)
    if i < x.size:
        p = z[i] * w[i] + 1j
        out[i, 0] = abs(p)
        out[i, 1] = (z[i] / w[i]).imag
        out[i, 2] = math.sin(x[i]) + math.exp(x[i]) * math.sqrt(x[i])


@device.struct
class Pair:
    tag: device.int16
    weight: device.float32


@device.kernel
def shuffle_aggregates(out, x):
    # vectors, structs, tuples and complex numbers of at most 8 bytes move
    # between lanes whole (one shuffle per member)
    i = device.tid(1)
    m = device.activemask()
    v = device.shfl_xor_sync(m, device.float32x2(x[i], x[i] * 2.0), 1)
    p = device.shfl_down_sync(m, Pair(device.int16(i), x[i]), 1)
    t = device.shfl_sync(m, (i, x[i] + 1.0), 0)
    z = device.shfl_up_sync(m, device.complex64(x[i] - 1j * x[i]), 1)
    out[i, 0] = v.x
    out[i, 1] = v.y
    out[i, 2] = p.tag
    out[i, 3] = p.weight
    out[i, 4] = t[0]
    out[i, 5] = t[1]
    out[i, 6] = z.real
    out[i, 7] = z.imag


@device.func
def fetch(a, i):
    return a[i]


@device.kernel
def array_args(out, a, n):
    i = device.tid(1)
    w = 0
    if n:
        w += 1
    if i < a.size:
        out[i] = fetch(a, i) + w


@device.func
def row(m, i):
    # a device function returning an array (a view of row i)
    return m[i]


@device.kernel
def row_sums(out, m):
    i = device.tid(1)
    if i < m.shape[0]:
        r = row(m, i)
        s = 0.0
        for k in range(r.size):
            s += r[k]
        out[i] = s


@device.kernel
def float8_round_trip(out, x):
    # float32 -> float8 (round to nearest even) -> float32, and float8 sums
    i = device.tid(1)
    if i < x.size:
        a = device.float8e4m3(x[i])
        b = device.float8e5m2(x[i])
        out[i, 0] = device.float32(a)
        out[i, 1] = device.float32(b)
        out[i, 2] = device.float32(a + a)


# The compute-bound kernels of bench/gpu.py (with the typical ones above):
# each is written the same way in CUDA C++ (bench/gpu.py) and for Numba-CUDA
# (bench/numba_kernels.py).

SOFTENING = 0.01  # squared: keeps the force between close bodies finite


@device.kernel
def nbody(acc, pos):
    # all pairs: acc[i] = sum over j of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps)^1.5,
    # pos[j] = (x, y, z, m)
    i = device.tid(1)
    if i < pos.shape[0]:
        px, py, pz = pos[i, 0], pos[i, 1], pos[i, 2]
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(pos.shape[0]):
            dx = pos[j, 0] - px
            dy = pos[j, 1] - py
            dz = pos[j, 2] - pz
            inv = 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz + SOFTENING)
            s = pos[j, 3] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


MM_TILE = 16


@device.kernel
def matmul(c, a, b):
    # c = a @ b through shared memory, one MM_TILE x MM_TILE tile of c per block
    sa = device.shared_array((MM_TILE, MM_TILE), device.float32)
    sb = device.shared_array((MM_TILE, MM_TILE), device.float32)
    tx = device.thread_idx.x
    ty = device.thread_idx.y
    col = device.block_idx.x * MM_TILE + tx
    row = device.block_idx.y * MM_TILE + ty
    m, k = a.shape
    n = b.shape[1]
    s = 0.0
    for t in range(0, k, MM_TILE):
        sa[ty, tx] = a[row, t + tx] if row < m and t + tx < k else 0.0
        sb[ty, tx] = b[t + ty, col] if t + ty < k and col < n else 0.0
        device.syncthreads()
        for q in range(MM_TILE):
            s += sa[ty, q] * sb[q, tx]
        device.syncthreads()
    if row < m and col < n:
        c[row, col] = s


@device.kernel
def mandelbrot(out, x0, y0, step, max_iter):
    # out[r, c] = the iterations before z -> z^2 + (x0 + c step) + (y0 + r step) i escapes
    col, row = device.tid(2)
    if row < out.shape[0] and col < out.shape[1]:
        cx = x0 + device.float32(col) * step
        cy = y0 + device.float32(row) * step
        zx = 0.0
        zy = 0.0
        k = 0
        while k < max_iter:
            zx2 = zx * zx
            zy2 = zy * zy
            if zx2 + zy2 > 4.0:
                break
            zy = 2.0 * zx * zy + cy
            zx = zx2 - zy2 + cx
            k += 1
        out[row, col] = k


@device.kernel
def softmax(out, x):
    # one block of 256 threads per row: the row's maximum, then the sum of
    # the exponentials, each a shared-memory tree reduction
    buf = device.shared_array(256, device.float32)
    r = device.block_idx.x
    t = device.thread_idx.x
    n = x.shape[1]
    m = x[r, 0]  # every row has an element
    for j in range(t, n, 256):
        m = max(m, x[r, j])
    buf[t] = m
    device.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] = max(buf[t], buf[t + step])
        device.syncthreads()
        step //= 2
    m = buf[0]
    device.syncthreads()
    s = 0.0
    for j in range(t, n, 256):
        s += math.exp(x[r, j] - m)
    buf[t] = s
    device.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        device.syncthreads()
        step //= 2
    s = buf[0]
    for j in range(t, n, 256):
        out[r, j] = math.exp(x[r, j] - m) / s
