"""Interoperability with C and C++ on the host (issue 17; docs/interop.md):
link= files, declared interop functions called from Python kernels with
the C ABI (numbers, structs by value both ways, vectors, tuples, array
descriptors), stage="object" linked into a C program, and the errors."""

import os
import shutil
import subprocess

import numpy as np
import pytest

import cuda.device as device
import pydev

from interop_kernels import FIXTURES

pytestmark = pytest.mark.usefixtures("native", "host_target")
RNG = np.random.default_rng(17)


def clang():
    try:
        from pydev import _host_link

        return _host_link.clang()
    except Exception:
        pytest.skip("no clang to build link= files for the host")


def run(k, *args, n):
    device.launch(k, *args, grid=1, block=n, stream=pydev.default_stream())


# --- declared functions called from Python kernels ----------------------------------------


def test_scalars():
    clang()
    import interop_kernels as ik

    n = 37
    xs = RNG.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    run(ik.scalars, out, xs, n=64)
    np.testing.assert_allclose(out, xs * 2 + np.arange(n), rtol=1e-6)


def test_structs_by_value_both_ways():
    clang()
    import interop_kernels as ik

    n = 16
    vs = np.zeros(n, ik.vec3.dtype)
    for f in "xyz":
        vs[f] = RNG.standard_normal(n)
    cs = np.zeros(n, ik.cplx16.dtype)
    cs["re"], cs["im"] = RNG.standard_normal(n), RNG.standard_normal(n)
    ps = np.zeros(n, ik.pair.dtype)
    ps["a"], ps["b"] = -999, np.nan
    v0, c0 = vs.copy(), cs.copy()
    run(ik.structs, vs, ps, cs, n=n)
    for f in "xyz":
        np.testing.assert_allclose(vs[f], v0[f] * 3, rtol=1e-6)
    i = np.arange(n)
    np.testing.assert_array_equal(ps["a"], np.where(i % 2 == 1, -i, i))
    np.testing.assert_array_equal(ps["b"], np.full(n, 3.0))
    # (re + i im) * i = -im + i re: a 16-byte aligned struct, both ways.
    np.testing.assert_allclose(cs["re"], -c0["im"], rtol=1e-6)
    np.testing.assert_allclose(cs["im"], c0["re"], rtol=1e-6)


def test_vectors_tuples_bool():
    clang()
    import interop_kernels as ik

    n = 9
    out4 = np.full((n, 4), np.nan, np.float32)
    outi = np.full(n, -7, np.int32)
    outf = np.full(n, np.nan, np.float32)
    odd = np.zeros(n, np.bool_)
    run(ik.vectors_tuples, out4, outi, outf, odd, n=n)
    i = np.arange(n, dtype=np.float32)
    np.testing.assert_allclose(out4, np.stack([i + 0.5, 2 * i + 0.25, 3 * i + 0.125, 4 * i + 1], axis=1))
    np.testing.assert_array_equal(outi, 2 * np.arange(n))
    np.testing.assert_allclose(outf, i + 0.5)
    np.testing.assert_array_equal(odd, np.arange(n) % 2 == 1)


def test_array_descriptor():
    clang()
    import interop_kernels as ik

    m = RNG.standard_normal((6, 10))
    view = m[:, ::3]  # strided: the descriptor carries element strides
    out = np.full(6, np.nan)
    run(ik.arrays, out, view, n=6)
    np.testing.assert_allclose(out, view.sum(axis=1))


# --- every host input kind -----------------------------------------------------------------


def _build_inputs(tmp_path):
    cc = clang()
    src = os.path.join(FIXTURES, "twice.c")
    out = {}
    out[".o"] = str(tmp_path / "twice.o")
    subprocess.run([cc, "-c", "-fPIC", "-O1", src, "-o", out[".o"]], check=True)
    out[".a"] = str(tmp_path / "libtwice.a")
    ar = shutil.which("ar") or shutil.which("llvm-ar-22") or "/usr/lib/llvm-22/bin/llvm-ar"
    subprocess.run([ar, "rcs", out[".a"], out[".o"]], check=True)
    out[".bc"] = str(tmp_path / "twice.bc")
    subprocess.run([cc, "-c", "-emit-llvm", "-O1", src, "-o", out[".bc"]], check=True)
    out[".ll"] = str(tmp_path / "twice.ll")
    subprocess.run([cc, "-S", "-emit-llvm", "-O1", src, "-o", out[".ll"]], check=True)
    out[".c"] = src
    return out


