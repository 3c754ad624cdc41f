"""pydev.numba: Numba-CUDA's lowering choices seen in the PTX (min/max as
PTX min/max, red for atomics whose result is unused, membar fences), and
Numba's semantics around them: fmin/fmax's NaN rule, float(x) typing,
integer parameters wrapping as ctypes converts them, `is` on values,
variables unassigned on a path, and the TypingError/RequireLiteralValue
classes. Host target for results (fixed-seed inputs, NaN-poisoned
outputs); PTX for sm_90, assembled by ptxas when one is installed."""

import re

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, int32, int64, uint8, void
from pydev.numba.core.errors import NumbaError, RequireLiteralValue, TypingError

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def _assembles(ptx, tmp_path):
    import toolchain

    r = toolchain.assemble(ptx, tmp_path)
    if r is not None:
        assert r.returncode == 0, r.stderr


# --- min/max of two floats: Numba-CUDA's fmin/fmax ----------------------------------------


def _minmax_kernel():
    @cuda.jit
    def k(a, b, mx, mn, mx3):
        i = cuda.grid(1)
        if i < a.size:
            mx[i] = max(a[i], b[i])
            mn[i] = min(a[i], b[i])
            mx3[i] = max(a[i], b[i], 0.25)  # three arguments: Python's order, as Numba's generic max

    return k


@pytest.mark.parametrize("ta, tb", [(np.float32, np.float32), (np.float32, np.float64), (np.float64, np.float64)])
def test_minmax_of_two_floats_ignores_nan_as_fmax(ta, tb, rng):
    n = 97
    a, b = rng.standard_normal(n).astype(ta), rng.standard_normal(n).astype(tb)
    a[::7], b[::5] = np.nan, np.nan  # some NaN in one operand, some in both (i = 0, 35, 70)
    rt = np.result_type(ta, tb)
    mx, mn, mx3 = (np.full(n, 7.5, rt) for _ in range(3))
    k = _minmax_kernel()
    k[1, 128](a, b, mx, mn, mx3)
    np.testing.assert_array_equal(mx, np.fmax(a, b).astype(rt))
    np.testing.assert_array_equal(mn, np.fmin(a, b).astype(rt))
    want3 = [max(float(x), float(y), 0.25) for x, y in zip(a.astype(rt), b.astype(rt))]
    np.testing.assert_array_equal(mx3, np.array(want3, rt))


def test_minmax_ptx_is_max_min_instructions(tmp_path):
    k = _minmax_kernel()
    for t, suffix in ((float32, "f32"), (float64, "f64")):
        sig = (t[::1], t[::1], t[::1], t[::1], t[::1])
        ptx = k.inspect_asm(sig)
        assert f"max.{suffix}" in ptx and f"min.{suffix}" in ptx, ptx
        _assembles(ptx, tmp_path)


def test_float_keeps_a_float_type():
    @cuda.jit
    def k(a, i64, out):
        out[0] = float(a[0]) / np.float32(3)  # float32 / float32 stays float32 (Numba)
        out[1] = float(i64[0]) / np.float32(3)  # an integer is float64

    a = np.array([1.1], np.float32)
    out = np.full(2, np.nan)
    k[1, 1](a, np.array([1], np.int64), out)
    assert out[0] == float(np.float32(np.float32(1.1) / np.float32(3)))
    assert out[1] == 1 / 3


# --- integer parameters wrap as numba-cuda's ctypes conversion ----------------------------


def test_integer_parameters_wrap_as_ctypes():
    @cuda.jit(void(int64[::1], int32, uint8))
    def k(out, a, b):
        out[0] = a
        out[1] = b

    out = np.full(2, -7, np.int64)
    for a, b, want in [
        (0xFFFFFFFF, 300, (-1, 44)),
        (2**31, -1, (-(2**31), 255)),
        (2**70 + 5, 2**64 + 3, (5, 3)),
        (np.uint64(2**63 + 9), np.int64(-256), (9, 0)),
        (-5, 17, (-5, 17)),
    ]:
        k[1, 1](out, a, b)
        assert tuple(out) == want, (a, b, tuple(out))


# --- `is` on two values of one type is `==` ------------------------------------------------


def test_is_on_values_compares_them():
    @cuda.jit
    def k(pred, n, m, out):
        out[0] = 1 if pred is True else 0
        out[1] = 1 if pred is not False else 0
        out[2] = 1 if n is m else 0  # two int64: ==

    out = np.full(3, -1, np.int64)
    k[1, 1](True, 3, 3, out)
    assert out.tolist() == [1, 1, 1]
    k[1, 1](False, 4, 3, out)
    assert out.tolist() == [0, 0, 0]


# --- variables unassigned on a path read zero, as Numba's undefined value ------------------


