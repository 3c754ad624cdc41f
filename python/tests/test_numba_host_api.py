"""The host API of a Numba-CUDA driver program (issue 31, item 4) and the
`cuda` namespace's type names, with numba-cuda 0.30's signatures:
`copy_to_host(ary, stream)`, `copy_to_device`, `to_device(to=)`, array
layouts, host-side indexing and views, pinned and mapped memory, events,
`Stream.auto_synchronize`, `Dispatcher.configure`, devices and contexts,
`__version__`, `is_cuda_array`.

Runs on the host target; PYDEV_NUMBA_TEST_TARGET=cuda runs it on a GPU.
The cuda paths that need no GPU run under the fake CUDA driver."""

import os

import numpy as np
import pytest

import pydev
import pydev.numba
from pydev.numba import cuda, float64, int32, types
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

SEED = 20261128
TARGET = os.environ.get("PYDEV_NUMBA_TEST_TARGET", "host")
host_only = pytest.mark.skipif(TARGET != "host", reason="a host-target test")
cuda_only = pytest.mark.skipif(TARGET != "cuda", reason="needs a GPU (PYDEV_NUMBA_TEST_TARGET=cuda)")


@pytest.fixture(autouse=True)
def _target(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", TARGET)


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


@cuda.jit
def scale(x, out, k):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * k


@cuda.jit
def fill_rows(a, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        for j in range(a.shape[1]):
            a[i, j] = v + i * 100 + j


# --- copy_to_host(ary=None, stream=0) --------------------------------------------------------


def test_copy_to_host_into_an_array_fills_and_returns_it(rng):
    x = rng.standard_normal((6, 5))
    d = cuda.to_device(x)
    h = np.full((6, 5), np.nan)
    r = d.copy_to_host(h)
    assert r is h
    np.testing.assert_array_equal(h, x)
    s = cuda.stream()
    h2 = np.full_like(x, np.nan)
    assert d.copy_to_host(h2, s) is h2  # Numba's positional (ary, stream)
    s.synchronize()
    np.testing.assert_array_equal(h2, x)
    h3 = np.full_like(x, np.nan)
    assert d.copy_to_host(ary=h3, stream=0) is h3
    np.testing.assert_array_equal(h3, x)
    h4 = np.full((6, 1, 5), np.nan)  # Numba's rule: shapes equal up to dimensions of extent 1
    d.copy_to_host(h4)
    np.testing.assert_array_equal(h4[:, 0, :], x)
    big = np.full((6, 10), np.nan)  # into a strided view: only its elements are written
    assert d.copy_to_host(big[:, ::2]).base is big
    np.testing.assert_array_equal(big[:, ::2], x)
    assert np.isnan(big[:, 1::2]).all()
    hf = np.full((5, 6), np.nan).T  # into a Fortran-ordered array
    d.copy_to_host(hf)
    np.testing.assert_array_equal(hf, x)


def test_copy_to_host_without_an_array_is_a_new_array(rng):
    x = rng.standard_normal(50).astype(np.float32)
    d = cuda.to_device(x)
    a, b = d.copy_to_host(), d.copy_to_host(stream=cuda.stream())
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, x)
    assert a is not b and not np.shares_memory(a, b)
    a[:] = np.nan  # a new array: the device array keeps its contents
    np.testing.assert_array_equal(d.copy_to_host(), x)
    # pydev's own positional stream (copy_to_host(stream)) is still the stream
    np.testing.assert_array_equal(d.copy_to_host(pydev.default_stream()), x)
    np.testing.assert_array_equal(pydev.to_device(x).copy_to_host(), x)


def test_copy_to_host_mismatches_name_both_arrays(rng):
    d = cuda.to_device(rng.standard_normal((3, 4)))
    with pytest.raises(ValueError, match=r"incompatible shape: the device array's \(3, 4\) vs. the array's \(4, 3\)"):
        d.copy_to_host(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="incompatible dtype: the device array's float64 vs. the array's float32"):
        d.copy_to_host(np.zeros((3, 4), np.float32))
    with pytest.raises(TypeError, match="incompatible dtype"):  # Numba's TypeError too
        d.copy_to_host(np.zeros((3, 4), np.int64))
    ro = np.zeros((3, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        d.copy_to_host(ro)
    with pytest.raises(TypeError, match="ary must be a NumPy array"):
        d.copy_to_host([0.0] * 12)


# --- copy_to_device, to_device(to=), layouts --------------------------------------------------


def test_copy_to_device_and_to_device_to(rng):
    x, y = rng.standard_normal(40), rng.standard_normal(40)
    d = cuda.device_array(40)
    assert d.copy_to_device(x) is None
    np.testing.assert_array_equal(d.copy_to_host(), x)
    d.copy_to_device(cuda.to_device(y), stream=cuda.stream())  # device to device
    cuda.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), y)
    assert cuda.to_device(x, to=d) is d
    np.testing.assert_array_equal(d.copy_to_host(), x)
    with pytest.raises(ValueError, match=r"copy_to_device: incompatible shape: the device array's \(40,\)"):
        d.copy_to_device(np.zeros(39))
    with pytest.raises(ValueError, match="copy_to_device: incompatible dtype"):
        d.copy_to_device(np.zeros(40, np.float32))
    u = cuda.to_device(x, copy=False)  # Numba's: allocated like x, not copied
    assert isinstance(u, pydev.DeviceArray) and u.shape == x.shape and u.dtype == x.dtype


def test_device_array_orders_and_strides(rng):
    f = cuda.device_array((3, 4), np.float32, order="F")
    assert f.shape == (3, 4) and f.strides == (4, 12) and f.is_f_contiguous() and not f.is_c_contiguous()
    c = cuda.device_array((3, 4), np.float32, strides=(16, 4))
    assert c.strides == (16, 4) and c.is_c_contiguous()
    g = cuda.device_array((2, 3, 4), np.int16, strides=(2, 16, 4))  # compact, axes (1, 2, 0)
    assert g.strides == (2, 16, 4)
    with pytest.raises(NotImplementedError, match=r"device_array\(strides=\(32, 4\)\).*not those of a compact"):
        cuda.device_array((3, 4), np.float32, strides=(32, 4))
    with pytest.raises(ValueError, match="order must be 'C' or 'F'"):
        cuda.device_array(4, order="K")
    x = np.asfortranarray(rng.standard_normal((5, 7)))
    like = cuda.device_array_like(x)
    assert like.strides == x.strides and like.is_f_contiguous()
    # an F-ordered device array is a kernel argument that kernels write in place
    fill_rows[1, 32](f, np.float32(0.5))
    cuda.synchronize()
    want = 0.5 + np.arange(3)[:, None] * 100 + np.arange(4)[None, :]
    np.testing.assert_array_equal(f.copy_to_host(), want.astype(np.float32))
    d = cuda.to_device(x)
    assert d.strides == x.strides
    h = np.full((5, 7), np.nan)
    np.testing.assert_array_equal(d.copy_to_host(h), x)


# --- host-side indexing and views -------------------------------------------------------------


def test_indexing_gives_views_that_share_memory(rng):
    x = rng.standard_normal((4, 6))
    d = cuda.to_device(x)
    row = d[2]
    assert isinstance(row, pydev.DeviceArray) and row.shape == (6,)
    np.testing.assert_array_equal(row.copy_to_host(), x[2])
    e = d[1, 3]
    assert isinstance(e, np.floating) and e == x[1, 3]
    assert d[-1, -1] == x[-1, -1]
    np.testing.assert_array_equal(d[:, 1:5:2].copy_to_host(), x[:, 1:5:2])
    np.testing.assert_array_equal(d[::-1, 0].copy_to_host(), x[::-1, 0])
    np.testing.assert_array_equal(d[..., 2].copy_to_host(), x[..., 2])
    np.testing.assert_array_equal(d[None, 1].copy_to_host(), x[None, 1])
    # a kernel writing a view writes the base
    scale[1, 32](d[1], d[3], 3.0)
    cuda.synchronize()
    want = x.copy()
    want[3] = x[1] * 3.0
    np.testing.assert_array_equal(d.copy_to_host(), want)
    with pytest.raises(TypeError, match="basic indices"):
        d[[0, 1]]
    with pytest.raises(IndexError):
        d[4]


def test_setitem_writes_the_elements_indexed(rng):
    x = rng.standard_normal((5, 4))
    d = cuda.to_device(x)
    want = x.copy()
    d[1] = -1.0
    want[1] = -1.0
    d[2:4, 1:3] = np.array([[10.0, 11.0], [12.0, 13.0]])
    want[2:4, 1:3] = [[10.0, 11.0], [12.0, 13.0]]
    d[:, 0] = np.arange(5)  # a strided view, cast
    want[:, 0] = np.arange(5)
    d[4, 3] = 7
    want[4, 3] = 7
    d[0] = cuda.to_device(np.full(4, 2.5))  # from a device array
    want[0] = 2.5
    np.testing.assert_array_equal(d.copy_to_host(), want)
    v = d[::2]
    v[:] = 0.25  # through a view
    want[::2] = 0.25
    np.testing.assert_array_equal(d.copy_to_host(), want)


def test_split_reshape_ravel_transpose(rng):
    x = rng.standard_normal(10)
    d = cuda.to_device(x)
    parts = list(d.split(4))
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    for i, p in enumerate(parts):
        np.testing.assert_array_equal(p.copy_to_host(), x[4 * i : 4 * i + 4])
    parts[2][:] = np.nan
    assert np.isnan(d.copy_to_host()[8:]).all() and not np.isnan(d.copy_to_host()[:8]).any()
    d.copy_to_device(x)
    m = d.reshape(2, 5)
    assert m.shape == (2, 5) and m.is_c_contiguous()
    np.testing.assert_array_equal(m.copy_to_host(), x.reshape(2, 5))
    np.testing.assert_array_equal(d.reshape((5, 2), order="F").copy_to_host(), x.reshape((5, 2), order="F"))
    m[1, 0] = 99.0  # shares memory with d
    assert d[5] == 99.0
    np.testing.assert_array_equal(m.ravel().copy_to_host(), d.copy_to_host())
    t = m.T
    assert t.shape == (5, 2) and t.is_f_contiguous()
    np.testing.assert_array_equal(t.copy_to_host(), m.copy_to_host().T)
    np.testing.assert_array_equal(t.ravel(order="F").copy_to_host(), m.copy_to_host().ravel())
    with pytest.raises(NotImplementedError, match="requires copying"):
        t.ravel()
    with pytest.raises(ValueError, match="only 1-d arrays split"):
        next(m.split(2))
    with pytest.raises(ValueError, match="unit stride"):
        next(d[::2].split(2))
    assert m.flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": False}
    np.testing.assert_array_equal(d.reshape(1, 10, 1).squeeze().copy_to_host(), d.copy_to_host())


# --- pinned and mapped memory, events, streams, configure -------------------------------------


def test_pinned_and_mapped(rng):
    x = rng.standard_normal(64)
    out = np.full(64, np.nan)
    with cuda.pinned(x, out):
        d = cuda.to_device(x)
        scale[2, 32](d, d, 2.0)
        d.copy_to_host(out)
    np.testing.assert_array_equal(out, x * 2.0)
    with pytest.raises(TypeError, match="cuda.pinned: argument 0 must be a NumPy array"):
        with cuda.pinned([1.0]):
            pass
    a, b = rng.standard_normal(48), np.full(48, np.nan)
    with cuda.mapped(a, b) as (ma, mb):
        scale[2, 32](ma, mb, -1.5)
        cuda.synchronize()
    np.testing.assert_array_equal(b, a * -1.5)
    with cuda.mapped(b) as mb:
        scale[2, 32](mb, mb, 2.0)
        cuda.synchronize()
    np.testing.assert_array_equal(b, a * -3.0)


def test_events_time_the_work_between_them(rng):
    x = cuda.to_device(rng.standard_normal(1 << 12))
    s = cuda.stream()
    start, end = cuda.event(), cuda.event(timing=True)
    start.record(s)
    scale[16, 256, s](x, x, 1.5)
    end.record(s)
    end.synchronize()
    assert end.query() and start.query()
    ms = start.elapsed_time(end)
    assert ms >= 0.0 and ms == pytest.approx(cuda.event_elapsed_time(start, end))
    start.wait(cuda.stream())
    untimed = cuda.event(timing=False)
    untimed.record()
    with pytest.raises(ValueError, match="timing=False"):
        start.elapsed_time(untimed)
    if TARGET == "host":
        with pytest.raises(ValueError, match="has not been recorded"):
            cuda.event().elapsed_time(end)


def test_auto_synchronize_and_configure(rng):
    x = rng.standard_normal(300)
    out = cuda.device_array(300)
    s = cuda.stream()
    with s.auto_synchronize() as same:
        assert same is s
        launcher = scale.configure(10, 32, s)
        launcher(cuda.to_device(x, stream=s), out, 4.0)
    np.testing.assert_array_equal(out.copy_to_host(), x * 4.0)
    scale.configure((10,), (32,), stream=0, sharedmem=0)(cuda.to_device(x), out, -2.0)
    cuda.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), x * -2.0)
    assert scale.configure(10, 32) is scale[10, 32, 0, 0]  # the same launcher
    with cuda.default_stream().auto_synchronize():
        pass


