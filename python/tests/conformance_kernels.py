# Device code for test_conformance_host.py: one or a few kernels per row of
# test/conformance/MATRIX.md whose `host target` cell had no run test (the
# compiler reads this file; the tests compare the results with NumPy).
import numpy as np

import cuda.device as device

ONE = 1


# --- Fixed-format numbers ---------------------------------------------------------


@device.kernel
def int_arith(out, a, b):
    # Integer arithmetic in the arrays' own dtype (no value leaves the format).
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = a[i] + b[i]
        out[i, 1] = a[i] - b[i]
        out[i, 2] = b[i] * b[i]
        out[i, 3] = a[i] // b[i]
        out[i, 4] = a[i] % b[i]
        out[i, 5] = max(a[i], b[i])
        out[i, 6] = min(a[i], b[i])
        out[i, 7] = 1 if a[i] < b[i] else 0
        out[i, 8] = a[i] + ONE


@device.kernel
def float_arith(out, a, b):
    # Floating-point arithmetic in the arrays' own dtype.
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = a[i] + b[i]
        out[i, 1] = a[i] - b[i]
        out[i, 2] = a[i] * b[i]
        out[i, 3] = a[i] / b[i]
        out[i, 4] = -a[i]
        out[i, 5] = max(a[i], b[i])
        out[i, 6] = a[i] * 0.5


@device.kernel
def complex128_arith(out, mag, z, w):
    i = device.tid(1)
    if i < z.size:
        out[i, 0] = z[i] + w[i]
        out[i, 1] = z[i] - w[i]
        out[i, 2] = z[i] * w[i]
        out[i, 3] = z[i] / w[i]
        out[i, 4] = device.complex128(w[i].imag)
        mag[i, 0] = abs(z[i])
        mag[i, 1] = (z[i] * w[i]).imag


@device.kernel
def float8e4m3_arith(out, x, y):
    # float32 -> float8e4m3, float8 arithmetic, -> float32.
    i = device.tid(1)
    if i < x.size:
        a = device.float8e4m3(x[i])
        b = device.float8e4m3(y[i])
        out[i, 0] = device.float32(a)
        out[i, 1] = device.float32(a + b)
        out[i, 2] = device.float32(a - b)
        out[i, 3] = device.float32(a * b)
        out[i, 4] = 1.0 if a < b else 0.0


@device.kernel
def float8e5m2_arith(out, x, y):
    i = device.tid(1)
    if i < x.size:
        a = device.float8e5m2(x[i])
        b = device.float8e5m2(y[i])
        out[i, 0] = device.float32(a)
        out[i, 1] = device.float32(a + b)
        out[i, 2] = device.float32(a - b)
        out[i, 3] = device.float32(a * b)
        out[i, 4] = 1.0 if a < b else 0.0


@device.kernel
def float8_arrays(out, a, b):
    # Arrays of float8 (ml_dtypes on the host): arithmetic in the array dtype.
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = a[i] + b[i]
        out[i, 1] = a[i] * b[i]


# --- Vectors ----------------------------------------------------------------------


@device.kernel
def vector_rebind(out, v, k, j):
    # v[i] = x and v.x = e rebind the name to a new vector; other names keep
    # the old value.
    a = v
    v[1] = k
    b = v
    v.x = k * 2.0
    v[j] = k * 3.0
    out[0] = a.x
    out[1] = a.y
    out[2] = a.z
    out[3] = a.w
    out[4] = b.x
    out[5] = b.y
    out[6] = b.z
    out[7] = v.x
    out[8] = v.y
    out[9] = v.z
    out[10] = v.w
    w = device.int32x3(1, 2, 3)
    u = w
    w[2] = 9
    out[11] = u.z
    out[12] = w.z


@device.kernel
def vector_lanes(out, v):
    # A vector argument (passed by value): its lanes, len(), iteration, and a
    # lane written in device code.
    k = 0
    for e in v:
        out[k] = e
        k += 1
    n = len(v)
    v[n - 1] = v[0]
    out[n] = v[n - 1]
    out[n + 1] = v.size


