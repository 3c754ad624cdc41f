"""Errors and ergonomics of `pydev.ir` (issue 35, item 8): each op's
location defaults to the framework user's line, mistakes are caught when
the op is built with a message that says what to do, and operators leave
foreign types to their own `__r*__` methods."""

import inspect
import os
import re

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import ir

HERE = re.escape(os.path.abspath(__file__))


def line():
    """The caller's line number."""
    return inspect.currentframe().f_back.f_lineno


def launch(program, *args, n):
    device.launch(program, *args, grid=(n + 31) // 32, block=32, stream=pydev.default_stream())
    pydev.default_stream().synchronize()


def saxpy_module():
    m = ir.Module()
    k = m.kernel("saxpy", [ir.f32, ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    a, x, out = k.args
    i = k.global_id()
    with k.if_(i < x.size):
        out[i] = a * x[i]
    return m


# --- 1. locations ---------------------------------------------------------------------------


def test_ops_are_located_at_the_callers_line(native, host_target):
    m = ir.Module()
    first = line() + 1
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][k.global_id()]
    bad = line() + 1
    k.emit("arith.addi", [x, x], [ir.f32])  # arith.addi takes integers
    text = str(m)
    assert "unknown" not in text
    assert f'loc("{os.path.abspath(__file__)}":{first}:0)' in text  # the kernel itself
    assert f'loc("{os.path.abspath(__file__)}":{first + 1}:0)' in text  # the ops of that line
    with pytest.raises(pydev.CompileError, match=rf"{HERE}:{bad}:0: error: .*arith\.addi"):
        m.verify()
    with pytest.raises(pydev.CompileError, match=rf"{HERE}:{bad}:0: error: .*arith\.addi"):
        pydev.Program(m)


def test_a_location_the_framework_sets_wins(native, host_target):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][k.global_id()]
    with k.at("user_code.py", 41, 3):
        k.emit("arith.addi", [x, x], [ir.f32])
    with pytest.raises(pydev.CompileError, match=r"user_code\.py:41:3: error: .*arith\.addi"):
        m.verify()
    # loc= on the op wins over both.
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][k.global_id()]
    with k.at("user_code.py", 41, 3):
        k.emit("arith.addi", [x, x], [ir.f32], loc=ir.loc("op.py", 5, 1))
    with pytest.raises(pydev.CompileError, match=r"op\.py:5:1: error: .*arith\.addi"):
        m.verify()


def test_located_kernels_still_run(native, host_target):
    rng = np.random.default_rng(35)
    x = rng.standard_normal(77).astype(np.float32)
    out = np.full(77, np.nan, np.float32)
    launch(pydev.Program(saxpy_module(), kernel="saxpy"), np.float32(2.5), x, out, n=77)
    np.testing.assert_array_equal(out, np.float32(2.5) * x)


# --- 2. build-time checks -------------------------------------------------------------------


def test_if_on_a_non_i1_condition(native):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    i = k.global_id()
    with pytest.raises(TypeError, match=r"Function\.if_ needs an i1 condition, got %v\d+ of type si32: compare it"):
        with k.if_(i):
            pass
    with pytest.raises(TypeError, match=r"needs an ir\.Value of type i1 .* plain Python `if`"):
        with k.if_(True):
            pass
    other = m.func("other", [ir.si32])
    with pytest.raises(TypeError, match=r"Function\.cond_br needs an i1 condition"):
        other.cond_br(other.args[0], other.new_block(), other.new_block())
    m.functions.remove(other)
    with k.if_(i != 0):  # the fix the message names
        k.args[0][i] = 1.0
    assert m.verify() == ["k"]


def test_a_value_of_another_function(native):
    m = ir.Module()
    f = m.kernel("f", [ir.array(ir.f32, 1, "c")])
    i = f.global_id()
    g = m.kernel("g", [ir.array(ir.f32, 1, "c")])
    with pytest.raises(ValueError, match=r"%v\d+ \(si32\) belongs to function f, not to g: pass it as an argument"):
        g.args[0][i] = 1.0
    with pytest.raises(ValueError, match=r"belongs to function f, not to g"):
        g.global_id() + i
    with pytest.raises(ValueError, match=r"belongs to function f, not to g"):
        g.emit("arith.addi", [i, i], [ir.si32])