# --- devices, contexts, version, is_cuda_array -----------------------------------------------


def test_devices_and_contexts():
    d = cuda.get_current_device()
    for name in ("MAX_THREADS_PER_BLOCK", "MULTIPROCESSOR_COUNT", "WARP_SIZE", "MAX_SHARED_MEMORY_PER_BLOCK"):
        assert isinstance(getattr(d, name), int) and getattr(d, name) > 0, name
    assert d.WARP_SIZE == 32 and d.MAX_THREADS_PER_BLOCK == 1024
    assert isinstance(d.name, str) and isinstance(d.compute_capability, tuple)
    assert d.COMPUTE_CAPABILITY_MAJOR == d.compute_capability[0]
    with pytest.raises(AttributeError, match="NO_SUCH_ATTRIBUTE"):
        d.NO_SUCH_ATTRIBUTE
    info = cuda.current_context().get_memory_info()
    assert info.total > 0 and 0 < info.free <= info.total and info == (info.free, info.total)
    assert len(cuda.gpus) >= 1 and cuda.gpus[0].id == 0 and cuda.gpus.current.id == d.id
    with cuda.gpus[0] as g:
        assert g.MAX_THREADS_PER_BLOCK == 1024 and cuda.to_device(np.ones(3)).shape == (3,)
    assert [g.id for g in cuda.gpus] == list(range(len(cuda.gpus)))
    with pytest.raises(IndexError, match="cuda.gpus"):
        cuda.gpus[len(cuda.gpus)]


