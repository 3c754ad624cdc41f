"""`@device.kernel` and `@device.func`: the cuda.device frontend's
dispatchers. A kernel is compiled per specialization key (argument
signature, target, architecture, module constants, the values of the free
names its device code reads, ConstExpr arguments) into a `pydev.Program`
made from the Rust frontend's IR; the backend (pydev: Program, caches,
linking, launch) does the rest, as it does for pydev.numba and other
frameworks. This module is the frontend's: the backend never imports it
(docs/ARCHITECTURE.md, "Layers")."""

import linecache
import os
import re
import sys
import threading
import types

import numpy as np

from pydev import _cache, _code, _exec_source, _launch, _native, _types

_exec_source.install()  # records texts given to exec()/compile(): device code from strings


class _Function:
    """What @kernel and @func share: the Python function (`underlying`), its
    file's source, and the module constants its file's device code reads."""

    link = ()  # link=[paths] (absolute), set by the decorator (pydev._link_paths.check_link)
    fmad = True  # fmad=False: no multiply-add contraction (set by the decorator)
    passes = None  # extra passes (pydev._passes.Extra; set by the decorator)
    _program_passes = None  # the extra passes of the functions of the last _program

    def __init__(self, fn, interop, lineinfo=False):
        self.underlying = fn
        self.interop = bool(interop)
        self.lineinfo = bool(lineinfo)
        self._program_lines = False  # some function of the last _program asked for lineinfo
        self._program_fmad = True  # no function of the last _program said fmad=False
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._lock = threading.Lock()
        self._dispatch = {}
        self._names = None
        self._src = None
        self._cells = ()
        self._watch = set()
        self._read = None  # the global names its code reads (nested code too)
        self._const_idx = None

    def __reduce_ex__(self, protocol):
        """Pickled by reference when importable, else by value, without its
        lock, caches or loaded code (cuda.device._pickling)."""
        from . import _pickling

        return _pickling.reduce(self)

    def _source(self):
        """(file name, whole text of the file that defines the function)."""
        if self._src is None:
            path = self.underlying.__code__.co_filename
            text = None
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            else:  # a notebook cell, the 3.13 REPL, generated code: linecache knows them
                lines = linecache.getlines(path)
                # else exec/compile of a string, python -c: the text that defines this very code
                text = "".join(lines) if lines else _exec_source.source_of(self.underlying.__code__)
            if not text:
                raise TypeError(
                    f"the source of '{self.__qualname__}' is not available (it was compiled from {path}): pydev compiles "
                    "device code from its Python source, so it must live in a .py file, a notebook cell, `python -c`, "
                    "a string given to exec()/compile() after cuda.device is imported, or source "
                    "registered in linecache before it is executed, e.g.\n"
                    "    src = 'import cuda.device as device\\n@device.kernel\\ndef k(out):\\n    out[0] = 1\\n'\n"
                    "    name = '<generated-1>'\n"
                    "    linecache.cache[name] = (len(src), None, src.splitlines(True), name)\n"
                    "    exec(compile(src, name, 'exec'), namespace)\n"
                    "(see docs/frontend.md, 'Where device code may live')"
                )
            self._src = (path, text)
        return self._src

    def _const_params(self):
        """Indices of the parameters annotated ConstExpr / ConstExpr[T]: a
        kernel is compiled for their values at launch (as Triton's constexpr)."""
        if self._const_idx is None:
            code = self.underlying.__code__
            ann = getattr(self.underlying, "__annotations__", None) or {}
            names = code.co_varnames[: code.co_argcount]
            self._const_idx = tuple(i for i, n in enumerate(names) if _is_const_expr(ann.get(n)))
        return self._const_idx

    def _program(self, const_args=()):
        """What the compiler gets besides the source: this function and every
        device function it reaches through its free names, each as (first
        line, qualified name, kind, interop, ((name, value), ...)) with the
        values Python binds those names to now (closure cells, then globals;
        builtins are the compiler's), and what the launch fast path watches
        (the global names read, the closure cells)."""
        funcs, index, cells, watch = [], {}, [], set()
        root_file = self.underlying.__code__.co_filename
        lines = [False]
        fmad = [True]
        extras = []
        reached = self._reached = []  # the _Function objects (their link= files: _link_paths)

        def visit(f):
            i = index.get(id(f))
            if i is not None:
                return i
            i = index[id(f)] = len(funcs)
            funcs.append(None)
            reached.append(f)
            lines[0] |= f.lineinfo
            fmad[0] &= f.fmad
            if f.passes is not None:
                extras.append(f.passes)
            fn = f.underlying
            code = fn.__code__
            env = {}
            outer = getattr(code, "co_qualname", fn.__qualname__).rsplit(".<locals>.", 1)
            where = f"captured from '{outer[0].rsplit('.', 1)[-1]}'" if len(outer) == 2 else "captured"
            for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
                try:
                    value = cell.cell_contents
                except ValueError:
                    continue  # not bound yet: the compiler says the name is not defined
                cells.append(cell)
                env[name] = _free_value(value, visit, root_file) or ("host", f"{_describe(value)} {where}")
            if f._read is None:
                f._read = tuple(sorted(_code.global_names(code, set())))
            g = fn.__globals__
            for name in f._read:
                if name not in env and name in g:
                    watch.add(name)
                    v = g[name]
                    value = _free_value(v, visit, root_file)
                    if value is None and not _defined_in(v, root_file):
                        value = ("host", f"{_describe(v)} (a global of {g.get('__name__', 'its module')})")
                    if value is not None:  # else the file's own definition says what it is
                        env[name] = value
            kind = "kernel" if isinstance(f, Kernel) else "func"
            qualname = getattr(code, "co_qualname", fn.__qualname__)
            funcs[i] = (
                code.co_firstlineno,
                qualname,
                kind,
                f.interop,
                tuple(sorted(env.items())),
                const_args if f is self else (),
            )
            return i

        visit(self)
        if not os.path.isfile(root_file):
            # Texts from strings share names such as "<string>": a device function
            # of another text is not this file's, though its file name is.
            text = self._source()[1]
            for f in reached[1:]:
                if f.underlying.__code__.co_filename == root_file and f._source()[1] != text:
                    raise TypeError(
                        f"'{self.__qualname__}' calls the device function '{f.__qualname__}' of another text compiled "
                        f"as {root_file} (device code calls device functions of its own file only)"
                    )
        self._program_lines = lines[0]
        self._program_fmad = fmad[0]
        if extras or self._program_passes is not None:
            from pydev import _passes

            self._program_passes = _passes.combine(*extras)
        return tuple(funcs), cells, watch

    def _is_declaration(self):
        """Whether this is an interop declaration (a body of only `...`)."""
        d = self.__dict__.get("_declaration")
        if d is None:
            from pydev import _c_types

            d = self._declaration = self.interop and _c_types.is_declaration(self.underlying)
        return d

    def _lineinfo(self, target):
        """Whether PTX for `target` gets `.file`/`.loc` line information:
        PYDEV_LINEINFO=1, or lineinfo=True on this function or a device
        function its last `_program` reaches (never on the host)."""
        if target == "host":
            return False
        return self._program_lines or os.environ.get("PYDEV_LINEINFO", "0").strip() == "1"

    def _fmad(self):
        """Whether multiply-add contraction is allowed: not with PYDEV_FMAD=0,
        nor with fmad=False on this function or a device function its last
        `_program` reaches."""
        return self._program_fmad and os.environ.get("PYDEV_FMAD", "1").strip() != "0"

    def _device_functions(self):
        """The @kernel / @func functions of this file (this one included) and
        the @func methods of its @struct classes."""
        g = self.underlying.__globals__
        out = [self.underlying]
        for value in list(g.values()):
            if isinstance(value, _Function) and value.underlying.__globals__ is g:
                out.append(value.underlying)
            elif _types.is_struct(value) and value.__module__ == self.__module__:
                out += [v.underlying for v in vars(value).values() if isinstance(v, _Function)]
        return out

    def _signature_for(self, argtypes, target):
        """(pydevc signature, ConstExpr arguments) of `argtypes` of
        pydev.compile: a signature string, or a list of example arguments
        or type strings (example values of ConstExpr parameters are
        compiled in, as at launch)."""
        if isinstance(argtypes, str):
            return argtypes, ()
        if not isinstance(argtypes, (list, tuple)):
            raise TypeError(
                f"argtypes must be a signature string or a list of example arguments, got {type(argtypes).__name__}"
            )
        parts = []
        kind = "host" if target == "host" else "cuda"
        for i, a in enumerate(argtypes):
            if isinstance(a, str):
                parts.append(a)
            else:
                parts.append(_launch.pack_args(self, [a], kind, check_device=False, start=i)[0])
        cargs = ()
        if isinstance(self, Kernel):
            examples = {
                i: argtypes[i] for i in self._const_params() if i < len(argtypes) and not isinstance(argtypes[i], str)
            }
            if examples:
                given = const_args(self, [examples.get(i) for i in range(len(argtypes))])
                cargs = tuple(c for c in given if c[0] in examples)
        return ", ".join(parts), cargs

    def _extra(self):
        """The extra passes of its last `_program` with the process's (PYDEV_PASSES)."""
        if self._program_passes is None and not _env_passes():
            return None
        from pydev import _passes

        return _passes.combine(self._program_passes, _passes.from_env())

    def _frontend_stage(self, signature, cargs, target, stage, fmad=None, boundscheck=None, extra=None):
        """A text stage straight from the frontend and pipeline (the stages
        before a Program, and every stage of a device function, which is
        no kernel to make a Program of)."""
        native = _native.get()
        path, source = self._source()
        _launch._count("compiles")
        if target == "host":
            lib = ""
        else:
            from pydev import _toolchain

            lib = _toolchain.libdevice()
        program = self._program(cargs)[0]
        lines = self._lineinfo(target)  # lineinfo=True on a function of the program, or PYDEV_LINEINFO=1
        fmad = self._fmad() if fmad is None else fmad
        if extra is None:
            extra = self._extra()
        passes = {} if extra is None else extra.options()
        return native.compile(
            path,
            source,
            self.underlying.__code__.co_name,
            signature,
            self._consts(),
            target,
            stage,
            libdevice=lib,
            program=program,
            line_info=lines,
            fmad=fmad,
            boundscheck=boundscheck,
            **passes,
        )

    def _consts(self):
        """{name: value} of the module globals that the file's device code
        may read as constants: bool, int, float, str and tuples of them."""
        if self._names is None:
            names = set()
            for fn in self._device_functions():
                _code.global_names(fn.__code__, names)
            self._names = sorted(names)
        g = self.underlying.__globals__
        out = {}
        for n in self._names:
            if n in g and is_constant(g[n]):
                out[n] = g[n]
        return out

    def _structs(self):
        """@struct classes visible to this file's device code: those its
        device functions capture (structs defined in functions), then the
        module's."""
        g = self.underlying.__globals__
        captured, seen, todo = [], set(), [self]
        while todo:
            f = todo.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            for cell in f.underlying.__closure__ or ():
                try:
                    v = cell.cell_contents
                except ValueError:
                    continue
                if isinstance(v, _Function):
                    todo.append(v)
                elif _types.is_struct(v) and v not in captured:
                    captured.append(v)
        mine = [v for v in g.values() if _types.is_struct(v) and v.__module__ == self.__module__]
        others = [v for v in g.values() if _types.is_struct(v) and v.__module__ != self.__module__]
        return captured + mine + others


