"""numba-cuda's dispatcher objects and the rest of its host API on pydev.numba
(issue 31): `kernel.extensions` and `cuda.In`/`Out`/`InOut`
(`numba.cuda.args`), `specialize`/`specializations`, the resource queries
(`get_regs_per_thread` ...), `shared_memory_carveout=`, named tuples and
records indexed by field name as kernel arguments, tuples as ufunc
arguments, `managed_array`, `cuda.devicearray`, `alloc_size`, and the CUDA
Array Interface entry points (`as_cuda_array`, `from_cuda_array_interface`)
with the host target's rule (its arrays are not CUDA Array Interface
arrays: docs/numba.md).

Host target, seeded random inputs, NaN-poisoned outputs; the cuda paths
that need no GPU run under the fake CUDA driver."""

import collections

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, int32, int64, types, void
from pydev.numba._cuda import _kernel_info
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

SEED = 20261128

Point = collections.namedtuple("Point", ("x", "y", "z"))
Pair = collections.namedtuple("Pair", ("n", "w"))


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def needs_ptxas():
    from pydev import _toolchain

    if not _toolchain.ptxas("sm_90"):
        pytest.skip("no ptxas (the nvidia-cuda-nvcc wheel): the host target's resource figures are ptxas's")


@cuda.jit
def add_one(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] + 1
        a[i] = -7  # an input the kernel also writes: In must keep the host's copy


# --- cuda.In / Out / InOut and kernel.extensions -----------------------------------------------


def test_in_out_inout_hints_move_data_as_numba_says(rng):
    x = rng.standard_normal(37)
    keep = x.copy()
    out = np.full(37, np.nan)
    add_one[1, 64](cuda.In(x), cuda.Out(out))
    assert np.array_equal(x, keep)  # In: the kernel's writes stay on the device
    assert np.array_equal(out, keep + 1)  # Out: copied back
    y = rng.standard_normal(37)
    y0 = y.copy()
    out2 = np.full(37, np.nan)
    add_one[1, 64](cuda.InOut(y), out2)
    assert (y == -7).all() and np.array_equal(out2, y0 + 1)  # InOut: the kernel's writes come back
    assert cuda.args.wrap_arg(x) is not x and isinstance(cuda.args.wrap_arg(x), cuda.InOut)
    h = cuda.In(x)
    assert cuda.args.wrap_arg(h) is h and isinstance(cuda.args.wrap_arg(x, default=cuda.In), cuda.In)
    assert h._numba_type_ == types.float64[::1]


class Recorder:
    """An argument handler: records what it sees and turns every NumPy
    array into cuda.In (no copy back), as numba-cuda's test handler does."""

    def __init__(self):
        self.seen = []

    def prepare_args(self, ty, val, stream=None, retr=None):
        self.seen.append((ty, type(val).__name__, isinstance(retr, list)))
        return ty, cuda.args.wrap_arg(val, default=cuda.In)


def test_extensions_prepare_every_argument_last_to_first(rng):
    k = cuda.jit(add_one.py_func)
    x = rng.standard_normal(20)
    keep = x.copy()
    out = np.full(20, np.nan)
    k[1, 32](x, out)  # before the handler: both copied back (on host: written in place)
    assert (x == -7).all()
    first, second = Recorder(), Recorder()
    k.extensions.append(first)
    k.extensions.append(second)
    x[:] = keep
    out[:] = np.nan
    k[1, 32](x, out)
    assert np.array_equal(x, keep) and np.isnan(out).all()  # both went In: nothing came back
    # the last handler sees the raw values, the first the hints it made
    assert [s[:2] for s in second.seen] == [(types.float64[::1], "ndarray"), (types.float64[::1], "ndarray")]
    assert [s[1] for s in first.seen] == ["In", "In"] and all(s[2] for s in first.seen)
    k.extensions = []
    k[1, 32](x, out)
    assert np.array_equal(out, keep + 1)


