"""`cuda.compile_ptx(f, sig, device=True)`: a device function alone, as PTX
that CUDA C++ or other PTX calls (numba-cuda's "Compiling Python functions
for use with other languages").

The function is compiled as it is for a kernel that calls it, into a module
without a kernel: there `pydev-select-kernel` leaves it public, so PTX has
it as a `.visible .func` with the C ABI (`abi="c"`): `T f(args...)`, named
by the function or `abi_info={"abi_name": ...}`.

Numba's ABI (`abi="numba"`, compile_ptx's default) is
`int f(T *ret, args...)`: the result through the pointer, the int a status
(0: no exception; pydev.numba raises none in device code). pydev IR has no
pointers, so that function is a PTX wrapper around the C-ABI one (made
`.func`, not visible), its parameters declared as LLVM declared the C-ABI
function's. It is named by the function, not by Numba's mangled name."""

import re

from .. import _compiler as _c
from .. import types as _t

# The scalar types a device function compiled alone takes and returns here.
SCALARS = (
    _t.boolean,
    _t.int8,
    _t.uint8,
    _t.int16,
    _t.uint16,
    _t.int32,
    _t.uint32,
    _t.int64,
    _t.uint64,
    _t.float16,
    _t.float32,
    _t.float64,
)

INNER_PREFIX = "__pydev_numba_c_"


def _typing_error(disp, e):
    from ..core import errors

    return getattr(errors, e.kind or "TypingError")(
        _c.render(getattr(e, "src", None) or disp.source(), e.node, e.message, e.help)
    )


def compile_device_ptx(disp, sig, target, abi, abi_info):
    """(ptx, return type) of device function `disp` (a Dispatcher) for `sig`."""
    name = disp.__name__
    for t in sig.args:
        if t not in SCALARS:
            raise NotImplementedError(
                f"cuda.compile_ptx of device function '{name}': parameter type {t}; pydev.numba compiles a device "
                "function alone for scalar number and boolean parameters"
            )
    mb = _c.ModuleBuilder(disp.options)
    try:
        fn, rtype = _c.compile_device(mb, disp, tuple(sig.args))
    except _c.NumbaError as e:
        raise _typing_error(disp, e) from None
    rtype = _t.void if rtype is None else rtype
    if sig.return_type is not None and sig.return_type != rtype:
        raise NotImplementedError(
            f"cuda.compile_ptx of device function '{name}': it returns {rtype}, the signature says "
            f"{sig.return_type}; pydev.numba does not cast the result (give the argument types alone)"
        )
    if not isinstance(rtype, _t.NoneType) and rtype not in SCALARS:
        raise NotImplementedError(
            f"cuda.compile_ptx of device function '{name}': it returns {rtype}; pydev.numba compiles a device "
            "function alone for a scalar number or boolean result"
        )
    if any(mb.captures.values()) or mb.externs or mb.links:
        raise NotImplementedError(
            f"cuda.compile_ptx of device function '{name}': it reads device arrays from globals or calls "
            "foreign or linked functions, which a device function compiled alone cannot take"
        )
    if abi == "c":
        fn.name = (abi_info or {}).get("abi_name") or name
    else:
        fn.name = INNER_PREFIX + name
    ptx = _compile(disp, str(mb.module), target)
    if abi == "numba":
        ptx = _numba_abi_wrapper(ptx, fn.name, name, rtype)
    return ptx, rtype


def _compile(disp, text, target):
    from ... import _native, _program

    return _native.get().compile_ir(
        text,
        "",  # a module without kernels: its functions stay public
        target,
        "ptx",
        fast_math=disp.options["fastmath"],
        boundscheck=bool(disp.options.get("boundscheck")),
        libdevice=_program._libdevice(),
        filename=disp.source().file,
        line_info=bool(disp.options.get("lineinfo")),
        host_adapters=[],
        fmad=disp.options.get("fmad") is not False,
    )


_REG = {1: ("b16", "%h"), 2: ("b16", "%h"), 4: ("b32", "%r"), 8: ("b64", "%rd")}


def _decl_size(decl):
    """Bytes of a PTX `.param` declaration: `.param .b32 x`, `.param .align 2 .b8 x[2]`."""
    m = re.search(r"\.b(\d+)\s+\S+?(?:\[(\d+)\])?\s*$", decl)
    return int(m.group(1)) // 8 * (int(m.group(2)) if m.group(2) else 1)


def _renamed(decl, new):
    return re.sub(r"(\S+?)(\[\d+\])?\s*$", lambda m: new + (m.group(2) or ""), decl.strip())


def _numba_abi_wrapper(ptx, inner, name, rtype):
    """`ptx` with C-ABI function `inner` made `.func` and a `.visible .func
    name(T *ret, args...)` returning status 0 that calls it."""
    head = re.search(
        r"\.visible \.func\s*(?:\((?P<ret>[^)]*)\))?\s*" + re.escape(inner) + r"\((?P<params>[^)]*)\)", ptx
    )
    if head is None:
        raise RuntimeError(f"cuda.compile_ptx: the PTX of '{name}' has no function '{inner}'")
    ptx = ptx[: head.start()] + ".func" + ptx[head.start() + len(".visible .func") :]
    params = [p.strip() for p in head.group("params").split(",") if p.strip()]
    ret = head.group("ret")
    lines = [f".visible .func  (.param .b32 func_retval0) {name}(", f"\t.param .b64 {name}_param_0"]
    for i, p in enumerate(params):
        lines[-1] += ","
        lines.append("\t" + _renamed(p, f"{name}_param_{i + 1}"))
    lines += [")", "{", "\t.reg .b16 %h<{}>;".format(len(params) + 2)]
    lines += ["\t.reg .b32 %r<{}>;".format(len(params) + 2), "\t.reg .b64 %rd<{}>;".format(len(params) + 2)]
    lines.append(f"\tld.param.b64 %rd0, [{name}_param_0];")
    regs = []
    for i, p in enumerate(params):
        size = _decl_size(p)
        ty, prefix = _REG[size]
        regs.append((f"b{size * 8}", f"{prefix}{i + 1}"))
        lines.append(f"\tld.param.b{size * 8} {prefix}{i + 1}, [{name}_param_{i + 1}];")
    lines.append("\t{")
    for i, p in enumerate(params):
        lines.append("\t" + _renamed(p, f"param{i}") + ";")
        lines.append(f"\tst.param.{regs[i][0]} [param{i}], {regs[i][1]};")
    args = ", ".join(f"param{i}" for i in range(len(params)))
    if ret:
        size = _decl_size(ret)
        ty, prefix = _REG[size]
        out = f"{prefix}{len(params) + 1}"
        lines.append("\t" + _renamed(ret, "retval0") + ";")
        lines.append(f"\tcall.uni (retval0), {inner}, ({args});")
        lines.append(f"\tld.param.b{size * 8} {out}, [retval0];")
        lines.append("\t}")
        # Numba's data model stores a boolean as a byte, 0 or 1 (LLVM may
        # return an i1 sign-extended).
        width = 8 if rtype == _t.boolean else rtype.bitwidth
        if rtype == _t.boolean:
            lines.append(f"\tand.b32 {out}, {out}, 1;")
        lines.append(f"\tst.b{width} [%rd0], {out};")
    else:
        lines.append(f"\tcall.uni {inner}, ({args});")
        lines.append("\t}")
    lines += ["\tmov.b32 %r0, 0;", "\tst.param.b32 [func_retval0], %r0;", "\tret;", "}", ""]
    return ptx.rstrip() + "\n\n" + "\n".join(lines)
