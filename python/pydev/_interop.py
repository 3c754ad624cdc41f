"""Interoperability with C and CUDA C++ (spec: Python and CUDA C++; docs/interop.md).

- `link=[paths]` on `@device.kernel` / `@device.func`: checked when the
  function is decorated (`check_link`), built for the host into one shared
  library that the JIT resolves the kernel's external symbols from
  (`host_library`); the files' contents are part of the disk-cache key
  (`link_digest`).
- Declarations: a `@device.func(interop=True, link=[...])` whose body is
  only `...` (`is_declaration`). The frontend calls `__pydev_cabi_<name>`
  on the host (frontends/python/src/interop.rs); `host_adapters` writes
  that function (LLVM IR: the register form of the arguments stored at
  their C offsets) and a C++ shim that calls `<name>` with the platform's
  C calling convention for the CUDA C++ types, so clang classifies
  aggregates as the C code that defines the function expects.
- `cxx_header(*objs)`: a C++ header declaring structs (with static_asserts
  on sizeof, alignof and offsetof), the array descriptor, interop
  functions and kernels. Every layout comes from `_types` (`c_layout`,
  struct fields), the one layout definition the compiler agrees with
  (python/tests/test_abi_agreement.py).
"""

import ast
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import typing

from . import _cache, _facts, _toolchain, _types

HOST_SOURCES = {".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".cu": "cu", ".bc": "ir", ".ll": "ir"}
HOST_BINARIES = (".o", ".a")
CUDA_ONLY = (".ptx", ".ltoir", ".cubin", ".fatbin")
SUFFIXES = tuple(HOST_SOURCES) + HOST_BINARIES + CUDA_ONLY
ADAPTER_PREFIX = _facts.HOST_ADAPTER_PREFIX
PACKED_PREFIX = "__pydev_packed_"


def LinkError(message):  # noqa: N802 - raised like a class
    """A link= file could not be built or linked: a pydev.CompileError
    (the message says which file or symbol, and why)."""
    from . import _native

    return _native.error_class("CompileError")(message)


def _site(fn):
    code = fn.__code__
    return f"{code.co_filename}:{code.co_firstlineno}"


def check_link_paths(link, owner, *, base=None, site=None):
    """The absolute paths of link files `link` (a path or a list of paths,
    str or os.PathLike) of `owner` (its description in messages:
    "@device.kernel 'f'", "pydev.Program 'k'"), each once: each must exist
    and have a suffix pydev links (SUFFIXES). Relative paths are relative
    to directory `base` (that of the file that defines a decorated
    function), else, or when not there, to the working directory; `site`
    ("file:line") starts each message."""
    if link is None:
        return ()
    at = f"{site}: error: " if site else ""
    if isinstance(link, (str, os.PathLike)):
        link = [link]
    if not isinstance(link, (list, tuple)):
        raise TypeError(f"{at}link= of {owner} must be a list of paths (str or os.PathLike), got {type(link).__name__}")
    out = []
    for p in link:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"{at}link= of {owner} holds {p!r}, which is not a path (str or os.PathLike)")
        p = os.fspath(p)
        full = p if os.path.isabs(p) or base is None else os.path.join(base, p)
        if not os.path.exists(full) and not os.path.isabs(p) and os.path.exists(os.path.abspath(p)):
            full = os.path.abspath(p)
        suffix = os.path.splitext(p)[1].lower()
        if suffix not in SUFFIXES:
            raise ValueError(
                f"{at}link file '{p}' of {owner} has the unsupported suffix '{suffix}' (pydev links {', '.join(SUFFIXES)})"
            )
        full = os.path.normpath(os.path.abspath(full))
        if not os.path.isfile(full):
            raise FileNotFoundError(f"{at}link file '{p}' of {owner} does not exist (looked for {full})")
        if full not in out:
            out.append(full)
    return tuple(out)


def check_link(link, fn, decorator):
    """`check_link_paths` of function `fn` decorated by
    `@device.<decorator>`: relative paths are relative to the directory of
    the file that defines `fn`, messages start at its definition."""
    return check_link_paths(
        link,
        f"@device.{decorator} '{fn.__name__}'",
        base=os.path.dirname(os.path.abspath(fn.__code__.co_filename)),
        site=_site(fn),
    )


def link_digest(paths):
    """What the link files contribute to the disk-cache key: each path with
    the SHA-256 of its contents."""
    parts = []
    for p in paths:
        with open(p, "rb") as f:
            parts.append((p, hashlib.sha256(f.read()).hexdigest()))
    return tuple(parts)


# --- declarations --------------------------------------------------------------------------


def is_declaration(fn):
    """Whether Python function `fn` has a body of only `...` (a docstring
    may precede it): read from its source, as the frontend reads it."""
    try:
        import inspect
        import textwrap

        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return False
    body = defs[0].body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return (
        len(body) == 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and body[0].value.value is Ellipsis
    )