def test_variable_unassigned_on_a_path_compiles_and_reads_as_assigned():
    @cuda.jit
    def k(result, x, v, n):
        for i in range(n):
            if i == 0:
                if i == x:
                    pass
                else:
                    acc = v
            else:
                if i == x:
                    pass
                else:
                    acc = acc + v  # unassigned on the path i == 0, i == x
        result[0] = acc

    out = np.full(1, -1, np.int64)
    k[1, 1](out, 1, 5, 3)
    assert out[0] == 10


def test_an_array_variable_unassigned_on_a_path_is_still_an_error():
    @cuda.jit
    def k(a, out, flag):
        if flag:
            b = a
        else:
            out[0] = b[0]

    with pytest.raises(TypingError, match="variable 'b' is used before it is assigned"):
        k[1, 1](np.ones(2), np.ones(2), 0)


# --- Numba's error classes -----------------------------------------------------------------


def test_typing_errors_are_numba_classes_and_compile_errors():
    def nonliteral(n):
        cuda.grid(n)

    with pytest.raises(RequireLiteralValue) as e:
        cuda.jit(void(int32))(nonliteral)
    assert isinstance(e.value, TypingError) and isinstance(e.value, NumbaError)
    assert isinstance(e.value, pydev.CompileError)
    msg = str(e.value)
    assert re.search(r"test_numba_ptx_misc\.py:\d+:\d+: error: the number of dimensions must be a constant", msg), msg

    @cuda.jit
    def bad(a):
        a[0] = (1, 2)

    with pytest.raises(TypingError) as e:
        bad[1, 1](np.zeros(1))
    assert not isinstance(e.value, RequireLiteralValue)


# --- atomics and fences in the PTX ---------------------------------------------------------


def test_unused_atomic_results_are_red_and_used_ones_atom(tmp_path):
    @cuda.jit
    def k(g, old):
        sm = cuda.shared.array(4, float64)
        i = cuda.grid(1)
        cuda.atomic.add(sm, 0, 1.0)  # result unused: red.shared
        cuda.atomic.add(g, 1, 2.0)  # red.global
        old[i] = cuda.atomic.add(g, 0, 1.0)  # used: atom
        cuda.atomic.max(g, 2, 3.0)  # a float max keeps its compare-and-swap loop
        cuda.syncthreads()
        if i == 0:
            g[3] = sm[0]

    ptx = k.inspect_asm((float64[::1], float64[::1]))
    assert re.search(r"red\.shared\.add\.f64", ptx), ptx
    assert re.search(r"red\.global\.add\.f64", ptx), ptx
    assert re.search(r"atom\.global\.add\.f64\s+%rd\d+,", ptx), ptx
    assert not re.search(r"(atom|red)\.relaxed\.gpu\.\w+\.add", ptx), ptx  # relaxed, device scope: PTX's defaults
    _assembles(ptx, tmp_path)

    g, old = np.zeros(4), np.full(64, np.nan)
    k[1, 64](g, old)
    assert g[0] == 64 and g[1] == 128 and g[2] == 3 and g[3] == 64
    assert sorted(old) == list(range(64))


def test_threadfences_are_membar(tmp_path):
    @cuda.jit
    def k(a):
        a[0] = 1
        cuda.threadfence_block()
        a[1] = 2
        cuda.threadfence()
        a[2] = 3
        cuda.threadfence_system()

    ptx = k.inspect_asm((int32[::1],))
    order = [m.group(0) for m in re.finditer(r"membar\.(cta|gl|sys);", ptx)]
    assert order == ["membar.cta;", "membar.gl;", "membar.sys;"], ptx
    assert "fence.sc" not in ptx
    _assembles(ptx, tmp_path)
    a = np.zeros(3, np.int32)
    k[1, 1](a)
    assert a.tolist() == [1, 2, 3]


# --- cuda.vectorize / guvectorize ufuncs pickle (by value when local), as Numba-CUDA's ----


def test_ufuncs_pickle_by_value(rng):
    import pickle

    @cuda.vectorize(["int64(int64)", "float64(float64)"])
    def twice(x):
        return x * 2

    @cuda.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s

    a = rng.integers(-1000, 1000, 37)
    again = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(twice))))
    np.testing.assert_array_equal(again(a), a * 2)
    np.testing.assert_array_equal(again(a / 7), a / 7 * 2)
    x = rng.standard_normal((5, 11))
    np.testing.assert_allclose(pickle.loads(pickle.dumps(total))(x), x.sum(axis=1), rtol=1e-12)


def test_vectorize_nopython_is_redundant_with_a_runtime_warning():
    with pytest.warns(RuntimeWarning, match="nopython kwarg for cuda target is redundant"):

        @cuda.vectorize(["float32(float32)"], nopython=True)
        def inc(x):
            return x + 1

    np.testing.assert_array_equal(inc(np.arange(4, dtype=np.float32)), np.arange(1, 5, dtype=np.float32))
