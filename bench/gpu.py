#!/usr/bin/env python3
"""The GPU benchmark: the typical kernels (memory-bound) and four
compute-bound ones (n-body, tiled matrix multiply, Mandelbrot, row softmax)
with pydev, as CUDA C++ (NVRTC, through CuPy's RawKernel) and with
Numba-CUDA when it is installed, timed with CUDA events on one stream; then
the launch rows of bench/launch.py.

    python3 bench/gpu.py [--repeat 20] [--trials 5] [--log2n 25] [--no-launch]
    python3 bench/gpu.py --check    # no GPU: every implementation compiles
                                    # (pydev to PTX, C++ with NVRTC, Numba's
                                    # compile_ptx) and pydev's kernels match
                                    # the NumPy references on the host target

Every kernel is the same algorithm in the three languages (pydev's are
test/gpu/kernels.py, Numba's bench/numba_kernels.py, the C++ below), run
with the same grid and block on the same device arrays. Outputs are checked
against NumPy (poisoned first) before anything is timed. Times are the median
over --trials of (events around --repeat back-to-back launches) / --repeat, in
µs; "x C++" is the ratio to the CUDA C++ time; GB/s counts the bytes each
kernel must move once, against a device-to-device copy of 2^log2n floats;
GFLOP/s, for the kernels that count their floating-point operations.

A benchmark, not a test: it prints tables for docs/performance.md. Without a
CUDA driver and device it says so and exits 0 (--check needs neither).
"""

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
sys.path.insert(0, HERE)

CXX = r"""
struct __align__(16) Particle { float4 pos; float mass; };

extern "C" __global__ void vector_add(float *out, const float *a, const float *b, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float a, const float *x, const float *y, float *out, long long n) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = a * x[i] + y[i];
}

extern "C" __global__ void block_sum(float *out, const float *x, long long n) {
    __shared__ float buf[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int step = 128; step > 0; step /= 2) {
        if (t < step) buf[t] += buf[t + step];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

extern "C" __global__ void warp_sum(float *out, const float *x, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    unsigned mask = __activemask();
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

extern "C" __global__ void histogram(unsigned *bins, const int *data, long long nbins, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i] % nbins], 1u);  // data is non-negative
}

extern "C" __global__ void transpose(float *out, const float *in, long long rows, long long cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(long long)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols) out[(long long)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void stencil(float *out, const float *u, long long n, long long m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (0 < i && i < n - 1 && 0 < j && j < m - 1)
        out[i * m + j] = u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1] - 4.0f * u[i * m + j];
}

extern "C" __global__ void push(Particle *ps, float dt, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle p = ps[i];
        p.pos = make_float4(p.pos.x + dt, p.pos.y, p.pos.z, p.pos.w * p.mass);
        ps[i] = p;
    }
}

// The compute-bound kernels.
extern "C" __global__ void nbody(float *acc, const float *pos, long long n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float px = pos[i * 4], py = pos[i * 4 + 1], pz = pos[i * 4 + 2];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = pos[j * 4] - px, dy = pos[j * 4 + 1] - py, dz = pos[j * 4 + 2] - pz;
            float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
            float s = pos[j * 4 + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[i * 3] = ax;
        acc[i * 3 + 1] = ay;
        acc[i * 3 + 2] = az;
    }
}

extern "C" __global__ void matmul(float *c, const float *a, const float *b, long long m, long long k, long long n) {
    __shared__ float sa[16][16], sb[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * 16 + tx, row = blockIdx.y * 16 + ty;
    float s = 0.0f;
    for (int t = 0; t < k; t += 16) {
        sa[ty][tx] = row < m && t + tx < k ? a[row * k + t + tx] : 0.0f;
        sb[ty][tx] = t + ty < k && col < n ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < 16; q++) s += sa[ty][q] * sb[q][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = s;
}

extern "C" __global__ void mandelbrot(int *out, float x0, float y0, float step, int max_iter, long long h, long long w) {
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < h && col < w) {
        float cx = x0 + (float)col * step, cy = y0 + (float)row * step;
        float zx = 0.0f, zy = 0.0f;
        int k = 0;
        while (k < max_iter) {
            float zx2 = zx * zx, zy2 = zy * zy;
            if (zx2 + zy2 > 4.0f) break;
            zy = 2.0f * zx * zy + cy;
            zx = zx2 - zy2 + cx;
            k++;
        }
        out[row * w + col] = k;
    }
}

extern "C" __global__ void softmax(float *out, const float *x, long long rows, long long n) {
    __shared__ float buf[256];
    int r = blockIdx.x, t = threadIdx.x;
    const float *xr = x + r * n;
    float m = xr[0];
    for (int j = t; j < n; j += 256) m = fmaxf(m, xr[j]);
    buf[t] = m;
    __syncthreads();
    for (int step = 128; step > 0; step /= 2) {
        if (t < step) buf[t] = fmaxf(buf[t], buf[t + step]);
        __syncthreads();
    }
    m = buf[0];
    __syncthreads();
    float s = 0.0f;
    for (int j = t; j < n; j += 256) s += expf(xr[j] - m);
    buf[t] = s;
    __syncthreads();
    for (int step = 128; step > 0; step /= 2) {
        if (t < step) buf[t] += buf[t + step];
        __syncthreads();
    }
    s = buf[0];
    for (int j = t; j < n; j += 256) out[r * n + j] = expf(xr[j] - m) / s;
}
"""