# --- C types and layouts ---------------------------------------------------------------------
# A type model built from Python type objects (annotations, struct classes):
#   Scalar(name)                         a number or bool
#   Vec(elem, lanes)                     a vector type
#   Agg(name, fields, size, align)       a @struct class or a tuple (fields: (name, type, offset))
#   Arr(elem, ndim)                      the interoperable array descriptor
# with sizes and offsets from _types (c_layout, the struct fields).

_SCALARS = {
    # name: (C type, LLVM register type, size)
    "bool": ("bool", "i1", 1),
    "int8": ("int8_t", "i8", 1),
    "int16": ("int16_t", "i16", 2),
    "int32": ("int32_t", "i32", 4),
    "int64": ("int64_t", "i64", 8),
    "uint8": ("uint8_t", "i8", 1),
    "uint16": ("uint16_t", "i16", 2),
    "uint32": ("uint32_t", "i32", 4),
    "uint64": ("uint64_t", "i64", 8),
    "float16": ("__half", "half", 2),
    "bfloat16": ("__nv_bfloat16", "bfloat", 2),
    "float8e4m3": ("__nv_fp8_e4m3", "i8", 1),
    "float8e5m2": ("__nv_fp8_e5m2", "i8", 1),
    "float32": ("float", "float", 4),
    "float64": ("double", "double", 8),
}


class Scalar(typing.NamedTuple):
    name: str

    @property
    def size(self):
        return _SCALARS[self.name][2]

    @property
    def align(self):
        return self.size


class Vec(typing.NamedTuple):
    elem: Scalar
    lanes: int

    @property
    def size(self):
        return self.elem.size * self.lanes

    @property
    def align(self):
        return _c_layout(_mlir(self))[1]


class Agg(typing.NamedTuple):
    name: str  # the struct's name; None for a tuple
    fields: tuple  # ((name, type, offset), ...)
    size: int
    align: int


class Arr(typing.NamedTuple):
    elem: object
    ndim: int

    @property
    def size(self):
        return 8 + 16 * self.ndim

    @property
    def align(self):
        return 8


def _c_layout(text):
    """(size, alignment, scalars, member offsets) of pydev IR type `text` in
    the CUDA C++ layout: the dialect's (`_pydev.ir_type_layout`; this
    module runs with the native module loaded)."""
    from . import _native

    return _native.get().ir_type_layout(text)


def _tuple_of(items):
    items = list(items)
    size, align, _, offsets = _c_layout(f"!pydev.tuple<{', '.join(_mlir(t) for t in items)}>")
    return Agg(None, tuple((f"__{i}", t, o) for i, (t, o) in enumerate(zip(items, offsets))), size, align)


def model(t, where="a type", env=None):
    """The type model of Python type object `t` (an annotation)."""
    if t is int:
        return Scalar("int32")
    if t is float:
        return Scalar("float32")
    if t is bool:
        return Scalar("bool")
    if isinstance(t, type) and issubclass(t, _types.Vector):
        name = _types.dtype_name(t.dtype)
        return Vec(Scalar(name), t.size)
    if _types.is_struct(t):
        fields = []
        for f in t._fields:
            if isinstance(f.type, (_types.Aligned, _types.Atomic)):
                raise TypeError(
                    f"{where}: field '{f.name}' of struct '{t.__name__}' is {f.type!r}, which interop declarations do not support yet"
                )
            fields.append((f.name, model(f.type, where, env), f.offset))
        return Agg(t.__name__, tuple(fields), t.dtype.itemsize, t._alignment)
    if typing.get_origin(t) is tuple:
        return _tuple_of([model(a, where, env) for a in typing.get_args(t)])
    if isinstance(t, tuple):
        return _tuple_of([model(a, where, env) for a in t])
    name = _types.dtype_name(t) if not isinstance(t, str) else None
    if name in _SCALARS:
        return Scalar(name)
    if isinstance(t, str):
        return _model_from_text(t.strip(), where, env)
    raise TypeError(
        f"{where}: {t!r} is not a type that crosses the C ABI (numbers, vectors, @device.struct classes, tuples, arrays)"
    )


def _model_from_text(text, where, env=None):
    """The model of a type in the signature syntax; `env` (the function's
    globals) resolves struct names ("Plain[:]")."""
    if text.endswith("]") and "[" in text:
        base, dims = text[:-1].split("[", 1)
        base = base.strip().removeprefix("readonly ").strip()
        return Arr(model(base, where, env), len(dims.split(",")))
    if text.startswith("(") and text.endswith(")"):
        return _tuple_of([_model_from_text(p.strip(), where, env) for p in text[1:-1].split(",") if p.strip()])
    if env is not None and _types.is_struct(env.get(text)):
        return model(env[text], where, env)
    if text in ("int", "float", "bool"):
        return model({"int": int, "float": float, "bool": bool}[text], where)
    if text in _SCALARS:
        return Scalar(text)
    if text in _types.VECTOR_TYPES:
        return model(_types.VECTOR_TYPES[text], where)
    raise TypeError(f"{where}: '{text}' is not a type that crosses the C ABI")


