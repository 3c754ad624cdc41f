"""@device.struct classes wherever Python puts a class (issue 30): in
functions (kernels and device functions closing over them), in `if`, `try`
and `with` blocks, in class bodies and loops; two classes of one name in
different functions kept apart; structs passed as kernel arguments (nested
structs too) and built inside kernels; struct methods; errors that point at
the nested code. On the host target; fresh random inputs (fixed seed),
poisoned outputs; one PTX compile for sm_90."""

import numpy as np
import pytest

import cuda.device as device
import pydev

SEED = 20261130


@pytest.fixture(autouse=True)
def _host(native, host_target):
    pass


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def run(k, *args, n):
    device.launch(k, *args, grid=(n + 127) // 128, block=128, stream=pydev.default_stream())


# --- in a function, closed over ------------------------------------------------------------


def make_axpy():
    @device.struct
    class P:
        x: device.float32
        y: device.float32

    @device.func
    def combine(p, s):
        return p.x * s + p.y

    @device.kernel
    def k(out, a, b):
        i = device.tid(1)
        if i < out.size:
            out[i] = combine(P(a[i], b[i]), 2.0)

    return P, k


def test_struct_defined_in_a_function_used_by_its_kernel(rng):
    a, b = rng.random(300, dtype=np.float32), rng.random(300, dtype=np.float32)
    _, k = make_axpy()
    out = np.full_like(a, np.nan)
    run(k, out, a, b, n=a.size)
    np.testing.assert_allclose(out, a * np.float32(2) + b, rtol=1e-6)


def test_struct_in_a_function_passed_as_argument_and_built_in_the_kernel(rng):
    @device.struct
    class Affine:
        scale: device.float32
        shift: device.float32

    @device.kernel
    def k(out, a, t):
        i = device.tid(1)
        if i < out.size:
            u = Affine(t.scale * 2, shift=t.shift)
            out[i] = a[i] * u.scale + u.shift

    a = rng.random(257, dtype=np.float32)
    scale, shift = rng.random(2, dtype=np.float32)
    out = np.full_like(a, np.nan)
    run(k, out, a, Affine(scale, shift), n=a.size)
    np.testing.assert_allclose(out, a * (scale * np.float32(2)) + shift, rtol=1e-6)
    assert "test_struct_in_a_function" in pydev._types.sig_name(Affine)
    assert pydev._types.sig_name(Affine).endswith(f"Affine@{Affine._site[1]}")


def test_nested_struct_fields_pack_and_read(rng):
    @device.struct
    class Inner:
        a: device.int8
        b: device.float64

    @device.struct
    class Outer:
        tag: device.int16
        inner: Inner
        w: device.float32

    @device.kernel
    def k(out, o):
        out[0] = o.tag
        out[1] = o.inner.a
        out[2] = o.inner.b
        out[3] = o.w

    tag, a = (int(v) for v in rng.integers(-100, 100, 2))
    b, w = rng.random(2)
    o = Outer(tag, Inner(a, b), w)
    assert len(o.tobytes()) == Outer.dtype.itemsize == 32
    out = np.full(4, np.nan)
    run(k, out, o, n=1)
    np.testing.assert_allclose(out, [tag, a, b, np.float32(w)])


# --- in blocks -------------------------------------------------------------------------------


def make_blocks(flag):
    if flag:

        @device.struct
        class V:
            x: device.int32
            y: device.int32

    else:

        @device.struct
        class V:
            x: device.int32
            y: device.int32
            z: device.int32

    try:

        @device.struct
        class T:
            v: device.int32

    except ImportError:  # pragma: no cover
        raise

    class Ctx:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    with Ctx():

        @device.struct
        class W:
            v: device.int32

    @device.kernel
    def k(out, a):
        i = device.tid(1)
        if i < a.size:
            v = V(a[i], 2 * a[i]) if flag else V(a[i], 2 * a[i], 3 * a[i])
            s = v.x + v.y
            if not flag:
                s = s + v.z
            out[i] = s + T(1).v + W(10).v

    return k


@pytest.mark.parametrize("flag", [True, False])
def test_structs_in_if_try_and_with_blocks(rng, flag):
    a = rng.integers(-1000, 1000, 200, dtype=np.int32)
    out = np.full_like(a, -999)
    run(make_blocks(flag), out, a, n=a.size)
    np.testing.assert_array_equal(out, (3 if flag else 6) * a + 11)


class Shapes:
    @device.struct
    class Box:
        lo: device.float32
        hi: device.float32

        @device.func
        def width(self):
            return self.hi - self.lo

    @classmethod
    def widths(cls):
        Box = cls.Box

        @device.kernel
        def k(out, boxes_lo, boxes_hi):
            i = device.tid(1)
            if i < out.size:
                out[i] = Box(boxes_lo[i], boxes_hi[i]).width()

        return k


def test_struct_in_a_class_body_with_a_method(rng):
    lo = rng.random(100, dtype=np.float32)
    hi = lo + rng.random(100, dtype=np.float32)
    out = np.full_like(lo, np.nan)
    run(Shapes.widths(), out, lo, hi, n=lo.size)
    np.testing.assert_array_equal(out, hi - lo)


def test_struct_in_a_class_body_as_argument(rng):
    @device.kernel
    def k(out, b):
        out[0] = b.width()
        out[1] = b.lo

    lo, hi = rng.random(2, dtype=np.float32)
    out = np.full(2, np.nan, np.float32)
    run(k, out, Shapes.Box(lo, hi), n=1)
    np.testing.assert_array_equal(out, [hi - lo, lo])


def test_structs_in_a_loop_body(rng):
    kernels = []
    for scale in (2, 3):

        @device.struct
        class S:
            v: device.float32

            @device.func
            def scaled(self):
                return self.v * scale

        @device.kernel
        def k(out, a):
            i = device.tid(1)
            if i < a.size:
                out[i] = S(a[i]).scaled()

        kernels.append((scale, k))
    a = rng.random(128, dtype=np.float32)
    for scale, k in kernels:
        out = np.full_like(a, np.nan)
        run(k, out, a, n=a.size)
        np.testing.assert_array_equal(out, a * np.float32(scale))


# --- same names, methods ---------------------------------------------------------------------


def make_first():
    @device.struct
    class Pt:
        x: device.int32

        @device.func
        def value(self):
            return self.x + 1

    @device.kernel
    def k(out, p):
        out[0] = p.value()
        out[1] = Pt(5).value()

    return Pt, k


def make_second():
    @device.struct
    class Pt:
        x: device.int32
        y: device.int32

        @device.func
        def value(self):
            return self.x * self.y

    @device.kernel
    def k(out, p):
        out[0] = p.value()
        out[1] = Pt(5, 6).value()

    return Pt, k


def test_same_named_structs_in_different_functions_stay_apart(rng):
    x, y = (int(v) for v in rng.integers(-50, 50, 2))
    (P1, k1), (P2, k2) = make_first(), make_second()
    assert pydev._types.sig_name(P1) != pydev._types.sig_name(P2)
    for _ in range(2):  # the second round from the dispatch cache
        out = np.full(2, -999, np.int32)
        run(k1, out, P1(x), n=1)
        assert list(out) == [x + 1, 6]
        out = np.full(2, -999, np.int32)
        run(k2, out, P2(x, y), n=1)
        assert list(out) == [x * y, 30]


def test_methods_see_their_closure_and_their_own_class(rng):
    offset = 7

    @device.struct
    class Acc:
        total: device.int32

        @device.func
        def add(self, v):
            return Acc(self.total + v + offset)

    @device.kernel
    def k(out, a):
        i = device.tid(1)
        if i < a.size:
            out[i] = Acc(a[i]).add(1).add(2).total

    a = rng.integers(-1000, 1000, 150, dtype=np.int32)
    out = np.full_like(a, -999)
    run(k, out, a, n=a.size)
    np.testing.assert_array_equal(out, a + 3 + 2 * offset)


def test_array_of_a_struct_defined_in_a_function(rng):
    @device.struct
    class Rec:
        a: device.int32
        b: device.float32

    @device.kernel
    def k(out, recs):
        i = device.tid(1)
        if i < recs.size:
            r = recs[i]
            out[i] = r.a + r.b

    recs = np.zeros(64, Rec.dtype)
    recs["a"] = rng.integers(-100, 100, 64)
    recs["b"] = rng.random(64, dtype=np.float32)
    out = np.full(64, np.nan, np.float32)
    run(k, out, recs, n=64)
    np.testing.assert_array_equal(out, recs["a"].astype(np.float32) + recs["b"])


# --- errors and PTX --------------------------------------------------------------------------


def test_bad_field_use_of_a_nested_struct_points_at_it():
    def make():
        @device.struct
        class Q:
            x: device.int32

        @device.kernel
        def k(out):
            out[0] = Q(1).nope

        return k

    with pytest.raises(pydev.CompileError) as e:
        run(make(), np.zeros(1, np.int32), n=1)
    msg = str(e.value)
    line = make.__code__.co_firstlineno + 7
    assert f"test_struct_anywhere.py:{line}:22: error: a Q has no attribute 'nope'" in msg, msg
    assert "out[0] = Q(1).nope" in msg and "^^^^^^^^^" in msg


def test_unreadable_field_hint_of_a_nested_struct_points_at_it():
    def make():
        F = device.float32

        @device.struct
        class Q:
            x: F

        @device.kernel
        def k(out):
            out[0] = Q(1.5).x

        return k

    # Python reads the local alias; the compiler reads hints from the source
    # (as for a top-level struct) and says where.
    with pytest.raises(pydev.CompileError) as e:
        run(make(), np.zeros(1, np.float32), n=1)
    msg = str(e.value)
    line = make.__code__.co_firstlineno + 5
    assert (
        f"test_struct_anywhere.py:{line}:16: error: field 'x' of struct 'Q' needs a heterogeneous type hint" in msg
    ), msg
    assert "x: F" in msg and "^" in msg


def test_nested_struct_compiles_to_ptx_for_sm_90():
    P, k = make_axpy()
    ptx = pydev.compile(k, [np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32)], target="sm_90")
    assert ".entry k" in ptx and ".target sm_90" in ptx

    @device.kernel
    def takes(out, p):
        out[0] = p.x + p.y

    ptx = pydev.compile(takes, [np.zeros(1, np.float32), P(1.0, 2.0)], target="sm_90")
    assert ".entry takes" in ptx
