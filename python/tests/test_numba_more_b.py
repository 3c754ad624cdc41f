"""pydev.numba: specialized kernels passing arrays of another dtype, vote
validation, negative range steps in enumerate/zip, overload keywords, SSA
versions of a rebound variable (issue 31)."""

import enum
import re
import warnings

import numpy as np
import pytest

import pydev
from pydev.numba import cuda
from pydev.numba.core.errors import TypingError
from pydev.numba.extending import overload

RNG = np.random.default_rng(1031)


def test_specialized_kernel_reinterprets_an_array_of_the_same_itemsize():
    @cuda.jit("void(int32[:])")
    def dec(a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] -= 1

    a = RNG.integers(1, 2**31, size=64, dtype=np.uint32)
    want = a - 1
    dec[2, 32](a)
    np.testing.assert_array_equal(a, want)  # the buffer itself, as Numba passes its pointer
    with pytest.raises(TypeError, match="No matching definition"):
        dec[1, 32](np.ones(64, np.float64))  # another itemsize

    @cuda.jit(["void(int32[:])"])  # a list of signatures: matched, not specialized
    def dec2(a):
        a[0] -= 1

    with pytest.raises(TypeError, match="No matching definition"):
        dec2[1, 1](np.ones(4, np.uint32))


def test_vote_sync_validates_mask_and_predicate_types():
    def k(mask, pred, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = cuda.all_sync(mask[i], pred[i])

    for sig, msg in (
        ("void(float32[:], int32[:], int32[:])", "Mask type must be an integer"),
        ("void(boolean[:], int32[:], int32[:])", "Mask type must be an integer"),
        ("void(int32[:], float64[:], int32[:])", "Predicate must be an integer or boolean"),
    ):
        with pytest.raises(pydev.CompileError, match=msg):
            cuda.jit(sig)(k)
    ok = cuda.jit("void(uint32[:], boolean[:], int32[:])")(k)
    out = np.full(32, -7, np.int32)
    ok[1, 32](np.full(32, 0xFFFFFFFF, np.uint32), np.ones(32, np.bool_), out)
    np.testing.assert_array_equal(out, 1)


def test_enumerate_and_zip_of_a_range_with_a_negative_step():
    @cuda.jit
    def k(out, x, y):
        r = 0
        for i, j in enumerate(range(x, y, -1)):
            r += (i + 1) * j
        s = 0
        for a, b in zip(range(x, y, -3), range(y, x)):
            s += a * 7 + b
        out[0] = r
        out[1] = s

    for _ in range(4):
        x, y = int(RNG.integers(-20, 40)), int(RNG.integers(-30, 20))
        out = np.full(2, -999, np.int64)
        k[1, 1](out, x, y)
        r = sum((i + 1) * j for i, j in enumerate(range(x, y, -1)))
        s = sum(a * 7 + b for a, b in zip(range(x, y, -3), range(y, x)))
        assert tuple(out) == (r, s), (x, y)


def _kw_stub():
    pass


@overload(_kw_stub)
def _ol_kw_stub(out, x, y=5, z=6):
    def impl(out, x, y=5, z=6):
        out[0], out[1] = x + y, z

    return impl


def test_overload_keywords_and_defaults_fold_against_the_implementation():
    @cuda.jit
    def k(a, b, out):
        _kw_stub(out, a, z=b)

    @cuda.jit
    def k2(a, b, out):
        _kw_stub(out, a, y=b)

    a, b = (int(v) for v in RNG.integers(-100, 100, size=2))
    out = np.full(2, -999, np.int64)
    k[1, 1](a, b, out)
    assert tuple(out) == (a + 5, b)
    out[:] = -999
    k2[1, 1](a, b, out)
    assert tuple(out) == (a + b, 6)


class _NotDeviceCode:
    def __call__(self, *args):
        return args


_not_device_code = _NotDeviceCode()


def test_a_call_of_an_untypable_global_reads_numbas_words_before_the_return_error():
    @cuda.jit
    def k(a):
        return _not_device_code(a)

    with pytest.raises(pydev.CompileError, match="Untyped global name '_not_device_code'"):
        k[1, 1](np.zeros(2))


def test_a_variable_rebound_to_another_type_on_every_path_is_a_new_version():
    @cuda.jit(device=True)
    def first(b):
        b = b[0]  # a tuple parameter becomes its first item
        return b * 2

    @cuda.jit
    def k(out, a, t):
        out[0] = first(t)
        a2 = a  # a 2-d array ...
        a2 = a2.reshape(a.size)  # ... rebound to a 1-d view of it
        out[1] = a2[a.size - 1]

    a = RNG.random((3, 4))
    out = np.full(2, np.nan)
    v = float(RNG.integers(1, 50))
    k[1, 1](out, a, (v, 1.0))
    assert out[0] == 2 * v and out[1] == a[2, 3]

    @cuda.jit
    def on_one_path(out, n):
        x = n
        if n > 0:
            x = (1, 2)  # noqa: F841 - the join cannot unify an integer and a tuple
        out[0] = 1

    with pytest.raises(pydev.CompileError, match="variable 'x' is assigned a UniTuple"):
        on_one_path[1, 1](np.zeros(1), 3)


def test_records_recarrays_match_and_packed_records_are_refused_when_compiled():
    from pydev.numba import from_dtype

    rec_dtype = np.dtype([("a", "int32"), ("b", "float64")], align=True)

    @cuda.jit((from_dtype(rec_dtype)[:],))
    def k(a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i].a = a[i].b

    r = np.recarray(5, dtype=rec_dtype)  # its dtype is numpy.record's: the same record
    r.a = -7
    r.b = RNG.integers(1, 1000, size=5)
    k[1, 8](r)
    np.testing.assert_array_equal(r.a, r.b)

    packed = from_dtype(np.dtype([("a", "int32"), ("b", "float64")]))  # a type, as Numba's from_dtype makes
    with pytest.raises(Exception, match="type float64 is not aligned"):

        @cuda.jit((packed[:],))
        def k2(a):
            a[0].a = a[0].b


def test_local_and_shared_arrays_take_numba_cudas_alignment():
    @cuda.jit
    def k(x, out):
        s = cuda.shared.array(16, dtype=np.float32, alignment=256)
        loc = cuda.local.array((2, 3), dtype=np.int32, alignment=64)
        i = cuda.threadIdx.x
        s[i] = x[i]
        loc[1, i % 3] = i
        cuda.syncthreads()
        out[i] = s[15 - i] + loc[1, i % 3]

    x = RNG.random(16).astype(np.float32)
    out = np.full(16, np.nan, np.float32)
    k[1, 16](x, out)
    np.testing.assert_allclose(out, x[::-1] + np.arange(16, dtype=np.float32), rtol=1e-6)
    llvm = k.inspect_llvm()
    llvm = "\n".join(llvm.values()) if isinstance(llvm, dict) else llvm
    assert re.search(r"addrspace\(3\) global .*align 256", llvm) and re.search(r"alloca .*align 64", llvm)

    def bad(alignment):
        @cuda.jit
        def b(out):
            loc = cuda.local.array(4, dtype=np.uint8, alignment=alignment)
            loc[0] = 1
            out[0] = loc[0]

        return b

    for a, err, msg in (
        (0, ValueError, "Alignment must be positive"),
        (24, ValueError, "Alignment must be a power of 2"),
        (4, ValueError, "Alignment must be a multiple of 8"),
        (1.0, TypingError, "alignment must be a constant integer"),
    ):
        with pytest.raises(err, match=msg):
            bad(a)[1, 1](np.zeros(1))


def test_an_array_rebound_on_one_path_is_the_joined_array_after_the_join():
    @cuda.jit
    def k(out, a, b, flag):
        x = a
        if flag:
            x = b  # a block argument of array type at the join
        out[0] = x[0]

    a, b = RNG.random(2), RNG.random(2)
    for flag, want in ((1, b[0]), (0, a[0])):
        out = np.full(1, np.nan)
        k[1, 1](out, a, b, flag)
        assert out[0] == want

    @cuda.jit
    def k2(out, a, b, flag):
        x = a
        if flag:
            x = b
            out[1] = x[0]  # read on its own path
        out[0] = a[0]

    out = np.full(2, np.nan)
    k2[1, 1](out, a, b, 1)
    assert out[0] == a[0] and out[1] == b[0]


def test_a_launch_of_fewer_than_128_blocks_warns_as_numba_cuda(monkeypatch):
    from pydev.numba.core import config
    from pydev.numba.core.errors import NumbaPerformanceWarning

    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] += 1

    a = RNG.random(64)
    want = a + 1
    monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", 1)
    monkeypatch.setattr(config, "DISABLE_PERFORMANCE_WARNINGS", 0)
    # When the configuration is made; the same configuration again, from the
    # dispatcher's cache, does not warn again (docs/numba.md); another does.
    with pytest.warns(NumbaPerformanceWarning, match="Grid size 2 will likely result in GPU under-utilization"):
        k[2, 32](a)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaPerformanceWarning)
        k[2, 32](a)
    with pytest.warns(NumbaPerformanceWarning, match="Grid size 3 will likely result in GPU under-utilization"):
        k[3, 32](a[:1])
    want[:1] += 1
    np.testing.assert_array_equal(a, want + 1)
    monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaPerformanceWarning)
        k[2, 32](a)
        monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", 1)
        k[128, 1](a[:1])  # 128 blocks: no warning