def annotations(fn):
    """([(name, model), ...], result model or None) of declared function `fn`."""
    code = fn.__code__
    names = code.co_varnames[: code.co_argcount]
    ann = dict(getattr(fn, "__annotations__", {}) or {})
    site = _site(fn)

    def resolve(a):
        if isinstance(a, str):
            try:
                return eval(a, fn.__globals__)  # noqa: S307 - the user's own annotation
            except Exception:
                return a  # the signature syntax ("float32[::1]")
        return a

    params = []
    for n in names:
        if n not in ann:
            raise TypeError(
                f"{site}: error: parameter '{n}' of the declared interoperable function '{fn.__name__}' has no annotation"
            )
        params.append((n, model(resolve(ann[n]), f"{site}: error: parameter '{n}' of '{fn.__name__}'", fn.__globals__)))
    if "return" not in ann:
        raise TypeError(f"{site}: error: the declared interoperable function '{fn.__name__}' has no return annotation")
    r = resolve(ann["return"])
    result = (
        None
        if r is None or r is type(None)
        else model(r, f"{site}: error: the result of '{fn.__name__}'", fn.__globals__)
    )
    return params, result


# --- C++ declarations ------------------------------------------------------------------------


_MLIR_SCALARS = {
    "bool": "i1",
    "int8": "si8",
    "int16": "si16",
    "int32": "si32",
    "int64": "si64",
    "uint8": "ui8",
    "uint16": "ui16",
    "uint32": "ui32",
    "uint64": "ui64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float8e4m3": "f8E4M3FN",
    "float8e5m2": "f8E5M2",
    "float32": "f32",
    "float64": "f64",
}


def _mlir(m):
    """The pydev IR type text of model `m` (frontends/python/src/types.rs `Ty::mlir`)."""
    if isinstance(m, Scalar):
        return _MLIR_SCALARS[m.name]
    if isinstance(m, Vec):
        return f"!pydev.vector<{m.lanes} x {_mlir(m.elem)}>"
    if isinstance(m, Arr):
        return f"!pydev.array<{_mlir(m.elem)}, {m.ndim}>"
    if m.name is None:
        return f"!pydev.tuple<{', '.join(_mlir(t) for _, t, _ in m.fields)}>"
    natural = max([t.align for _, t, _ in m.fields], default=1)
    align = f", align {m.align}" if m.align > natural else ""
    return f'!pydev.struct<"{m.name}", {{{", ".join(f"{f}: {_mlir(t)}" for f, t, _ in m.fields)}}}{align}>'


def _designators(m, prefix="", offset=0):
    """(member designator, C offset) of every scalar of model `m`
    (`v.y`, `d.shape[1]`, `__0.re`)."""
    dot = prefix + "." if prefix else ""
    if isinstance(m, Scalar):
        if prefix:
            yield prefix, offset
    elif isinstance(m, Vec):
        for i in range(m.lanes):
            yield dot + "xyzw"[i], offset + i * m.elem.size
    elif isinstance(m, Arr):
        yield dot + "data", offset
        for i in range(m.ndim):
            yield f"{dot}shape[{i}]", offset + 8 + 8 * i
            yield f"{dot}strides[{i}]", offset + 8 + 8 * m.ndim + 8 * i
    else:
        for f, t, off in m.fields:
            yield from _designators(t, dot + f, offset + off)


def cxx_signatures(sigs):
    """(C++ declarations, [(parameter C++ types, result C++ type), ...]) of
    signatures [(params, result)]: the types named and declared by the
    header generator (runtime/src/cxx_header.rs, as `pydev.cxx_header`
    names them), plus static_asserts that C++'s offset of every scalar is
    the one the adapters read and write (this module's models)."""
    from . import _native

    models = []
    for params, result in sigs:
        models += [m for _, m in params] + ([result] if result is not None else [])
    text, names = _native.get().cxx_types([_mlir(m) for m in models])
    asserts = []
    for m, n in zip(models, names):
        if isinstance(m, Scalar):
            continue
        if "," in n:  # a template's name inside the offsetof macro: an alias
            alias = f"__pydev_assert_t{len(asserts)}"
            asserts.append(f"typedef {n} {alias};")
            n = alias
        for a in [
            f'static_assert(sizeof({n}) == {m.size}, "sizeof({n})");',
            f'static_assert(alignof({n}) == {m.align}, "alignof({n})");',
        ] + [f'static_assert(offsetof({n}, {d}) == {off}, "offsetof({n}, {d})");' for d, off in _designators(m)]:
            if a not in asserts:
                asserts.append(a)
    it = iter(names)
    out = []
    for params, result in sigs:
        cp = [next(it) for _ in params]
        out.append((cp, "void" if result is None else next(it)))
    return text + "\n".join(asserts) + "\n", out


