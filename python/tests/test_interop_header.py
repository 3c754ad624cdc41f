"""The C++ header of pydev types and interop functions (pydev.cxx_header,
pydevc --emit cxx-header; issue 17 item 3): clang compiles it (its
static_asserts state the dialect's sizeof/alignof/offsetof of every
aggregate), and a C++ program's own sizeof/offsetof of every aggregate kind
agree with the NumPy dtypes of the same structs; a C++ program using the
header calls Python interop functions through stage="object"."""

import os
import subprocess

import pytest

import pydev

pytestmark = pytest.mark.usefixtures("native", "host_target")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def clangxx():
    from pydev import _host_link

    try:
        return _host_link.clang()
    except Exception:
        pytest.skip("no clang")


def everything():
    import interop_header_kernels as hk

    return hk, [
        hk.Plain,
        hk.Padded,
        hk.Over,
        hk.Nested,
        hk.WithVectors,
        hk.WithAligned,
        hk.Halves,
        hk.takes_all,
        hk.tuples,
        hk.vectors,
        hk.arrays,
        hk.kern,
    ]


def test_header_compiles_with_its_static_asserts(tmp_path):
    cc = clangxx()
    _, objs = everything()
    h = pydev.cxx_header(*objs)
    assert h.count("static_assert(") > 60
    for decl in (
        'extern "C" PYDEV_INTEROP Nested takes_all(Plain p, Padded q, Nested n, WithVectors v, WithAligned w, Halves h);',
        'extern "C" __global__ void kern(cuda::interoperable_array_descriptor<float, 1> out, Plain s, int32_t n);',
        "struct alignas(16) Over {",
        "struct __anonymous_tuple_0 {\n  int8_t __0;\n  double __1;\n  int16_t __2;\n};",
    ):
        assert decl in h, decl
    p = tmp_path / "pydev.h"
    p.write_text(h)
    for std in ("c++17", "c++20"):
        subprocess.run(
            [cc, "-x", "c++", f"-std={std}", "-fsyntax-only", "-Werror", "-Wno-pragma-once-outside-header", str(p)],
            check=True,
        )


def test_a_wrong_layout_fails_to_compile(tmp_path):
    """The static_asserts bite: the same header with one offset off by 4."""
    cc = clangxx()
    hk, _ = everything()
    h = pydev.cxx_header(hk.Padded).replace("offsetof(Padded, b) == 8", "offsetof(Padded, b) == 4")
    p = tmp_path / "bad.h"
    p.write_text(h)
    r = subprocess.run(
        [cc, "-x", "c++", "-std=c++17", "-fsyntax-only", "-Wno-pragma-once-outside-header", str(p)],
        capture_output=True,
        text=True,
    )
    assert r.returncode != 0 and "offsetof(Padded, b)" in r.stderr


def test_clang_layouts_equal_numpy_dtypes(tmp_path):
    """Every struct kind: clang's sizeof/alignof/offsetof of the header's
    declarations equal the NumPy dtype of the Python class (the host layout
    pydev packs arguments with)."""
    cc = clangxx()
    hk, objs = everything()
    structs = [hk.Plain, hk.Padded, hk.Over, hk.Nested, hk.WithVectors, hk.WithAligned, hk.Halves]
    lines = ['#include "pydev.h"', "#include <cstdio>", "int main() {"]
    for s in structs:
        lines.append(f'  std::printf("{s.__name__} %zu %zu\\n", sizeof({s.__name__}), alignof({s.__name__}));')
        for f in s.dtype.names:
            lines.append(f'  std::printf("{s.__name__}.{f} %zu\\n", offsetof({s.__name__}, {f}));')
    lines += ["}"]
    (tmp_path / "pydev.h").write_text(pydev.cxx_header(*objs))
    (tmp_path / "m.cpp").write_text("\n".join(lines) + "\n")
    exe = str(tmp_path / "m")
    subprocess.run([cc, "-x", "c++", "-std=c++17", str(tmp_path / "m.cpp"), "-o", exe, "-lstdc++"], check=True)
    got = dict(
        line.rsplit(" ", 1) if "." in line.split()[0] else (line.split()[0], line.split(" ", 1)[1])
        for line in subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines()
    )
    for s in structs:
        assert got[s.__name__] == f"{s.dtype.itemsize} {s._alignment}", s.__name__
        for f in s.dtype.names:
            assert int(got[f"{s.__name__}.{f}"]) == s.dtype.fields[f][1], (s.__name__, f)