@host_only
def test_host_target_device_values():
    d = cuda.get_current_device()
    assert (d.id, d.name, d.compute_capability) == (0, "pydev host target (CPU)", (9, 0))
    assert d.MULTIPROCESSOR_COUNT == (os.cpu_count() or 1)
    assert (d.MAX_BLOCK_DIM_X, d.MAX_BLOCK_DIM_Z, d.MAX_GRID_DIM_X) == (1024, 64, 2**31 - 1)
    assert d.MAX_SHARED_MEMORY_PER_BLOCK == 48 * 1024 and d.CONCURRENT_KERNELS == 0
    assert len(cuda.gpus) == 1 and [x.id for x in cuda.list_devices()] == [0]


def test_version_and_is_cuda_array(rng):
    v = pydev.numba.__version__
    assert tuple(map(int, v.split("."))) >= (0, 60, 0)
    x = rng.standard_normal(5)
    d = cuda.to_device(x)
    assert cuda.is_cuda_array(d) and cuda.is_cuda_array(d[1:3]) and cuda.is_cuda_array(cuda.device_array(2))
    assert not cuda.is_cuda_array(x) and not cuda.is_cuda_array([1.0])
    assert cuda.as_cuda_array(d) is d
    with pytest.raises(TypeError, match="as_cuda_array"):
        cuda.as_cuda_array(x)