def test_a_value_escaping_for_range(native):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    a = k.args[0]
    loop = line() + 1
    with k.for_range(0, 4) as j:
        v = a[j] * 2.0
    with pytest.raises(ValueError, match=rf"made inside the for_range at {HERE}:{loop} and is used after it ended"):
        a[0] = v
    with pytest.raises(ValueError, match=r"made inside the for_range"):
        a[j] = 1.0
    branch = line() + 1
    with k.if_(k.global_id() == 0):
        w = a[0] + 1.0
    with pytest.raises(ValueError, match=rf"made inside the if_ at {HERE}:{branch}"):
        a[1] = w
    # Values made before the loop may be used in and after it.
    u = a[2]
    with k.for_range(0, 4) as j:
        a[j] = u
    a[3] = u
    assert m.verify() == ["k"]


# --- 3. foreign operands --------------------------------------------------------------------


class Vec3:
    """A framework's own vector: three ir.Values."""

    def __init__(self, *xs):
        self.xs = xs

    def __mul__(self, s):
        return Vec3(*(x * s for x in self.xs))

    __rmul__ = __mul__

    def __radd__(self, s):
        return Vec3(*(s + x for x in self.xs))

    def __eq__(self, other):
        return "vec-eq"


def test_operators_leave_foreign_types_to_them(native, host_target):
    m = ir.Module()
    k = m.kernel("scale3", [ir.f32, ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    s, x, out = k.args
    i = k.global_id()
    with k.if_(i < x.size // 3):
        b = i * 3
        v = Vec3(x[b], x[b + 1], x[b + 2])
        r = 1.0 + s * v  # Value.__mul__ returns NotImplemented: Vec3.__rmul__ builds it
        assert isinstance(r, Vec3)
        for c in range(3):
            out[b + c] = r.xs[c]
    assert (s == Vec3()) == "vec-eq"
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+"):
        s + "text"
    rng = np.random.default_rng(8)
    xs = rng.standard_normal(3 * 40).astype(np.float32)
    res = np.full_like(xs, np.nan)
    launch(pydev.Program(m, kernel="scale3"), np.float32(-1.5), xs, res, n=40)
    np.testing.assert_allclose(
        res, 1.0 + np.float32(-1.5) * xs, rtol=1e-6, atol=1e-6
    )  # pydev.add/mul may contract to an FMA


# --- 4. loop-carried values, if_/else_ with results -----------------------------------------


def test_for_range_carries_values(native, host_target):
    m = ir.Module()
    k = m.kernel("rowstats", [ir.array(ir.f32, 2, "c"), ir.array(ir.f32, 1, "c"), ir.array(ir.si32, 1, "c")])
    a, total, positive = k.args
    r = k.global_id()
    with k.if_(r < k.cast(a.extent(0), ir.si32)):
        loop = k.for_range(0, k.cast(a.extent(1), ir.si32), carry=[0.0, 0])
        with loop as j:
            acc, count = loop.carried
            x = a[r, j]
            pos = k.if_(x > 0.0, results=[ir.si32])
            with pos:
                pos.yield_(count + 1)
            with pos.else_():
                pos.yield_(count)
            loop.next(acc + x, pos.results[0])
        s, c = loop.results
        total[r] = s
        positive[r] = c
    rng = np.random.default_rng(35)
    x = rng.standard_normal((45, 13)).astype(np.float32)
    res = np.full(45, np.nan, np.float32)
    cnt = np.full(45, -7, np.int32)
    launch(pydev.Program(m, kernel="rowstats"), x, res, cnt, n=45)
    expect = np.zeros(45, np.float32)
    for j in range(13):  # the kernel's order of additions
        expect += x[:, j]
    np.testing.assert_allclose(res, expect, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(cnt, (x > 0).sum(1))


def test_if_else_with_results_and_without(native, host_target):
    m = ir.Module()
    k = m.kernel("relu2", [ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    x, out, side = k.args
    i = k.global_id()
    with k.if_(i < x.size):
        v = x[i]
        b = k.if_(v > 0.0, results=[ir.f32])
        with b:
            b.yield_(v * 2.0)
        with b.else_():
            b.yield_(-1.0)
        out[i] = b.results[0]
        plain = k.if_(v > 0.5)
        with plain:
            side[i] = 1.0
        with plain.else_():
            side[i] = 0.0
    rng = np.random.default_rng(4)
    xs = rng.standard_normal(70).astype(np.float32)
    res, sd = np.full_like(xs, np.nan), np.full_like(xs, np.nan)
    launch(pydev.Program(m, kernel="relu2"), xs, res, sd, n=70)
    np.testing.assert_array_equal(res, np.where(xs > 0, xs * 2, -1).astype(np.float32))
    np.testing.assert_array_equal(sd, (xs > 0.5).astype(np.float32))


def test_results_and_carry_mistakes(native):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][0]
    b = k.if_(x > 0.0, results=[ir.f32])
    with pytest.raises(RuntimeError, match=r"the then arm of an if_ with results \(f32\) must end with yield_"):
        with b:
            pass
    b = k.if_(x > 0.0, results=[ir.f32])
    with pytest.raises(TypeError, match=r"has type si32, the result is f32: cast it"):
        with b:
            b.yield_(k.constant(1, ir.si32))
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][0]
    b = k.if_(x > 0.0, results=[ir.f32])
    with b:
        b.yield_(x)
    with pytest.raises(RuntimeError, match=r"needs an else_ arm that yields them"):
        str(m)
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    loop = k.for_range(0, 3, carry=[0.0])
    with pytest.raises(TypeError, match=r"next takes 1 value\(s\), got 2"):
        with loop:
            loop.next(1.0, 2.0)


def test_an_if_without_else_is_located_at_its_line(native):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c")])
    where = line() + 1
    with k.if_(k.global_id() == 0):
        k.args[0][0] = 1.0
    text = str(m)
    # cond_br, and the branch of the else arm never built, carry the if_'s line.
    assert text.count(f'loc("{os.path.abspath(__file__)}":{where}:0)') >= 3
    assert m.verify() == ["k"]


# --- result types the op defines, and contract= -------------------------------------------------


def test_result_types_are_inferred_where_the_op_defines_them(native, host_target):
    m = ir.Module()
    k = m.kernel("warp_sum", [ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    x, total = k.args
    t = k.thread_id()
    mask = k.ops.activemask()
    v = x[k.global_id()]
    for offset in (16, 8, 4, 2, 1):
        v = v + k.ops.shfl(mask, v, k.constant(offset, ir.si32), kind="down")
    with k.if_(t % 32 == 0):
        ref = k.ops.atomic_ref(total, k.constant(0, ir.si64))
        old = k.ops.atomic_rmw(ref, v, kind="add", memory="relaxed", scope="device")
        assert str(ref.type) == str(ir.atomic_ref(ir.f32)) and old.type == ir.f32
    assert mask.type == ir.warp_mask() and v.type == ir.f32
    assert m.verify() == ["warp_sum"]
    rng = np.random.default_rng(35)
    xs = rng.standard_normal(64).astype(np.float32)
    out = np.zeros(1, np.float32)
    device.launch(pydev.Program(m), xs, out, grid=1, block=64, stream=pydev.default_stream())
    assert abs(out[0] - xs.sum(dtype=np.float64)) < 1e-4


def test_contract_false_keeps_one_op_out_of_multiply_adds(native, host_target):
    def build(contract):
        m = ir.Module()
        k = m.kernel("muladd", [ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
        x, y, out = k.args
        i = k.global_id()
        with k.if_(i < x.size):
            xi = x[i]
            out[i] = k.ops.add(k.ops.mul(xi, xi, contract=contract), y[i], contract=contract)
        return m

    assert "pydev.contract = false" in str(build(False)) and "pydev.contract" not in str(build(None))
    llvm = pydev.Program(build(False)).compile("host", "llvm")
    assert "fmul" in llvm and "contract" not in llvm.split("fmul", 1)[1].split("\n", 1)[0]
    assert "llvm.intr.fma" not in pydev.Program(build(False)).compile("sm_90", "llvm")
    rng = np.random.default_rng(351)
    n = 4096
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    launch(pydev.Program(build(False)), x, y, out, n=n)
    np.testing.assert_array_equal(out, x * x + y)  # each op rounds, as NumPy's
    with pytest.raises(TypeError, match="takes no contract="):
        m = ir.Module()
        k = m.kernel("k", [ir.si32])
        k.ops.floordiv(k.args[0], k.args[0], contract=False)


def test_vector_arithmetic_lane_by_lane_verifies_and_runs(native, host_target):
    m = ir.Module()
    v3 = ir.vector(ir.f32, 3)
    k = m.kernel("vecs", [ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    x, out = k.args
    i = k.global_id() * 3
    a = k.ops.vector_create(x[i], x[i + 1], x[i + 2], result=v3)
    b = k.ops.vector_create(x[i + 2], x[i], x[i + 1], result=v3)
    c = 2.0 * (a * b) - a / 4.0  # vector op vector, scalar op vector, vector op scalar
    assert c.type == v3
    with pytest.raises(TypeError, match="cast the lanes to one type"):
        a + k.ops.vector_create(x[i], x[i], result=ir.vector(ir.f32, 2))
    for lane in range(3):
        out[i + lane] = k.ops.vector_extract(c, k.constant(lane, ir.si32))
    assert m.verify() == ["vecs"]
    assert ".visible .entry vecs" in pydev.Program(m).compile("sm_90", "ptx")
    rng = np.random.default_rng(358)
    xs = rng.standard_normal(96).astype(np.float32)
    got = np.full(96, np.nan, np.float32)
    launch(pydev.Program(m), xs, got, n=32)
    a3, b3 = xs.reshape(32, 3), xs.reshape(32, 3)[:, [2, 0, 1]]
    np.testing.assert_allclose(got.reshape(32, 3), 2.0 * (a3 * b3) - a3 / 4.0, rtol=1e-6)


def test_math_helpers_build_upstream_ops_with_their_result_types(native, host_target):
    m = ir.Module()
    k = m.kernel("maths", [ir.array(ir.f32, 1, "c"), ir.array(ir.si32, 1, "c"), ir.array(ir.f32, 1, "c")])
    x, bits, out = k.args
    i = k.global_id()
    with k.if_(i < x.size):
        v = x[i]
        s = k.math.sqrt(k.math.absf(v)) + k.math.fma(v, v, 1.0) + k.math.atan2(v, 2.0)
        nan = k.cast(k.math.isnan(v), ir.f32)
        pop = k.cast(k.math.ctpop(bits[i]), ir.f32)
        out[i] = s + nan + pop
    assert m.verify() == ["maths"]
    assert "math.ctpop" in str(m) and "math.isnan" in str(m)
    pydev.Program(m).compile("sm_90", "ptx")
    rng = np.random.default_rng(359)
    xs = rng.standard_normal(64).astype(np.float32)
    xs[5] = np.nan
    bs = rng.integers(-(1 << 30), 1 << 30, 64, dtype=np.int32)
    got = np.full(64, -1.0, np.float32)
    launch(pydev.Program(m), xs, bs, got, n=64)
    popc = np.array([bin(int(b) & 0xFFFFFFFF).count("1") for b in bs], np.float32)
    want = np.sqrt(np.abs(xs)) + (xs * xs + 1) + np.arctan2(xs, 2.0) + np.isnan(xs) + popc
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5)
    with pytest.raises(AttributeError, match="no math helper 'sqroot'"):
        k.math.sqroot
