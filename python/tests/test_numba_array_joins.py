"""pydev.numba and cuda.device: array variables joined at branches and loops
(an array a branch or loop rebinds, read after the join: block arguments of
array type, lowered by pydev-lower-arrays)."""

import numpy as np
import pytest

pytest.importorskip("pydev._pydev")

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
import toolchain  # noqa: E402
from pydev.numba import cuda  # noqa: E402
from pydev.numba.core.errors import TypingError  # noqa: E402

pytestmark = pytest.mark.usefixtures("host_target")

RNG = np.random.default_rng(20261128)
N = 64


def inputs(dtype=np.float64):
    return RNG.random(N).astype(dtype), RNG.random(N).astype(dtype), np.full(N, np.nan, dtype)


@cuda.jit
def branch_join(out, a, b, flag):
    i = cuda.grid(1)
    x = a
    if flag:
        x = b
    if i < out.size:
        out[i] = x[i]


@cuda.jit
def both_paths(out, a, b, flag):
    i = cuda.grid(1)
    if flag:
        x = a
    else:
        x = b
    if i < out.size:
        out[i] = x[i]


@cuda.jit
def loop_join(out, a, b, n):
    i = cuda.grid(1)
    x = a
    for j in range(n):
        if j == 2:
            x = b
    if i < out.size:
        out[i] = 2 * x[i]


@cuda.jit
def while_join(out, a, b, c, n):
    # x cycles a -> b -> c -> a ... for n steps; each step adds from x
    i = cuda.grid(1)
    x, y, z = a, b, c
    acc = 0.0
    k = 0
    while k < n:
        acc += x[i]
        x, y, z = y, z, x
        k += 1
    out[i] = acc + x[i]


@cuda.jit
def jacobi_swap(u, v, steps):
    # numba-cuda's doc_examples.test_laplace: two buffers swapped each step
    i = cuda.grid(1)
    n = u.size
    for _ in range(steps):
        if 0 < i < n - 1:
            v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3
        else:
            v[i] = u[i]
        cuda.syncthreads()
        u, v = v, u
    cuda.syncthreads()
    v[i] = u[i]


@pytest.mark.parametrize("flag", [0, 1])
def test_an_array_rebound_in_a_branch_is_read_after_the_join(flag):
    a, b, out = inputs()
    branch_join[2, 32](out, a, b, flag)
    np.testing.assert_array_equal(out, b if flag else a)


@pytest.mark.parametrize("flag", [0, 1])
def test_an_array_assigned_on_every_path_is_read_after_the_join(flag):
    a, b, out = inputs(np.float32)
    both_paths[2, 32](out, a, b, flag)
    np.testing.assert_array_equal(out, a if flag else b)


@pytest.mark.parametrize("n", [0, 2, 3, 7])
def test_an_array_rebound_in_a_loop_is_read_after_it(n):
    a, b, out = inputs()
    loop_join[2, 32](out, a, b, n)
    np.testing.assert_array_equal(out, 2 * (b if n > 2 else a))


@pytest.mark.parametrize("n", [0, 1, 5])
def test_arrays_rotated_in_a_while_loop(n):
    a, b, out = inputs()
    c = RNG.random(N)
    while_join[2, 32](out, a, b, c, n)
    bufs, want = [a, b, c], np.zeros(N)
    for k in range(n):
        want += bufs[k % 3]
    np.testing.assert_allclose(out, want + bufs[n % 3], rtol=1e-15)


@pytest.mark.parametrize("steps", [1, 4, 7])
def test_buffers_swapped_each_step_match_numpy(steps):
    u = RNG.random(N)
    v = np.full(N, np.nan)
    want = u.copy()
    for _ in range(steps):
        nxt = want.copy()
        nxt[1:-1] = (want[:-2] + want[1:-1] + want[2:]) / 3
        want = nxt
    jacobi_swap[1, N](u, v, steps)
    # after an odd number of steps the result is in v's buffer, else u's;
    # the last store copies it into the other
    np.testing.assert_allclose(u, want, rtol=1e-14)
    np.testing.assert_allclose(v, want, rtol=1e-14)


def assembles(ptx, tmp_path):
    """The PTX has a kernel, and ptxas (where installed) takes it."""
    assert ".entry" in ptx
    r = toolchain.assemble(ptx, tmp_path)
    assert r is None or r.returncode == 0, r.stderr


def test_joined_arrays_compile_to_ptx(tmp_path):
    for kernel, sig in (
        (branch_join, "void(float64[:], float64[:], float64[:], int64)"),
        (both_paths, "void(float32[:], float32[:], float32[:], int64)"),
        (loop_join, "void(float64[:], float64[:], float64[:], int64)"),
        (while_join, "void(float64[:], float64[:], float64[:], float64[:], int64)"),
        (jacobi_swap, "void(float64[:], float64[:], int64)"),
    ):
        assembles(pydev.compile(kernel, sig, target="sm_90", stage="ptx"), tmp_path)


def test_arrays_of_different_ranks_joined_are_a_located_error():
    @cuda.jit
    def k(out, a, c, flag):
        x = a
        if flag:
            x = c
        out[0] = x[0]

    with pytest.raises(TypingError, match=r"test_numba_array_joins.py:\d+:\d+: error: variable 'x' holds a array"):
        k[1, 1](np.zeros(1), RNG.random(2), RNG.random((2, 2)), 1)


