"""A C program calling Python: interop functions written in Python are
compiled to a relocatable object (pydev.compile(..., target="host",
stage="object")), linked into a C program by the system C compiler, and
called with the C calling convention: numbers, a struct by value and array
descriptors {data, shape[ndim], strides[ndim] (in elements)}
(docs/interop.md, "Calling Python from C and C++").

Skips (exit 0, with the reason) without a C compiler or clang.
Run: python3 examples/c_calls_python.py
"""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import cuda.device as device
import pydev


@device.struct
class vec3:
    x: device.float64
    y: device.float64
    z: device.float64


@device.func(interop=True)
def dot(a: "float64[:]", b: "float64[:]") -> device.float64:  # noqa: F821 (array types are strings)
    s = device.float64(0.0)  # a bare 0.0 is float32 in device code
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@device.func(interop=True)
def horner(coeffs: "float64[:]", x: device.float64) -> device.float64:  # noqa: F821
    """coeffs[0] + coeffs[1] x + coeffs[2] x^2 + ..."""
    r = device.float64(0.0)
    for i in range(coeffs.shape[0] - 1, -1, -1):
        r = r * x + coeffs[i]
    return r


@device.func(interop=True)
def normalize(v: vec3) -> vec3:
    n = (v.x * v.x + v.y * v.y + v.z * v.z) ** 0.5
    return vec3(v.x / n, v.y / n, v.z / n)


C_PROGRAM = """
#include <stdint.h>
#include <stdio.h>
typedef struct {{ double x, y, z; }} vec3;
typedef struct {{ double* data; uint64_t shape[1]; uint64_t strides[1]; }} desc1;
double dot(desc1 a, desc1 b);             /* written in Python */
double horner(desc1 coeffs, double x);
vec3 normalize(vec3 v);

static double a[] = {{{a}}}, b[] = {{{b}}}, c[] = {{{c}}};

int main(void) {{
  desc1 da = {{a, {{{n}}}, {{1}}}}, db = {{b, {{{n}}}, {{1}}}}, dc = {{c, {{{m}}}, {{1}}}};
  desc1 every_other = {{a, {{{half}}}, {{2}}}};     /* a strided view: a[::2] */
  vec3 v = normalize((vec3){{a[0], a[1], a[2]}});
  printf("%.17g %.17g %.17g %.17g %.17g %.17g\\n", dot(da, db), dot(every_other, every_other),
         horner(dc, {x}), v.x, v.y, v.z);
  return 0;
}}
"""


def find_tools():
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None, "no C compiler (cc, gcc or clang) on PATH"
    clang = os.environ.get("PYDEV_CLANG") or "/usr/lib/llvm-22/bin/clang"
    if not os.access(clang, os.X_OK) and not (shutil.which("clang-22") or shutil.which("clang")):
        return None, "stage='object' builds its C ABI entries with clang, and none was found"
    return cc, None


def main():
    cc, why = find_tools()
    if cc is None:
        print("skipped:", why)
        return 0
    rng = np.random.default_rng(42)
    n, m = 16, 5
    a, b, c = rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(m)
    x = float(rng.uniform(-2, 2))
    fmt = ", ".join
    source = C_PROGRAM.format(
        a=fmt(repr(float(v)) for v in a), b=fmt(repr(float(v)) for v in b), c=fmt(repr(float(v)) for v in c),
        n=n, m=m, half=n // 2, x=repr(x),
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        objs = []
        for fn, sig in ((dot, "float64[:], float64[:]"), (horner, "float64[:], float64"), (normalize, "vec3")):
            obj = os.path.join(tmp, fn.__name__ + ".o")
            with open(obj, "wb") as f:
                f.write(pydev.compile(fn, sig, target="host", stage="object"))  # an ELF object, bytes
            objs.append(obj)
        main_c = os.path.join(tmp, "main.c")
        with open(main_c, "w") as f:
            f.write(source)
        exe = os.path.join(tmp, "main")
        subprocess.run([cc, "-o", exe, main_c, *objs, "-lm"], check=True)
        print(
            "built a C program with", os.path.basename(cc), "from main.c and", len(objs), "objects compiled from Python"
        )
        got = [float(v) for v in subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()]

    want = [a @ b, a[::2] @ a[::2], np.polynomial.polynomial.polyval(x, c), *(a[:3] / np.linalg.norm(a[:3]))]
    names = ["dot(a, b)", "dot(a[::2], a[::2]) (strided descriptor)", "horner(c, x)", "normalize(v).x", ".y", ".z"]
    ok = True
    for name, g, w in zip(names, got, want):
        good = np.isclose(g, w, rtol=1e-12, atol=1e-12)
        print(f"{'ok' if good else 'MISMATCH'}: C called {name} = {g:.6f} (NumPy {w:.6f})")
        ok &= bool(good)
    ok &= len(got) == len(want)
    print("c_calls_python", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