@device.kernel
def build_int8(out, a):
    v1 = device.int8x1(a[0])
    v2 = device.int8x2(a[0], a[1])
    v3 = device.int8x3(a[0], a[1], a[2])
    v4 = device.int8x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_int16(out, a):
    v1 = device.int16x1(a[0])
    v2 = device.int16x2(a[0], a[1])
    v3 = device.int16x3(a[0], a[1], a[2])
    v4 = device.int16x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_int32(out, a):
    v1 = device.int32x1(a[0])
    v2 = device.int32x2(a[0], a[1])
    v3 = device.int32x3(a[0], a[1], a[2])
    v4 = device.int32x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_int64(out, a):
    v1 = device.int64x1(a[0])
    v2 = device.int64x2(a[0], a[1])
    v3 = device.int64x3(a[0], a[1], a[2])
    v4 = device.int64x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_uint8(out, a):
    v1 = device.uint8x1(a[0])
    v2 = device.uint8x2(a[0], a[1])
    v3 = device.uint8x3(a[0], a[1], a[2])
    v4 = device.uint8x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_uint16(out, a):
    v1 = device.uint16x1(a[0])
    v2 = device.uint16x2(a[0], a[1])
    v3 = device.uint16x3(a[0], a[1], a[2])
    v4 = device.uint16x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_uint32(out, a):
    v1 = device.uint32x1(a[0])
    v2 = device.uint32x2(a[0], a[1])
    v3 = device.uint32x3(a[0], a[1], a[2])
    v4 = device.uint32x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_uint64(out, a):
    v1 = device.uint64x1(a[0])
    v2 = device.uint64x2(a[0], a[1])
    v3 = device.uint64x3(a[0], a[1], a[2])
    v4 = device.uint64x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_float16(out, a):
    v1 = device.float16x1(a[0])
    v2 = device.float16x2(a[0], a[1])
    v3 = device.float16x3(a[0], a[1], a[2])
    v4 = device.float16x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_float64(out, a):
    v1 = device.float64x1(a[0])
    v2 = device.float64x2(a[0], a[1])
    v3 = device.float64x3(a[0], a[1], a[2])
    v4 = device.float64x4(a[0], a[1], a[2], a[3])
    out[0] = v1.x
    out[1] = v2.x
    out[2] = v2.y
    out[3] = v3.x
    out[4] = v3.y
    out[5] = v3.z
    out[6] = v4.x
    out[7] = v4.y
    out[8] = v4.z
    out[9] = v4.w


@device.kernel
def build_bfloat16(out, a):
    # bfloat16 vectors exist in device code only: built from float32 values
    # (converted), read back as float32.
    v1 = device.bfloat16x1(a[0])
    v2 = device.bfloat16x2(a[0], a[1])
    v3 = device.bfloat16x3(a[0], a[1], a[2])
    v4 = device.bfloat16x4(a[0], a[1], a[2], a[3])
    out[0] = device.float32(v1.x)
    out[1] = device.float32(v2.x)
    out[2] = device.float32(v2.y)
    out[3] = device.float32(v3.x)
    out[4] = device.float32(v3.y)
    out[5] = device.float32(v3.z)
    out[6] = device.float32(v4.x)
    out[7] = device.float32(v4.y)
    out[8] = device.float32(v4.z)
    out[9] = device.float32(v4.w)


@device.kernel
def build_float8e4m3(out, a):
    v1 = device.float8e4m3x1(a[0])
    v2 = device.float8e4m3x2(a[0], a[1])
    v3 = device.float8e4m3x3(a[0], a[1], a[2])
    v4 = device.float8e4m3x4(a[0], a[1], a[2], a[3])
    out[0] = device.float32(v1.x)
    out[1] = device.float32(v2.x)
    out[2] = device.float32(v2.y)
    out[3] = device.float32(v3.x)
    out[4] = device.float32(v3.y)
    out[5] = device.float32(v3.z)
    out[6] = device.float32(v4.x)
    out[7] = device.float32(v4.y)
    out[8] = device.float32(v4.z)
    out[9] = device.float32(v4.w)


@device.kernel
def build_float8e5m2(out, a):
    v1 = device.float8e5m2x1(a[0])
    v2 = device.float8e5m2x2(a[0], a[1])
    v3 = device.float8e5m2x3(a[0], a[1], a[2])
    v4 = device.float8e5m2x4(a[0], a[1], a[2], a[3])
    out[0] = device.float32(v1.x)
    out[1] = device.float32(v2.x)
    out[2] = device.float32(v2.y)
    out[3] = device.float32(v3.x)
    out[4] = device.float32(v3.y)
    out[5] = device.float32(v3.z)
    out[6] = device.float32(v4.x)
    out[7] = device.float32(v4.y)
    out[8] = device.float32(v4.z)
    out[9] = device.float32(v4.w)