# --- host: shared library, adapters ---------------------------------------------------------


def clang():
    """The clang that builds link= files for the host (_toolchain.clang)."""
    cc = _toolchain.clang()
    if cc is None:
        raise LinkError(
            "link= files are built for the host with clang, and none was found: install clang (LLVM 22) or set PYDEV_CLANG"
        )
    return cc


def _reg(m):
    """The LLVM register type of model `m` (the host pipeline's lowering)."""
    if isinstance(m, Scalar):
        return _SCALARS[m.name][1]
    if isinstance(m, Vec):
        return f"<{m.lanes} x {_SCALARS[m.elem.name][1]}>"
    if isinstance(m, Arr):
        return f"{{ ptr, [{m.ndim} x i64], [{m.ndim} x i64] }}"
    return "{ " + ", ".join(_reg(t) for _, t, _ in m.fields) + " }"


def _leaves(m, path=(), offset=0):
    """(access path, LLVM scalar type, C offset) of every scalar of `m`; a
    path step is ("v", i) for extractvalue and ("e", i) for extractelement."""
    if isinstance(m, Scalar):
        yield path, _SCALARS[m.name][1], offset
    elif isinstance(m, Vec):
        for i in range(m.lanes):
            yield path + (("e", i),), _SCALARS[m.elem.name][1], offset + i * m.elem.size
    elif isinstance(m, Arr):
        yield path + (("v", 0),), "ptr", offset
        for i in range(m.ndim):
            yield path + (("v", 1), ("v", i)), "i64", offset + 8 + 8 * i
        for i in range(m.ndim):
            yield path + (("v", 2), ("v", i)), "i64", offset + 8 + 8 * m.ndim + 8 * i
    else:
        for i, (_, t, off) in enumerate(m.fields):
            yield from _leaves(t, path + (("v", i),), offset + off)


class _IR:
    def __init__(self):
        self.lines, self.n = [], 0

    def tmp(self):
        self.n += 1
        return f"%t{self.n}"

    def emit(self, text):
        self.lines.append("  " + text)


def _extract(ir, m, value, path):
    """The scalar at `path` of register value `value` of model type `m`."""
    ty, cur = _reg(m), value
    i = 0
    while i < len(path):
        kind, k = path[i]
        if kind == "e":
            t = ir.tmp()
            ir.emit(f"{t} = extractelement {ty} {cur}, i32 {k}")
            return t
        # Group consecutive extractvalue steps.
        idx = []
        sub = m
        while i < len(path) and path[i][0] == "v":
            idx.append(path[i][1])
            sub = _sub(sub, path[i])
            i += 1
        t = ir.tmp()
        ir.emit(f"{t} = extractvalue {ty} {cur}, {', '.join(map(str, idx))}")
        cur, ty, m = t, _reg(sub) if not isinstance(sub, str) else sub, sub
    return cur


def _sub(m, step):
    _, k = step
    if isinstance(m, Agg):
        return m.fields[k][1]
    if isinstance(m, Arr):
        return "ptr" if k == 0 else f"[{m.ndim} x i64]"
    if isinstance(m, str) and m.startswith("["):
        return "i64"
    raise AssertionError(m)


def _store_leaf(ir, scalar_ty, value, base, offset):
    p = ir.tmp()
    ir.emit(f"{p} = getelementptr inbounds i8, ptr {base}, i64 {offset}")
    if scalar_ty == "i1":
        z = ir.tmp()
        ir.emit(f"{z} = zext i1 {value} to i8")
        ir.emit(f"store i8 {z}, ptr {p}, align 1")
    else:
        ir.emit(f"store {scalar_ty} {value}, ptr {p}, align 1")


def _load_leaf(ir, scalar_ty, base, offset):
    p = ir.tmp()
    ir.emit(f"{p} = getelementptr inbounds i8, ptr {base}, i64 {offset}")
    t = ir.tmp()
    if scalar_ty == "i1":
        ir.emit(f"{t} = load i8, ptr {p}, align 1")
        b = ir.tmp()
        ir.emit(f"{b} = icmp ne i8 {t}, 0")
        return b
    ir.emit(f"{t} = load {scalar_ty}, ptr {p}, align 1")
    return t


