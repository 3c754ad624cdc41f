"""The C types of interoperable functions (spec: Python and CUDA C++;
docs/interop.md): which Python functions are declarations
(`is_declaration`), the type models of their annotations (`annotations`,
`model`, `signatures`), the models' pydev IR type text (`mlir`: what the
native C ABI adapters and header generator read), their C++ names and
declarations (`cxx_signatures`), and the C++ header of structs and
interoperable functions (`cxx_header`). Every layout is the dialect's
(`_pydev.ir_type_layout`; structs' from `_types`, which agrees with it:
python/tests/test_abi_agreement.py).
"""

import ast
import os
import typing

from . import _types
from ._link_paths import _site


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
    # name: size (bytes)
    "bool": 1,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "uint8": 1,
    "uint16": 2,
    "uint32": 4,
    "uint64": 8,
    "float16": 2,
    "bfloat16": 2,
    "float8e4m3": 1,
    "float8e5m2": 1,
    "float32": 4,
    "float64": 8,
}


class Scalar(typing.NamedTuple):
    name: str

    @property
    def size(self):
        return _SCALARS[self.name]

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


def cxx_signatures(sigs):
    """(C++ declarations, [(parameter C++ types, result C++ type), ...]) of
    signatures [(params, result)]: the types named and declared by the
    header generator (runtime/src/cxx_header.rs, as `pydev.cxx_header`
    names them), plus static_asserts that C++'s offset of every scalar is
    the one the adapters read and write (runtime/src/cabi_adapters.rs)."""
    from . import _native

    return _native.get().cabi_cxx_signatures(
        [([_mlir(m) for _, m in params], None if result is None else _mlir(result)) for params, result in sigs]
    )


def signatures(declared):
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
