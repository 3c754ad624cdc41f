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
