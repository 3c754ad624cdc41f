"""The typical and compute-bound kernels of test/gpu/kernels.py written for
Numba-CUDA, as plain functions: bench/registers.py compiles them with `compile_ptx`,
bench/host.py jits them under Numba's CUDA simulator. Each bench writes its
own `push`, whose data layout differs (a record array, or separate arrays).
"""

import math

from numba import cuda, float32


def vector_add(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


def saxpy(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = a * x[i] + y[i]


def histogram(bins, data):
    i = cuda.grid(1)
    if i < data.size:
        b = data[i] % bins.size
        cuda.atomic.add(bins, b, 1)


def warp_sum(out, x):
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(0.0)
    mask = cuda.activemask()
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(mask, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


def block_sum(out, x):
    buf = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else float32(0.0)
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


def transpose(out, inp):
    tile = cuda.shared.array((32, 33), float32)
    x = cuda.blockIdx.x * 32 + cuda.threadIdx.x
    y = cuda.blockIdx.y * 32 + cuda.threadIdx.y
    if x < inp.shape[1] and y < inp.shape[0]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = inp[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * 32 + cuda.threadIdx.x
    y = cuda.blockIdx.x * 32 + cuda.threadIdx.y
    if x < out.shape[1] and y < out.shape[0]:
        out[y, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y]


def stencil(out, u):
    i, j = cuda.grid(2)
    n, m = u.shape
    if 0 < i and i < n - 1 and 0 < j and j < m - 1:
        out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - float32(4.0) * u[i, j]


# The compute-bound kernels (float32 throughout, as in the other languages:
# Numba's float literals are float64, so each is written float32(...)).
SOFTENING = float32(0.01)


def nbody(acc, pos):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        px, py, pz = pos[i, 0], pos[i, 1], pos[i, 2]
        ax = float32(0.0)
        ay = float32(0.0)
        az = float32(0.0)
        for j in range(pos.shape[0]):
            dx = pos[j, 0] - px
            dy = pos[j, 1] - py
            dz = pos[j, 2] - pz
            inv = float32(1.0) / math.sqrt(dx * dx + dy * dy + dz * dz + SOFTENING)
            s = pos[j, 3] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


def matmul(c, a, b):
    sa = cuda.shared.array((16, 16), float32)
    sb = cuda.shared.array((16, 16), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * 16 + tx
    row = cuda.blockIdx.y * 16 + ty
    m, k = a.shape
    n = b.shape[1]
    s = float32(0.0)
    for t in range(0, k, 16):
        sa[ty, tx] = a[row, t + tx] if row < m and t + tx < k else float32(0.0)
        sb[ty, tx] = b[t + ty, col] if t + ty < k and col < n else float32(0.0)
        cuda.syncthreads()
        for q in range(16):
            s += sa[ty, q] * sb[q, tx]
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = s


def mandelbrot(out, x0, y0, step, max_iter):
    col, row = cuda.grid(2)
    if row < out.shape[0] and col < out.shape[1]:
        cx = x0 + float32(col) * step
        cy = y0 + float32(row) * step
        zx = float32(0.0)
        zy = float32(0.0)
        k = 0
        while k < max_iter:
            zx2 = zx * zx
            zy2 = zy * zy
            if zx2 + zy2 > float32(4.0):
                break
            zy = float32(2.0) * zx * zy + cy
            zx = zx2 - zy2 + cx
            k += 1
        out[row, col] = k


def softmax(out, x):
    buf = cuda.shared.array(256, float32)
    r = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = x.shape[1]
    m = x[r, 0]
    for j in range(t, n, 256):
        m = max(m, x[r, j])
    buf[t] = m
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] = max(buf[t], buf[t + step])
        cuda.syncthreads()
        step //= 2
    m = buf[0]
    cuda.syncthreads()
    s = float32(0.0)
    for j in range(t, n, 256):
        s += math.exp(x[r, j] - m)
    buf[t] = s
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        cuda.syncthreads()
        step //= 2
    s = buf[0]
    for j in range(t, n, 256):
        out[r, j] = math.exp(x[r, j] - m) / s
