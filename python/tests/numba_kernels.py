"""Kernels in Numba-CUDA syntax for test_numba*.py (ports of the typical
kernels and of Numba-CUDA's documentation examples, written here)."""

import cmath
import math

import numpy as np

from pydev.numba import cuda, float32, float64, int16, int32, uint32, int64, void

TPB = 16  # matmul tile
RED = 128  # reduction block


@cuda.jit
def vec_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


@cuda.jit
def block_sum_early_return(x, out, live, n):
    """The usual Numba-CUDA block reduction: threads past the end return
    before the barriers (which, as on GPUs, they do not hold up)."""
    s = cuda.shared.array(RED, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= n:
        return
    s[t] = x[i]
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step and i + step < n:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]
    c = cuda.syncthreads_count(True)  # the threads that did not return
    if t == 0:
        live[cuda.blockIdx.x] = c


@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(RED, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    step = RED // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


@cuda.jit
def warp_sum(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else 0.0
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@cuda.jit
def histogram(x, nbins, hist):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        b = int(x[i] * nbins)
        if b >= nbins:
            b = nbins - 1
        cuda.atomic.add(hist, b, 1)


@cuda.jit
def transpose(a, out):
    tile = cuda.shared.array((TPB, TPB + 1), dtype=float32)
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    ox = cuda.blockIdx.y * TPB + tx
    oy = cuda.blockIdx.x * TPB + ty
    if oy < out.shape[0] and ox < out.shape[1]:
        out[oy, ox] = tile[tx, ty]


@cuda.jit
def stencil(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = 0.2 * (a[i, j] + a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


@cuda.jit
def record_update(recs, dt):
    i = cuda.grid(1)
    if i < recs.size:
        r = recs[i]
        r.x = r.x + r.vx * dt
        recs[i].n = recs[i].n + 1


# Numba-CUDA documentation: matrix multiplication with shared memory
@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.0)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


# Numba-CUDA documentation: a reduction with a grid-stride loop and atomics
@cuda.jit
def sum_reduce(a, total):
    s = 0.0
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        s += a[i]
    cuda.atomic.add(total, 0, s)


# A random-free Monte Carlo: pi from a deterministic low-discrepancy sequence
@cuda.jit(device=True)
def van_der_corput(n, base):
    q = 0.0
    bk = 1.0 / base
    while n > 0:
        q += (n % base) * bk
        n //= base
        bk /= base
    return q


@cuda.jit
def mc_pi(n, hits):
    i = cuda.grid(1)
    inside = 0
    if i < n:
        x = van_der_corput(i + 1, 2)
        y = van_der_corput(i + 1, 3)
        if x * x + y * y <= 1.0:
            inside = 1
    c = cuda.syncthreads_count(inside)
    if cuda.threadIdx.x == 0:
        cuda.atomic.add(hits, 0, c)


@cuda.jit
def atomics_all(ai, au, af, vals, old):
    i = cuda.grid(1)
    if i < vals.size:
        v = vals[i]
        cuda.atomic.max(ai, 0, v)
        cuda.atomic.min(ai, 1, v)
        cuda.atomic.sub(ai, 2, v)
        cuda.atomic.and_(ai, 3, v)
        cuda.atomic.or_(ai, 4, v)
        cuda.atomic.xor(ai, 5, v)
        cuda.atomic.inc(au, 0, uint32(7))
        cuda.atomic.dec(au, 1, uint32(5))
        cuda.atomic.max(af, 0, float64(v) / 3)
        cuda.atomic.nanmin(af, 1, float64(v) / 3)
        old[i] = cuda.atomic.exch(ai, 6, v)
        if i == 0:
            cuda.atomic.cas(ai, 7, 11, 99)


@cuda.jit
def cas_once(flag, winners):
    i = cuda.grid(1)
    if i < winners.size:
        winners[i] = 1 if cuda.atomic.compare_and_swap(flag, 0, i + 1) == 0 else 0


@cuda.jit
def warp_vote(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    mask = cuda.activemask()
    ballot = cuda.ballot_sync(mask, v > 0)
    out[i, 0] = cuda.popc(ballot)
    out[i, 1] = 1 if cuda.all_sync(mask, v > -1000) else 0
    out[i, 2] = 1 if cuda.any_sync(mask, v > 5) else 0
    out[i, 3] = cuda.match_any_sync(mask, v % 4)
    out[i, 4] = cuda.shfl_xor_sync(mask, v, 1)
    out[i, 5] = cuda.shfl_sync(mask, v, 0)
    out[i, 6] = cuda.shfl_up_sync(mask, v, 1)
    out[i, 7] = lane
    out[i, 8] = cuda.popc(cuda.lanemask_lt())
    m, same = cuda.match_all_sync(mask, v // 100)
    out[i, 9] = 1 if same else 0
    out[i, 10] = 1 if cuda.eq_sync(mask, v // 100) else 0
    cuda.syncwarp()


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b


@cuda.jit(device=True)
def scaled(v):
    return clamp(v, -1.0, 1.0) * 2


@cuda.jit
def control_flow(a, out, qr):
    i = cuda.grid(1)
    if i >= a.size:
        return
    acc = 0
    k = 0
    while True:
        k += 1
        if k > 50:
            break
        if k % 3 == 0:
            continue
        acc += k * a[i]
    out[i] = scaled(acc / 1000.0)
    q, r = divmod_pair(a[i] - 5, 3)
    qr[i, 0] = q
    qr[i, 1] = r
    tmp = cuda.local.array(4, dtype=int64)
    for j in range(4):
        tmp[j] = j * a[i]
    s = 0
    for j in range(3, -1, -1):
        s = s * 2 + tmp[j]
    qr[i, 2] = s
    qr[i, 3] = -7 // 2 + (-7 % 3) + a[i] ** 2
    qr[i, 4] = 1 if (a[i] > 3 and a[i] < 8) or a[i] == 0 else 0


LUT = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0], dtype=np.float64)


@cuda.jit
def math_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        c = cuda.const.array_like(LUT)
        out[i, 0] = math.sin(v) + math.cos(v)
        out[i, 1] = math.exp(v) * math.log(v + 1.0)
        out[i, 2] = math.sqrt(v) + math.atan2(v, 0.5)
        out[i, 3] = math.floor(v * 10) + math.ceil(v * 10)
        out[i, 4] = cuda.fma(v, 2.0, 1.0) + cuda.cbrt(v)
        out[i, 5] = math.tanh(v) + math.pow(v, 1.5) + abs(-v)
        out[i, 6] = c[i % 6] + math.hypot(v, 2.0)
        out[i, 7] = 1.0 if math.isnan(v / 0.0 * 0.0) and not math.isinf(v) else 0.0


@cuda.jit
def bits_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = cuda.popc(v)
        out[i, 1] = cuda.clz(v)
        out[i, 2] = cuda.ffs(v)
        out[i, 3] = cuda.brev(v)


@cuda.jit
def dyn_shared(x, out):
    buf = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    buf[t] = x[t] * 2
    cuda.syncthreads()
    out[t] = buf[cuda.blockDim.x - 1 - t]


@cuda.jit
def grid3(out):
    x, y, z = cuda.grid(3)
    nx, ny, nz = cuda.gridsize(3)
    if x < out.shape[2] and y < out.shape[1] and z < out.shape[0]:
        out[z, y, x] = x + 10 * y + 100 * z + 1000 * (nx + ny + nz)


@cuda.jit
def tuple_arg(t, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = t[0] * i + t[1]


@cuda.jit
def fp16_kernel(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.fp16.hfma(a[i], b[i], cuda.fp16.hadd(a[i], b[i]))


@cuda.jit
def syncs(x, out):
    t = cuda.threadIdx.x
    v = x[t]
    out[0] = cuda.syncthreads_count(v > 0)
    out[1] = cuda.syncthreads_and(v > -100)
    out[2] = cuda.syncthreads_or(v > 100)
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()


@cuda.jit
def views(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        s = 0.0
        for j in range(row.size):
            s += row[j]
        tail = b[1:]
        rev = b[::-1]
        col = a[1:3, i % 4]
        out[i, 0] = s
        out[i, 1] = tail[0] + rev[0] + col[1]
        a2 = a[:, ::2]
        out[i, 2] = a2[i, 1]
        a[i][4] = -1.0


WEIGHTS = np.array([0.25, 0.5, 0.25])
REC = np.dtype([("a", np.int32), ("b", np.float64)], align=True)


@cuda.jit
def globals_and_shared_records(x, out, recs):
    i = cuda.grid(1)
    sh = cuda.shared.array(4, dtype=REC)
    if cuda.threadIdx.x == 0:
        sh[0] = recs[0]
    cuda.syncthreads()
    if i < out.size:
        out[i] = WEIGHTS[0] * x[i - 1] + WEIGHTS[1] * x[i] + WEIGHTS[2] * x[(i + 1) % x.size] + len(WEIGHTS)
        recs[i].b += sh[0].a


@cuda.jit
def local_across_barrier(out):
    l = cuda.local.array(2, dtype=float64)
    t = cuda.threadIdx.x
    l[0] = t + 0.5
    cuda.syncthreads()
    out[t] = l[0]


from pydev.numba.cuda.random import (  # noqa: E402 - Numba's module path
    create_xoroshiro128p_states,
    xoroshiro128p_normal_float32,
    xoroshiro128p_uniform_float32,
    xoroshiro128p_uniform_float64,
)


@cuda.jit
def draws(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = xoroshiro128p_uniform_float64(states, i)
        out[i, 1] = xoroshiro128p_uniform_float32(states, i)
        out[i, 2] = xoroshiro128p_normal_float32(states, i)


# Numba-CUDA documentation: Monte Carlo estimate of pi with cuda.random
@cuda.jit
def compute_pi(rng_states, iterations, out):
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x**2 + y**2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


@cuda.jit
def printer(a):
    i = cuda.grid(1)
    if i < a.size:
        print("thread", i, "value", a[i], (i, 2.5), "100%")


@cuda.jit
def complex_kernel(a, out, w):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i] * a[i] + 1j
        out[i] = z.real + z.imag + abs(z)
        a[i] = z / a[i] - z.conjugate() + complex(1.0, 2.0) * w
        out[i] += cmath.exp(z).real + cmath.phase(z)
        if z == a[i] or not z:
            out[i] = -1


@cuda.jit(device=True)
def find_first(a, v):
    for i in range(a.size):
        if a[i] == v:
            return i
    return -1


@cuda.jit(device=True)
def minmax(a):
    lo, hi = a[0], a[0]
    for i in range(1, a.size):
        x = a[i]
        if x < lo:
            lo = x
        elif x > hi:
            hi = x
    return lo, hi


@cuda.jit
def control_flow2(a, out):
    t = cuda.grid(1)
    if t > 0:
        return
    out[0] = find_first(a, 7)
    out[1] = find_first(a, 100)
    lo, hi = minmax(a)
    out[2] = lo
    out[3] = hi
    s = 0
    for i in range(10):
        for j in range(10):
            if j > i:
                break
            if (i + j) % 2:
                continue
            s += i * j
    out[4] = s
    for q in range(5, -3, -2):
        pass
    out[5] = q
    if a[0] > 0:
        w = 1
    else:
        w = 2
    out[6] = w
    n = 0
    while n < 100 and a[n % a.size] != 7:
        n += 3
    out[7] = n
    acc = (0, 0)
    for i in range(4):
        acc = (acc[0] + i, acc[1] + 2 * i)
    out[8] = acc[0] * 100 + acc[1]
    c = 0
    for i in range(3):
        for j in range(3):
            c += 1
    out[9] = c + i + j
    out[10] = cuda.selp(a[0] > 2, 5, -5)


@cuda.jit
def bools_and_small_ints(flags, a, out, small):
    i = cuda.grid(1)
    if i < a.size:
        m = float("inf")
        m = min(m, a[i])
        flags[i] = a[i] > 0.5
        out[i] = m + (1 if flags[i] else 0) + len(a.shape)
        small[i] = int16(small[i] * 3)


@cuda.jit
def slice_assign(a, b):
    i = cuda.grid(1)
    if i == 0:
        a[1:4] = 7.0
        a[5:] = b[: a.size - 5]
        tmp = cuda.local.array((2, 3), dtype=float64)
        tmp[:, :] = 0.5
        tmp[1] = 2.0
        a[0] = tmp[0, 2] + tmp[1, 1]


@cuda.jit
def int_powers(a, b, out):
    for i in range(a.size):
        out[i] = a[i] ** b[i]
    out[a.size] = 2**-1 + (-1) ** -3 * 10


def _divide(a, b, out, f):
    out[0] = a[0] // b[0]
    out[1] = a[0] % b[0]
    f[0] = a[0] / b[0]
    f[1] = f[2] // f[3]


divide = cuda.jit(_divide)
divide_debug = cuda.jit(debug=True)(_divide)
