"""What pickling needs from the backend, whatever the frontend: whether an
object goes by reference (importable where it is loaded) or by value, a
Python function by value with `pickle` as with cloudpickle (its code, the
values of the global names it reads and of its closure cells, its file's
source text registered in `linecache` on load), link files by content, and
the version check of a pickle made by value (docs/distributed.md).

Distributed engines (multiprocessing, Dask, Ray) send functions to workers
by pickling them. `pickle` stores a function by name, which fails for one of
`__main__` or a closure; cloudpickle stores such functions by value. pydev's
dispatchers hold locks, caches and loaded code, which must not travel, so
they reduce to what rebuilds them: this module's parts, which both picklers
handle (code as `marshal` bytes, modules by name), so a kernel of `__main__`
travels with plain `pickle` too. Nothing here imports a frontend."""

import builtins
import hashlib
import linecache
import marshal
import os
import sys
import tempfile
import types
import uuid
import weakref

from . import __version__, _code

# The pydev and Python versions a pickle made by value was made with: code
# objects (marshal) are tied to the Python version, the payload to pydev's.
VERSION = (__version__, tuple(sys.version_info[:2]))


def check_version(made, what):
    """Refuses a pickle made by another pydev or Python, naming both."""
    if (made[0], tuple(made[1])) != VERSION:
        raise RuntimeError(
            f"cannot load {what}: it was pickled by pydev {made[0]} on Python {'.'.join(map(str, made[1]))}, "
            f"and this is pydev {VERSION[0]} on Python {'.'.join(map(str, VERSION[1]))}: pickle it again here, "
            "or use the same versions on every machine"
        )


def _by_value_modules():
    """The modules cloudpickle was told to pickle by value
    (`cloudpickle.register_pickle_by_value`), when it is imported."""
    cp = sys.modules.get("cloudpickle.cloudpickle") or sys.modules.get("cloudpickle")
    return getattr(cp, "_PICKLE_BY_VALUE_MODULES", ()) if cp is not None else ()