def cases(log2n):
    """Each typical kernel: its inputs (NumPy), outputs (poisoned or zeroed
    as the kernel needs), launch shape, bytes moved and NumPy reference."""
    rng = np.random.default_rng(2026)
    n = 1 << log2n
    side = 1 << ((log2n + 1) // 2)  # 8192 for 2^25 floats
    f32 = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    nan = lambda *shape: np.full(shape, np.nan, np.float32)  # noqa: E731
    from kernels import Particle

    out = []
    a, b = f32(n), f32(n)
    out.append(
        dict(
            name="vector_add",
            ins=dict(a=a, b=b),
            outs=dict(out=nan(n)),
            order=("out", "a", "b"),
            scalars=(),
            sizes=(n,),
            grid=n // 256,
            block=256,
            bytes=3 * 4 * n,
            ref=lambda: {"out": a + b},
        )
    )
    out.append(
        dict(
            name="saxpy",
            ins=dict(x=a, y=b),
            outs=dict(out=nan(n)),
            order=("x", "y", "out"),
            scalars=(np.float32(2.5),),
            sizes=(n,),
            grid=n // 256,
            block=256,
            bytes=3 * 4 * n,
            ref=lambda: {"out": np.float32(2.5) * a + b},
        )
    )
    out.append(
        dict(
            name="block_sum",
            ins=dict(x=a),
            outs=dict(out=nan(n // 256)),
            order=("out", "x"),
            scalars=(),
            sizes=(n,),
            grid=n // 256,
            block=256,
            bytes=4 * n,
            ref=lambda: {"out": a.reshape(-1, 256).sum(axis=1, dtype=np.float64)},
            rtol=1e-4,
            atol=1e-4,
        )
    )
    out.append(
        dict(
            name="warp_sum",
            ins=dict(x=a),
            outs=dict(out=np.zeros(1, np.float32)),
            order=("out", "x"),
            scalars=(),
            sizes=(n,),
            grid=n // 256,
            block=256,
            bytes=4 * n,
            ref=lambda: {"out": np.array([a.sum(dtype=np.float64)])},
            atol=0.05 * np.sqrt(n),
        )
    )
    data = rng.integers(0, 1 << 20, n, dtype=np.int32)
    out.append(
        dict(
            name="histogram",
            ins=dict(data=data),
            outs=dict(bins=np.zeros(97, np.uint32)),
            order=("bins", "data"),
            scalars=(),
            sizes=(97, n),
            grid=n // 256,
            block=256,
            bytes=4 * n,
            ref=lambda: {"bins": np.bincount(data % 97, minlength=97).astype(np.uint32)},
        )
    )
    m = f32(side, side // 2)  # not square, so a swapped index shows
    out.append(
        dict(
            name="transpose",
            ins=dict(inp=m),
            outs=dict(out=nan(side // 2, side)),
            order=("out", "inp"),
            scalars=(),
            sizes=m.shape,
            grid=(side // 2 // 32, side // 32),
            block=(32, 32),
            bytes=2 * 4 * m.size,
            ref=lambda: {"out": m.T},
        )
    )
    u = f32(side, side // 2)

    def stencil_ref():
        r = nan(*u.shape)
        r[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - np.float32(4.0) * u[1:-1, 1:-1]
        return {"out": r}

    out.append(
        dict(
            name="stencil",
            ins=dict(u=u),
            outs=dict(out=nan(*u.shape)),
            order=("out", "u"),
            scalars=(),
            sizes=u.shape,
            grid=(u.shape[0] // 16, u.shape[1] // 16),
            block=(16, 16),
            bytes=2 * 4 * u.size,
            ref=stencil_ref,
            rtol=1e-5,
            atol=1e-5,
        )
    )
    np_ = n // 4
    ps = np.zeros(np_, Particle.dtype)
    ps["pos"] = f32(np_, 4)
    ps["mass"] = f32(np_)
    assert Particle.dtype.itemsize == 32, Particle.dtype  # the C++ struct's size

    def push_ref():
        r = ps.copy()
        r["pos"][:, 0] += np.float32(0.5)
        r["pos"][:, 3] *= r["mass"]
        return {"ps": r}

    out.append(
        dict(
            name="push",
            ins=dict(),
            outs=dict(ps=ps),
            order=("ps",),
            scalars=(np.float32(0.5),),
            sizes=(np_,),
            grid=np_ // 256,
            block=256,
            bytes=2 * 32 * np_,
            ref=push_ref,
        )
    )
    out += compute_bound_cases(log2n, rng)
    return out


def mandelbrot_ref(x0, y0, step, max_iter, rows, w):
    """The escape counts of the given rows, in float32 as the kernels compute them."""
    cx = np.broadcast_to(x0 + np.arange(w, dtype=np.float32) * step, (len(rows), w))
    cy = np.broadcast_to(y0 + rows.astype(np.float32)[:, None] * step, (len(rows), w))
    zx, zy = np.zeros_like(cx), np.zeros_like(cx)
    count, alive = np.zeros(cx.shape, np.int32), np.ones(cx.shape, bool)
    for _ in range(max_iter):
        zx2, zy2 = zx * zx, zy * zy
        alive &= ~(zx2 + zy2 > np.float32(4.0))
        zy, zx = np.where(alive, np.float32(2.0) * zx * zy + cy, zy), np.where(alive, zx2 - zy2 + cx, zx)
        count += alive
    return count


def compute_bound_cases(log2n, rng):
    """n-body, a tiled matrix multiply, Mandelbrot and a row softmax: kernels
    bound by arithmetic (and shared memory), which show code quality where
    the memory-bound ones above show bandwidth. Where a full NumPy reference
    would take longer than the GPU run, `sample` names the rows checked;
    `flops` counts the floating-point operations of one launch."""
    out = []
    nb = 1 << max(log2n - 10, 8)  # 32768 bodies for 2^25
    pos = rng.uniform(-1, 1, (nb, 4)).astype(np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.0, nb)  # the masses
    picked = np.sort(rng.choice(nb, min(nb, 512), replace=False))

    def nbody_ref():
        p = pos.astype(np.float64)
        d = p[None, :, :3] - p[picked, None, :3]
        inv = 1.0 / np.sqrt((d * d).sum(-1) + 0.01)
        return {"acc": (d * (p[None, :, 3] * inv**3)[..., None]).sum(1)}

    out.append(
        dict(
            name="nbody",
            ins=dict(pos=pos),
            outs=dict(acc=np.full((nb, 3), np.nan, np.float32)),
            order=("acc", "pos"),
            scalars=(),
            sizes=(nb,),
            grid=nb // 256,
            block=256,
            bytes=(16 + 12) * nb,
            flops=20 * nb * nb,
            sample=picked,
            ref=nbody_ref,
            rtol=1e-4,
            atol=1e-3,
        )
    )
    side = 1 << max((log2n - 3) // 2, 6)  # 2048 for 2^25
    m, k, n = side, side // 2 + 8, side * 3 // 4 + 5  # partial tiles in k and n
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    out.append(
        dict(
            name="matmul",
            ins=dict(a=a, b=b),
            outs=dict(c=np.full((m, n), np.nan, np.float32)),
            order=("c", "a", "b"),
            scalars=(),
            sizes=(m, k, n),
            grid=((n + 15) // 16, (m + 15) // 16),
            block=(16, 16),
            bytes=4 * (m * k + k * n + m * n),
            flops=2 * m * k * n,
            ref=lambda: {"c": a.astype(np.float64) @ b},
            rtol=1e-4,
            atol=1e-3,
        )
    )
    w = 1 << max((log2n - 1) // 2, 6)  # 4096 x 2048 pixels for 2^25
    h, step, max_iter = w // 2, np.float32(2.5 / w), np.int32(256)
    x0, y0 = np.float32(-2.0), np.float32(-step * h / 2)
    rows = np.arange(0, h, max(1, h // 64))
    out.append(
        dict(
            name="mandelbrot",
            ins=dict(),
            outs=dict(out=np.full((h, w), -1, np.int32)),
            order=("out",),
            scalars=(x0, y0, step, max_iter),
            sizes=(h, w),
            grid=(w // 16, h // 16),
            block=(16, 16),
            bytes=4 * h * w,
            sample=rows,
            ref=lambda: {"out": mandelbrot_ref(x0, y0, step, max_iter, rows, w)},
            # contracted multiply-adds (pydev, nvcc and Numba fuse; NumPy does
            # not) change the escape count of a few pixels on the set's edge
            max_wrong=0.01,
        )
    )
    k2 = min(12, log2n - 3)
    x = (4 * rng.standard_normal((1 << (log2n - k2), (1 << k2) - 3))).astype(np.float32)  # 8192 x 4093 for 2^25

    def softmax_ref():
        e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        return {"out": e / e.sum(axis=1, keepdims=True)}

    out.append(
        dict(
            name="softmax",
            ins=dict(x=x),
            outs=dict(out=np.full(x.shape, np.nan, np.float32)),
            order=("out", "x"),
            scalars=(),
            sizes=x.shape,
            grid=x.shape[0],
            block=256,
            bytes=2 * 4 * x.size,
            ref=softmax_ref,
            rtol=1e-5,
            atol=1e-9,
        )
    )
    return out


def close(c, key, got, want):
    """`got` matches `want` (in the rows `sample` names; all but the fraction
    `max_wrong` of the elements)."""
    if got.dtype.names:  # the struct array: field by field
        return all(close(c, key, np.ascontiguousarray(got[f]), np.ascontiguousarray(want[f])) for f in got.dtype.names)
    if "sample" in c:
        got = got[c["sample"]]
    ok = np.isclose(got, want, rtol=c.get("rtol", 1e-6), atol=c.get("atol", 1e-6), equal_nan=True)
    return ok.shape == np.shape(want) and ok.mean() >= 1 - c.get("max_wrong", 0)


def pydev_args(c, arrays):
    """pydev's launch arguments in its kernel's parameter order."""
    names = {
        "vector_add": ("out", "a", "b"),
        "saxpy": ("s", "x", "y", "out"),
        "push": ("ps", "s"),
        "mandelbrot": ("out", "s", "s", "s", "s"),
    }.get(c["name"], c["order"])
    it = iter(c["scalars"])
    return [next(it) if k == "s" else arrays[k] for k in names]


def check_host(log2n):
    """pydev's kernels on the host target against the references (the
    harness's own check, without a GPU)."""
    os.environ["PYDEV_TARGET"] = "host"
    import cuda.device as device
    import kernels
    import pydev

    bad = []
    for c in cases(log2n):
        arrays = {k: pydev.to_device(v.copy()) for k, v in {**c["ins"], **c["outs"]}.items()}
        device.launch(
            getattr(kernels, c["name"]),
            *pydev_args(c, arrays),
            grid=c["grid"],
            block=c["block"],
            stream=pydev.default_stream(),
        )
        pydev.default_stream().synchronize()
        for k, want in c["ref"]().items():
            ok = close(c, k, np.asarray(pydev.to_host(arrays[k])), want)
            print(f"host {c['name']}: {'ok' if ok else 'WRONG'}")
            bad += [] if ok else [c["name"]]
    return bad


def check_compiles(log2n):
    """Every implementation compiles for sm_90 (pydev to PTX, the C++ with
    NVRTC, Numba's compile_ptx when installed)."""
    import kernels
    import pydev
    from pydev import _cudalink
    from run import SIGNATURES

    for c in cases(log2n):
        ptx = pydev.compile(getattr(kernels, c["name"]), SIGNATURES[c["name"]], target="sm_90", stage="ptx")
        assert f".entry {c['name']}" in ptx or f".entry {c['name']}(" in ptx, c["name"]
    print(f"pydev: {len(cases(log2n))} kernels compile to PTX")
    if _cudalink.available():
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "typical.cu")
            with open(path, "w") as f:
                f.write(CXX)
            _cudalink.nvrtc_ltoir(path, "sm_90", "bench/gpu.py")
        print("CUDA C++: compiles with NVRTC")
    else:
        print("CUDA C++: no NVRTC here (scripts/setup.sh installs it)")
    nb = numba_kernels()
    if isinstance(nb, str):
        print(f"Numba-CUDA: {nb}")
    else:
        from numba import cuda

        for name, (fn, sig) in nb.items():
            cuda.compile_ptx(fn, sig, cc=(9, 0))
        print(f"Numba-CUDA: {len(nb)} kernels compile")


def numba_kernels():
    """{name: (python function, Numba signature)} or why not."""
    np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 with NumPy 2.5
    try:
        from registers import numba_kernels as nk

        return nk(False)
    except Exception as e:  # ImportError, or Numba without its NVVM
        return f"not available ({type(e).__name__}: {e})"


class Driver:
    """The few CUDA driver calls the timing needs (events, a copy)."""

    def __init__(self):
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError:
            self.lib = ctypes.CDLL("libcuda.so")  # test/fakecuda's

    def call(self, name, *args):
        r = getattr(self.lib, name)(*args)
        if r != 0:
            raise RuntimeError(f"{name} failed: CUDA error {r}")

    def event(self):
        e = ctypes.c_void_p()
        self.call("cuEventCreate", ctypes.byref(e), 0)
        return e

    def time_us(self, launch, stream, repeat, trials):
        """Median over trials of the events' time around `repeat` launches."""
        e0, e1 = self.event(), self.event()
        for _ in range(3):
            launch()
        runs = []
        for _ in range(trials):
            self.call("cuEventRecord", e0, ctypes.c_void_p(stream))
            for _ in range(repeat):
                launch()
            self.call("cuEventRecord", e1, ctypes.c_void_p(stream))
            self.call("cuEventSynchronize", e1)
            ms = ctypes.c_float()
            self.call("cuEventElapsedTime", ctypes.byref(ms), e0, e1)
            runs.append(ms.value * 1e3 / repeat)
        return statistics.median(runs)


def run_gpu(args):
    import cuda.device as device
    import kernels
    import pydev

    drv = Driver()
    stream = pydev.create_stream()
    handle = stream.handle
    try:
        import cupy

        cxx = cupy.RawModule(code=CXX, options=("-std=c++17",))
        cxx_why = None
    except Exception as e:  # ImportError or an NVRTC failure
        cupy, cxx, cxx_why = None, None, f"{type(e).__name__}: {e}"
    nb = numba_kernels()
    if not isinstance(nb, str):
        from numba import cuda as ncuda

        nstream = ncuda.external_stream(handle)
        njit = {name: ncuda.jit(sig)(fn) for name, (fn, sig) in nb.items()}

    n = 1 << args.log2n
    src, dst = pydev.to_device(np.ones(n, np.float32)), pydev.to_device(np.zeros(n, np.float32))
    sp, dp = src.__cuda_array_interface__["data"][0], dst.__cuda_array_interface__["data"][0]
    copy_us = drv.time_us(
        lambda: drv.call(
            "cuMemcpyDtoDAsync_v2",
            ctypes.c_uint64(dp),
            ctypes.c_uint64(sp),
            ctypes.c_size_t(4 * n),
            ctypes.c_void_p(handle),
        ),
        handle,
        args.repeat,
        args.trials,
    )
    copy_bw = 2 * 4 * n / copy_us / 1e3
    print(f"device-to-device copy of {n} float32: {copy_us:.1f} µs, {copy_bw:.0f} GB/s\n")

    rows, wrong = [], []
    for c in cases(args.log2n):
        name = c["name"]
        grid = c["grid"] if isinstance(c["grid"], tuple) else (c["grid"],)
        block = c["block"] if isinstance(c["block"], tuple) else (c["block"],)
        impls = {}
        # pydev
        arrays = {k: pydev.to_device(v.copy()) for k, v in {**c["ins"], **c["outs"]}.items()}
        pargs = pydev_args(c, arrays)
        impls["pydev"] = (
            arrays,
            lambda pargs=pargs, name=name: device.launch(
                getattr(kernels, name), *pargs, grid=c["grid"], block=c["block"], stream=stream
            ),
        )
        # CUDA C++, on views of the same kind of device arrays
        if cxx is not None:
            carrays = {k: pydev.to_device(v.copy()) for k, v in {**c["ins"], **c["outs"]}.items()}
            # CuPy takes no record dtype with a sub-array field (push's
            # float4 position: its CAI descr entry has a shape); such an
            # array goes to the C++ kernel as its pointer.
            views = {
                k: cupy.asarray(v) if v.dtype.fields is None else np.uint64(v.__cuda_array_interface__["data"][0])
                for k, v in carrays.items()
            }
            cargs = pydev_args(c, views) + [
                np.int64(s) for s in c["sizes"]
            ]  # the C++ parameters: pydev's, then the sizes
            fn = cxx.get_function(name)
            ext = cupy.cuda.ExternalStream(handle)
            impls["CUDA C++"] = (carrays, lambda fn=fn, cargs=cargs, ext=ext: fn(grid, block, tuple(cargs), stream=ext))
        # Numba-CUDA (its push has its own record layout: 20-byte particles)
        if not isinstance(nb, str) and name != "push":
            narrays = {k: pydev.to_device(v.copy()) for k, v in {**c["ins"], **c["outs"]}.items()}
            nviews = {k: ncuda.as_cuda_array(v) for k, v in narrays.items()}
            nargs = pydev_args(c, nviews)
            impls["Numba-CUDA"] = (narrays, lambda k=njit[name], nargs=nargs: k[grid, block, nstream](*nargs))
        times = {}
        for impl, (arrs, launch) in impls.items():
            launch()  # check once, on the poisoned / zeroed outputs
            stream.synchronize()
            for k, want in c["ref"]().items():
                if not close(c, k, np.asarray(pydev.to_host(arrs[k])), want):
                    wrong.append(f"{impl} {name}")
            times[impl] = drv.time_us(launch, handle, args.repeat, args.trials)
        rows.append((name, times, c["bytes"], c.get("flops")))

    print(f"kernel times (µs, median of {args.trials} x {args.repeat} launches, CUDA events)\n")
    impls = ["pydev", "CUDA C++", "Numba-CUDA"]
    print("| kernel | " + " | ".join(impls) + " | pydev x C++ | pydev GB/s (copy %) |")
    print("|---" * (len(impls) + 3) + "|")
    for name, t, nbytes, _ in rows:
        cells = [f"{t[i]:.1f}" if i in t else "-" for i in impls]
        ratio = f"{t['pydev'] / t['CUDA C++']:.3f}" if "CUDA C++" in t else "-"
        bw = nbytes / t["pydev"] / 1e3
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} | {bw:.0f} ({100 * bw / copy_bw:.0f}%) |")
    print("\nfloating-point throughput of the kernels that count their operations (GFLOP/s)\n")
    print("| kernel | " + " | ".join(impls) + " |")
    print("|---" * (len(impls) + 1) + "|")
    for name, t, _, flops in rows:
        if flops:
            print(f"| {name} | " + " | ".join(f"{flops / t[i] / 1e3:.0f}" if i in t else "-" for i in impls) + " |")
    if cxx_why:
        print(f"\nCUDA C++: not run ({cxx_why})")
    if isinstance(nb, str):
        print(f"\nNumba-CUDA: {nb}")
    if wrong:
        print(f"\nWRONG RESULTS: {', '.join(wrong)}")
    return not wrong


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--log2n", type=int, default=25)
    p.add_argument("--no-launch", action="store_true", help="skip bench/launch.py's rows")
    p.add_argument(
        "--check",
        action="store_true",
        help="no GPU: compile every implementation and check pydev's kernels on the host target",
    )
    args = p.parse_args()
    if args.check:
        check_compiles(args.log2n)
        sys.exit(1 if check_host(min(args.log2n, 14)) else 0)
    import pydev

    ok, why = pydev._native.cuda_status()
    if not ok:
        print(f"no GPU here ({why}): nothing to time")
        return
    os.environ["PYDEV_TARGET"] = "cuda"
    good = run_gpu(args)
    if not args.no_launch:
        print()
        sys.stdout.flush()
        subprocess.run([sys.executable, os.path.join(HERE, "launch.py"), "--launches", "20000"], check=True)
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