def test_records_by_field_name_and_record_hints():
    rt = np.dtype([("b", np.int32), ("c", np.float64)], align=True)

    @cuda.jit
    def set_b(rec):
        rec[0]["b"] = 3
        rec[0]["c"] = rec[0]["c"] * 2 + rec[0]["b"]

    for hint, changed in ((cuda.In, False), (cuda.InOut, True), (lambda r: r, True)):
        r = np.zeros(1, dtype=rt)
        r[0]["c"] = 1.5
        set_b[1, 1](hint(r))
        assert (r[0]["b"], r[0]["c"]) == ((3, 6.0) if changed else (0, 1.5))


# --- specialize, specializations ---------------------------------------------------------------


def test_specialize_caches_per_types_and_refuses_twice(rng):
    @cuda.jit
    def f(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * 3

    assert len(f.specializations) == 0 and not f.specialized
    s32 = f.specialize(float32[::1], float32[::1])
    assert s32.specialized and len(f.specializations) == 1
    assert f.specialize(float32[::1], float32[::1]) is s32
    x = rng.standard_normal(9).astype(np.float32)
    s64 = f.specialize(x.astype(np.float64), x.astype(np.float64))  # example values
    assert s64 is not s32 and len(f.specializations) == 2
    out = np.full(9, np.nan, np.float32)
    s32[1, 16](x, out)
    assert np.array_equal(out, x * 3)
    with pytest.raises(TypeError):
        s32[1, 16](x.astype(np.float64), out.astype(np.float64))  # compiles nothing else
    with pytest.raises(RuntimeError, match="already specialized"):
        s32.specialize(float32[::1], float32[::1])
    one = cuda.jit(void(int32[::1], int32[::1]))(f.py_func)
    assert one.specialized
    with pytest.raises(RuntimeError, match="already specialized"):
        one.specialize(int32[::1], int32[::1])
    assert not cuda.jit([void(int32[::1], int32[::1])])(f.py_func).specialized


# --- resource queries --------------------------------------------------------------------------


def test_ptxas_figures_are_read_per_entry():
    text = (
        "ptxas info    : 6 bytes gmem\n"
        "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
        "ptxas info    : Function properties for other\n"
        "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0], 24 bytes cmem[2]\n"
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "ptxas info    : Function properties for k\n"
        "    4000 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 25 registers, used 1 barriers, 400 bytes smem, 368 bytes cmem[0], 8 bytes cmem[3]\n"
    )
    got = _kernel_info.parse_ptxas_info(text, "k")
    assert got == {
        "regs_per_thread": 25,
        "shared_mem_per_block": 400,
        "local_mem_per_thread": 4000,
        "const_mem_size": 8,
    }
    with pytest.raises(RuntimeError, match="'absent'"):
        _kernel_info.parse_ptxas_info(text, "absent")


N_SHARED = 96


@cuda.jit
def through_shared(ary):
    sm = cuda.shared.array(N_SHARED, dtype=ary.dtype)
    i = cuda.grid(1)
    sm[N_SHARED - 1 - i] = ary[i]
    cuda.syncthreads()  # read another thread's element: the array stays in shared memory
    ary[i] = sm[i]


def test_resource_queries_on_the_host_target(rng):
    needs_ptxas()
    for dt in (np.float32, np.float64):
        a = rng.standard_normal(N_SHARED).astype(dt)
        want = a[::-1].copy()
        through_shared[1, N_SHARED](a)
        assert np.array_equal(a, want)
    s32, s64 = (void(t[::1]) for t in (float32, float64))
    assert through_shared.get_shared_mem_per_block(s32) == N_SHARED * 4
    assert through_shared.get_shared_mem_per_block(s64) == N_SHARED * 8
    regs = through_shared.get_regs_per_thread()
    assert set(regs) == {s32.args, s64.args} and all(isinstance(r, int) and r > 0 for r in regs.values())
    assert regs[s32.args] == through_shared.get_regs_per_thread(s32)
    assert through_shared.get_max_threads_per_block(s32) == cuda.get_current_device().MAX_THREADS_PER_BLOCK
    assert through_shared.get_const_mem_size(s32) >= 0

    @cuda.jit(void(float32[::1], int64))
    def local(ary, k):
        lm = cuda.local.array(500, dtype=float32)
        for j in range(500):
            lm[j] = ary[j] * j
        ary[0] = lm[k]  # a run-time index: the array stays in local memory

    assert local.get_local_mem_per_thread() >= 500 * 4  # specialized: one figure
    with pytest.raises(KeyError):
        local.get_regs_per_thread(void(float64[::1], int64))


# --- shared_memory_carveout --------------------------------------------------------------------


@pytest.mark.parametrize("carveout", ["MaxL1", "maxshared", "default", 0, 50, 100, -1])
def test_shared_memory_carveout_values_run_on_host(carveout, rng):
    k = cuda.jit(shared_memory_carveout=carveout)(add_one.py_func)
    x = rng.standard_normal(10)
    out = np.full(10, np.nan)
    k[1, 16](x.copy(), out)
    assert np.array_equal(out, x + 1)


@pytest.mark.parametrize(
    "carveout, exc, msg",
    [
        (150, ValueError, "between -1 and 100"),
        (-2, ValueError, "between -1 and 100"),
        ("Big", ValueError, "Invalid carveout"),
        (1.5, TypeError, "str or int"),
    ],
)
def test_shared_memory_carveout_bad_values(carveout, exc, msg):
    with pytest.raises(exc, match=msg):
        cuda.jit("void(int32[:])", shared_memory_carveout=carveout)(lambda x: None)


# --- tuples and named tuples ------------------------------------------------------------------


def test_named_tuples_keep_their_fields_in_kernels(rng):
    @cuda.jit
    def use(p, q, out):
        out[0] = p.x * 100 + p.y * 10 + p.z
        out[1] = q.n * q.w
        out[2] = p[1]

    v = rng.integers(1, 9, 3)
    p = Point(*(int(t) for t in v))
    q = Pair(int(v[0]), float(rng.standard_normal()))
    out = np.full(3, np.nan)
    use[1, 1](p, q, out)
    assert list(out) == [p.x * 100 + p.y * 10 + p.z, q.n * q.w, p.y]
    assert types.typeof(p) == types.NamedUniTuple(types.int64, 3, Point) and str(types.typeof(p)) == "Point(int64 x 3)"
    assert isinstance(types.typeof(q), types.NamedTuple) and types.typeof(q) != types.typeof((1, 2.0))
    assert types.typeof(p) != types.typeof(tuple(p))  # another type: another overload


def test_a_plain_tuple_has_no_field_names():
    @cuda.jit
    def bad(p, out):
        out[0] = p.x

    with pytest.raises(pydev.CompileError, match="has no attribute 'x'"):
        bad[1, 1]((1, 2, 3), np.zeros(1))


def test_ufuncs_take_tuples_named_tuples_and_tuples_of_arrays(rng):
    @cuda.vectorize(["float64(float64, float64)", "int32(int32, int32)"])
    def vadd(a, b):
        return a + b

    @cuda.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)")
    def gadd(a, b, out):
        for i in range(a.size):
            out[i] = a[i] + b[i]

    f = rng.standard_normal(6)
    arr = rng.integers(-50, 50, 10).astype(np.int32)
    cases = [
        (tuple(f[:3]), tuple(f[3:])),
        (Point(*f[:3]), Point(*f[3:])),
        ((arr, arr + 1), (arr + 2, arr + 2)),
        ((Point(*f[:3]), Point(*f[3:])), (Point(*f[3:]), Point(*f[:3]))),
    ]
    for a, b in cases:
        assert np.array_equal(vadd(a, b), np.asarray(a) + np.asarray(b))
    for a, b in cases[:2] + cases[3:]:
        assert np.array_equal(gadd(a, b), np.asarray(a) + np.asarray(b))