def _build_value(ir, m, base):
    """The register value of model `m` loaded from C memory at `base`."""
    if isinstance(m, Scalar):
        return _load_leaf(ir, _SCALARS[m.name][1], base, 0)
    cur = "poison"
    ty = _reg(m)
    if isinstance(m, Vec):
        for i in range(m.lanes):
            x = _load_leaf(ir, _SCALARS[m.elem.name][1], base, i * m.elem.size)
            t = ir.tmp()
            ir.emit(f"{t} = insertelement {ty} {cur}, {_SCALARS[m.elem.name][1]} {x}, i32 {i}")
            cur = t
        return cur
    if isinstance(m, Arr):
        for path, sty, off in _leaves(m):
            x = _load_leaf(ir, sty, base, off)
            t = ir.tmp()
            idx = ", ".join(str(k) for _, k in path)
            ir.emit(f"{t} = insertvalue {ty} {cur}, {sty} {x}, {idx}")
            cur = t
        return cur
    for i, (_, t, off) in enumerate(m.fields):
        p = ir.tmp()
        ir.emit(f"{p} = getelementptr inbounds i8, ptr {base}, i64 {off}")
        x = _build_value(ir, t, p)
        r = ir.tmp()
        ir.emit(f"{r} = insertvalue {ty} {cur}, {_reg(t)} {x}, {i}")
        cur = r
    return cur


def host_adapters(declared):
    """(LLVM IR text, C++ text) of the adapters of declared functions
    `declared` ([(name, params, result)]): `__pydev_cabi_<name>` takes the
    register form (what the host pipeline's call passes), writes each
    argument in its C layout and calls `__pydev_packed_<name>`, which the
    C++ compiler compiles into a C call of `<name>`."""
    ll = ["; pydev host adapters of declared interoperable functions (python/pydev/_interop.py)"]
    decls, ctypes_ = cxx_signatures([(params, result) for _, params, result, *_ in declared])
    cxx_lines = []
    for (name, params, result, *_), (cparams, cres) in zip(declared, ctypes_):
        ir = _IR()
        args = [f"{_reg(m)} %a{i}" for i, (_, m) in enumerate(params)]
        ret = "void" if result is None else _reg(result)
        n = len(params)
        ir.emit(f"%args = alloca [{n + 1} x ptr], align 8")
        for i, (_, m) in enumerate(params):
            mem = f"%m{i}"
            ir.emit(f"{mem} = alloca [{max(m.size, 1)} x i8], align {max(m.align, 8)}")
            for path, sty, off in _leaves(m):
                value = _extract(ir, m, f"%a{i}", path) if path else f"%a{i}"
                _store_leaf(ir, sty, value, mem, off)
            slot = ir.tmp()
            ir.emit(f"{slot} = getelementptr inbounds ptr, ptr %args, i64 {i}")
            ir.emit(f"store ptr {mem}, ptr {slot}, align 8")
        if result is not None:
            ir.emit(f"%r = alloca [{result.size} x i8], align {max(result.align, 8)}")
            slot = ir.tmp()
            ir.emit(f"{slot} = getelementptr inbounds ptr, ptr %args, i64 {n}")
            ir.emit(f"store ptr %r, ptr {slot}, align 8")
        ir.emit(f"call void @{PACKED_PREFIX}{name}(ptr %args)")
        if result is None:
            ir.emit("ret void")
        else:
            v = _build_value(ir, result, "%r")
            ir.emit(f"ret {ret} {v}")
        ll.append(f"declare void @{PACKED_PREFIX}{name}(ptr)")
        ll.append(f"define {ret} @{ADAPTER_PREFIX}{name}({', '.join(args)}) {{")
        ll += ir.lines
        ll.append("}")
        # The C++ side: the declaration with the CUDA C++ types, and the call.
        cxx_lines.append(f'extern "C" {cres} {name}({", ".join(cparams)});')
        call = f"{name}({', '.join(f'*({c}*)a[{i}]' for i, c in enumerate(cparams))})"
        body = call + ";" if result is None else f"*({cres}*)a[{n}] = {call};"
        cxx_lines.append(f'extern "C" void {PACKED_PREFIX}{name}(void** a) {{ {body} }}')
    # The static_asserts check the offsets the LLVM IR adapter writes at
    # against clang's layout of the C++ types the call passes.
    cxx = "\n".join(["// pydev host shims of declared interoperable functions", decls, *cxx_lines]) + "\n"
    return "\n".join(ll) + "\n", cxx


# --- cuda: interop functions cross in nvcc's layout ---------------------------------------
# pydev-lower-aggregates gives every interop function of a gpu.module, the
# Python ones C++ calls and the declared ones C++ defines, and each call,
# the CUDA C++ layout of its `.param`s (3-lane vectors as arrays, align=
# structs padded and `.param .align`-ed), so calls cross by their symbols
# with no adapter. `check_interop_ptx` checks a prototype before linking.


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