# --- the cuda namespace's type names -----------------------------------------------------------


def test_type_names_in_the_cuda_namespace():
    assert cuda.int32 is int32 and cuda.float64 is float64 and cuda.types is types
    assert cuda.void is types.void and cuda.float32 is types.float32 and cuda.boolean is types.boolean
    assert cuda.float32x4.__name__ == "float32x4" and cuda.float4 is cuda.float32x4
    assert cuda.double2 is cuda.float64x2 and cuda.uint3 is cuda.uint32x3 and cuda.int1 is cuda.int32x1
    assert "float4" in cuda.float32x4.aliases
    for name in ("int8x1", "uint64x4", "float64x3", "char2", "ulonglong4"):
        assert hasattr(cuda, name), name
    with pytest.raises(NotImplementedError, match="cuda.float32x4 is not instantiable"):
        cuda.float32x4(1, 2, 3, 4)

    @cuda.jit
    def uses_vectors(a):
        v = cuda.float32x2(a[0], a[1])
        a[0] = v.x

    a = np.array([2.5, 4.0], np.float32)  # device code builds them (test_numba_lang2.py)
    uses_vectors[1, 1](a)
    assert a[0] == 2.5


def test_signature_strings_with_cuda_type_names(rng):
    @cuda.jit("void(float64[::1], float64[::1], float64)")
    def axpy(x, out, k):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = k * x[i] + out[i]

    x, y = rng.standard_normal(70), rng.standard_normal(70)
    d = cuda.to_device(y)
    axpy[3, 32](cuda.to_device(x), d, 2.0)
    h = np.full(70, np.nan)
    np.testing.assert_allclose(d.copy_to_host(h), 2.0 * x + y, rtol=1e-15)