def test_arrays_of_different_dtypes_assigned_on_each_path_are_a_located_error_where_read():
    @cuda.jit
    def k(out, a, c, flag):
        if flag:
            x = a
        else:
            x = c
        out[0] = x[0]  # the line of the error

    with pytest.raises(TypingError) as e:
        k[1, 1](np.zeros(1), RNG.random(2), RNG.random(2).astype(np.float32), 1)
    msg = str(e.value)
    assert "variable 'x' holds a array(float64, 1d, C) on one path into the join" in msg
    assert "array(float32, 1d, C) on another" in msg and "out[0] = x[0]  # the line of the error" in msg


def test_an_array_given_another_rank_inside_a_loop_and_back_is_a_new_version():
    # numba-cuda's test_ssa issue 3931: each assignment is its own version
    @cuda.jit
    def k(out, arr, n):
        for _ in range(n):
            arr = arr.reshape(arr.size)
            arr[0] += 1.0
            arr = arr.reshape(3, 2)
        for i in range(arr.shape[0]):
            for j in range(arr.shape[1]):
                out[i, j] = arr[i, j]

    arr = RNG.random((3, 2))
    want = arr.copy()
    want[0, 0] += 4.0
    out = np.full((3, 2), np.nan)
    k[1, 1](out, arr, 4)
    np.testing.assert_array_equal(out, want)


def test_an_array_of_another_type_around_a_loop_is_a_located_error():
    @cuda.jit
    def k(out, a, c, n):
        x = a
        for _ in range(n):
            x = c
        out[0] = x[0]

    with pytest.raises(TypingError) as e:
        k[1, 1](np.zeros(1), RNG.random(2), RNG.random((2, 2)), 1)
    msg = str(e.value)
    assert "variable 'x' holds a array(float64, 2d, C) here and a array(float64, 1d, C) where the loop begins" in msg
    assert "for _ in range(n):" in msg


def test_a_record_rebound_in_a_branch_is_an_error_where_read_after_the_join():
    # records are references into their array and do not join (no stale read)
    rec = np.dtype([("x", np.float64), ("y", np.int32)], align=True)

    @cuda.jit
    def k(out, a, flag):
        r = a[0]
        if flag:
            r = a[1]
        out[0] = r.x

    @cuda.jit
    def k2(out, a, n):
        r = a[0]
        for i in range(n):
            out[i] = r.x  # the record before the loop, or the last iteration's
            r = a[i]

    a = np.zeros(2, rec)
    a["x"] = RNG.random(2)
    for kernel, line in ((k, "out[0] = r.x"), (k2, "out[i] = r.x")):
        with pytest.raises(TypingError) as e:
            kernel[1, 1](np.full(2, np.nan), a, 1)
        assert "variable 'r' holds different records on the paths that join" in str(e.value)
        assert line in str(e.value)


def test_an_array_assigned_on_one_path_only_is_an_error_where_read_after_the_join():
    @cuda.jit
    def k(out, a, flag):
        if flag:
            x = a
        out[0] = x[0]

    with pytest.raises(TypingError, match="variable 'x' is used before it is assigned"):
        k[1, 1](np.zeros(1), RNG.random(2), 1)


# cuda.device: the frontend's SSA construction makes the same block arguments
# (and canonicalize folds a two-way one into an arith.select of arrays).


@device.kernel
def device_branch_join(out, a, b, flag):
    i = device.tid(1)
    x = a
    if flag:
        x = b
    if i < out.size:
        out[i] = x[i]


@device.kernel
def device_select_join(out, a, b, flag):
    i = device.tid(1)
    x = a if flag else b
    if i < out.size:
        out[i] = x[i]


@device.kernel
def device_loop_swap(out, a, b, n):
    i = device.tid(1)
    x, y = a, b
    for _ in range(n):
        x, y = y, x
    if i < out.size:
        out[i] = x[i] - y[i]


@pytest.mark.parametrize("flag", [0, 1])
def test_cuda_device_arrays_joined_at_a_branch_and_a_conditional_expression(flag):
    a, b, _ = inputs(np.float32)
    for kernel, want in ((device_branch_join, b if flag else a), (device_select_join, a if flag else b)):
        out = pydev.to_device(np.full(N, np.nan, np.float32))
        device.launch(
            kernel, out, pydev.to_device(a), pydev.to_device(b), flag, grid=2, block=32, stream=pydev.default_stream()
        )
        np.testing.assert_array_equal(out.copy_to_host(), want)


@pytest.mark.parametrize("n", [0, 1, 4, 5])
def test_cuda_device_arrays_swapped_in_a_loop(n):
    a, b, _ = inputs(np.float32)
    out = pydev.to_device(np.full(N, np.nan, np.float32))
    device.launch(
        device_loop_swap,
        out,
        pydev.to_device(a),
        pydev.to_device(b),
        n,
        grid=2,
        block=32,
        stream=pydev.default_stream(),
    )
    np.testing.assert_array_equal(out.copy_to_host(), (b - a) if n % 2 else (a - b))


def test_cuda_device_joined_arrays_compile_to_ptx(tmp_path):
    sig = ["float32[:]", "float32[:]", "float32[:]", "int32"]
    for kernel in (device_branch_join, device_select_join, device_loop_swap):
        assembles(pydev.compile(kernel, sig, target="sm_90", stage="ptx"), tmp_path)


def test_cuda_device_arrays_of_different_types_joined_are_a_located_error():
    @device.kernel
    def k(out, a, b, flag):
        x = a
        if flag:
            x = b
        out[0] = x[0]

    with pytest.raises(pydev.CompileError, match=r"local 'x' is float64\[:\] on one path and float32\[:\] on another"):
        pydev.compile(k, ["float32[:]", "float32[:]", "float64[:]", "int32"], target="host", stage="llvm")