def importable(obj):
    """Whether `obj` is found by its module and qualified name, so it goes
    by reference: not of `__main__` (a worker's `__main__` is another
    program), not made in a function (`<locals>`), not of a module that
    cloudpickle pickles by value, and the name is bound to `obj` itself."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not module or not qualname or module == "__main__" or "<locals>" in qualname:
        return False
    by_value = _by_value_modules()
    if module in by_value or any(module.startswith(m + ".") for m in by_value):
        return False
    found = sys.modules.get(module)
    if found is None:
        return False
    for part in qualname.split("."):
        found = getattr(found, part, None)
        if found is None:
            return False
    return found is obj


def by_reference(obj):
    """A __reduce__ value that pickles `obj` by reference: its module and
    qualified name, which `_find` imports and follows where it is loaded."""
    return (_find, (obj.__module__, obj.__qualname__))


def _find(module, qualname):
    import importlib

    found = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


# --- source text ----------------------------------------------------------------------------


def source_text(path):
    """The text of file `path` as Python sees it: linecache first (a
    notebook cell, registered source), then the file; None if neither."""
    lines = linecache.getlines(path)
    if lines:
        return "".join(lines)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    return None


def register_source(path, text):
    """Registers `text` as the source of `path` in linecache (unless it is
    already what linecache has), so that a worker without the file (or a
    notebook cell's code) finds its lines: the frontends read them, and
    errors and tracebacks show them. mtime None: checkcache keeps it."""
    if text is None:
        return
    if "".join(linecache.getlines(path)) == text:
        return
    linecache.cache[path] = (len(text), None, text.splitlines(True), path)


# --- modules and functions by value ---------------------------------------------------------


class ModuleRef:
    """A module by name: plain `pickle` cannot store a module object."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return (_import, (self.name,))


def _import(name):
    import importlib

    return importlib.import_module(name)


class FunctionRef:
    """A plain Python function that device code's globals name (a host
    helper of `__main__`, say), by value when it is not importable."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __reduce_ex__(self, protocol):
        args, state = function_parts(self.fn)
        return (new_function, args, state, None, None, fill_function)


def carried(value):
    """`value` as it travels in a function's globals or cells: a module by
    name, a plain function of `__main__` or made in a function by value;
    anything else as it is (pydev's objects reduce themselves)."""
    if isinstance(value, types.ModuleType):
        return ModuleRef(value.__name__)
    if isinstance(value, types.FunctionType) and not importable(value):
        return FunctionRef(value)
    return value


# Tokens of the globals dicts whose functions were pickled by value here,
# and in a loading process, the globals dict made for each token: the
# functions of one module share one namespace there (as they do here), so
# that a kernel finds the device functions and structs of its file.
_TOKENS = {}
_NAMESPACES = {}
_UNBOUND = ("pydev-unbound-cell",)


_CLASS_TOKENS = weakref.WeakKeyDictionary()  # a class made in a function is not kept alive by its token


def _token(obj):
    """A name of `obj` (a module's globals, a class) unique among processes."""
    if isinstance(obj, type):
        token = _CLASS_TOKENS.get(obj)
        if token is None:
            token = _CLASS_TOKENS.setdefault(obj, uuid.uuid4().hex)
        return token
    entry = _TOKENS.get(id(obj))
    if entry is None or entry[0] is not obj:
        entry = _TOKENS[id(obj)] = (obj, uuid.uuid4().hex)
    return entry[1]


class Pickled:
    """A free value only cloudpickle can store (an open file, say), as the
    bytes cloudpickle made: loaded with `pickle.loads` (cloudpickle must be
    importable there), whichever pickler carried it."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data

    def __reduce__(self):
        return (_unpickle, (self.data,))


def _unpickle(data):
    import pickle

    return pickle.loads(data)


_PLAIN = (int, float, complex, bool, str, bytes, type(None), type, ModuleRef, FunctionRef)


def _checked(value, name, owner):
    """`value` (of free name `name` of `owner`), refused with a TypeError
    that names both when neither pickle nor cloudpickle can store it (the
    picklers' own error names neither); one that only cloudpickle stores
    goes as its bytes (`Pickled`), so that plain pickle carries it too.
    pydev's objects, numbers, strings, classes and NumPy dtypes and scalars
    are not tried."""
    value = carried(value)
    t = type(value)
    if isinstance(value, _PLAIN) or (t.__module__ or "").split(".")[0] in ("pydev", "cuda", "numpy"):
        return value
    import pickle

    try:
        pickle.dumps(value)
        return value
    except Exception as e:
        error = e
    cp = sys.modules.get("cloudpickle")
    if cp is not None:
        try:
            # Stored by cloudpickle now: plain pickle, which failed on it, carries the bytes.
            return Pickled(cp.dumps(value))
        except Exception as e:
            error = e
    described = f"{t.__module__ + '.' if t.__module__ not in ('builtins', None) else ''}{t.__qualname__}"
    raise TypeError(
        f"cannot pickle {owner}: its free name '{name}' holds a {described}, which cannot be pickled ({error}); "
        "device code reads numbers, strings, device functions, structs and modules: pass the value as an argument, "
        "or make it one of those"
    )


def function_parts(fn, extra_globals=(), owner=None, source=None):
    """(arguments of `new_function`, state for `fill_function`) of Python
    function `fn` by value: its code (marshal), names, the token of its
    module's namespace, its file's source text; then the values of the
    globals its code reads (and of `extra_globals`), its closure cells,
    defaults, annotations and attributes. `owner` names it in errors;
    `source` is the text of its file, when the caller compiled from it
    (else linecache's, or the file's)."""
    code = fn.__code__
    g = fn.__globals__
    owner = owner or f"function '{fn.__qualname__}'"
    names = _code.global_names(code, set()) | set(extra_globals)
    values = {n: _checked(g[n], n, owner) for n in sorted(names) if n in g}
    cells = []
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            cells.append(_checked(cell.cell_contents, name, owner))
        except ValueError:
            cells.append(_UNBOUND)
    module = g.get("__name__", fn.__module__)
    args = (
        VERSION,
        marshal.dumps(code),
        fn.__name__,
        fn.__qualname__,
        module,
        _token(g),
        len(cells),
        (code.co_filename, source if source is not None else source_text(code.co_filename)),
    )
    state = {
        "globals": values,
        "cells": cells,
        "defaults": fn.__defaults__,
        "kwdefaults": fn.__kwdefaults__,
        "annotations": getattr(fn, "__annotations__", None) or {},
        "dict": dict(fn.__dict__),
        "doc": fn.__doc__,
    }
    return args, state


def new_function(version, code, name, qualname, module, token, ncells, source):
    """A Python function from `function_parts` (its globals and cells are
    filled by `fill_function`, after the objects that refer back to it)."""
    check_version(version, f"function '{qualname}'")
    register_source(*source)
    g = _NAMESPACES.get(token)
    if g is None:  # setdefault: threads loading at once share one namespace
        g = _NAMESPACES.setdefault(token, {"__name__": module, "__builtins__": builtins})
    fn = types.FunctionType(marshal.loads(code), g, name, None, tuple(types.CellType() for _ in range(ncells)))
    fn.__qualname__ = qualname
    fn.__module__ = module
    return fn


def fill_function(fn, state):
    fn.__globals__.update(state["globals"])
    for cell, value in zip(fn.__closure__ or (), state["cells"]):
        if value != _UNBOUND:
            cell.cell_contents = value
    fn.__defaults__ = state["defaults"]
    fn.__kwdefaults__ = state["kwdefaults"]
    fn.__annotations__ = state["annotations"]
    fn.__dict__.update(state["dict"])
    fn.__doc__ = state["doc"]
    return fn


# --- link files by content ------------------------------------------------------------------


def link_contents(paths):
    """((path, bytes), ...) of link files: they travel by content."""
    out = []
    for p in paths:
        with open(p, "rb") as f:
            out.append((p, f.read()))
    return tuple(out)


def link_paths(contents):
    """Paths of link files with these contents here: the original path when
    it holds the same bytes (the disk-cache keys name it, so they stay the
    same), else a file of a per-content directory under the temporary
    directory (same name, so its kind is still told by its suffix)."""
    out = []
    for path, data in contents:
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    out.append(path)
                    continue
        except OSError:
            pass
        digest = hashlib.sha256(data).hexdigest()[:32]
        where = os.path.join(tempfile.gettempdir(), "pydev-link", digest)
        os.makedirs(where, exist_ok=True)
        target = os.path.join(where, os.path.basename(path))
        if not os.path.exists(target):
            # A temporary name of its own (threads of one process load at
            # once too), renamed: a reader never sees a partial file.
            fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
        out.append(target)
    return tuple(out)


# --- classes by value (structs) -------------------------------------------------------------

_CLASSES = {}  # in a loading process: token -> the class made for it
_CLASS_SKIP = ("__dict__", "__weakref__", "__module__", "__qualname__")


def reduce_class(cls):
    """A __reduce__ value of class `cls` (a @struct class, whose metaclass
    copyreg knows): by reference when importable, else by value: its name,
    bases and a token (a class loaded twice in one process is one class),
    then its attributes (device functions among them) once it exists."""
    if importable(cls):
        return by_reference(cls)
    bases = tuple(b for b in cls.__bases__)
    state = {}
    for k, v in vars(cls).items():
        if k in _CLASS_SKIP:
            continue
        if k == "underlying" and isinstance(v, type) and not importable(v):
            continue  # the class @struct was given: the loaded class stands for it
        state[k] = carried(v)
    args = (VERSION, type(cls), cls.__name__, cls.__qualname__, cls.__module__, bases, _token(cls))
    return (new_class, args, state, None, None, fill_class)


def new_class(version, meta, name, qualname, module, bases, token):
    check_version(version, f"class '{qualname}'")
    cls = _CLASSES.get(token)
    if cls is None:
        made = meta(name, bases, {"__module__": module, "__qualname__": qualname})
        cls = _CLASSES.setdefault(token, made)
    return cls


def fill_class(cls, state):
    for k, v in state.items():
        type.__setattr__(cls, k, v)
    if "underlying" not in state:
        type.__setattr__(cls, "underlying", cls)
    return cls


# --- pydev.Program --------------------------------------------------------------------------


def reduce_program(p, compiled):
    """A pydev.Program by value: its IR text (a frontend's specialization
    as its printed IR, already specialized for its target), options, link
    files' contents, and `compiled` ({disk-cache key: text}: the key names
    the target, architecture and compiler, so a worker loads only what was
    compiled for it)."""
    options = {
        "filename": p.filename,
        "lineinfo": p.lineinfo,
        "fastmath": p.fastmath,
        "cache": p.cache,
        "boundscheck": p.boundscheck,
        "fmad": p.fmad,
    }
    if p.passes is not None:  # by its text and plugin paths: the plugins must exist where it is loaded
        options["passes"] = p.passes.as_dict()
        options["plugins"] = list(p.passes.plugins)
    args = (VERSION, type(p), p.text, p._symbol, options, link_contents(p.link), p._adapted, compiled)
    return (new_program, args)


def new_program(version, cls, text, kernel, options, link, adapted, compiled):
    check_version(version, f"pydev.Program '{kernel}'")
    p = cls(text, kernel, link=link_paths(link), **options)
    p._adapted = adapted
    p._carried = dict(compiled) or None
    return p