def test_a_tuple_of_types_is_one_signature_and_a_list_holds_several(rng):
    # Numba's rule: cuda.jit((float64[:], float64)) is one signature of
    # argument types; cuda.jit([sig, sig]) a list of signatures.
    def body(x, k):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = x[i] * k

    one = cuda.jit((types.float64[::1], types.float64))(body)
    assert [list(s.args) for s in one.signatures] == [[types.float64[::1], types.float64]]
    x = rng.standard_normal(40)
    d = cuda.to_device(x)
    one[2, 32](d, 3.0)
    np.testing.assert_array_equal(d.copy_to_host(np.full(40, np.nan)), x * 3.0)
    many = cuda.jit([(types.float64[::1], types.float64), (types.int32[::1], types.int32)])(body)
    assert len(many.signatures) == 2
    n = rng.integers(-50, 50, 40, dtype=np.int32)
    dn = cuda.to_device(n)
    many[2, 32](dn, np.int32(-2))
    np.testing.assert_array_equal(dn.copy_to_host(), n * -2)


def test_numba_type_classes_name_themselves_and_the_number_domains():
    class MyType(types.Type):
        def __init__(self):
            super().__init__(name="MyType")

    assert MyType().name == "MyType" and str(MyType()) == "MyType"
    assert types.int32 in types.signed_domain and types.uint8 in types.unsigned_domain
    assert types.integer_domain == types.signed_domain | types.unsigned_domain
    assert types.float32 in types.real_domain and types.complex64 in types.complex_domain
    assert types.number_domain >= types.real_domain | types.integer_domain | types.complex_domain
    assert types.int32 not in types.real_domain and types.boolean not in types.number_domain


