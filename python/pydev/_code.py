"""The global names a function's code reads: its LOAD_GLOBAL names, and
those of the code nested in it (comprehensions, lambdas, inner functions).

`co_names` also holds attribute, method and import names (`v.x`,
`p.mass`): taken as globals, each made every fast launch look up a name the
device code never reads, and a later global of that name looked like a
change of the kernel's inputs."""

import sys
import types

_OPS = None  # (LOAD_GLOBAL, EXTENDED_ARG, how far LOAD_GLOBAL's argument is shifted)


def _ops():
    global _OPS
    if _OPS is None:
        import opcode

        # Since 3.11 LOAD_GLOBAL's low bit says whether it pushes a NULL first.
        _OPS = (opcode.opmap["LOAD_GLOBAL"], opcode.EXTENDED_ARG, 1 if sys.version_info >= (3, 11) else 0)
    return _OPS


def global_names(code, out):
    """Adds to set `out` the global names `code` and the code nested in it
    read; returns `out`."""
    load, extended, shift = _ops()
    names, raw, ext = code.co_names, code.co_code, 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | ext
        if op == extended:
            ext = arg << 8
            continue
        ext = 0
        if op == load:
            out.add(names[arg >> shift])
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            global_names(c, out)
    return out