@pytest.mark.parametrize("suffix", [".c", ".o", ".a", ".bc", ".ll"])
def test_input_kinds(tmp_path, suffix):
    path = _build_inputs(tmp_path)[suffix]

    @device.func(interop=True, link=[path])
    def twice(x: device.int64) -> device.int64: ...

    @device.kernel
    def k(out):
        i = device.tid(1)
        if i < out.size:
            out[i] = twice(device.int64(i) + device.int64(1000000000000))

    out = np.full(5, -1, np.int64)
    run(k, out, n=5)
    np.testing.assert_array_equal(out, 2 * (np.arange(5) + 1000000000000))


def test_cpp_and_cu_sources():
    clang()
    cpp, cu = os.path.join(FIXTURES, "ops.cpp"), os.path.join(FIXTURES, "ops.cu")

    @device.func(interop=True, link=[cpp])
    def clampf(v: device.float32, lo: device.float32, hi: device.float32) -> device.float32: ...

    @device.func(interop=True, link=[cpp])
    def hypot_cpp(a: device.float64, b: device.float64) -> device.float64: ...

    @device.func(interop=True, link=[cu])
    def cu_apply(k: device.int32, x: device.int32) -> device.int32: ...

    @device.kernel
    def k(xs, c, h, a):
        i = device.tid(1)
        if i < xs.size:
            c[i] = clampf(xs[i], -0.5, 0.5)
            h[i] = hypot_cpp(device.float64(xs[i]), 2.0)
            a[i] = cu_apply(3, i)

    n = 20
    xs = RNG.standard_normal(n).astype(np.float32)
    c, h, a = np.full(n, np.nan, np.float32), np.full(n, np.nan), np.full(n, -1, np.int32)
    run(k, xs, c, h, a, n=n)
    np.testing.assert_array_equal(c, np.clip(xs, -0.5, 0.5))
    np.testing.assert_allclose(h, np.hypot(xs.astype(np.float64), 2.0))
    np.testing.assert_array_equal(a, 3 * np.arange(n) + 1)


def test_kernel_link_and_pathlike(tmp_path):
    """link= on the kernel (a PathLike) resolves a function declared without one."""
    import pathlib

    clang()
    src = tmp_path / "k.c"
    src.write_text("int mul3(int x) { return 3 * x; }\n")

    @device.func(interop=True)
    def mul3(x: device.int32) -> device.int32: ...

    @device.kernel(link=[pathlib.Path(src)])
    def k(out):
        i = device.tid(1)
        if i < out.size:
            out[i] = mul3(i)

    out = np.full(4, -1, np.int32)
    run(k, out, n=4)
    np.testing.assert_array_equal(out, 3 * np.arange(4))


def test_link_file_contents_are_in_the_cache_key(tmp_path, monkeypatch):
    clang()
    src = tmp_path / "v.c"
    src.write_text("int version(void) { return 1; }\n")

    def make():
        @device.func(interop=True, link=[str(src)])
        def version() -> device.int32: ...

        @device.kernel
        def k(out):
            out[0] = version()

        return k

    out = np.full(1, -1, np.int32)
    run(make(), out, n=1)
    assert out[0] == 1
    run(make(), out, n=1)  # same contents: from the disk cache
    src.write_text("int version(void) { return 2; }\n")
    before = pydev.stats()["compiles"]
    run(make(), out, n=1)
    assert out[0] == 2
    assert pydev.stats()["compiles"] == before + 1


# --- errors --------------------------------------------------------------------------------


def test_missing_file_names_the_decorator():
    with pytest.raises(FileNotFoundError) as e:

        @device.func(interop=True, link=["no_such_file.c"])
        def f(x: device.int32) -> device.int32: ...

    line = f"{__file__}:{test_missing_file_names_the_decorator.__code__.co_firstlineno + 3}"
    assert line in str(e.value) and "no_such_file.c" in str(e.value) and "'f'" in str(e.value)


def test_unsupported_suffix(tmp_path):
    p = tmp_path / "x.rs"
    p.write_text("")
    with pytest.raises(ValueError, match=r"test_interop.py:\d+: error: link file .*x.rs.* unsupported suffix '.rs'"):

        @device.kernel(link=[str(p)])
        def k(out): ...

    with pytest.raises(TypeError, match="must be a list of paths"):
        device.kernel(link=3)(lambda out: None)