# --- managed memory, cuda.devicearray, alloc_size ---------------------------------------------


def test_managed_array_on_the_host_target_is_written_in_place(rng):
    m = cuda.managed_array((3, 5), np.float64, order="F")
    assert isinstance(m, np.ndarray) and m.flags.f_contiguous
    m[:] = np.nan
    v = float(rng.standard_normal())

    @cuda.jit
    def fill(a, v):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = v + i * 10 + j

    fill[1, (4, 8)](m, v)
    assert np.array_equal(m, v + np.arange(3)[:, None] * 10 + np.arange(5))
    with pytest.raises(NotImplementedError, match="strides"):
        cuda.managed_array(4, strides=(8,))


def test_devicearray_module(rng):
    x = rng.standard_normal((4, 3))
    d, converted = cuda.devicearray.auto_device(x)
    assert converted and isinstance(d, cuda.devicearray.DeviceNDArray) and np.array_equal(d.copy_to_host(), x)
    assert cuda.devicearray.auto_device(d) == (d, False)
    with pytest.raises(ValueError, match="non-contiguous"):
        cuda.devicearray.auto_device(np.arange(10.0)[::2])
    c, _ = cuda.devicearray.auto_device(2)
    assert c.copy_to_host() == np.array(2)
    f = cuda.devicearray.from_array_like(np.asfortranarray(x))
    assert f.shape == x.shape and f.is_f_contiguous() and cuda.devicearray.is_cuda_ndarray(f)
    assert not cuda.devicearray.is_cuda_ndarray(x)


