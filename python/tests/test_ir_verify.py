"""`pydev.ir.Module.verify()` (API.md): parses and verifies a module as
`pydev.Program` would, without compiling it; returns its kernels' names,
and errors are pydev.CompileError at the IR's own locations."""

import pytest

import pydev
from pydev import _native, ir

pytestmark = pytest.mark.skipif(not _native.available(), reason="needs the native module")


def two_kernels():
    m = ir.Module()
    for name, factor in (("scale2", 2.0), ("scale3", 3.0)):
        k = m.kernel(name, [ir.array(ir.f32, 1, "c")])
        i = k.global_id()
        with k.if_(i < k.args[0].size):
            k.args[0][i] = k.args[0][i] * k.constant(factor, ir.f32)
    return m


def test_verify_names_the_kernels():
    assert two_kernels().verify() == ["scale2", "scale3"]
    assert ir.Module().verify() == []


def test_verify_reports_errors_at_the_users_location():
    m = ir.Module()
    k = m.kernel("bad", [ir.array(ir.f32, 1, "c")])
    x = k.args[0][k.global_id()]
    # arith.addi takes integers: the verifier refuses it, at the op's loc=.
    k.emit("arith.addi", [x, x], [ir.f32], loc=ir.loc("framework_user.py", 12, 5))
    with pytest.raises(pydev.CompileError, match=r"framework_user\.py:12:5: error: .*arith\.addi"):
        m.verify()
