"""The typical kernels of test/gpu/kernels.py written for Numba-CUDA, as
plain functions: bench/registers.py compiles them with `compile_ptx`,
bench/host.py jits them under Numba's CUDA simulator. Each bench writes its
own `push`, whose data layout differs (a record array, or separate arrays).
"""

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
