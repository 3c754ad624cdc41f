"""Interoperable functions on cuda (spec: Python and CUDA C++;
docs/interop.md): pydev-lower-aggregates gives every interop function of a
gpu.module, the Python ones C++ calls and the declared ones C++ defines,
and each call, the CUDA C++ layout of its `.param`s (3-lane vectors as
arrays, align= structs padded and `.param .align`-ed), so calls cross by
their symbols with no adapter. `check_interop_ptx` checks a prototype
before linking.

The rest of interop: link files `_link_paths`, type models and the C++
header `_c_types`, the host's link and C ABI adapters `_host_link`.
"""

from ._c_types import Scalar
from ._link_paths import LinkError


def _ptx_extern(ptx, symbol, linkage="extern"):
    """[(align, size) or None for a scalar, ...] of the parameters and
    (same) of the result of `.extern .func ... symbol(...)` (or `.visible`)
    in `ptx`; None when the PTX does not declare `symbol` so."""
    import re

    m = re.search(r"\." + linkage + r"\s+\.func\s*(\(([^)]*)\))?\s*" + re.escape(symbol) + r"\s*\(([^)]*)\)", ptx)
    if m is None:
        return None

    def one(decl):
        a = re.search(r"\.align\s+(\d+)\s+\.b8\s+\S+\[(\d+)\]", decl)
        return (int(a.group(1)), int(a.group(2))) if a else None

    params = [one(d) for d in m.group(3).split(",") if ".param" in d]
    result = one(m.group(2)) if m.group(2) else "void"
    return params, result


def check_interop_ptx(ptx, name, params, result, site, linkage="visible"):
    """Checks that the PTX of interop function `name`, defined (`.visible`)
    or declared (`.extern`: C++ defines it), declares the parameters and
    result nvcc declares for its C types, so that the call crosses by its
    symbol (pydev-lower-aggregates gives interop functions the CUDA C++
    layout: 3-lane vectors as arrays, align= by `.param .align`); a
    LinkError naming it if not."""
    seen = _ptx_extern(ptx, name, linkage)

    def layout(m):
        return None if isinstance(m, Scalar) else (m.align, m.size)

    want = ([layout(m) for _, m in params], "void" if result is None else layout(result))
    if seen is not None and seen != want:
        what = "calls the declared interoperable function" if linkage == "extern" else "of the interoperable function"
        raise LinkError(
            f"{site}: error: the PTX {what} '{name}' has parameters {seen} (align, bytes), where CUDA C++ passes {want}"
        )