def test_array_like_allocations_of_device_arrays_keep_their_order(rng):
    f = cuda.device_array((3, 5), np.float64, order="F")
    for like in (cuda.pinned_array_like, cuda.mapped_array_like, cuda.device_array_like):
        a = like(f)
        assert a.shape == (3, 5) and a.dtype == np.float64
        assert a.strides == (8, 24), like.__name__
    c = cuda.to_device(rng.standard_normal((3, 5)))
    assert cuda.pinned_array_like(c).strides == (40, 8)


# --- cuda.vectorize --------------------------------------------------------------------------


def test_vectorize_broadcasts_converts_and_keeps_the_argument_kind(rng):
    @cuda.vectorize(["int32(int32, int32)", "float32(float32, float32)", "float64(float64, float64)"])
    def axpb(a, b):
        return 2 * a + b

    x = rng.standard_normal((3, 5)).astype(np.float32)
    y = rng.standard_normal(5).astype(np.float32)
    r = axpb(x, y)  # NumPy in, NumPy out, broadcast, the float32 signature
    assert isinstance(r, np.ndarray) and r.dtype == np.float32 and r.shape == (3, 5)
    np.testing.assert_array_equal(r, (np.float32(2) * x + y).astype(np.float32))
    i = rng.integers(-100, 100, 7, dtype=np.int32)
    np.testing.assert_array_equal(axpb(i, 3), 2 * i + 3)  # a Python int next to int32: int32
    assert axpb(i, 3).dtype == np.int32
    assert axpb(1.5, 2.25) == 5.25  # numbers alone: float64, a scalar result
    d = cuda.to_device(x)
    rd = axpb(d, x)  # a device array in: a device array out
    assert isinstance(rd, pydev.DeviceArray)
    np.testing.assert_array_equal(rd.copy_to_host(), np.float32(2) * x + x)
    out = cuda.device_array((3, 5), np.float32)
    assert axpb(d, d, out=out) is out
    np.testing.assert_array_equal(out.copy_to_host(), np.float32(3) * x)
    hout = np.full((3, 5), np.nan, np.float32)
    assert axpb(x, y, out=hout) is hout
    np.testing.assert_array_equal(hout, np.float32(2) * x + y)
    with pytest.raises(TypeError, match="no signature of"):
        axpb(x.astype(np.complex64), y)


def test_vectorize_reduce_and_its_errors(rng):
    @cuda.vectorize(["int64(int64, int64)", "float64(float64, float64)"])
    def add(a, b):
        return a + b

    for n in (1, 2, 7, 100, 1025):
        v = rng.integers(-1000, 1000, n)
        assert add.reduce(v) == v.sum()
        assert add.reduce(cuda.to_device(v)) == v.sum()
    with pytest.raises(KeyError, match="Unrecognized options"):
        cuda.vectorize(["int64(int64)"], nonexistent=1)
    with pytest.raises(NotImplementedError, match="cuda.vectorize without signatures"):
        cuda.vectorize(lambda a: a)


