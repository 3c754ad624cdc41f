"""Device code wherever Python programs put it (issue 14): kernels and device
functions defined in functions, closures, loops and class bodies, decorators
applied by call or stacked with others, free names resolved as in Python
(closure cells, then globals, then builtins) and baked in as compile-time
constants, generated source registered in linecache, and errors that point
at the nested definition. On the host target; fresh random inputs (fixed
seed), poisoned outputs."""

import ast
import functools
import linecache
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuda.device as device
import pydev

SEED = 20261125


@pytest.fixture(autouse=True)
def _host(native, host_target):
    pass


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def run(k, *args, n):
    device.launch(k, *args, grid=(n + 127) // 128, block=128, stream=pydev.default_stream())


# --- definitions found by identity -----------------------------------------------------------


def make_scale(k):
    @device.kernel
    def scale(out, a):
        i = device.tid(1)
        if i < a.size:
            out[i] = a[i] * k

    return scale


def test_kernel_factory_bakes_in_each_captured_value(rng):
    a = rng.random(300, dtype=np.float32) + 0.5
    twice, thrice = make_scale(2), make_scale(3)
    for k, factor in ((twice, 2), (thrice, 3), (twice, 2)):
        out = np.full_like(a, np.nan)
        run(k, out, a, n=a.size)
        np.testing.assert_array_equal(out, a * np.float32(factor))


def test_factory_kernels_are_two_programs_in_both_caches(rng):
    a = rng.random(64, dtype=np.float32) + 0.5
    before = pydev.stats()["compiles"]
    run(make_scale(5), np.full_like(a, np.nan), a, n=a.size)
    run(make_scale(7), np.full_like(a, np.nan), a, n=a.size)
    assert pydev.stats()["compiles"] == before + 2
    # New kernel objects with the same captured values: the disk cache
    # holds one entry per value, and each gives its own result.
    disk = pydev.stats()["disk_hits"]
    for factor in (7, 5):
        out = np.full_like(a, np.nan)
        run(make_scale(factor), out, a, n=a.size)
        np.testing.assert_array_equal(out, a * np.float32(factor))
    assert pydev.stats()["compiles"] == before + 2
    assert pydev.stats()["disk_hits"] == disk + 2


def test_captured_true_and_one_are_different_programs(rng):
    def make(v):
        @device.kernel
        def k(out):
            out[0] = v

        return k

    out = np.full(1, -7, np.int32)
    before = pydev.stats()["compiles"]
    run(make(1), out, n=1)
    assert out[0] == 1
    # True == 1 in Python, but a bool constant is another program (its type differs).
    run(make(True), out, n=1)
    assert pydev.stats()["compiles"] == before + 2
    disk = pydev.stats()["disk_hits"]
    run(make(1), out, n=1)
    assert pydev.stats()["compiles"] == before + 2 and pydev.stats()["disk_hits"] == disk + 1


def test_kernels_made_in_a_loop_keep_their_own_values(rng):
    kernels = [make_scale(f) for f in (2, 3, 4)]
    a = rng.random(100, dtype=np.float32) + 0.5
    for k, f in reversed(list(zip(kernels, (2, 3, 4)))):
        out = np.full_like(a, np.nan)
        run(k, out, a, n=a.size)
        np.testing.assert_array_equal(out, a * np.float32(f))


def test_kernel_defined_in_a_test_function_and_in_a_loop(rng):
    a = rng.integers(1, 100, 200).astype(np.int32)
    for c in (5, -3):

        @device.kernel
        def add(out, a):
            i = device.tid(1)
            if i < a.size:
                out[i] = a[i] + c

        out = np.full_like(a, -999)
        run(add, out, a, n=a.size)
        np.testing.assert_array_equal(out, a + c)


def test_nested_device_function_beside_the_kernel(rng):
    def make(offset):
        @device.func
        def shift(x):
            return x + offset

        @device.kernel
        def k(out, a):
            i = device.tid(1)
            if i < a.size:
                out[i] = shift(a[i]) * 2

        return k

    a = rng.integers(-50, 50, 300).astype(np.int32)
    for off in (1, 10):
        out = np.full_like(a, -999)
        run(make(off), out, a, n=a.size)
        np.testing.assert_array_equal(out, (a + off) * 2)


def test_two_closures_of_one_device_function_in_one_kernel(rng):
    def adder(c):
        @device.func
        def add(x):
            return x + c

        return add

    add1, add10 = adder(1), adder(10)

    @device.kernel
    def k(out, a):
        i = device.tid(1)
        if i < a.size:
            out[i] = add1(a[i]) * 1000 + add10(a[i])

    a = rng.integers(0, 100, 150).astype(np.int32)
    out = np.full_like(a, -999)
    run(k, out, a, n=a.size)
    np.testing.assert_array_equal(out, (a + 1) * 1000 + a + 10)


def _cubes(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = a[i] * a[i] * a[i]


def _square(x):
    return x * x


def _sum_of_squares(out, a, b):
    i = device.tid(1)
    if i < a.size:
        out[i] = square(a[i]) + square(b[i])


cubes = device.kernel(_cubes)
square = device.func(_square)
sum_of_squares = device.kernel(_sum_of_squares)


def test_decorators_applied_by_call(rng):
    a = rng.integers(-20, 20, 256).astype(np.int32)
    out = np.full_like(a, -999)
    run(cubes, out, a, n=a.size)
    np.testing.assert_array_equal(out, a**3)
    b = rng.integers(-20, 20, 256).astype(np.int32)
    out = np.full_like(a, -999)
    run(sum_of_squares, out, a, b, n=a.size)
    np.testing.assert_array_equal(out, a * a + b * b)


def test_interop_function_applied_by_call(rng):
    def diff(x, y):
        return x - y

    d = device.func(interop=True)(diff)

    @device.kernel
    def k(out, a, b):
        i = device.tid(1)
        if i < a.size:
            out[i] = d(a[i], b[i])

    a, b = rng.random(100, dtype=np.float32), rng.random(100, dtype=np.float32)
    out = np.full_like(a, np.nan)
    run(k, out, a, b, n=a.size)
    np.testing.assert_array_equal(out, a - b)
    assert re.search(r"\.func .*diff\(", pydev.compile(d, "float32, float32", target="sm_90"))


def traced(fn):
    """A framework's decorator: functools.wraps around the function."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def my_jit(fn):
    """A framework's decorator that makes kernels itself."""
    return device.kernel(fn)


@traced
@device.kernel
def negate_outer(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = -a[i]


@device.kernel
@traced
def negate_inner(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = -a[i]


@my_jit
def negate_framework(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = -a[i]


@pytest.mark.parametrize(
    "k", [negate_outer, negate_inner, negate_framework], ids=["wraps-outside", "wraps-inside", "framework"]
)
def test_stacked_and_framework_decorators(rng, k):
    a = rng.standard_normal(200).astype(np.float32)
    out = np.full_like(a, np.nan)
    run(k, out, a, n=a.size)
    np.testing.assert_array_equal(out, -a)


class Ops:
    @device.kernel
    def double(out, a):  # noqa: N805 - a kernel in a class body
        i = device.tid(1)
        if i < a.size:
            out[i] = a[i] * 2

    def make(self, c):
        if c > 0:

            @device.kernel
            def add(out, a):
                i = device.tid(1)
                if i < a.size:
                    out[i] = a[i] + c

        else:

            @device.kernel
            def add(out, a):
                i = device.tid(1)
                if i < a.size:
                    out[i] = a[i] - c

        return add


def test_kernels_in_class_bodies_methods_and_conditionals(rng):
    a = rng.integers(-50, 50, 100).astype(np.int32)
    out = np.full_like(a, -999)
    run(Ops.double, out, a, n=a.size)
    np.testing.assert_array_equal(out, a * 2)
    for c in (4, -4):
        out = np.full_like(a, -999)
        run(Ops().make(c), out, a, n=a.size)
        np.testing.assert_array_equal(out, a + abs(c))


# --- free names resolve as in Python -----------------------------------------------------------

C = 100


def test_closure_shadows_global_and_global_shadows_builtin(rng):
    def make():
        C = 7  # noqa: N806 - shadows the module's C

        @device.kernel
        def k(out):
            out[0] = C
            out[1] = abs(-3)

        return k

    out = np.full(2, -999, np.int32)
    run(make(), out, n=1)
    assert list(out) == [7, 3]


@device.struct
class Pair:
    a: device.int32
    b: device.int32


def test_captured_numpy_scalars_tuples_dtypes_structs_functions_targets(rng):
    def make(scale, shape, dt, cls, fn, where):
        @device.kernel
        def k(out64, outi):
            x = scale * 3
            out64[0] = x
            loc = device.local_array(shape, dt)
            loc[0, 0] = 1.5
            out64[1] = loc[0, 0]
            p = cls(shape[0], shape[1])
            outi[0] = fn(p.a + p.b)
            if device.target(where):
                outi[1] = 1
            else:
                outi[1] = 2

        return k

    @device.func
    def twice(x):
        return x * 2

    k = make(np.float64(0.1), (3, 4), np.float64, Pair, twice, device.is_host)
    out64, outi = np.full(2, np.nan), np.full(2, -999, np.int32)
    run(k, out64, outi, n=1)
    assert out64[0] == 0.1 * 3  # a float64 NumPy scalar keeps its dtype (not float32)
    assert out64[1] == 1.5
    assert list(outi) == [14, 1]
    k = make(np.float32(0.1), (3, 4), device.float32, Pair, twice, device.is_device | device.provides(device.sm80))
    out64, outi = np.full(2, np.nan), np.full(2, -999, np.int32)
    run(k, out64, outi, n=1)
    assert out64[0] == float(np.float32(0.1) * np.float32(3))
    assert list(outi) == [14, 2]


def test_captured_value_device_code_cannot_hold_is_a_compile_error_at_its_use():
    def make(table):
        @device.kernel
        def k(out):
            out[0] = 1
            out[1] = table[0]

        return k

    out = np.full(2, -999, np.int32)
    with pytest.raises(pydev.CompileError) as e:
        run(make([1, 2, 3]), out, n=1)
    msg = str(e.value)
    line = make.__code__.co_firstlineno + 4
    assert (
        f"test_python_anywhere.py:{line}:22: error: 'table' is a list captured from 'make', which device code cannot hold"
        in msg
    ), msg
    assert "out[1] = table[0]" in msg and "^^^^^" in msg


def test_errors_in_nested_definitions_point_at_them():
    def make():
        @device.kernel
        def k(out):
            out[0] = undefined_name  # noqa: F821

        return k

    with pytest.raises(pydev.CompileError) as e:
        run(make(), np.zeros(1, np.int32), n=1)
    line = make.__code__.co_firstlineno + 3
    assert f"test_python_anywhere.py:{line}:22: error: name 'undefined_name' is not defined" in str(e.value)
    assert ":1:1:" not in str(e.value)


def test_a_changed_captured_value_recompiles_on_the_fast_path(rng):
    c = 1

    @device.kernel
    def k(out):
        out[0] = c

    out = np.full(1, -999, np.int32)
    for _ in range(2):  # the second launch is the fast path
        run(k, out, n=1)
        assert out[0] == 1
    c = 2  # noqa: F841 - read by k through its closure cell
    run(k, out, n=1)
    assert out[0] == 2


# --- where the source is --------------------------------------------------------------------

GENERATED = """
import cuda.device as device

def make(op):
    @device.kernel
    def k(out, a, b):
        i = device.tid(1)
        if i < a.size:
            out[i] = {expr}
    return k
"""


def generate(name, expr, register=True, text=True):
    """The generated `make`: its text in linecache (register), else found by
    pydev's record of compiled strings (text), else nowhere (compiled from an AST)."""
    src = GENERATED.format(expr=expr)
    if register:
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    ns = {}
    exec(compile(src if text else ast.parse(src), name, "exec"), ns)
    return ns["make"]


def test_generated_source_registered_in_linecache(rng):
    a, b = rng.random(100, dtype=np.float32), rng.random(100, dtype=np.float32)
    for i, (expr, ref) in enumerate((("a[i] * b[i]", a * b), ("a[i] - b[i]", a - b))):
        k = generate(f"<pydev-generated-{i}>", expr)(None)
        out = np.full_like(a, np.nan)
        run(k, out, a, b, n=a.size)
        np.testing.assert_array_equal(out, ref)


def test_generated_source_error_points_into_it():
    k = generate("<pydev-generated-bad>", "a[i] +* b[i]".replace("+*", "+ undefined_thing *"))(None)
    with pytest.raises(pydev.CompileError) as e:
        run(k, np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32), n=4)
    assert "<pydev-generated-bad>:9:" in str(e.value)
    assert "out[i] = a[i] + undefined_thing * b[i]" in str(e.value)


def test_generated_source_not_registered_is_found(rng):
    # exec/compile of a string after cuda.device was imported: its text was recorded
    a, b = rng.random(100, dtype=np.float32), rng.random(100, dtype=np.float32)
    k = generate("<not-registered>", "(a[i] + b[i]) * 2", register=False)(None)
    out = np.full_like(a, np.nan)
    run(k, out, a, b, n=a.size)
    np.testing.assert_array_equal(out, (a + b) * 2)


def test_source_that_is_nowhere_says_how_to_fix_it():
    k = generate("<nowhere>", "a[i]", register=False, text=False)(None)
    with pytest.raises(TypeError) as e:
        run(k, np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32), n=4)
    msg = str(e.value)
    assert "source of 'make.<locals>.k' is not available" in msg
    assert "linecache.cache[name]" in msg


def test_python_dash_c_program_runs():
    # its text is sys.orig_argv's
    code = textwrap.dedent(
        """
        import numpy as np, pydev, cuda.device as device
        @device.kernel
        def k(out):
            out[0] = 41 + out[0]
        a = np.ones(1, np.int32)
        device.launch(k, a, grid=1, block=1, stream=pydev.default_stream())
        print("out", a[0])
        """
    )
    env = dict(os.environ, PYDEV_TARGET="host")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "out 42"


def test_every_stage_of_a_nested_kernel_is_dumpable():
    k = make_scale(4)
    sig = "float32[::1], float32[::1]"
    ast = pydev.compile(k, sig, target="host", stage="python-ast")
    assert ast.startswith("StmtFunctionDef") and 'id: Name("scale")' in ast
    assert "pydev.kernel" in pydev.compile(k, sig, target="host", stage="pydev")
    assert ".visible .entry scale(" in pydev.compile(k, sig, target="sm_90", stage="ptx")


@device.kernel
def window_sums(out, a, n: device.ConstExpr[int]):
    i = device.tid(1)
    if i < out.size:
        buf = device.local_array(n, device.float32)
        for j in range(n):
            buf[j] = a[i + j]
        s = device.float32(0)
        for j in range(n):
            s += buf[j]
        out[i] = s


def test_kernel_constexpr_parameters_are_compiled_for_their_launch_values(rng):
    a = rng.random(300, dtype=np.float32)
    before = pydev.stats()["compiles"]
    for n in (3, 5, 3):
        out = np.full(a.size - n + 1, np.nan, np.float32)
        run(window_sums, out, a, n, n=out.size)
        ref = np.array([a[i : i + n].astype(np.float64).sum() for i in range(out.size)])
        np.testing.assert_allclose(out, ref, rtol=1e-6)
    assert pydev.stats()["compiles"] == before + 2  # one program per value
    with pytest.raises(TypeError, match="argument 'n' of kernel 'window_sums' is annotated ConstExpr: pass a number"):
        run(window_sums, out, a, a, n=1)
    # pydev.compile takes the example value of a ConstExpr parameter as a launch does.
    assert "pydev.local_array shape [4]" in pydev.compile(window_sums, [out, a, 4], target="host", stage="pydev")


GLOBAL_TABLE = [1, 2, 3]
GLOBAL_ARRAY = np.arange(3)


@device.kernel
def reads_host_globals(out):
    out[0] = GLOBAL_TABLE[0]
    out[1] = GLOBAL_ARRAY[0]


def test_a_global_device_code_cannot_hold_is_a_compile_error_at_its_use():
    with pytest.raises(pydev.CompileError) as e:
        run(reads_host_globals, np.full(2, -999, np.int32), n=1)
    msg = str(e.value)
    line = reads_host_globals.underlying.__code__.co_firstlineno + 2
    assert (
        f"test_python_anywhere.py:{line}:14: error: 'GLOBAL_TABLE' is a list (a global of test_python_anywhere), which device code cannot hold"
        in msg
    ), msg
    assert (
        f"test_python_anywhere.py:{line + 1}:14: error: 'GLOBAL_ARRAY' is a numpy.ndarray (a global of test_python_anywhere)"
        in msg
    ), msg