def test_alloc_size_is_the_span_of_a_view(rng):
    d = cuda.to_device(rng.standard_normal((6, 5)))
    assert d.alloc_size == d.nbytes == 240
    assert d[::2].alloc_size == (4 * 5 + 5) * 8  # rows 0, 2, 4
    assert d[:, 1].alloc_size == (5 * 5 + 1) * 8
    assert d[::-1, ::-2].alloc_size == (5 * 5 + 4 + 1) * 8 and d[::2, ::2].alloc_size == (4 * 5 + 4 + 1) * 8
    assert d[2:2].alloc_size == 0


# --- the CUDA Array Interface and the rest --------------------------------------------------


def test_host_arrays_are_not_cuda_array_interface_arrays(rng):
    d = cuda.to_device(rng.standard_normal(8))
    assert cuda.is_cuda_array(d) and cuda.as_cuda_array(d) is d
    assert not hasattr(d, "__cuda_array_interface__") and not cuda.is_cuda_array(np.zeros(3))
    desc = {"shape": (8,), "typestr": "<f8", "data": (d.__array_interface__["data"][0], False), "version": 3}
    with pytest.raises(ValueError, match="host target cannot read"):
        cuda.from_cuda_array_interface(desc)
    with pytest.raises(NotImplementedError, match="Masked arrays are not supported"):
        cuda.from_cuda_array_interface(dict(desc, mask=d))
    with pytest.raises(ValueError, match="typestr"):
        cuda.from_cuda_array_interface(dict(desc, typestr="<x9"))
    with pytest.raises(TypeError, match="cuda array interface|__cuda_array_interface__"):
        cuda.as_cuda_array([1, 2])


def test_what_pydev_numba_cannot_honour_is_named():
    with pytest.raises(NotImplementedError, match="set_memory_manager"):
        cuda.set_memory_manager(object)
    with pytest.raises(NotImplementedError, match="external_stream"):
        cuda.external_stream(0x1234)

    @cuda.jit(device=True)
    def dev(x):
        return x

    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        dev.inspect_sass((int32,))