def test_declaration_without_annotations():
    @device.func(interop=True, link=[os.path.join(FIXTURES, "ops.c")])
    def scale_add(x, s, k) -> device.float32: ...

    @device.kernel
    def k(out):
        out[0] = scale_add(1.0, 2.0, 3)

    with pytest.raises(
        pydev.CompileError,
        match=r"test_interop.py:\d+:\d+: error: parameter 'x' of the declared interoperable function 'scale_add' has no annotation",
    ):
        run(k, np.zeros(1, np.float32), n=1)


def test_type_that_cannot_cross():
    @device.func(interop=True, link=[os.path.join(FIXTURES, "ops.c")])
    def g(x: device.complex64) -> device.float32: ...

    @device.kernel
    def k(out):
        out[0] = g(1.0)

    with pytest.raises(
        pydev.CompileError, match="parameter 'x' of the declared interoperable function 'g' cannot cross the C ABI"
    ):
        run(k, np.zeros(1, np.float32), n=1)


def test_undefined_symbol_names_the_declaration():
    clang()

    @device.func(interop=True, link=[os.path.join(FIXTURES, "twice.c")])
    def not_in_any_file(x: device.int32) -> device.int32: ...

    @device.kernel
    def k(out):
        out[0] = not_in_any_file(1)

    with pytest.raises(pydev.CompileError) as e:
        run(k, np.zeros(1, np.int32), n=1)
    site = f"{__file__}:{test_undefined_symbol_names_the_declaration.__code__.co_firstlineno + 3}"
    assert (
        f"{site}: error: the interoperable function 'not_in_any_file' is declared here, but no linked file defines it (linked: twice.c)"
        in str(e.value)
    )


def test_duplicate_symbol():
    clang()

    @device.func(interop=True, link=[os.path.join(FIXTURES, "ops.c"), os.path.join(FIXTURES, "dup.c")])
    def scale_add(x: device.float32, s: device.float32, k: device.int32) -> device.float32: ...

    @device.kernel
    def k(out):
        out[0] = scale_add(1.0, 2.0, 3)

    with pytest.raises(pydev.CompileError, match="duplicate symbol 'scale_add' at link time"):
        run(k, np.zeros(1, np.float32), n=1)


def test_compile_error_in_a_link_file(tmp_path):
    clang()
    src = tmp_path / "bad.c"
    src.write_text("int broken(void) { return nope; }\n")

    @device.func(interop=True, link=[str(src)])
    def broken() -> device.int32: ...

    @device.kernel
    def k(out):
        out[0] = broken()

    with pytest.raises(pydev.CompileError, match=r"(?s)compiling .*bad.c for the host failed.*nope"):
        run(k, np.zeros(1, np.int32), n=1)


def test_cuda_files_on_the_host(tmp_path):
    p = tmp_path / "k.ptx"
    p.write_text("")

    @device.func(interop=True, link=[str(p)])
    def f(x: device.int32) -> device.int32: ...

    @device.kernel
    def k(out):
        out[0] = f(1)

    with pytest.raises(
        pydev.CompileError, match=r"link file .*k.ptx.* is cuda code \(.ptx\), which the host target cannot link"
    ):
        run(k, np.zeros(1, np.int32), n=1)


# --- Python from C: stage="object" ---------------------------------------------------------