def test_pydevc_emits_the_header():
    pydevc = os.path.join(ROOT, "target", "debug", "pydevc")
    if not os.path.exists(pydevc):
        pytest.skip("pydevc is not built (make build)")
    src = os.path.join(HERE, "interop_header_kernels.py")
    out = subprocess.run([pydevc, src, "--emit", "cxx-header"], capture_output=True, text=True, check=True).stdout
    assert "struct Nested {" in out and 'extern "C" PYDEV_INTEROP int32_t arrays(' in out
    assert "// 'unannotated' (" in out and "parameter 'a' of 'unannotated' has no annotation" in out
    assert "not_interop" not in out
    one = subprocess.run(
        [pydevc, src, "--emit", "cxx-header", "--kernel", "Over"], capture_output=True, text=True, check=True
    ).stdout
    assert "struct alignas(16) Over {" in one and "Nested" not in one


def test_header_errors():
    hk, _ = everything()
    with pytest.raises(TypeError, match="'not_interop' is not interoperable"):
        pydev.cxx_header(hk.not_interop)
    with pytest.raises(
        pydev.CompileError,
        match=r"interop_header_kernels.py:\d+: error: parameter 'a' of 'unannotated' has no annotation",
    ):
        pydev.cxx_header(hk.unannotated)
    with pytest.raises(TypeError, match="takes @device.struct classes"):
        pydev.cxx_header(3)


def test_cpp_calls_python_with_the_header(tmp_path):
    """C++ including the generated header calls Python interop functions
    (a struct by value both ways, an array descriptor) in an object file."""
    cc = clangxx()
    import interop_kernels as ik

    (tmp_path / "pydev.h").write_text(pydev.cxx_header(ik.vec3, ik.vscale, ik.total, ik.axpy))
    (tmp_path / "main.cpp").write_text(
        '#include "pydev.h"\n#include <cstdio>\n'
        "int main() {\n"
        "  vec3 w = vscale(vec3{1.0f, 2.0f, -3.0f}, 0.5f);\n"
        "  float d[4] = {1, 2, 4, 8};\n"
        "  cuda::interoperable_array_descriptor<float, 1> a{d, {4}, {1}};\n"
        '  std::printf("%g %g %g %g %g\\n", w.x, w.y, w.z, total(a), axpy(1.0f, 2.0f, 3.0f));\n'
        "}\n"
    )
    objs = []
    for fn, sig in ((ik.vscale, "vec3, float32"), (ik.total, "float32[:]"), (ik.axpy, "float32, float32, float32")):
        p = tmp_path / f"{fn.__name__}.o"
        p.write_bytes(pydev.compile(fn, sig, target="host", stage="object"))
        objs.append(str(p))
    exe = str(tmp_path / "main")
    subprocess.run(
        [cc, "-x", "c++", "-std=c++17", str(tmp_path / "main.cpp"), "-x", "none", *objs, "-o", exe, "-lstdc++"],
        check=True,
    )
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()
    assert [float(x) for x in out] == [0.5, 1.0, -1.5, 15.0, 5.0]


def test_shims_name_types_as_the_header():
    """The C ABI shims (host adapters, cuda adapters, stage="object") take
    their C++ type names and definitions from the header generator
    (runtime/src/cxx_header.rs through the native module): each function's
    prototype in the shims' terms is the header's, and every definition the
    shims write is the header's."""
    import re

    import interop_header_kernels as hk
    import interop_kernels as ik
    from pydev import _c_types

    fns = [
        hk.tuples,
        hk.vectors,
        hk.arrays,
        ik.vmul,
        ik.mkpair,
        ik.cmul,
        ik.v4add,
        ik.swapish,
        ik.row_sum,
        ik.cross3,
        ik.nest,
        ik.vdot3,
        ik.cmul_cu,
    ]
    for f in fns:
        params, result = _c_types.annotations(f.underlying)
        decls, [(cparams, cres)] = _c_types.cxx_signatures([(params, result)])
        header = pydev.cxx_header(f)
        proto = f'extern "C" PYDEV_INTEROP {cres} {f.__name__}({", ".join(f"{c} {n}" for c, (n, _) in zip(cparams, params))});'
        assert proto in header, (proto, header)
        for d in re.findall(r"^struct [^;]*?\{.*?^\};", decls, re.S | re.M):
            assert d in header, (d, header)
