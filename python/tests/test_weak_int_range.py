"""A Python int constant that meets a fixed-format integer must fit it
(Array API weak scalars; NumPy 2 raises OverflowError): out of range it is a
pydev.CompileError at the literal, not a silent wrap (docs/reliability.md)."""

import numpy as np
import pytest

import cuda.device as device
import pydev


@pytest.fixture(autouse=True)
def host_target(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@device.kernel
def rem_negative(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = a[i] % -8  # the literal


@device.kernel
def rem_converted(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = device.int32(a[i]) % -8


@device.kernel
def rem_fits(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = a[i] % 8 + 65000


def line_of(tag):
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, 1) if line.rstrip().endswith(f"# {tag}"))


def test_numpy_refuses_the_same_operation():
    with pytest.raises(OverflowError):
        np.uint16(5) % -8


def test_an_out_of_range_python_int_is_a_compile_error_at_the_literal():
    a = np.arange(1, 65, dtype=np.uint16)
    out = np.zeros(64, np.uint16)
    with pytest.raises(pydev.CompileError) as e:
        device.launch(rem_negative, out, a, grid=1, block=64, stream=pydev.default_stream())
    msg = str(e.value)
    assert (
        f"{__file__}:{line_of('the literal')}:25: error: the Python int -8 does not fit in uint16, the type of the other operand of '%' (it would wrap to 65528)"
        in msg
    ), msg
    assert "out[i] = a[i] % -8" in msg and "^^" in msg, msg
    assert "device.int32(x) % -8" in msg, msg


def test_an_explicit_conversion_or_a_fitting_int_compiles_and_runs():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 65535, 200, dtype=np.uint16)
    out = np.full(200, -12345, np.int32)
    device.launch(rem_converted, out, a, grid=4, block=64, stream=pydev.default_stream())
    np.testing.assert_array_equal(out, a.astype(np.int32) % -8)
    out16 = np.full(200, 7, np.uint16)
    device.launch(rem_fits, out16, a, grid=4, block=64, stream=pydev.default_stream())
    np.testing.assert_array_equal(out16, (a % 8 + np.uint16(65000)).astype(np.uint16))