@device.kernel
def float8_vectors(out, x):
    # float8 vectors in shared arrays, read back by a lane index known only
    # at run time, modified with __setitem__ and summed by iteration.
    s = device.shared_array(32, device.float8e4m3x4)
    t = device.shared_array(32, device.float8e5m2x2)
    i = device.thread_idx.x
    s[i] = device.float8e4m3x4(x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3])
    t[i] = device.float8e5m2x2(x[4 * i], x[4 * i + 1])
    device.syncthreads()
    v = s[31 - i]
    w = t[31 - i]
    out[i, 0] = device.float32(v[i % 4])
    v[i % 4] = device.float8e4m3(x[4 * i] * 2.0)
    acc = device.float32(0)
    for e in v:
        acc += device.float32(e)
    out[i, 1] = acc
    out[i, 2] = device.float32(w.y)


# --- Bit operations and shifts ------------------------------------------------------


@device.kernel
def bit_ops(out, a, b, s):
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = a[i] & b[i]
        out[i, 1] = a[i] | b[i]
        out[i, 2] = a[i] ^ b[i]
        out[i, 3] = ~a[i]
        out[i, 4] = (a[i] & 15) << s[i]
        out[i, 5] = a[i] >> s[i]
        x = a[i]
        x &= b[i]
        x |= 1
        x ^= 2
        x >>= 1
        out[i, 6] = x


# --- Tuples -------------------------------------------------------------------------


@device.kernel
def tuple_arg(out, t):
    # A tuple launch argument is passed by value as a C struct of its
    # members, in order (nested tuples are nested structs).
    a, b, c, d, (e, f) = t
    out[0] = a
    out[1] = b
    out[2] = c
    out[3] = d
    out[4] = e
    out[5] = f
    out[6] = len(t)


@device.func(interop=True)
def tuple_sum(t):
    a, b, c = t
    return a + b + c