def _run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise LinkError(f"{what} failed ({' '.join(cmd)}):\n{(r.stderr or r.stdout).strip()}")
    return r


def _cache_root():
    """Where the libraries built from link= files are written: the compile
    cache, or a private temporary directory when the cache is off, cannot be
    written or cannot be trusted (the JIT needs a file to load; one warning,
    never an error). Its directories pass the cache's trust check
    (_cache.make_dirs): a library found there is loaded as code."""
    d = _cache.cache_dir()
    if d is not None:
        link = os.path.join(d, "link")
        try:
            if _cache.make_dirs(d, link):  # else it warned: not trusted
                if os.access(link, os.W_OK):
                    return link
                raise PermissionError(13, "not writable")
        except OSError as e:
            _cache._warn_once("write", d, e)
    tmp = os.path.join(tempfile.gettempdir(), f"pydev-link-{os.getuid() if hasattr(os, 'getuid') else 0}")
    try:
        if _cache.make_dirs(tmp, tmp) and os.access(tmp, os.W_OK):
            return tmp
    except OSError:
        pass
    # The shared name is taken (another user made it first) or not ours to
    # trust: a directory of this process's own.
    global _PRIVATE_LINK_DIR
    if _PRIVATE_LINK_DIR is None:
        try:
            _PRIVATE_LINK_DIR = tempfile.mkdtemp(prefix="pydev-link-")
        except OSError as e:
            raise LinkError(
                f"no directory to build link= libraries in: {tempfile.gettempdir()} ({e.strerror or e})"
            ) from e
    return _PRIVATE_LINK_DIR


_PRIVATE_LINK_DIR = None


def _clang_version(cc):
    """The compiler's identity in cache keys: its resolved path, size and
    modification time (no process start on a disk-cache hit)."""
    real = os.path.realpath(cc)
    st = os.stat(real)
    return f"{real} {st.st_size} {st.st_mtime_ns}"


HOST_FLAGS = ["-O2", "-fPIC"]
CU_HOST_DEFINES = [
    "-D__host__=",
    "-D__device__=",
    "-D__global__=",
    "-D__forceinline__=inline",
    "-D__noinline__=",
    "-DPYDEV_HOST_CU=1",
]


def _compile_host_source(cc, path, kind, data, out):
    lang = {
        "c": ["-x", "c", "-std=c17"],
        "c++": ["-x", "c++", "-std=c++17"],
        "cu": ["-x", "c++", "-std=c++17", *CU_HOST_DEFINES],
        "ir": ["-x", "ir"],
    }[kind]
    _run([cc, *lang, *HOST_FLAGS, "-c", path, "-o", out], f"compiling {path} for the host")