def test_cuda_target_array_interface_views_under_the_fake_driver(fake_driver, tmp_path):
    """On cuda `as_cuda_array` of a foreign CUDA Array Interface object is a
    pydev.DeviceArray over its memory (no copy) that keeps it alive, and
    `from_cuda_array_interface` waits for the dict's stream."""
    from test_numba import _under_fake_driver

    code = """
import numpy as np, pytest, fakecuda, pydev
from pydev.numba import cuda
assert pydev.active_target() == "cuda"
rng = np.random.default_rng(11)
x = rng.standard_normal((5, 4))
d = cuda.to_device(x)

class Foreign:
    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__

f = Foreign(d[:, 1:3])
v = cuda.as_cuda_array(f)
assert isinstance(v, pydev.DeviceArray) and v.shape == (5, 2)
assert v.__cuda_array_interface__["data"][0] == d.__cuda_array_interface__["data"][0] + 8
del f  # the view holds the foreign object
assert np.array_equal(v.copy_to_host(), x[:, 1:3])
v[0] = -1.0
assert (d.copy_to_host()[0, 1:3] == -1.0).all()
s = cuda.stream()
w = cuda.from_cuda_array_interface(dict(d.__cuda_array_interface__, stream=s.handle), owner=d)
assert int(w.stream.handle) == int(s.handle)
with pytest.raises(NotImplementedError, match="Masked"):
    cuda.from_cuda_array_interface(dict(d.__cuda_array_interface__, mask=d))
with pytest.raises(NotImplementedError, match="cuMemAllocManaged"):
    cuda.managed_array(4)  # the fake driver has no managed memory
from test_numba_host_api2 import add_one  # a kernel with its source in a file

add_one[1, 8](cuda.to_device(np.zeros(4)), cuda.device_array(4))
# On cuda the figures are the driver's, of the kernel's cubin loaded for the
# question: the fake driver loads it and has no cuFuncGetAttribute to ask.
with pytest.raises(NotImplementedError, match="cuFuncGetAttribute"):
    add_one.get_regs_per_thread()
print("fake ok")
"""
    assert "fake ok" in _under_fake_driver(fake_driver, tmp_path, code)


# --- device arrays captured from globals and closures ----------------------------------------

CAPTURED = None  # set by the test: a device array the kernels below read and write by name


@cuda.jit(device=True)
def _read_captured(i):
    return CAPTURED[i] * 2


@cuda.jit
def _use_captured(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = _read_captured(i) + CAPTURED[i]
        CAPTURED[i] = -i  # captured by reference: the kernel writes the array


def test_device_arrays_from_globals_and_closures_are_captured_by_reference(rng):
    global CAPTURED
    host = rng.standard_normal(13).astype(np.float32)
    CAPTURED = cuda.to_device(host)
    out = cuda.device_array(13, np.float32)
    out[:] = np.nan
    _use_captured[1, 16](out)
    assert np.allclose(out.copy_to_host(), host * 3) and np.array_equal(CAPTURED.copy_to_host(), -np.arange(13))
    grid = cuda.to_device(rng.standard_normal((3, 4)))

    def make():
        @cuda.jit
        def k(o):
            i, j = cuda.grid(2)
            if i < o.shape[0] and j < o.shape[1]:
                o[i, j] = grid[i, j] + grid[2 - i, 3 - j]

        return k

    o = np.full((3, 4), np.nan)
    make()[1, (4, 4)](o)
    g = grid.copy_to_host()
    assert np.array_equal(o, g + g[::-1, ::-1])


def test_gufunc_casts_host_inputs_to_the_signature_as_numba_does(rng):
    @cuda.guvectorize(["void(int32, int32[:], int32[:])"], "(),(t)->(t)")
    def scale(a, b, out):
        for i in range(b.size):
            out[i] = a * b[i]

    b = rng.integers(-100, 100, 10).astype(np.int32)
    assert np.array_equal(scale(np.int64(3), b), 3 * b)  # an int64 scalar cast to the int32 parameter
    with pytest.raises(TypeError, match=r"does not support \.astype\(\)"):
        scale(cuda.to_device(np.array(3, np.int64)), b)  # a device array is not cast