def test_c_program_calls_python_through_an_object(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no system C compiler")
    clang()
    import interop_kernels as ik

    objs = []
    for fn, sig in ((ik.axpy, "float32, float32, float32"), (ik.vscale, "vec3, float32"), (ik.total, "float32[:]")):
        data = pydev.compile(fn, sig, target="host", stage="object")
        assert isinstance(data, bytes) and data[:4] == b"\x7fELF"
        p = tmp_path / f"{fn.__name__}.o"
        p.write_bytes(data)
        objs.append(str(p))
    exe = str(tmp_path / "call_python")
    subprocess.run([cc, "-o", exe, os.path.join(FIXTURES, "call_python.c"), *objs], check=True)
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()
    assert [float(x) for x in out] == [10.0, 3.0, -4.0, 6.5, 9.0]


def test_object_stage_with_boundscheck_on(monkeypatch):
    # PYDEV_BOUNDSCHECK=1 is a launch's switch: an object for C linkers has
    # no pydev runtime to report to, and compiles as without it (it failed
    # with "bounds checks on the host need pydev-lower-simt-host first").
    import interop_kernels as ik

    off = pydev.compile(ik.total, "float32[:]", target="host", stage="object")
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    on = pydev.compile(ik.total, "float32[:]", target="host", stage="object")
    assert on[:4] == b"\x7fELF" and on == off


def test_object_stage_is_the_hosts():
    import interop_kernels as ik

    with pytest.raises(ValueError, match="stage 'object' is the host's"):
        pydev.compile(ik.axpy, "float32, float32, float32", target="sm_90", stage="object")


# --- cuda (test_interop_cuda.py, test_interop_cuda_launch.py) ------------------------------


def test_declared_functions_are_called_in_nvccs_layout_on_cuda():
    """align= beyond the members (and 3-lane vectors): on cuda the call goes
    to the C++ symbol with nvcc's `.param`s (cplx16 as 16 bytes aligned 16,
    not LLVM's 8 aligned 4); the host calls through its C adapter
    (test_interop_cuda.py compares every prototype with NVRTC's)."""
    import interop_kernels as ik

    ptx = pydev.compile(ik.structs, "vec3[:], pair[:], cplx16[:]", target="sm_90", stage="ptx")
    assert ".extern .func  (.param .align 16 .b8 func_retval0[16]) cmul\n" in ptx and "__pydev_cabi_" not in ptx, ptx
    assert ".extern .func  (.param .align 4 .b8 func_retval0[12]) vmul" in ptx


def test_host_link_files_of_a_cuda_kernel_are_an_error():
    """A cuda kernel links its files with nvJitLink (test_interop_cuda_launch.py);
    host code among them is an error naming the file and the kernel."""
    src = os.path.join(FIXTURES, "twice.c")

    @device.kernel(link=[src])
    def k(out):
        out[0] = 1

    with pytest.raises(
        pydev.CompileError,
        match=r"link file '.*twice.c' of kernel 'k' is host code \(.c\), which the cuda target cannot link",
    ):
        k._build("int32[:]", "cuda", "sm_90", {}, k._program()[0])


def test_cu_with_host_device_functions():
    """test/interop/both.cu: the same __host__ __device__ C++ the cuda
    target links with NVRTC (test_interop_cuda.py), here with clang."""
    clang()
    import interop_kernels as ik

    n = 12
    xs, ys = RNG.standard_normal(n).astype(np.float32), RNG.standard_normal(n).astype(np.float32)
    vs, ws = np.zeros(n, ik.vec3.dtype), np.zeros(n, ik.vec3.dtype)
    for f in "xyz":
        vs[f], ws[f] = RNG.standard_normal(n), RNG.standard_normal(n)
    a = np.stack([vs[f] for f in "xyz"], axis=1)
    b = np.stack([ws[f] for f in "xyz"], axis=1)
    h, c = np.full(n, np.nan, np.float32), np.full(n, -1, np.int64)
    run(ik.uses_cpp, h, xs, ys, vs, ws, c, n=n)
    np.testing.assert_array_equal(h, np.hypot(xs, ys).astype(np.float16).astype(np.float32))
    np.testing.assert_allclose(np.stack([vs[f] for f in "xyz"], axis=1), np.cross(a, b), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(c, np.clip(np.arange(n) * 1000000000 - 5000000000, -2000000000, 3000000000))


def test_declarations_are_not_callable_in_host_python():
    import interop_kernels as ik

    with pytest.raises(
        pydev.DeviceOnlyError, match=r"'scale_add' is a declaration \(its body is \.\.\.\): linked code defines it"
    ):
        ik.scale_add(1.0, 2.0, 3)
    assert ik.axpy(2.0, 3.0, 4.0) == 10.0  # a defined interop function still runs as Python


def test_host_links_when_the_cache_directory_is_a_file(tmp_path, monkeypatch):
    # The library built from link= files goes to a private temporary
    # directory when the cache cannot hold it: one warning, the kernel runs.
    import warnings

    (tmp_path / "cache").write_text("not a directory")
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "cache"))
    from pydev import _cache

    from pydev import _host_link

    clang()
    monkeypatch.setattr(_cache, "_WARNED", set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        lib = _host_link.host_library([os.path.join(FIXTURES, "both.cu")])
    assert os.path.isfile(lib) and not lib.startswith(str(tmp_path))
    assert [str(w.message) for w in seen if "cache" in str(w.message)], "no warning about the cache"
