"""pydev.numba's kernel language (issue 31): shapes from constants, zip,
enumerate, iteration over arrays, loop else, starred unpacking, and the
builtins, math and operator functions Numba-CUDA supports. Host target,
fixed-seed inputs, NaN-poisoned outputs, compared with NumPy / Python."""

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float64, int32

SEED = 20261128
W = 4  # a global constant shape


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


# --- (1) shapes from local, global and closure constants -------------------------------------


def _shapes_kernel():
    H = 3  # a closure constant

    @cuda.jit
    def k(a, out):
        TPB = 32
        sh = cuda.shared.array(TPB, float64)
        loc = cuda.local.array((W, H), int32)
        shp = (2, H)
        l2 = cuda.local.array(shp, float64)
        i = cuda.threadIdx.x
        sh[i] = a[i] * 2.0
        cuda.syncthreads()
        for j in range(W):
            for q in range(H):
                loc[j, q] = j * H + q
        l2[1, H - 1] = a[i]
        s = 0.0
        for j in range(TPB):
            tmp = cuda.local.array(TPB, float64)  # a constant shape inside a loop
            tmp[j] = sh[j]
            s += tmp[j]
        out[i] = s + loc[W - 1, H - 1] + l2[1, H - 1]

    return k


def test_shapes_from_local_global_and_closure_constants(rng):
    a = rng.standard_normal(32)
    out = np.full(32, np.nan)
    _shapes_kernel()[1, 32](a, out)
    np.testing.assert_allclose(out, 2.0 * a.sum() + (W * 3 - 1) + a, rtol=1e-12)


def test_shape_from_a_reassigned_local_is_an_error():
    @cuda.jit
    def k(out):
        n = 4
        n = n + 1
        x = cuda.local.array(n, float64)
        x[0] = 1.0
        out[0] = x[0]

    with pytest.raises(pydev.CompileError, match="shape of cuda.local.array"):
        k[1, 1](np.zeros(1))


# --- (2) zip, enumerate, for v in array, loop else -------------------------------------------


@cuda.jit
def _loops(a, b, m, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    s = 0.0
    for v in a:
        s += v
    t = 0.0
    for x, y in zip(a, b):
        t += x * y
    e = 0.0
    for j, v in enumerate(b, 1):
        e += j * v
    r = 0.0
    for row in m:
        for q in row:
            r += q * i
    z = 0.0
    for j, (x, y) in enumerate(zip(a, range(2, 100, 3))):
        z += j * x + y
    found = -1
    for j in range(a.shape[0]):
        if a[j] > b[i]:
            found = j
            break
    else:
        found = 99
    w = 0
    while w < i:
        w += 1
    else:
        w += 10
    out[i, 0] = s
    out[i, 1] = t
    out[i, 2] = e
    out[i, 3] = r
    out[i, 4] = z
    out[i, 5] = found
    out[i, 6] = w


def test_zip_enumerate_array_iteration_and_loop_else(rng):
    a = rng.standard_normal(5)
    b = rng.standard_normal(7)
    m = rng.standard_normal((2, 3))
    n = 7
    out = np.full((n, 7), np.nan)
    _loops[1, 8](a, b, m, out)
    for i in range(n):
        found = next((j for j in range(len(a)) if a[j] > b[i]), 99)
        want = [
            a.sum(),
            (a * b[:5]).sum(),
            sum(j * v for j, v in enumerate(b, 1)),
            (m * i).sum(),
            sum(j * x + y for j, (x, y) in enumerate(zip(a, range(2, 100, 3)))),
            found,
            i + 10,
        ]
        np.testing.assert_allclose(out[i], want, rtol=1e-12)


def test_iterating_over_a_number_is_an_error():
    @cuda.jit
    def k(out):
        for v in out[0]:
            out[0] = v

    with pytest.raises(pydev.CompileError, match="loops iterate over"):
        k[1, 1](np.zeros(1))


# --- (3) starred unpacking ----------------------------------------------------------------


@cuda.jit(device=True)
def _add3(x, y, z):
    return x + 2 * y + 3 * z


@cuda.jit
def _starred(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    t = (a[i], 2.0)
    u = (*t, a[i] * 3)
    v = (1.0, *t, *u)
    out[i, 0] = _add3(*u)
    out[i, 1] = _add3(*t, 4.0)
    out[i, 2] = len(v) + v[4] + v[5]
    out[i, 3] = max(*u)


def test_starred_tuples_and_call_arguments(rng):
    a = rng.standard_normal(17)
    out = np.full((17, 4), np.nan)
    _starred[1, 32](a, out)
    want = np.stack([a + 4.0 + 9 * a, a + 4.0 + 12.0, 6 + 2.0 + 3 * a, np.maximum(np.maximum(a, 2.0), 3 * a)], 1)
    np.testing.assert_allclose(out, want, rtol=1e-12)


def test_starred_assignment_is_an_error():
    @cuda.jit
    def k(out):
        a, *b = (1.0, 2.0, 3.0)
        out[0] = a + len(b)

    with pytest.raises(pydev.CompileError, match=r"starred assignment \(a, \*b = t\)"):
        k[1, 1](np.zeros(1))