@device.kernel
def tuple_interop(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = tuple_sum((device.int8(i), x[i], device.int64(3)))


# --- User-defined types -----------------------------------------------------------


@device.struct
class Vec2:
    x: float
    y: float

    @device.func
    def dot(self, other):
        return self.x * other.x + self.y * other.y

    @device.func
    def scaled(self, k):
        return Vec2(self.x * k, self.y * k)

    @device.func
    def norm2(self):
        return self.dot(self)


@device.kernel
def struct_methods(out, xs, ys, k):
    i = device.tid(1)
    if i < xs.size:
        v = Vec2(xs[i], ys[i])
        w = v.scaled(k)
        out[i, 0] = v.dot(w)
        out[i, 1] = w.norm2()
        out[i, 2] = w.dot(other=v)
        out[i, 3] = w.x


@device.struct(align=16)
class Complex:
    real: float
    imag: float


@device.struct
class Holder:
    tag: device.int8
    c: Complex


@device.kernel
def aligned_structs(out, cs, c):
    # An array of a struct with align=16 (itemsize 16); one by value.
    i = device.tid(1)
    if i < cs.size:
        z = cs[i]
        out[i] = z.real + z.imag * 2.0 + c.real
        cs[i] = Complex(z.imag, c.imag)


@device.kernel
def aligned_nested(out, hs, c):
    # An array of a struct holding an align=16 struct (at offset 16).
    i = device.tid(1)
    if i < hs.size:
        h = hs[i]
        out[i] = h.tag + h.c.imag
        h.c = Complex(h.c.real + c.real, c.imag)
        hs[i] = h


@device.struct
class Padded:
    a: device.int8
    b: device.align(device.float32, 16)
    c: device.align(Complex, 32)


@device.kernel
def aligned_types(out, ps, x):
    # device.align(t, n) as field types (offsets 16 and 32, itemsize 64) and
    # as constructors.
    i = device.tid(1)
    A = device.align(device.float32, 16)
    B = device.align(Complex, 32)
    if i < ps.size:
        p = ps[i]
        out[i, 0] = p.a + p.b + p.c.real * 2.0 + p.c.imag * 4.0
        p.b = p.b + x
        p.c = B(p.c.imag, p.c.real)
        ps[i] = p
        v = A(x * 3.0)
        out[i, 1] = v + p.a


@device.kernel
def aligned_shared(out, x):
    # device.align(t, n) as the dtype of a shared array.
    A = device.align(device.float32, 16)
    s = device.shared_array(64, A)
    t = device.thread_idx.x
    s[t] = x[t] * 2.0
    device.syncthreads()
    out[t] = s[63 - t]


@device.kernel
def aligned_field_from_plain(ps):
    # align(Complex, 32) is "equivalent to" Complex: a plain Complex can be
    # stored in the field.
    i = device.tid(1)
    if i < ps.size:
        p = ps[i]
        p.c = Complex(p.c.imag, p.c.real)
        ps[i] = p


@device.kernel
def aligned_field_to_plain(cs, ps):
    # ... and the align(Complex, 32) field stores into an array of Complex.
    i = device.tid(1)
    if i < ps.size:
        cs[i] = ps[i].c


@device.struct(align=16)
class Quad:
    a: float
    b: float
    c: float
    d: float


@device.kernel
def aligned_by_value(out, t, c, h, p, q, x):
    # Over-aligned structs by value (CUDA C++: `.param .align 16/32`): an
    # align=16 struct, structs holding one or an align(t, n) field, and an
    # align=16 struct of four floats, between parameters of other types.
    i = device.tid(1)
    if i < out.shape[0]:
        k = device.float32(i)
        out[i, 0] = c.real * k + c.imag
        out[i, 1] = h.tag + h.c.real * k + h.c.imag
        out[i, 2] = p.a + p.b * k + p.c.real - p.c.imag
        out[i, 3] = q.a + q.b * k + q.c - q.d
        out[i, 4] = x * k + t


@device.kernel
def atomic_objects(out):
    # An Atomic object owned by device code.
    a = device.Atomic(device.int32)
    a.store(5)
    out[0] = a.load()
    c = device.Atomic(device.float64, align=16)
    c.add(2.5, memory="relaxed", scope="thread")
    out[1] = int(c.load() * 2.0)
    out[2] = a.exch(7) + a.load()
    out[3] = a.dtype(7.9)


@device.kernel
def number_attributes(out, x):
    # Fixed-format numbers as zero-dimensional arrays: shape, ndim, size,
    # strides, dtype and astype.
    i = device.tid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = v.ndim + v.size + len(v.shape) + len(v.strides)
        out[i, 1] = v.astype(device.float64) * 0.5
        out[i, 2] = v.dtype(out[i, 1] * 4.0)


@device.kernel
def number_views(bits, out, x):
    # Fixed-format numbers as zero-dimensional arrays: view(dtype) reads the
    # same bytes as another type of that size; x[()] and x.reshape(()) are
    # the number itself.
    i = device.tid(1)
    if i < x.size:
        v = x[i]
        bits[i, 0] = v.view(device.int32)
        bits[i, 1] = device.int32(device.float16(v).view(device.uint16))
        out[i] = v[()] * 2.0 + v.reshape(()) + v.ndims


# --- Arrays -----------------------------------------------------------------------


@device.kernel
def strides2(out, a):
    # .strides in bytes, of the argument and of views made in device code.
    out[0] = a.strides[0]
    out[1] = a.strides[1]
    r = a[::2, ::3]
    out[2] = r.strides[0]
    out[3] = r.strides[1]
    c = a[:, 1]
    out[4] = c.strides[0]
    b = a[::-1]
    out[5] = b.strides[0]
    out[6] = b.strides[1]


@device.kernel
def strides3(out, a):
    out[0] = a.strides[0]
    out[1] = a.strides[1]
    out[2] = a.strides[2]


@device.kernel
def vector_add(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


# --- Target specialization -----------------------------------------------------


@device.func
def pick(x):
    if device.target(device.is_host):
        return x * 2.0
    return x


@device.func
def doubled(x):
    # Host-only Python in an is_host branch: host Python runs it; a GPU
    # compile never lowers it (compiled for the host target, it would be).
    if device.target(device.is_host):
        return float(np.multiply(np.float64(x), 2.0))
    else:
        return x * 2.0


@device.kernel
def host_only_branch(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = doubled(x[i])


@device.kernel
def targets(out, x):
    # Every kind of description; out[k] is written only where the condition
    # holds on the target the kernel runs on.
    if device.target(device.is_host):
        out[0] = 1
    if device.target(device.is_device):
        out[1] = 1
    if device.target(device.is_exactly(device.sm90) | device.is_exactly(device.sm80)):
        out[2] = 1
    if device.target(~device.provides(device.sm80)):
        out[3] = 1
    if device.target(~device.provides(device.sm80) | device.is_exactly(device.sm80)):
        out[4] = 1
    if device.target(device.provides(device.sm80) & ~device.is_exactly(device.sm80)):
        out[5] = 1
    if device.target(device.provides(device.sm80)):
        out[6] = 1
    if device.target(device.any_target):
        out[7] = 1
    if device.target(device.no_target):
        out[8] = 1
    old = device.is_exactly(device.sm70) | device.is_exactly(device.sm75)
    desc = old | (device.is_host & ~device.no_target)
    if device.target(desc):
        out[9] = 1
    if device.target(device.is_host & device.is_device):
        out[10] = 1
    if device.target(device.is_host | device.is_device):
        out[11] = 1
    if device.target(~device.is_device):
        out[12] = 1
    if not device.target(device.is_host):
        out[13] = 1
    if device.target(device.is_exactly(device.sm90)):
        out[14] = 1
    if device.target(device.provides(device.sm50)):
        out[15] = 1
    out[16] = pick(x)


@device.kernel
def target_false_branch(out):
    # The branch of a False target() is not run: its out-of-bounds store
    # would fail on the host.
    if device.target(device.is_device):
        out[out.size + 100] = 7
    elif device.target(device.is_host):
        out[0] = 3
    if device.target(device.no_target):
        out[out.size + 200] = 8


# --- Kernels and launch ------------------------------------------------------------


@device.func(interop=True)
def diff(a, b):
    return abs(a - b)


@device.kernel
def interop_calls(out, x, y):
    i = device.tid(1)
    if i < x.size:
        out[i] = diff(x[i], y[i])


@device.kernel(interop=True)
def interop_kernel(out, x, y):
    i = device.tid(1)
    if i < x.size:
        out[i] = diff(x[i], y[i]) + 1.0


@device.kernel
def launch_shape(out, scale):
    # 2-d grid of 2-d blocks with dynamic shared memory: every thread writes
    # its global position, staged through the launch's shared bytes.
    buf = device.dynamic_shared_array().view(device.int32)
    i, j = device.tid(2)
    t = device.thread_idx.y * device.block_dim.x + device.thread_idx.x
    buf[t] = i * 1000 + j
    device.syncthreads()
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = buf[t] * scale + buf.size


# --- None -------------------------------------------------------------------------


@device.func
def nothing():
    pass


@device.func
def returns_none(x):
    x[0] = 5
    return None


@device.kernel
def nones(out):
    # Functions without return (or returning None) give None; None is a
    # value that can be named and tested for truth; a kernel returns None.
    r = nothing()
    q = returns_none(out)
    n = None
    out[1] = 0 if r else 1
    out[2] = 1 if not q else 0
    out[3] = 1 if not n else 0
    if n:
        out[4] = 99
    else:
        out[4] = 1
    return None


@device.kernel
def none_identity(out):
    r = nothing()
    out[0] = 1 if r is None else 0
    out[1] = 1 if out is not None else 0


@device.func
def ignore_first(p, x):
    return x + 1.0


@device.kernel
def none_to_func(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = ignore_first(None, x[i])


@device.func
def negate_unless_none(a: None, x: float):
    return x if a == None else -x  # noqa: E711


@device.kernel
def none_equality(out, x):
    # None as a type hint (NoneType), and == / != with None: None equals
    # only None, a number is never None.
    i = device.tid(1)
    if i < x.size:
        r = nothing()
        out[i, 0] = negate_unless_none(None, x[i])
        out[i, 1] = 1.0 if r == None else 0.0  # noqa: E711
        out[i, 2] = 1.0 if x[i] != None else 0.0  # noqa: E711
        out[i, 3] = 1.0 if x[i] == None else 0.0  # noqa: E711


@device.kernel
def none_argument(out, p):
    out[0] = 1 if not p else 0


@device.kernel(interop=True)
def none_argument_interop(out, p, x):
    # An interop kernel takes a void* for None (spec: None).
    out[0] = x if p is None else -x


@device.func(interop=True)
def with_pointer(p, x):
    return x + 1.0


@device.kernel
def none_interop(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = with_pointer(None, x[i])


# --- Atomics ------------------------------------------------------------------------


@device.kernel
def consume_orders(out, src, flags):
    # memory="consume" on loads, read-modify-writes and fences.
    i = device.tid(1)
    if i < src.size:
        r = device.atomic_ref(src, i)
        out[i, 0] = r.load(memory="consume")
        out[i, 1] = r.load(memory="consume", scope="block")
        out[i, 2] = r.add(1, memory="consume", scope="device")
        device.threadfence(memory="consume")
        out[i, 3] = r.load("consume", "thread")
        device.atomic_ref(flags, 0).add(1, memory="consume")


@device.kernel
def block_scope(out, counts):
    # scope="block" on a shared counter and a global one; scope="thread" on a
    # thread's local array and its own element.
    i = device.tid(1)
    c = device.shared_array(1, device.int32)
    if device.thread_idx.x == 0:
        device.atomic_ref(c, 0).store(0, memory="relaxed", scope="block")
    device.syncthreads()
    device.atomic_ref(c, 0).add(1, memory="relaxed", scope="block")
    device.atomic_ref(counts, device.block_idx.x).add(2, memory="acq_rel", scope="block")
    device.syncthreads()
    mine = device.local_array(2, device.int32)
    mine[0] = i
    mine[1] = 0
    device.atomic_ref(mine, 1).add(mine[0] + 1, memory="relaxed", scope="thread")
    device.atomic_ref(mine, 0).exch(7, memory="seq_cst", scope="thread")
    out[i, 0] = device.atomic_ref(c, 0).load(memory="acquire", scope="block")
    out[i, 1] = mine[1]
    out[i, 2] = device.atomic_ref(mine, 0).load(scope="thread")
    device.atomic_ref(out, (i, 3)).store(i * 2, memory="release", scope="thread")
    device.threadfence(scope="block")
    device.threadfence("seq_cst", "thread")


@device.kernel
def atomic_load(out, src, total):
    # load with each order and scope, of values other threads add to.
    i = device.tid(1)
    if i < src.size:
        r = device.atomic_ref(src, i)
        out[i, 0] = r.load()
        out[i, 1] = r.load(memory="relaxed")
        out[i, 2] = r.load(memory="acquire", scope="device")
        out[i, 3] = r.load("seq_cst", "system")
        device.atomic_ref(total, 0).add(src[i], memory="relaxed")
    device.syncthreads()
    if i < src.size:
        out[i, 4] = device.atomic_ref(total, 0).load(memory="acquire", scope="block")


@device.kernel
def wide_load_store(z, out):
    # load/store of a 16-byte complex128.
    i = device.tid(1)
    if i < z.size:
        v = device.atomic_ref(z, i).load(memory="relaxed")
        device.atomic_ref(out, i).store(v * 2.0)


@device.kernel
def small_exch(a, b, old):
    # exch on int8 elements: each thread swaps its own.
    i = device.tid(1)
    if i < a.size:
        old[i] = device.atomic_ref(a, i).exch(b[i])


@device.kernel
def small_cas(h, expected, new, old):
    # cas on float16 elements (half of them match).
    i = device.tid(1)
    if i < h.size:
        old[i] = device.atomic_ref(h, i).cas(expected[i], new[i])


@device.kernel
def cas_loop(counter):
    # Every thread increments counter[0] with a cas loop (int8 or int32).
    r = device.atomic_ref(counter, 0)
    cur = r.load()
    while True:
        prev = r.cas(cur, cur + 1)
        if prev == cur:
            break
        cur = prev


@device.kernel
def rmw_ops(a, x, olds, shared):
    # sub/and_/or_/xor, each thread on its own element (the returned old value
    # is checked) and all threads on one element (the result is checked).
    i = device.tid(1)
    if i < x.size:
        olds[i, 0] = device.atomic_ref(a, (i, 0)).sub(x[i])
        olds[i, 1] = device.atomic_ref(a, (i, 1)).and_(x[i], memory="acquire")
        olds[i, 2] = device.atomic_ref(a, (i, 2)).or_(x[i], memory="release", scope="device")
        olds[i, 3] = device.atomic_ref(a, (i, 3)).xor(x[i], "acq_rel", "block")
        device.atomic_ref(shared, 0).sub(x[i], memory="relaxed")
        device.atomic_ref(shared, 1).and_(x[i])
        device.atomic_ref(shared, 2).or_(x[i], scope="system")
        device.atomic_ref(shared, 3).xor(x[i], memory="seq_cst")


@device.kernel
def float_sub(a, x, olds, total):
    i = device.tid(1)
    if i < x.size:
        olds[i] = device.atomic_ref(a, i).sub(x[i])
        device.atomic_ref(total, 0).sub(x[i], memory="relaxed", scope="device")


@device.kernel
def exch_cas_wait(flag, out, vals):
    # exch and cas return the old value; wait blocks until the value changes.
    i = device.tid(1)
    if device.block_idx.x == 0:
        if device.thread_idx.x == 0:
            out[0] = vals[0]
            old = device.atomic_ref(flag, 0).exch(1, memory="acq_rel")
            out[1] = old
            prev = device.atomic_ref(flag, 0).cas(1, 2, memory="acq_rel", scope="device")
            out[2] = prev
            device.atomic_ref(flag, 0).notify_all()
    elif device.thread_idx.x == 0:
        device.atomic_ref(flag, 0).wait(0, memory="acquire", scope="device")
        device.atomic_ref(flag, 0).wait(1, memory="acquire")
        out[3] = out[0] + 1
        out[4] = device.atomic_ref(flag, 0).load()


@device.kernel
def notify_one_handoff(flag, out):
    # Block 0 publishes, then wakes one waiter with notify_one.
    if device.block_idx.x == 0:
        if device.thread_idx.x == 0:
            out[0] = 42
            device.atomic_ref(flag, 0).store(1, memory="release", scope="device")
            device.atomic_ref(flag, 0).notify_one()
    elif device.thread_idx.x == 0:
        device.atomic_ref(flag, 0).wait(0, memory="acquire", scope="device")
        out[1] = out[0] + 1


@device.kernel
def fence_message(data, flag, out):
    # Message passing with relaxed atomics ordered by threadfence.
    if device.block_idx.x == 0:
        if device.thread_idx.x == 0:
            data[0] = 11
            data[1] = 22
            device.threadfence()
            device.atomic_ref(flag, 0).store(1, memory="relaxed")
            device.atomic_ref(flag, 0).notify_all()
    elif device.thread_idx.x == 0:
        device.atomic_ref(flag, 0).wait(0, memory="relaxed")
        device.threadfence(memory="acquire", scope="device")
        device.threadfence(memory="acq_rel", scope="system")
        out[0] = data[0] + data[1]
    device.threadfence(memory="release", scope="block")
    device.threadfence("relaxed", "thread")
    device.threadfence(scope="device")


# --- Warps --------------------------------------------------------------------------


@device.kernel
def mask_bits(out, bits):
    i = device.tid(1)
    lane = device.lane_id
    m = device.WarpMask(bits[i // 32])
    out[i, 0] = 1 if m[lane] else 0
    m[lane] = False
    out[i, 1] = m
    m[0] = True
    m[31] = True
    out[i, 2] = m
    a = device.activemask()
    out[i, 3] = 1 if a[lane] else 0
    out[i, 4] = 1 if a[(lane + 1) % 32] else 0


@device.kernel
def eq_votes(out, x):
    i = device.tid(1)
    m = device.activemask()
    out[i, 0] = 1 if device.eq_sync(m, lambda: x[i] > 0) else 0
    if device.lane_id < 16:
        h = device.activemask()

        def positive():
            return x[i] > 0

        out[i, 1] = 1 if device.eq_sync(h, positive) else 0
    else:
        out[i, 1] = -1


# --- Numeric intrinsics -----------------------------------------------------------


@device.kernel
def bit_intrinsics(rev, counts, a):
    i = device.tid(1)
    if i < a.size:
        rev[i] = device.brev(a[i])
        counts[i, 0] = device.clz(a[i])
        counts[i, 1] = device.ffs(a[i])
        counts[i, 2] = device.popc(a[i])


@device.kernel
def float_intrinsics(out, a, b, c):
    i = device.tid(1)
    if i < a.size:
        out[i, 0] = device.cbrt(a[i])
        out[i, 1] = device.fma(a[i], b[i], c[i])
        out[i, 2] = device.fma(a[i], b[i], -(a[i] * b[i]))


# --- Constants, dtypes, contiguity, Dim3 and WarpMask in device code ----------------


@device.kernel
def folded_floats(out, k):
    # Python floats are float32, also where the compiler folds them: the
    # folded products equal the run-time ones (k[i] is not a constant).
    i = device.tid(1)
    if i < k.size:
        x = 0.1
        out[i, 0] = x * 3
        out[i, 1] = x * k[i]
        out[i, 2] = 0.1 + 0.2
        out[i, 3] = 1 / 3
        out[i, 4] = x
        out[i, 5] = device.int64(1 << 20) * (1 << 20) + 1


@device.kernel
def mask_as_int32(out, p):
    # A WarpMask is an int32: with ints in conditional expressions,
    # arithmetic, comparisons and min/max.
    i = device.tid(1)
    m = device.ballot_sync(-1, lambda: p[i] != 0)
    out[i, 0] = m if p[i] else 0
    out[i, 1] = m + p[i]
    out[i, 2] = 1 if m == -1 else 0
    out[i, 3] = max(m, p[i])
    out[i, 4] = m & 0xFF
    r = m
    if p[i] == 0:
        r = -7
    out[i, 5] = r


@device.kernel
def dtype_branch(out, a):
    # dtypes compare at compile time: each specialisation keeps one branch.
    i = device.tid(1)
    if i < a.size:
        if a.dtype == np.int8 or a.dtype == device.int16:
            out[i] = a[i] + 1
        elif a.dtype != device.float32:
            out[i] = -1.0
        else:
            out[i] = a[i] * 0.5


@device.kernel
def dtype_checks(out, a, x):
    out[0] = a.dtype == device.int8
    out[1] = a.dtype != np.int8
    out[2] = x.dtype == np.float32
    out[3] = x[0].dtype == device.float32
    out[4] = np.dtype(np.int8) == a.dtype
    out[5] = a.dtype == x.dtype
    out[6] = x.dtype == "float32"
    out[7] = a.dtype.itemsize + x.dtype.itemsize


@device.func
def first_sum(x, n: device.ConstExpr, shape: device.ConstExpr, where: device.ConstExpr, dt: device.ConstExpr):
    # ConstExpr parameters where the spec needs constant expressions.
    buf = device.local_array(shape, dt)
    stage = device.shared_array(n, dt)
    for j in range(n):
        buf[j] = x[j]
        stage[j] = x[j] * 2
    s = dt(0)
    for j in range(n):
        s += buf[j] + stage[j]
    if device.target(where):
        return s
    return dt(-1)


@device.kernel
def const_expr_params(out, x):
    out[0] = first_sum(x, 4, 4, device.any_target, device.float64)
    out[1] = first_sum(x, 3, (3,), device.is_host | device.is_device, np.float64)
    out[2] = first_sum(x, 2, (2,), device.no_target, np.float64)


@device.kernel
def numpy_dtypes(out, x):
    i = device.tid(1)
    if i < x.size:
        s = device.shared_array(1, np.int64)
        cell = device.local_array((1,), np.float64)
        s[0] = np.int64(x[i]) * 3
        cell[0] = np.float32(x[i]) / 3
        out[i, 0] = np.int8(x[i])
        out[i, 1] = s[0]
        out[i, 2] = cell[0]
        out[i, 3] = np.float32(x[i]).view(np.int32)


@device.kernel
def contiguous_views(out, x, n):
    # Shared, local and dynamic shared arrays are C-contiguous, and so are
    # unit-step slices of them: views with another element size work.
    dyn = device.dynamic_shared_array()
    f = dyn[0 : 4 * n].view(device.float32)
    for j in range(n):
        f[j] = x[j]
    g = dyn[4 : 4 * n].view(device.float32)
    for j in range(n - 1):
        out[j] = g[j]
    bits = dyn[0 : 4 * n].view(np.int32)
    out[n] = bits[0]
    s = device.shared_array((4, 8), device.float32)
    for j in range(8):
        s[1, j] = x[j]
    h = s[1, 2:6].view(device.uint16)
    out[n + 1] = h.size
    out[n + 2] = h[1]
    loc = device.local_array(8, device.int32)
    for j in range(8):
        loc[j] = j + 1
    b = loc[2:6].view(device.int8)
    out[n + 3] = b[4]
    rows = s[1:3, :]
    out[n + 4] = rows.view(device.uint16)[0, 4]


@device.kernel
def dim3_values(out):
    # A Dim3 is a uint32x3: iterated, measured, indexed, unpacked.
    x, y, z = device.thread_idx
    bx, by, bz = device.block_dim
    i = x + bx * (y + by * z)
    t = 0
    for d in device.block_dim:
        t += d
    out[i, 0] = t
    out[i, 1] = len(device.thread_idx)
    out[i, 2] = x + 10 * y + 100 * z
    out[i, 3] = device.block_dim[2] * 1000 + device.thread_idx[-1]
    out[i, 4] = device.grid_dim.size


# --- Run-time errors ------------------------------------------------------------------


@device.kernel
def out_of_bounds(out, a, k):
    i = device.tid(1)
    out[i] = a[i + k]


@device.kernel
def int_divide(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] // b[i]