def test_guvectorize_loops_over_the_leading_dimensions(rng):
    @cuda.guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)")
    def matmul(a, b, c):
        m, n = a.shape
        p = b.shape[1]
        for i in range(m):
            for j in range(p):
                s = 0.0
                for k in range(n):
                    s += a[i, k] * b[k, j]
                c[i, j] = s

    a, b = rng.standard_normal((4, 5, 2, 3)), rng.standard_normal((3, 6))
    c = matmul(a, b)  # b broadcast over the loop dimensions (4, 5)
    assert isinstance(c, np.ndarray) and c.shape == (4, 5, 2, 6)
    np.testing.assert_allclose(c, a @ b, rtol=1e-13)
    dc = matmul(cuda.to_device(a), b)
    assert isinstance(dc, pydev.DeviceArray)
    np.testing.assert_allclose(dc.copy_to_host(), a @ b, rtol=1e-13)
    out = np.full((4, 5, 2, 6), np.nan)
    assert matmul(a, b, out) is out
    np.testing.assert_allclose(out, a @ b, rtol=1e-13)

    @cuda.guvectorize(["void(int64[:], int64, int64[:], int64[:])"], "(n),()->(),(n)")
    def sum_and_shift(x, k, total, shifted):
        s = 0
        for i in range(x.size):
            s += x[i]
            shifted[i] = x[i] + k
        total[0] = s

    x = rng.integers(-100, 100, (7, 9))
    total, shifted = sum_and_shift(x, 5)
    np.testing.assert_array_equal(total, x.sum(axis=1))
    np.testing.assert_array_equal(shifted, x + 5)
    with pytest.raises(TypeError, match="gufunc accepts 2 positional arguments"):
        sum_and_shift(x)
    with pytest.raises(TypeError, match="cannot return values"):
        cuda.guvectorize(["int64(int64[:], int64[:])"], "(n)->(n)")(lambda x, y: 0)


# --- the cuda target under the fake CUDA driver -----------------------------------------------


@host_only
def test_cuda_target_host_api_under_the_fake_driver(fake_driver, tmp_path):
    """Views, copies into arrays, layouts, events and device attributes on
    the cuda target reach the driver as they should (the fake driver keeps
    device memory in host memory, so contents are checked too)."""
    from test_numba import _under_fake_driver

    code = """
import numpy as np, pytest, fakecuda, pydev
from pydev.numba import cuda
assert pydev.active_target() == "cuda"
rng = np.random.default_rng(7)
x = rng.standard_normal((4, 6))
d = cuda.to_device(x)
h = np.full((4, 6), np.nan)
assert d.copy_to_host(h) is h and (h == x).all()
assert d[1, 2] == x[1, 2] and (d[2].copy_to_host() == x[2]).all()
assert (d[:, 1:5:2].copy_to_host() == x[:, 1:5:2]).all() and (d[::-1, 3].copy_to_host() == x[::-1, 3]).all()
row = d[3]
assert row._ptr == d._ptr + 3 * 6 * 8 and row._base is d
want = x.copy()
d[1] = -1.0; want[1] = -1.0
d[:, 0] = np.arange(4); want[:, 0] = np.arange(4)  # strided: read, replace, write back
d[2:4, 2:4] = [[1, 2], [3, 4]]; want[2:4, 2:4] = [[1, 2], [3, 4]]
assert (d.copy_to_host() == want).all()
flat = d.reshape(24)
assert flat._ptr == d._ptr and (flat.copy_to_host() == want.ravel()).all()
parts = list(flat.split(10))
assert [p.shape for p in parts] == [(10,), (10,), (4,)] and parts[1]._ptr == d._ptr + 80
t = d.T
assert t.is_f_contiguous() and (t.copy_to_host() == want.T).all() and t.__cuda_array_interface__["strides"] == (8, 48)
f = cuda.device_array((3, 4), np.float32, order="F")
f.copy_to_device(np.arange(12, dtype=np.float32).reshape(3, 4))
assert (f.copy_to_host() == np.arange(12).reshape(3, 4)).all() and f.strides == (4, 12)
del d, flat, parts, row, t
e0, e1 = cuda.event(), cuda.event()
e0.record(); e1.record(cuda.stream()); e1.synchronize()
assert e0.elapsed_time(e1) == 1.0 and e1.query()  # the fake driver's elapsed time
dev = cuda.get_current_device()
assert dev.COMPUTE_CAPABILITY_MAJOR == 9 and dev.compute_capability == (9, 0)
assert len(cuda.gpus) == 2 and cuda.gpus[1].compute_capability == (8, 0)
with cuda.gpus[1]:
    assert cuda.get_current_device().id == 1
assert cuda.get_current_device().id == 0
assert cuda.is_cuda_array(cuda.device_array(3))
with pytest.raises(NotImplementedError, match="cuda.pinned: this CUDA driver has no cuMemHostRegister_v2"):
    with cuda.pinned(np.ones(4)):
        pass
print("fake ok")
"""
    assert "fake ok" in _under_fake_driver(fake_driver, tmp_path, code)


