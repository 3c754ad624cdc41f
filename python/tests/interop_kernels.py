"""Device code of test_interop.py: Python kernels calling C/C++ functions
(declared interop functions, link= files in test/interop), and Python
interop functions that C calls (stage="object")."""

import os

import cuda.device as device

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "interop")
OPS_C = os.path.join(FIXTURES, "ops.c")


@device.struct
class vec3:
    x: device.float32
    y: device.float32
    z: device.float32


@device.struct
class pair:
    a: device.int32
    b: device.float64


@device.struct(align=16)
class cplx16:
    re: device.float32
    im: device.float32


@device.func(interop=True, link=[OPS_C])
def scale_add(x: device.float32, s: device.float32, k: device.int32) -> device.float32:
    """Defined in test/interop/ops.c."""
    ...


@device.func(interop=True, link=[OPS_C])
def vmul(v: vec3, s: device.float32) -> vec3: ...


@device.func(interop=True, link=[OPS_C])
def mkpair(a: device.int32, b: device.float64, neg: bool) -> pair: ...


@device.func(interop=True, link=[OPS_C])
def cmul(a: cplx16, b: cplx16) -> cplx16: ...


@device.func(interop=True, link=[OPS_C])
def v4add(a: device.float32x4, b: device.float32x4) -> device.float32x4: ...


@device.func(interop=True, link=[OPS_C])
def swapish(t: tuple[device.int32, device.float32]) -> tuple[device.int32, device.float32]: ...


@device.func(interop=True, link=[OPS_C])
def is_odd(v: device.int64) -> bool: ...


@device.func(interop=True, link=[OPS_C])
def row_sum(a: "float64[:, :]", r: device.int32) -> device.float64: ...


@device.kernel
def scalars(out, xs):
    i = device.tid(1)
    if i < out.size:
        out[i] = scale_add(xs[i], 2.0, i)


@device.kernel
def structs(vs, ps, cs):
    i = device.tid(1)
    if i < vs.size:
        vs[i] = vmul(vs[i], 3.0)
        ps[i] = mkpair(i, 1.5, i % 2 == 1)
        cs[i] = cmul(cs[i], cplx16(0.0, 1.0))


@device.kernel
def vectors_tuples(out4, outi, outf, odd):
    i = device.tid(1)
    if i < outi.size:
        v = v4add(device.float32x4(i, 2 * i, 3 * i, 4 * i), device.float32x4(0.5, 0.25, 0.125, 1.0))
        out4[i, 0] = v.x
        out4[i, 1] = v.y
        out4[i, 2] = v.z
        out4[i, 3] = v.w
        t = swapish((device.int32(i), device.float32(i)))
        outi[i] = t[0]
        outf[i] = t[1]
        odd[i] = is_odd(device.int64(i))


@device.kernel
def arrays(out, m):
    i = device.tid(1)
    if i < out.size:
        out[i] = row_sum(m, i)


# --- Python interoperable functions for C (stage="object") ----------------------------------


@device.func(interop=True)
def axpy(a: device.float32, x: device.float32, y: device.float32) -> device.float32:
    return a * x + y


@device.func(interop=True)
def vscale(v: vec3, s: device.float32) -> vec3:
    return vec3(v.x * s, v.y * s, v.z * s)