def host_library(paths, declared=(), owner="the kernel"):
    """The path of a shared library built from link files `paths` (and the
    adapters of `declared` functions) for the host JIT, cached by content
    under the disk cache's directory. Undefined and duplicate symbols are
    LinkErrors naming them."""
    cc = clang()
    declared = _signatures(declared)
    adapter_ll, adapter_cxx = host_adapters(declared) if declared else ("", "")
    h = hashlib.sha256()
    for part in (
        "pydev-host-link-1",
        _clang_version(cc),
        " ".join(HOST_FLAGS),
        adapter_ll,
        adapter_cxx,
        *(f"{p}\0{d}" for p, d in link_digest(paths)),
    ):
        b = part.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    key = h.hexdigest()
    found = _cache.find_file(os.path.join("link", f"{key}.so"))  # trusted caches only
    if found is not None:
        return found
    root = _cache_root()
    lib = os.path.join(root, f"{key}.so")
    if os.path.isfile(lib) and _cache.trusted_file(root, lib):
        return lib
    work = tempfile.mkdtemp(prefix="pydev-link-", dir=root)
    try:
        objs, archives = [], []
        for i, p in enumerate(paths):
            suffix = os.path.splitext(p)[1].lower()
            if suffix in CUDA_ONLY:
                raise LinkError(
                    f"link file '{p}' of {owner} is cuda code ({suffix}), which the host target cannot link (the host links {', '.join(list(HOST_SOURCES) + list(HOST_BINARIES))})"
                )
            if suffix == ".o":
                objs.append(p)
            elif suffix == ".a":
                archives.append(p)
            else:
                out = os.path.join(work, f"{i}-{os.path.basename(p)}.o")
                _compile_host_source(cc, p, HOST_SOURCES[suffix], None, out)
                objs.append(out)
        if declared:
            for name, text, kind in (("adapters.ll", adapter_ll, "ir"), ("shims.cpp", adapter_cxx, "c++")):
                src = os.path.join(work, name)
                with open(src, "w") as f:
                    f.write(text)
                out = src + ".o"
                _compile_host_source(cc, src, kind, None, out)
                objs.append(out)
        tmp = os.path.join(work, "lib.so")
        cmd = [cc, "-shared", "-fPIC", "-o", tmp, *objs]
        if archives:
            cmd += ["-Wl,--whole-archive", *archives, "-Wl,--no-whole-archive"]
        cmd += ["-Wl,--no-undefined", "-lstdc++", "-lm"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise LinkError(_link_message(r.stderr or r.stdout, paths, declared, owner))
        os.replace(tmp, lib)
        return lib
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _link_message(log, paths, declared, owner):
    import re

    files = ", ".join(os.path.basename(p) for p in paths) or "no files"
    undefined = sorted(set(re.findall(r"undefined (?:reference to|symbol:?) [`'\"]?([A-Za-z_][\w$.]*)", log)))
    duplicate = sorted(set(re.findall(r"(?:multiple definition of|duplicate symbol:?) [`'\"]?([A-Za-z_][\w$.]*)", log)))
    sites = {d[0]: d[3] for d in declared}
    parts = []
    for s in undefined:
        site = sites.get(s)
        if site:
            parts.append(
                f"{site}: error: the interoperable function '{s}' is declared here, but no linked file defines it (linked: {files})"
            )
        else:
            parts.append(f"error: undefined symbol '{s}' at link time (linked for {owner}: {files})")
    for s in duplicate:
        parts.append(
            f"error: duplicate symbol '{s}' at link time: more than one linked file of {owner} defines it ({files})"
        )
    if not parts:
        parts.append(f"error: linking {files} for {owner} failed")
    return "\n".join(parts) + "\nlinker output:\n" + log.strip()


PY_PREFIX = "__pydev_py_"
RPACKED_PREFIX = "__pydev_rpacked_"


def _needs_adapter(params, result):
    return any(not isinstance(m, Scalar) for m in [m for _, m in params] + ([result] if result is not None else []))


def reverse_adapters(llvm_ir, name, params, result):
    """(LLVM IR, C++) that make Python interop function `name` callable with
    the platform's C ABI: the module's `@name` (register form) becomes
    `@__pydev_py_name`; `__pydev_rpacked_name(void**)` (LLVM IR) reads the
    arguments from their C layout and calls it; the C++ `name` takes the
    CUDA C++ types by value and calls that."""
    import re

    llvm_ir = re.sub(rf"@{re.escape(name)}(?![\w.$])", f"@{PY_PREFIX}{name}", llvm_ir)
    ir = _IR()
    regs = []
    for i, (_, m) in enumerate(params):
        slot = ir.tmp()
        ir.emit(f"{slot} = getelementptr inbounds ptr, ptr %args, i64 {i}")
        p = ir.tmp()
        ir.emit(f"{p} = load ptr, ptr {slot}, align 8")
        regs.append(f"{_reg(m)} {_build_value(ir, m, p)}")
    call = f"@{PY_PREFIX}{name}({', '.join(regs)})"
    if result is None:
        ir.emit(f"call void {call}")
    else:
        r = ir.tmp()
        ir.emit(f"{r} = call {_reg(result)} {call}")
        slot = ir.tmp()
        ir.emit(f"{slot} = getelementptr inbounds ptr, ptr %args, i64 {len(params)}")
        p = ir.tmp()
        ir.emit(f"{p} = load ptr, ptr {slot}, align 8")
        for path, sty, off in _leaves(result):
            value = _extract(ir, result, r, path) if path else r
            _store_leaf(ir, sty, value, p, off)
    ir.emit("ret void")
    llvm_ir += f"\ndefine void @{RPACKED_PREFIX}{name}(ptr %args) {{\n" + "\n".join(ir.lines) + "\n}\n"
    decls, [(cparams, cres)] = cxx_signatures([(params, result)])
    n = len(params)
    ptrs = ", ".join([f"(void*)&a{i}" for i in range(n)] + ([] if result is None else ["(void*)&r"]))
    body = f"void* p[] = {{{ptrs or 'nullptr'}}}; {RPACKED_PREFIX}{name}(p);"
    if result is not None:
        body = f"{cres} r; {body} return r;"
    cxx = (
        "\n".join(
            [
                "// pydev: the C ABI entry of a Python interoperable function (python/pydev/_interop.py)",
                decls,
                f'extern "C" void {RPACKED_PREFIX}{name}(void**);',
                f'extern "C" {cres} {name}({", ".join(f"{c} a{i}" for i, c in enumerate(cparams))}) {{ {body} }}',
            ]
        )
        + "\n"
    )
    return llvm_ir, cxx


def host_object(llvm_ir, name, params=None, result=None, declared=()):
    """A relocatable object file (bytes) of host-stage LLVM IR text; with
    the annotated types of interop function `name`, its symbol takes the
    platform's C ABI for aggregates (`reverse_adapters`)."""
    cc = clang()
    with tempfile.TemporaryDirectory(prefix="pydev-object-") as work:
        src, out = os.path.join(work, "m.ll"), os.path.join(work, "m.o")
        cxx = None
        if params is not None and _needs_adapter(params, result):
            llvm_ir, cxx = reverse_adapters(llvm_ir, name, params, result)
        with open(src, "w") as f:
            f.write(llvm_ir)
        _run([cc, "-x", "ir", "-O3", "-fPIC", "-c", src, "-o", out], f"compiling '{name}' to an object file")
        if cxx is not None:
            shim, shim_o, both = (
                os.path.join(work, "shim.cpp"),
                os.path.join(work, "shim.o"),
                os.path.join(work, "all.o"),
            )
            with open(shim, "w") as f:
                f.write(cxx)
            _run(
                [cc, "-x", "c++", "-std=c++17", "-O2", "-fPIC", "-c", shim, "-o", shim_o],
                f"compiling the C ABI entry of '{name}'",
            )
            _run([cc, "-r", "-nostdlib", "-o", both, out, shim_o], f"combining the object file of '{name}'")
            out = both
        if declared:  # the adapters of the declared functions it calls
            a_ll, a_cxx = host_adapters(_signatures(declared))
            parts = [out]
            for n, text, kind in (("adapters.ll", a_ll, "ir"), ("shims.cpp", a_cxx, "c++")):
                p = os.path.join(work, n)
                with open(p, "w") as f:
                    f.write(text)
                _compile_host_source(cc, p, kind, None, p + ".o")
                parts.append(p + ".o")
            both = os.path.join(work, "with-adapters.o")
            _run([cc, "-r", "-nostdlib", "-o", both, *parts], f"combining the object file of '{name}'")
            out = both
        with open(out, "rb") as f:
            return f.read()


# --- program-level helpers (the frontends' kernels and pydev.compile) -----------------------


def program_links(functions):
    """(link paths, declared functions) of `functions` (the _Function
    objects a kernel reaches): paths in order without repeats; declared
    interop functions as (name, params, result, site)."""
    paths, declared, seen = [], [], set()
    for f in functions:
        for p in getattr(f, "link", ()):
            if p not in seen:
                seen.add(p)
                paths.append(p)
        if getattr(f, "interop", False) and f._is_declaration():
            declared.append(f)
    return tuple(paths), declared


def _signatures(declared):
    """(name, params, result, site) of declared functions (their annotations)."""
    out = []
    for f in declared:
        if isinstance(f, tuple):
            out.append(f)
            continue
        params, result = annotations(f.underlying)
        out.append((f.__name__, params, result, _site(f.underlying)))
    return out


def cxx_header(*objs):
    """A C++ header (text) declaring `objs`: @device.struct classes (with
    static_asserts on sizeof, alignof and each offsetof), the array
    descriptor, and interoperable functions and kernels (their parameters
    and result annotated), from the native generator (runtime/src/cxx_header.rs,
    the one the command line's `pydevc FILE --emit cxx-header` uses, with
    the dialect's layouts). Objects of several files give one header per
    file, concatenated. See docs/interop.md."""
    import sys as _sys

    from . import _native

    by_file = {}
    for o in objs:
        if _types.is_struct(o):
            module = _sys.modules.get(o.__module__)
            path = getattr(module, "__file__", None)
            if not path or not os.path.isfile(path):
                raise TypeError(
                    f"cxx_header(): the source of struct '{o.__name__}' is not available (it must be defined at the top level of a .py file)"
                )
            with open(path, encoding="utf-8") as f:
                text = f.read()
            name = o.__name__
        elif hasattr(o, "underlying") and hasattr(o, "interop") and callable(getattr(o, "_source", None)):
            # a Python frontend's function (cuda.device's @func / @kernel)
            path, text = o._source()
            name = o.underlying.__code__.co_name
            if not o.interop:
                raise TypeError(
                    f"{_site(o.underlying)}: error: '{o.__name__}' is not interoperable: the header declares "
                    "@device.func(interop=True) functions and @device.kernel(interop=True) kernels"
                )
        else:
            raise TypeError(
                f"cxx_header() takes @device.struct classes and interoperable @device.func / @device.kernel functions, got {o!r}"
            )
        entry = by_file.setdefault(path, (text, []))
        if name not in entry[1]:
            entry[1].append(name)
    native = _native.get()
    return "\n".join(native.cxx_header(path, text, names) for path, (text, names) in by_file.items())


if sys.platform == "win32":  # pragma: no cover - the host link path is ELF/Mach-O only
    HOST_FLAGS = ["-O2"]