_DEVICE_NAMES = None


def _device_names():
    """{id: name} of the entities of cuda.device (dtypes, vector types,
    functions, SM selectors, target descriptions...)."""
    global _DEVICE_NAMES
    if _DEVICE_NAMES is None:
        import cuda.device as device

        _DEVICE_NAMES = {
            id(v): k
            for k, v in vars(device).items()
            if not k.startswith("_") and not isinstance(v, (bool, int, float, str))
        }
    return _DEVICE_NAMES


def _describe(value):
    t = type(value)
    return f"a {t.__module__ + '.' if t.__module__ not in ('builtins', None) else ''}{t.__qualname__}"


def _target_tree(d):
    sm = next((a.number for a in d._args if hasattr(a, "number")), 0)
    return (d._op, sm, tuple(_target_tree(a) for a in d._args if not hasattr(a, "number")))


def _const_value(v):
    """A compile-time constant's description, or None."""
    if isinstance(v, (bool, int, float)) and type(v) in (bool, int, float):
        return ("num", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        name = _types.dtype_name(v.dtype)
        return ("typed", name, v.item()) if name else None
    if isinstance(v, tuple):
        items = tuple(_const_value(x) for x in v)
        return ("tuple", items) if all(x is not None for x in items) else None
    return None


_MODULES = None


def _is_const_expr(annotation):
    """Whether a parameter annotation is ConstExpr or ConstExpr[T] (also as
    a string, under `from __future__ import annotations`)."""
    if annotation is None:
        return False
    if isinstance(annotation, str):
        return re.fullmatch(r"(\w+\.)*ConstExpr(\[.*\])?", annotation.strip()) is not None
    device = sys.modules.get("cuda.device")
    return device is not None and (annotation is device.ConstExpr or isinstance(annotation, device.ConstExpr))


def const_args(f, args):
    """((index, constant), ...) for the ConstExpr parameters of kernel `f`."""
    out = []
    code = f.underlying.__code__
    for i in f._const_params():
        if i >= len(args):
            break
        c = _const_value(args[i])
        if c is None or c[0] not in ("num", "typed"):
            raise TypeError(
                f"argument '{code.co_varnames[i]}' of kernel '{f.__name__}' is annotated ConstExpr: pass a number "
                f"(bool, int, float or a NumPy scalar), which the kernel is compiled for; got {_describe(args[i])}"
            )
        out.append((i, c))
    return tuple(out)


def _defined_in(v, filename):
    """Whether `v` is a plain function or class of file `filename`, whose
    definition the frontend can name in its error (not decorated...)."""
    if isinstance(v, types.FunctionType):
        return v.__code__.co_filename == filename
    if isinstance(v, type):
        module = sys.modules.get(getattr(v, "__module__", None) or "")
        return getattr(module, "__file__", None) == filename
    return False


def _free_value(v, visit, root_file):
    """What device code sees for Python value `v` of a free name (see
    _Function._program), or None for a value it cannot hold."""
    global _MODULES
    t = type(v)
    if t is int or t is float or t is bool:
        return ("const", ("num", v))
    if _MODULES is None:
        import math

        import cuda
        import cuda.device

        _MODULES = {id(cuda.device): "device", id(cuda): "cuda", id(math): "math", id(np): "numpy"}
    m = _MODULES.get(id(v))
    if m is not None:
        return ("module", m)
    device = sys.modules["cuda.device"]
    while not isinstance(v, _Function) and callable(v) and hasattr(v, "__wrapped__"):
        v = v.__wrapped__  # functools.wraps around a kernel or device function
    if isinstance(v, _Function):
        code = v.underlying.__code__
        if code.co_filename != root_file:
            return (
                "host",
                f"the device function '{v.__qualname__}' of {code.co_filename} (device code calls device functions of its own file only)",
            )
        return ("func", visit(v))
    c = _const_value(v)
    if c is not None:
        return ("const", c)
    if _types.is_struct(v):
        if v._site[0] != root_file:
            return ("struct", v.__name__)  # the compiler names a struct of another file
        # Its @func methods are the program's, with the names they read.
        for m in vars(v).values():
            if isinstance(m, _Function):
                visit(m)
        return ("struct", _types.sig_name(v))
    name = _device_names().get(id(v))
    if name is not None:
        return ("device", name)
    if isinstance(v, device.TargetDescription):
        return ("target", _target_tree(v))
    if isinstance(v, device.SMSelector):
        return ("device", f"sm{v.number}")
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        name = _types.dtype_name(v)
        if name is not None:
            return ("dtype", name)
    return None


def is_constant(v):
    if isinstance(v, np.generic):
        return False  # device code sees Python constants (their dtype would be lost)
    if isinstance(v, (bool, int, float, str)):
        return True
    return isinstance(v, tuple) and all(is_constant(x) for x in v)


class DeviceFunction(_Function):
    """A `@func`: heterogeneous, so on the host it is the Python function."""

    def __call__(self, *args, **kwargs):
        if self.interop and self._is_declaration():
            raise _types.DeviceOnlyError(
                f"'{self.__name__}' is a declaration (its body is ...): linked code defines it, so call it from device code "
                "(docs/interop.md); its Python body would return None"
            )
        return self.underlying(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        # Methods of @struct classes bind like plain functions on the host.
        return self if obj is None else types.MethodType(self.underlying, obj)

    def __repr__(self):
        return f"<cuda.device.func {self.__qualname__}>"

    def __pydev_compile__(self, argtypes, target, stage, fmad=None, extra=None):
        """pydev.compile(func, argtypes, target, stage): a device function is
        no kernel, so no Program: every stage comes from the frontend."""
        if stage in _BYTES_STAGES:
            return _bytes_stage(self, argtypes, target, stage)
        signature, cargs = self._signature_for(argtypes, target)
        return self._frontend_stage(signature, cargs, target, stage, fmad, extra=extra)

    def __pydev_launch__(self, args, **config):
        raise TypeError(f"launch() takes a @device.kernel; '{self.__name__}' is a @device.func (call it from a kernel)")


@_launch.launchable
class Kernel(_Function):
    """A `@kernel`: compiled on first launch for the argument types seen,
    per (signature, target, arch, module constants)."""

    def __pydev_launch__(self, args, *, grid, block, stream, shared, fast):
        _launch_kernel(self, args, grid=grid, block=block, stream=stream, shared=shared, fast=fast)

    def __call__(self, *args, **kwargs):
        raise _types.DeviceOnlyError(
            f"kernel '{self.__name__}' is device-only: launch it with device.launch({self.__name__}, *args, grid=..., block=..., stream=...)"
        )

    def __repr__(self):
        return f"<cuda.device.kernel {self.__qualname__}>"

    def program(self, signature, target, arch, consts=None, const_args=()):
        """The loaded program for a signature (compiling it if needed), and
        for the values `const_args` ((index, constant), ...) of its ConstExpr
        parameters."""
        if consts is None:
            consts = self._consts()
        program, self._cells, self._watch = self._program(const_args)
        lines = self._lineinfo(target)
        # repr tells True from 1 and -0.0 from 0.0, which == does not.
        # PYDEV_BOUNDSCHECK=1 compiles another program (index checks, on
        # either target), as it is another disk-cache entry.
        checks = os.environ.get("PYDEV_BOUNDSCHECK", "0") == "1"
        fmad = self._fmad()
        own = self._program_passes
        env = None
        if _env_passes():
            from pydev import _passes

            env = _passes.from_env()
        key = (signature, target, arch, lines, checks, fmad, own, env, repr((sorted(consts.items()), program)))
        prog = self._dispatch.get(key)
        if prog is not None:
            _launch._count("memory_hits")
            return prog
        with self._lock:
            prog = self._dispatch.get(key)
            if prog is None:
                prog = self._build(signature, target, arch, consts, program, lines, fmad, own)
                self._dispatch[key] = prog
            else:
                _launch._count("memory_hits")
        return prog

    def _build(self, signature, target, arch, consts, program, lines=False, fmad=True, passes=None):
        """The loaded program of one specialization: its pydev.Program's
        (kept in `_specs`: a pickle carries the code they compiled)."""
        spec = self._specialize(signature, target, arch, consts, program, lines, fmad, passes)
        prog = spec._program(target, arch)
        self.__dict__.setdefault("_specs", []).append(spec)
        return prog

    def _specialize(self, signature, target, arch, consts, program, lines=False, fmad=True, passes=None):
        """The pydev.Program of one specialization: this kernel for
        `signature` on `target` (`arch` on cuda), with the module constants
        `consts` and the program description `program` (the values of the
        free names its device code reads). Its source key (file text,
        signature, constants, program, target, compiler) settles the
        frontend's IR, so the Program's cache keys derive from it: a new
        process finds the compiled code without running the frontend."""
        from pydev._program import Program

        path, source = self._source()
        tgt = "host" if target == "host" else arch
        symbol = self.underlying.__code__.co_name  # the kernel's entry point is its def's name
        links, declared = _interop_links(self)
        key = _cache.cache_key(source, consts, signature, tgt, "pydev", symbol, _native.fingerprint(), "", program)

        def compile(
            stage,
            *,
            debuginfo=False,
            boundscheck=None,
            libdevice=None,
            line_info=False,
            fmad=True,
            passes=None,
            plugins=(),
        ):
            # With locations (debuginfo): the printed IR says where each op came from.
            return _native.get().compile(
                path,
                source,
                symbol,
                signature,
                consts,
                tgt,
                stage,
                boundscheck=boundscheck,
                libdevice=libdevice,
                program=program,
                line_info=line_info,
                debuginfo=debuginfo,
                fmad=fmad,
                **({} if passes is None else {"passes": passes, "plugins": list(plugins)}),
            )

        prog = Program._of_frontend(
            key,
            compile,
            symbol,
            name=self.__name__,
            filename=path,
            link=links,
            declared=declared,
            lineinfo=lines,
            fmad=fmad,
            passes=passes,
        )
        carried = self.__dict__.get("_carried")
        if carried:  # code compiled where this kernel was pickled (cuda.device._pickling), by disk-cache key
            prog._carried = carried
        return prog

    def __pydev_compile__(self, argtypes, target, stage, fmad=None, extra=None):
        """pydev.compile(kernel, argtypes, target, stage): "python-ast" and
        "pydev" from the frontend, the later stages from the pydev.Program
        of the specialization, as a launch compiles it (`fmad`: None, the
        kernel's own setting; `extra`: extra passes instead of its own)."""
        if stage in _BYTES_STAGES:
            return _bytes_stage(self, argtypes, target, stage)
        signature, cargs = self._signature_for(argtypes, target)
        if stage in ("python-ast", "pydev"):
            return self._frontend_stage(signature, cargs, target, stage)
        program = self._program(cargs)[0]
        lines = self._lineinfo(target)
        kind, arch = ("host", "host") if target == "host" else ("cuda", target)
        fmad = self._fmad() if fmad is None else bool(fmad)
        spec = self._specialize(signature, kind, arch, self._consts(), program, lines, fmad, self._program_passes)
        return spec.__pydev_compile__(None, target, stage, extra=extra)


def _env_passes():
    """Whether PYDEV_PASSES or PYDEV_PASS_PLUGINS is set (pydev._passes is imported only then)."""
    return bool(os.environ.get("PYDEV_PASSES") or os.environ.get("PYDEV_PASS_PLUGINS"))


def _interop_links(f):
    """(link paths, declared interop functions) of the functions kernel `f`'s
    last _program reached (pydev._link_paths.program_links)."""
    reached = getattr(f, "_reached", None) or [f]
    if not any(g.link or g.interop for g in reached):
        return (), []
    from pydev import _link_paths

    return _link_paths.program_links(reached)


def _register_fast(f, args, prog, target, handle=0, packed=None):
    if f._const_params():
        return  # the fast path keys on argument types, not on ConstExpr values
    names = sorted(set(f._names or ()) | f._watch)
    _launch.register_fast(
        f,
        args,
        prog,
        target,
        handle,
        interop=f.interop,
        globals=f.underlying.__globals__,
        names=names,
        cells=f._cells,
        packed=packed,
    )


def _launch_kernel(f, args, *, grid, block, stream, shared, fast):
    target, handle, grid, block = _launch.launch_config(grid, block, stream, shared)
    code = f.underlying.__code__
    if not code.co_flags & 0x04 and len(args) != code.co_argcount:  # no *args: the count is fixed
        names = ", ".join(code.co_varnames[: code.co_argcount])
        raise TypeError(
            f"kernel '{f.__name__}' takes {code.co_argcount} argument{'s' * (code.co_argcount != 1)} ({names}), got {len(args)}"
        )
    device = _launch.launch_device(target)
    signature, packed, arrays = _launch.pack_args(f, args, target, handle, device=device)
    arch = _launch.cuda_arch(device) if target == "cuda" else "host"
    prog = f.program(signature, target, arch, const_args=const_args(f, args))
    _launch.run_loaded(prog, target, grid, block, shared, handle, packed, arrays, stream)
    if fast:
        _register_fast(f, args, prog, target, handle if target == "cuda" else 0, packed)


_BYTES_STAGES = ("object", "cubin", "ltoir")


def _bytes_stage(fn, argtypes, target, stage):
    """`pydev.compile(fn, argtypes, target, stage)` for the bytes stages
    (checked by pydev._stages): "object" (host: a relocatable object file
    whose interop symbols a C/C++ linker can use), "cubin" (linked with the
    link= files of the functions it reaches), "ltoir" (libNVVM's)."""
    from pydev import _c_types, _host_link, _interop, _link_paths

    def compile_text(text_stage):
        return fn.__pydev_compile__(argtypes, target, text_stage)

    if stage == "object":
        # An object file for C and C++ linkers: its code runs outside a pydev
        # launch, with no runtime to report a failed index check to, so
        # PYDEV_BOUNDSCHECK=1 (a launch's switch) does not apply to it.
        signature, cargs = fn._signature_for(argtypes, target)
        text = fn._frontend_stage(signature, cargs, target, "llvm-ir", boundscheck=False)
        params = result = None
        if fn.interop and isinstance(fn, DeviceFunction):
            ann = getattr(fn.underlying, "__annotations__", {}) or {}
            code = fn.underlying.__code__
            if all(n in ann for n in code.co_varnames[: code.co_argcount]) and "return" in ann:
                params, result = _c_types.annotations(fn.underlying)
            elif (
                "{" in text.split(f"@{fn.__name__}(", 1)[-1].split(")", 1)[0]
                or "<" in text.split(f"@{fn.__name__}(", 1)[-1].split(")", 1)[0]
            ):
                raise TypeError(
                    f"{_link_paths._site(fn.underlying)}: error: interoperable function '{fn.__name__}' takes or returns an aggregate, so its object file "
                    "needs the C types: annotate every parameter and the result"
                )
        declared = _link_paths.program_links(getattr(fn, "_reached", None) or [fn])[1]
        return _host_link.host_object(text, fn.__name__, params, result, declared)
    if stage == "cubin":
        from pydev import _cudalink

        ptx = compile_text("ptx")
        fn._program()  # the functions it reaches, for their link= files
        links, declared = _link_paths.program_links(getattr(fn, "_reached", None) or [fn])
        kind = "kernel" if isinstance(fn, Kernel) else "function"
        if fn.interop and isinstance(fn, DeviceFunction) and not fn._is_declaration():
            ann = getattr(fn.underlying, "__annotations__", {}) or {}
            code = fn.underlying.__code__
            if all(n in ann for n in code.co_varnames[: code.co_argcount]) and "return" in ann:
                params, result = _c_types.annotations(fn.underlying)
                _interop.check_interop_ptx(ptx, fn.__name__, params, result, _link_paths._site(fn.underlying))
        nvvm_ir = None if fn._lineinfo(target) else (lambda: compile_text("nvvm-ir"))
        return _cudalink.link_cubin(
            ptx, f"{fn.__name__}.ptx", links, target, f"{kind} '{fn.__name__}'", declared, nvvm_ir
        )
    if stage == "ltoir":
        from pydev import _cudalink

        # libNVVM compiles the NVVM IR (LLVM 7 syntax) that the runtime
        # writes from the kernel's LLVM 22 module (runtime/src/nvvm_ir.rs).
        kind = "kernel" if isinstance(fn, Kernel) else "function"
        text = compile_text("nvvm-ir")  # first: it builds the program that _lineinfo reads
        if fn._lineinfo(target):
            _cudalink.warn_no_lineinfo(f"{kind} '{fn.__name__}'", stacklevel=5)
        return _cudalink.nvvm_ltoir(text, target, f"{kind} '{fn.__name__}'")
    raise ValueError(f"unknown stage {stage!r}")