@device.func(interop=True)
def total(a: "float32[:]") -> device.float32:
    s = device.float32(0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@device.func(interop=True)
def py_max(a: device.float32, b: device.float32) -> device.float32:
    return a if a > b else b


# --- a .cu both targets link (test/interop/both.cu) -------------------------------------------

BOTH_CU = os.path.join(FIXTURES, "both.cu")


@device.func(interop=True, link=[BOTH_CU])
def hyp_half(a: device.float32, b: device.float32) -> device.float32: ...


@device.func(interop=True, link=[BOTH_CU])
def cross3(a: vec3, b: vec3) -> vec3: ...


@device.func(interop=True, link=[BOTH_CU])
def clamp64(v: device.int64, lo: device.int64, hi: device.int64) -> device.int64: ...


@device.kernel
def uses_cpp(h, xs, ys, vs, ws, c):
    i = device.tid(1)
    if i < h.size:
        h[i] = hyp_half(xs[i], ys[i])
        vs[i] = cross3(vs[i], ws[i])
        c[i] = clamp64(
            device.int64(i) * device.int64(1000000000) - device.int64(5000000000),
            device.int64(-2000000000),
            device.int64(3000000000),
        )


# --- cuda: types LLVM passes differently from nvcc (test/interop/layouts.cu) ----------------
# 3-lane vectors, align= structs and aggregates holding them: calls pass
# them in nvcc's layout (pydev-lower-aggregates).

LAYOUTS_CU = os.path.join(FIXTURES, "layouts.cu")


@device.struct
class withv3:
    v: device.float32x3
    w: device.float32


@device.func(interop=True, link=[LAYOUTS_CU])
def cmul_cu(a: cplx16, b: cplx16) -> cplx16: ...


@device.func(interop=True, link=[LAYOUTS_CU])
def vdot3(a: device.float32x3, s: device.float32, h: device.uint8x3) -> device.float32x3: ...


@device.func(interop=True, link=[LAYOUTS_CU])
def nest(t: withv3, d: device.float64x3) -> tuple[device.int8x3, cplx16]: ...


@device.kernel
def uses_layouts(cs, vs, hs, ws, ds, o8, c2):
    """cs, c2: cplx16[:]; vs: float32 (n, 3); hs: uint8 (n, 3); ws: float32
    (n, 4); ds: float64 (n, 3); o8: int8 (n, 3)."""
    i = device.tid(1)
    if i < cs.size:
        cs[i] = cmul_cu(cs[i], cplx16(0.0, 1.0))
        v = vdot3(device.float32x3(vs[i, 0], vs[i, 1], vs[i, 2]), 2.0, device.uint8x3(hs[i, 0], hs[i, 1], hs[i, 2]))
        vs[i, 0] = v.x
        vs[i, 1] = v.y
        vs[i, 2] = v.z
        r = nest(
            withv3(device.float32x3(ws[i, 0], ws[i, 1], ws[i, 2]), ws[i, 3]),
            device.float64x3(ds[i, 0], ds[i, 1], ds[i, 2]),
        )
        o8[i, 0] = r[0].x
        o8[i, 1] = r[0].y
        o8[i, 2] = r[0].z
        c2[i] = r[1]


# A Python interop function that C++ calls with a 3-lane vector and an
# align=16 struct (test/interop/calls_python_layouts.cu): its PTX takes
# them in nvcc's layout (pydev-lower-aggregates).
@device.func(interop=True, link=[os.path.join(FIXTURES, "calls_python_layouts.cu")])
def py_v3(a: device.float32x3, c: cplx16, s: device.float32) -> device.float32x3:
    return device.float32x3(a.x * s + c.re, a.y * s - c.im, a.z * s)


# Python interop functions that CUDA C++ may call, with every aggregate kind
# whose LLVM layout differs from nvcc's (align= structs, 3-lane vectors,
# tuples holding them) as parameters and results: their PTX prototypes must
# be nvcc's for LAYOUTS_CXX (pydev-lower-aggregates, test_interop_cuda.py).
@device.func(interop=True)
def conj16(c: cplx16) -> cplx16:
    return cplx16(c.re, -c.im)


@device.func(interop=True)
def mixed(a: device.float32x3, t: tuple[device.float32x3, cplx16]) -> tuple[cplx16, device.float64x3]:
    return (cplx16(a.x, t[0].y), device.float64x3(t[1].re, t[1].im, a.z))


@device.kernel
def layouts_kernel(out, x):
    i = device.tid(1)
    if i < out.size:
        r = conj16(cplx16(x[i], x[i] + 1.0))
        s = mixed(device.float32x3(x[i], 2.0 * x[i], r.im), (device.float32x3(x[i], 3.0 * x[i], 0.5), r))
        out[i] = r.re + 2.0 * r.im + 3.0 * s[0].re + 4.0 * s[0].im + 5.0 * device.float32(s[1].x + s[1].y + s[1].z)


LAYOUTS_CXX = """
struct __align__(16) cplx16 { float re, im; };
struct t_in { float3 a; cplx16 b; };
struct t_out { cplx16 a; double3 b; };
extern "C" __device__ cplx16 conj16(cplx16 c) { return cplx16{c.re, -c.im}; }
extern "C" __device__ t_out mixed(float3 a, t_in t) {
  t_out r;
  r.a = cplx16{a.x, t.a.y};
  r.b = make_double3(t.b.re, t.b.im, a.z);
  return r;
}
"""