def test_a_read_of_an_unassigned_variable_warns_when_asked(monkeypatch):
    from pydev.numba.core import config
    from pydev.numba.core.errors import NumbaWarning

    @cuda.jit
    def k(out, n):
        if n:
            if n > 0:
                c = 3
            out[0] = c
        else:
            c += 1  # c is not assigned on this path: it reads zero, as in Numba
            out[0] = c

    out = np.full(1, -7)
    monkeypatch.setattr(config, "ALWAYS_WARN_UNINIT_VAR", 1)
    with pytest.warns(NumbaWarning, match="Detected uninitialized variable c"):
        k[1, 1](out, 0)
    assert out[0] == 1
    monkeypatch.setattr(config, "ALWAYS_WARN_UNINIT_VAR", 0)

    @cuda.jit
    def k2(out, n):
        if n:
            if n > 0:
                c = 3
            out[0] = c
        else:
            c += 1
            out[0] = c

    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaWarning)
        k2[1, 1](out, 1)
    assert out[0] == 3


class _Color(enum.Enum):
    red = 1
    green = 2


class _Shape(enum.IntEnum):
    circle = 1
    square = 2


class _Signed(enum.IntEnum):
    minus = -1
    plus = 1


def test_enum_members_are_kernel_arguments():
    # Compile-time constants of the kernel (one compile per member): ==, is
    # and .value as Python gives them; an IntEnum is not its int for `is`.
    def f(a, b, out):
        out[0] = a == b
        out[1] = a != b
        out[2] = a is b
        out[3] = a is not b

    k = cuda.jit(f)
    pairs = [
        (_Color.red, _Color.red),
        (_Color.red, _Color.green),
        (_Shape.circle, _Signed.plus),
        (_Shape.square, _Shape.circle),
    ]
    for a, b in pairs:
        got = np.array([True, False, True, False]) ^ RNG.integers(0, 2, 4).astype(bool)  # poisoned
        want = np.zeros(4, np.bool_)
        k[1, 1](a, b, got)
        f(a, b, want)
        np.testing.assert_array_equal(got, want, err_msg=f"{a!r} vs {b!r}")

    @cuda.jit
    def value(a, out):
        out[0] = a.value * 10

    out = np.full(1, -1, np.int64)
    value[1, 1](_Signed.minus, out)
    assert out[0] == -10


def test_signatures_of_a_lazily_compiled_kernel_are_those_it_compiled():
    @cuda.jit
    def k(a):
        a[0] = 1

    assert k.signatures == []
    k[1, 1](np.zeros(2, np.float32))
    k[1, 1](np.zeros(2, np.int64))
    assert [tuple(map(str, s.args)) for s in k.signatures] == [
        ("array(float32, 1d, C)",),
        ("array(int64, 1d, C)",),
    ]
    given = cuda.jit("void(float64[::1])")(k.py_func)
    assert [tuple(map(str, s.args)) for s in given.signatures] == [("array(float64, 1d, C)",)]  # as given