# --- what pydev.numba cannot honour is refused by name ----------------------------------------


def test_calls_that_cannot_be_honoured_name_themselves(rng):
    with pytest.raises(NotImplementedError, match="device function 'scale': parameter type array"):
        cuda.compile_ptx(scale.py_func, "void(float64[::1], float64[::1], float64)", device=True)
    with pytest.raises(NotImplementedError, match="abi='fortran'"):
        cuda.compile_ptx(scale.py_func, "void(float64[::1], float64[::1], float64)", abi="fortran")
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such_option'"):
        cuda.compile_ptx(scale.py_func, "void(float64[::1], float64[::1], float64)", no_such_option=1)
    with pytest.raises(NotImplementedError, match=r"cuda.pinned_array\(..., strides=...\)"):
        cuda.pinned_array((2, 2), strides=(16, 8))
    with pytest.raises(NotImplementedError, match="wc=True"):
        cuda.mapped_array(4, wc=True)
    if TARGET == "host":
        with pytest.raises(NotImplementedError, match="cuda.external_stream"):
            cuda.external_stream(0)
    # Numba's end-of-program calls work and leave pydev usable
    d = cuda.to_device(rng.standard_normal(8))
    with cuda.defer_cleanup():
        scale[1, 32](d, d, 2.0)
    cuda.close()
    assert np.isfinite(d.copy_to_host()).all()


def test_a_numba_driver_program_with_streams_split_and_events(rng):
    """The pattern of Numba-CUDA's stream examples, unchanged: the data
    split across streams, each part copied in, computed and copied back
    into a preallocated array on its stream, timed by events."""
    n, parts = 1000, 4
    x = rng.standard_normal(n)
    out = np.full(n, np.nan)
    d_x, d_out = cuda.to_device(x), cuda.device_array_like(x)
    streams = [cuda.stream() for _ in range(parts)]
    start, end = cuda.event(), cuda.event()
    start.record()
    chunk = n // parts
    for s, dx, dout, hx, hout in zip(
        streams, d_x.split(chunk), d_out.split(chunk), np.split(x, parts), np.split(out, parts)
    ):
        dx.copy_to_device(hx, stream=s)
        scale[(chunk + 63) // 64, 64, s](dx, dout, 0.5)
        dout.copy_to_host(hout, stream=s)
    for s in streams:
        s.synchronize()
    end.record()
    end.synchronize()
    np.testing.assert_array_equal(out, x * 0.5)
    assert cuda.event_elapsed_time(start, end) >= 0.0


def test_launch_configurations_are_checked_when_made():
    @cuda.jit
    def noop(x):
        pass

    with pytest.raises(ValueError, match=r"griddim must be a sequence of 1, 2 or 3 integers, got \[1, 2, 3, 4\]"):
        noop[(1, 2, 3, 4), 5]
    with pytest.raises(ValueError, match=r"blockdim must be a sequence of 1, 2 or 3 integers, got \[\]"):
        noop[1, ()]
    with pytest.raises(TypeError, match=r"griddim must be a sequence of integers, got \[2.0\]"):
        noop[2.0, 3]
    with pytest.raises(TypeError, match=r"blockdim must be a sequence of integers, got \[3, 'a'\]"):
        noop[2, (3, "a")]
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        noop(0)
    launcher = noop[np.int64(2), (3, 1)]
    assert (launcher.griddim, launcher.blockdim) == ((2, 1, 1), (3, 1, 1))  # Numba's 3-tuples
    launcher(np.zeros(1))
