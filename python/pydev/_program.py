"""`pydev.Program`: a kernel given as pydev IR (docs/backend.md), for
frameworks that use pydev as their backend. It compiles through the same
pipeline as Python kernels from their `pydev` stage on, and launches as they
do (`device.launch(program, *args, ...)`): the same array protocols and
streams, the launch fast path (python/src/dispatch.rs), the in-memory and
disk caches (keyed by the IR text, kernel, target and compiler). Its
signature is the IR function's: arguments are checked against it. A module
of several kernels compiles once, and `program.kernel("name")` launches each
kernel of it (one PTX module, or one host object)."""

import os
import collections
import threading

import numpy as np

from . import _arrays, _cache, _launch, _native, _passes, _types

# (text, kernel, target, arch, ...) -> loaded HostProgram / CudaProgram,
# shared by Program objects made from the same text: the most recently used
# _LOADED_MAX. Each Program keeps what it loaded itself (`_loaded`), so the
# bound only ends sharing with Programs made later; a dropped Program's code
# is freed once nothing here holds it.
_LOADED = collections.OrderedDict()
_LOADED_MAX = 256
_LOCK = threading.Lock()
_SIG_TYPES = {}

_INT = {8: (np.int8, np.uint8), 16: (np.int16, np.uint16), 32: (np.int32, np.uint32), 64: (np.int64, np.uint64)}
_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_COMPLEX = {"complex<f32>": np.complex64, "complex<f64>": np.complex128}
# (bits, "si"/"ui"/"" for signless) of each integer parameter type.
_INTEGERS = {f"{s}{b}": (b, "" if s == "i" else s) for s in ("i", "si", "ui") for b in _INT}
_LAYOUTS = {}  # IR type text -> _pydev.ir_type_layout of it


def _layout(text):
    """(size, alignment, scalars as (offset, NumPy kind, size) or None,
    member offsets) of IR type `text` in the CUDA C++ layout, from the
    dialect (`_pydev.ir_type_layout`); None when it has none."""
    got = _LAYOUTS.get(text)
    if got is None and text not in _LAYOUTS:
        got = _LAYOUTS[text] = _native.get().ir_type_layout(text)
    return got


def _dtype_leaves(dt, base=0):
    """The scalars of a NumPy dtype as (offset, kind, size), in order."""
    dt = np.dtype(dt)
    if dt.fields:
        return [leaf for n in dt.names for leaf in _dtype_leaves(dt.fields[n][0], base + dt.fields[n][1])]
    if dt.subdtype is not None:
        elem, shape = dt.subdtype
        return [leaf for k in range(int(np.prod(shape))) for leaf in _dtype_leaves(elem, base + k * elem.itemsize)]
    return [(base, dt.kind, dt.itemsize)]


def _same_layout(dt, ir_text):
    """Whether NumPy dtype `dt` lays out the scalars of IR type `ir_text`
    (same offsets, kinds and sizes, same size; a signless IR integer
    matches either sign)."""
    want = _layout(ir_text)
    if want is None or want[2] is None or np.dtype(dt).itemsize != want[0]:
        return False
    got = _dtype_leaves(dt)
    return len(got) == len(want[2]) and all(
        g[0] == w[0] and g[2] == w[2] and g[1] in w[1] for g, w in zip(got, want[2])
    )


def _same_type(a, b):
    """Whether IR types `a` and `b` are the same up to the names of their
    structs (structs match by fields: `_pydev.ir_types_match`)."""
    return a == b or _native.get().ir_types_match(a, b)


def _ir_type(sig):
    """The pydev IR type of one signature type (the frontend's mapping)."""
    t = _SIG_TYPES.get(sig)
    if t is None and sig not in _SIG_TYPES:
        t = _SIG_TYPES[sig] = _native.get().signature_ir_types([sig])[0]
    return t


# The C type of each IR type an external function of a Program may take or return.
_C_SCALARS = {"i1": "bool", "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64"}
_C_SCALARS.update({t: ("uint" if sign == "ui" else "int") + str(b) for t, (b, sign) in _INTEGERS.items()})


def _c_model(text, name, kernel):
    from . import _c_types

    scalar = _C_SCALARS.get(text)
    if scalar is None:
        raise _native.error_class("CompileError")(
            f"error: the external function '{name}' of pydev.Program '{kernel}' takes or returns {text}: external functions of a Program pass numbers and bools (C ABI)"
        )
    return _c_types.Scalar(scalar)


def _declarations(externals, kernel):
    """(name, [(param, model)], result model or None, site) of each external
    function (a `func.func private` without a body) of `externals`, as
    `_pydev.ir_kernel` lists them from the parsed module."""
    out = []
    for name, params, results, site in externals:
        if len(results) > 1:
            raise _native.error_class("CompileError")(
                f"error: the external function '{name}' of pydev.Program '{kernel}' returns {len(results)} values; a C function returns one"
            )
        out.append(
            (
                name,
                [(f"a{i}", _c_model(p, name, kernel)) for i, p in enumerate(params)],
                _c_model(results[0], name, kernel) if results else None,
                site or "<pydev ir>",
            )
        )
    return out


def _check_link(link, kernel):
    """The absolute paths of a Program's link files (`pydev._link_paths.check_link_paths`:
    relative ones to the working directory)."""
    if link is None or (isinstance(link, (list, tuple)) and not link):
        return ()
    from . import _link_paths  # an import costs 5 ms: only for Programs with link files

    return _link_paths.check_link_paths(link, f"pydev.Program '{kernel}'")


def _link_digest(paths):
    if not paths:
        return ()
    from . import _link_paths

    return _link_paths.link_digest(paths)


def _describe(a):
    if isinstance(a, (bool, int, float, complex, np.generic)):
        return f"{type(a).__name__} {a!r}"
    return f"a {type(a).__name__}"


def _libdevice():
    from . import _toolchain  # the cuda target's: a host launch needs none of it

    return _toolchain.libdevice()


def _ir():
    """pydev.ir, imported on first use: a kernel's first launch from the
    disk cache makes its Program without it (1.3 ms of imports)."""
    from . import ir

    return ir


class _KernelName(str):
    """A Program's `kernel`: the symbol of its kernel (a str; "" for a
    Program of several kernels), and, called, `program.kernel("name")`: the
    launchable kernel `name` of its module (`Program._kernel`)."""

    def __new__(cls, symbol, program):
        self = super().__new__(cls, symbol)
        self._program = program
        return self

    def __call__(self, name):
        return self._program._kernel(name)

    def __reduce__(self):
        return (str, (str(self),))


def _kernel_of(program, name):
    """`program.kernel(name)` (how a Program's kernel pickles)."""
    return program._kernel(name)


@_launch.launchable
class Program:
    """A kernel in pydev IR: `Program(mlir_text, kernel="name")`.

    `mlir_text` is a module in the pydev dialect (with the upstream dialects
    the pipelines accept: func, cf, arith, math, gpu, complex, ...), or a
    `pydev.ir.Module`; it is parsed and verified here, and errors are
    `pydev.CompileError` at the IR's own locations (`loc("f.py":12:4)` gives
    `f.py:12:4: error: ...`). `kernel` names a func.func with the
    `pydev.kernel` attribute, and only what it reaches is compiled (None:
    the module's kernels, compiled together: `program.kernel("name")` is
    each one, launchable); `filename` names the text in syntax errors.
    `params` are its parameter types, `kernels` the module's kernels.

    `link=[paths]`: files that define the module's external functions
    (`func.func private` declarations: C functions, called through pydev's
    C-ABI adapters on the host, `.extern .func`s linked by nvJitLink on
    cuda; docs/interop.md); `lineinfo=True`: `.file`/`.loc` in the PTX;
    `fastmath=True`: the pipelines' fast-math mode; `fmad=False`: no
    multiply-add contraction, so each `*` and `+` rounds as NumPy's (None:
    `PYDEV_FMAD=0` turns it off); `cache=False`: no disk
    cache; `boundscheck=True`/`False`: index checks on or off (None:
    `PYDEV_BOUNDSCHECK=1` turns them on), a failed one raising
    pydev.LaunchError with the index, the extent, the thread and the IR's
    location. `passes={"POINT": "pass-a,pass-b"}` and `plugins=[path.so]`:
    extra passes at a point of the pipeline (docs/research.md; with
    `PYDEV_PASSES`/`PYDEV_PASS_PLUGINS` added). All are part of the cache
    keys, the link and plugin files by content."""

    def __init__(
        self,
        mlir_text,
        kernel=None,
        *,
        filename="<pydev ir>",
        link=(),
        lineinfo=False,
        fastmath=False,
        cache=True,
        boundscheck=None,
        fmad=None,
        passes=None,
        plugins=None,
    ):
        if isinstance(mlir_text, _ir().Module):
            mlir_text = str(mlir_text)
        if not isinstance(mlir_text, str):
            raise TypeError(f"Program() takes MLIR text (str) or a pydev.ir.Module, got {type(mlir_text).__name__}")
        if kernel is not None and not isinstance(kernel, str):
            raise TypeError(f"kernel must be the name of a kernel function (str), got {kernel!r}")
        filename = str(filename)
        native = _native.get()
        kernels = None  # {name: params} of a Program of several kernels
        if kernel is None:
            found, externals = native.ir_kernels(mlir_text, filename)
            if len(found) > 1:
                kernels = {k: tuple(_ir().Type(p) for p in ps) for k, ps in found}
                params = None
            elif found:
                ((kernel, params),) = found
            else:
                native.ir_kernel(mlir_text, None, filename)  # raises: the module has no kernel
        if kernels is None:
            kernel, params, externals = native.ir_kernel(mlir_text, kernel, filename)
            params = tuple(_ir().Type(p) for p in params)
        name = kernel if kernels is None else ", ".join(kernels)
        if boundscheck is not None and not isinstance(boundscheck, bool):
            raise TypeError(f"boundscheck must be True, False or None (PYDEV_BOUNDSCHECK decides), got {boundscheck!r}")
        if fmad is not None and not isinstance(fmad, bool):
            raise TypeError(f"fmad must be True, False or None (PYDEV_FMAD decides), got {fmad!r}")
        self._fields(
            mlir_text,
            kernel,
            name=name,
            filename=filename,
            params=params,
            link=_check_link(link, name),
            # The external functions the module declares (func.func private
            # without a body): C functions that the link files define.
            declared=_declarations(externals, name),
            lineinfo=lineinfo,
            fastmath=fastmath,
            cache=cache,
            boundscheck=boundscheck,
            adapted=False,
            shared=True,
            fmad=fmad,
            passes=_passes.extra(passes, plugins, f"pydev.Program '{kernel}'"),
        )
        self._kernels = kernels

    def _fields(
        self,
        text,
        kernel,
        *,
        name,
        filename,
        params,
        link,
        declared,
        lineinfo,
        fastmath,
        cache,
        boundscheck,
        adapted,
        shared,
        frontend=None,
        fmad=None,
        passes=None,
    ):
        self._text = text  # None: a frontend's, printed when asked for (`text`)
        self.filename = filename
        self._symbol = kernel  # None: a Program of several kernels (_kernels)
        self._kernels = None  # {name: params} of such a Program
        self._views = {}  # its kernels' Programs (`_kernel`)
        self._module = None  # a kernel's Program: its module's Program, which compiles and loads
        self._params = params  # None: parsed when asked for
        self.__name__ = self.__qualname__ = name
        self._adapted = adapted  # on the host, calls of declared functions already go to their adapters
        self._shared = shared  # loaded code shared with Programs of the same text (_LOADED)
        self.link = tuple(link)
        self.lineinfo = bool(lineinfo)
        self.fastmath = bool(fastmath)
        self.cache = bool(cache)
        self.boundscheck = boundscheck
        self.fmad = fmad  # None: PYDEV_FMAD decides (_fmad)
        self.passes = passes  # its own extra passes (_passes.Extra or None); PYDEV_PASSES adds (_extra)
        self.declared = list(declared)
        self._link_digest = _link_digest(self.link)
        self._dispatch = {}  # its Dispatch under _launch._FAST (the launch fast path)
        self._loaded = {}
        self._carried = None  # {disk-cache key: compiled text} that came with a pickle
        # A frontend's specialization: (its source key, compile(stage, **options)
        # running the frontend and the pipeline in one native call).
        self._frontend = frontend

    @classmethod
    def _of_frontend(
        cls,
        source_key,
        compile,
        kernel,
        *,
        name,
        filename,
        link=(),
        declared=(),
        lineinfo=False,
        fmad=True,
        passes=None,
    ):
        """The Program of one specialization of a frontend's kernel.
        `source_key` is the frontend's cache key of it (source text,
        signature, constants, program description, target, compiler): the
        IR is a function of it, so it stands for the IR in the Program's
        cache keys. `compile(stage, debuginfo=..., boundscheck=...,
        line_info=..., libdevice=...)` gives the text of a stage, running
        the frontend and the pipeline on one module in one native call (no
        IR printed and parsed again between them); the IR is printed, with
        its locations, only when `text` is asked for. The IR is already
        specialized for its target (on the host, its calls of declared
        functions already go to their C-ABI adapters). `name` is the
        kernel's name in messages; `link` its link files (absolute paths,
        checked), `declared` its declared interop functions. It shares no
        loaded code with other Programs: the frontend's dispatcher is its
        in-memory cache."""
        self = cls.__new__(cls)
        self._fields(
            None,
            kernel,
            name=name,
            filename=str(filename),
            params=None,  # a kernel packs by its own signature
            link=link,
            declared=declared,
            lineinfo=lineinfo,
            fastmath=False,
            cache=True,
            boundscheck=None,
            adapted=True,
            shared=False,
            frontend=(source_key, compile),
            fmad=fmad,
            passes=passes,
        )
        return self

    @property
    def text(self):
        """The module's pydev IR text (for a frontend's kernel: printed with
        its locations on first use)."""
        if self._text is None:
            self._text = self._frontend[1]("pydev", debuginfo=True)
        return self._text

    @property
    def params(self):
        """The kernel's parameter types (pydev.ir.Type)."""
        if self._params is None:
            if self._kernels is not None:
                raise ValueError(
                    f"pydev.Program of kernels {self.__name__} has no parameters of its own: each kernel has its own (program.kernel(name).params)"
                )
            self._params = tuple(
                _ir().Type(p) for p in _native.get().ir_kernel(self.text, self._symbol, self.filename)[1]
            )
        return self._params

    @property
    def kernel(self):
        """The symbol of its kernel ("" for a Program of several kernels);
        called, `program.kernel("name")`, kernel `name` of the module,
        launchable (`device.launch(program.kernel("k"), ...)`)."""
        return _KernelName(self._symbol or "", self)

    @property
    def kernels(self):
        """The names of the module's kernels, in order."""
        if self._kernels is not None:
            return tuple(self._kernels)
        if self._module is not None:
            return self._module.kernels
        return tuple(_native.get().verify_ir(self.text, self.filename))

    def _kernel(self, name):
        """`program.kernel(name)`: kernel `name` of the module, a Program
        that launches it from the module compiled once (the same object for
        the same name). A Program made with `kernel=` compiled only what that
        kernel reaches: its own name gives itself."""
        if not isinstance(name, str):
            raise TypeError(f"program.kernel() takes the name of a kernel (str), got {name!r}")
        if self._module is not None:
            return self._module._kernel(name)
        if self._kernels is None:
            if name == self._symbol:
                return self
            kernels = self.kernels
            if name in kernels:
                raise ValueError(
                    f"pydev.Program '{self._symbol}' was made with kernel='{self._symbol}' and compiles only what that kernel reaches: "
                    f"make pydev.Program(text) without kernel= to launch kernel '{name}' and the module's other kernels ({', '.join(kernels)})"
                )
            raise ValueError(
                f"no kernel '{name}' in the module of pydev.Program '{self._symbol}' (its kernels: {', '.join(kernels)})"
            )
        view = self._views.get(name)
        if view is None:
            if name not in self._kernels:
                raise ValueError(
                    f"no kernel '{name}' in the module of pydev.Program (its kernels: {', '.join(self._kernels)})"
                )
            view = type(self).__new__(type(self))
            view._fields(
                self._text,
                name,
                name=name,
                filename=self.filename,
                params=self._kernels[name],
                link=self.link,
                declared=self.declared,
                lineinfo=self.lineinfo,
                fastmath=self.fastmath,
                cache=self.cache,
                boundscheck=self.boundscheck,
                adapted=self._adapted,
                shared=False,
                fmad=self.fmad,
            )
            view._module = self
            view = self._views.setdefault(name, view)
        return view

    def _checks(self):
        """Whether indices are checked: boundscheck=, else PYDEV_BOUNDSCHECK=1."""
        if self.boundscheck is not None:
            return self.boundscheck
        return os.environ.get("PYDEV_BOUNDSCHECK", "0") == "1"

    def _fmad(self):
        """Whether multiply-add contraction is allowed: fmad=, else not with PYDEV_FMAD=0."""
        if self.fmad is not None:
            return self.fmad
        return os.environ.get("PYDEV_FMAD", "1").strip() != "0"

    def _extra(self):
        """Its extra passes with the process's (PYDEV_PASSES): a _passes.Extra or None."""
        return _passes.combine(self.passes, _passes.from_env())

    def _lines(self):
        """Whether the PTX gets .file/.loc: lineinfo=True or PYDEV_LINEINFO=1."""
        return self.lineinfo or os.environ.get("PYDEV_LINEINFO", "0").strip() == "1"

    def _host_adapters(self, target):
        """The declared external functions whose calls go through their
        C-ABI adapters on `target`: on the host, all (`__pydev_cabi_<name>`,
        the compile driver's `pydev-host-adapters` pass; docs/interop.md),
        as `@device.func(interop=True)` declarations lower."""
        if target != "host" or self._adapted:
            return []
        return [name for name, *_ in self.declared]

    def __repr__(self):
        if self._kernels is not None:
            return f"<pydev.Program of kernels {self.__name__}>"
        return f"<pydev.Program {self._symbol}({', '.join(map(str, self.params))})>"

    # --- compiling ----------------------------------------------------------------------
    def compile(self, target="sm_90", stage=None):
        """The text of `stage` compiled for `target` ("sm_XX" or "host"):
        "pydev" (as parsed and verified), "pydev-opt", "llvm", "llvm-ir",
        "nvvm-ir", "ptx" (sm_XX only), as `pydev.compile` gives them; the
        default is "ptx" for sm_XX and "llvm" for host. On sm_XX also bytes:
        "ltoir" (the kernel's LTO-IR, from libNVVM, for tools that link
        LTO-IR: nvJitLink, cuda.core's Linker, CCCL's cuda.compute) and
        "cubin" (linked with the Program's link= files, as at launch)."""
        from . import _stages

        target, stage = _stages.check(target, stage)
        return self.__pydev_compile__(None, target, stage)

    def __pydev_compile__(self, argtypes, target, stage, fmad=None, extra=None):
        """pydev.compile(program, None, target, stage), `target` and `stage`
        checked (_stages.check); `fmad`: None, the Program's own setting;
        `extra`: extra passes (pydev._passes.Extra) instead of its own. A
        kernel of a Program of several kernels compiles as its module."""
        if argtypes is not None:
            raise TypeError(
                f"pydev.Program '{self.__name__}' has its own signature"
                f"{'s' if self._kernels is not None else ' (' + ', '.join(map(str, self.params)) + ')'}: "
                f"compile it with argtypes=None, got {argtypes!r}"
            )
        if self._module is not None:
            return self._module.__pydev_compile__(None, target, stage, fmad, extra)
        if stage in ("ltoir", "cubin"):
            if target == "host":
                raise ValueError(f"stage '{stage}' needs an sm_XX target, not 'host'")
            from . import _cudalink

            what = f"kernel '{self.__name__}'"
            if stage == "ltoir":
                if self._lines():
                    _cudalink.warn_no_lineinfo(what, stacklevel=4)
                return _cudalink.nvvm_ltoir(
                    self.__pydev_compile__(None, target, "nvvm-ir", fmad, extra), target, what, self.fastmath
                )
            nvvm_ir = None if self._lines() else (lambda: self.__pydev_compile__(None, target, "nvvm-ir", fmad, extra))
            return _cudalink.link_cubin(
                self.__pydev_compile__(None, target, "ptx", fmad, extra),
                f"{self._symbol or 'module'}.ptx",
                self.link,
                target,
                what,
                self.declared,
                nvvm_ir,
                self.fastmath,
            )
        if stage == "python-ast":
            raise ValueError(
                "stage 'python-ast' is the Python source's syntax tree: a Program is pydev IR and has none (its first stage is 'pydev')"
            )
        if stage == "object":
            raise ValueError(
                "stage 'object' is made from a Python frontend's functions; a Program's host stages are text"
            )
        _launch._count("compiles")
        lib = "" if target == "host" else _libdevice()
        fmad = self._fmad() if fmad is None else fmad
        return self._compile(target, stage, lib, self._checks(), self._lines(), fmad, extra)

    def _compile(self, tgt, stage, lib, checks, lines, fmad, extra=None):
        """The text of `stage` for `tgt` ("host" or "sm_XX"): a frontend's
        kernel from its source (one native call), else from the IR text;
        `extra`: extra passes (None: its own and the process's)."""
        extra = _passes.options(extra if extra is not None else self._extra())
        if self._frontend is not None:
            return self._frontend[1](stage, boundscheck=checks, libdevice=lib, line_info=lines, fmad=fmad, **extra)
        return _native.get().compile_ir(
            self.text,
            self._symbol or "",  # "": every kernel
            tgt,
            stage,
            fast_math=self.fastmath,
            boundscheck=checks,
            libdevice=lib,
            filename=self.filename,
            line_info=lines,
            host_adapters=self._host_adapters(tgt),
            fmad=fmad,
            **extra,
        )

    def _program(self, target, arch):
        """The loaded program for `target` (compiled, or from a cache): a
        native HostProgram / CudaProgram, or for a Program of several kernels
        a HostModule / CudaModule, whose `kernel(name)` are its kernels'."""
        lines = self._lines()
        # Index checks make another program (boundscheck=, PYDEV_BOUNDSCHECK).
        checks = self._checks()
        fmad = self._fmad()
        extra = self._extra()
        key = (target, arch, lines, checks, fmad, extra)
        prog = self._loaded.get(key)
        if prog is not None:
            _launch._count("memory_hits")
            return prog
        if self._module is not None:  # a kernel of its module, loaded once for all of them
            prog = self._loaded[key] = self._module._program(target, arch).kernel(self._symbol)
            return prog
        if not self._shared:  # a frontend's specialization: its dispatcher keeps it
            prog = self._loaded[key] = self._build(target, arch, lines, checks, fmad, extra)
            return prog
        gkey = (
            self.text,
            self._symbol,
            target,
            arch,
            lines,
            checks,
            fmad,
            extra,
            self.fastmath,
            self.cache,
            self._link_digest,
        )
        with _LOCK:
            prog = _LOADED.get(gkey)
            if prog is not None:
                _launch._count("memory_hits")
                _LOADED.move_to_end(gkey)
            else:
                prog = _LOADED[gkey] = self._build(target, arch, lines, checks, fmad, extra)
                while len(_LOADED) > _LOADED_MAX:
                    _LOADED.popitem(last=False)
        self._loaded[key] = prog
        return prog

    def _disk_key(self, target, arch, lines, checks, lib, fmad=True, extra=None):
        """The disk-cache key of the compiled text for `target` ("host" or
        "cuda") and `arch`. A frontend's kernel is keyed by its source key
        (which settles its IR): a hit needs neither the frontend nor the
        IR's text."""
        stage = "llvm" if target == "host" else "ptx"
        tgt = "host" if target == "host" else arch
        adapters = self._host_adapters(target)
        source, origin = (self._frontend[0], "frontend") if self._frontend else (self.text, "pydev-ir")
        options = (origin, f"fastmath={int(self.fastmath)}", f"boundscheck={int(checks)}", self._link_digest)
        if not fmad:  # (absent by default: the keys of the default stay as they were)
            options += ("fmad=0",)
        if adapters:
            options += (f"host_adapters={','.join(adapters)}",)
        if extra is not None:
            options += (extra.key,)
        return _cache.cache_key(
            source,
            {},
            "",
            tgt,
            stage,
            self._symbol or "",  # "": the module's kernels, compiled together
            _native.fingerprint(),
            lib,
            options,
            lineinfo=lines and target != "host",
        )

    def _compiled(self):
        """{disk-cache key: (text, image key, host image)} of the code it
        loaded, as the disk cache holds it: what a pickle carries, so that
        a worker with the same target and compiler (the key names both)
        loads it without compiling; on the host with the object code too
        where its CPU is the same (the image key names it)."""
        compiled = {}
        if self.cache:
            native = _native.get()
            for target, arch, lines, checks, fmad, extra in list(self._loaded):
                lib = "" if target == "host" else _libdevice()
                key = self._disk_key(target, arch, lines, checks, lib, fmad, extra)
                text = _cache.load(key)
                if text is None:
                    continue
                ikey = image = None
                if target == "host":
                    ikey = _cache.host_image_key(native, key)
                    image = _cache.load_bytes(ikey, ".image")
                compiled[key] = (text, ikey, image)
        return compiled

    def __reduce__(self):
        """By value: its IR text, options and link files' contents, and the
        code it compiled (`_compiled`); no loaded code, no locks
        (pydev._pickling.reduce_program). A kernel of a Program of several
        kernels: as that Program and its name."""
        if self._module is not None:
            return (_kernel_of, (self._module, self._symbol))
        from . import _pickling

        return _pickling.reduce_program(self, self._compiled())

    def _build(self, target, arch, lines=False, checks=False, fmad=True, extra=None):
        native = _native.get()
        stage = "llvm" if target == "host" else "ptx"
        tgt = "host" if target == "host" else arch
        what = f"kernel '{self.__name__}'" if self._kernels is None else f"kernels {self.__name__}"
        # A Program of several kernels loads them from one object / module.
        symbol = self._symbol if self._kernels is None else list(self._kernels)
        linked = bool(self.link or self.declared)
        libraries = []

        def load(text, image=None):
            if target == "host":
                if linked and not libraries:
                    from . import _host_link  # the link files built into a shared library the JIT links

                    libraries.append(_host_link.host_library(self.link, self.declared, what))
                make = native.HostProgram if self._kernels is None else native.HostModule
                if image is not None:  # object code that came with a pickle, for this CPU
                    return make(text, symbol, libraries=libraries, object=image)
                if key is None:
                    return make(text, symbol, libraries=libraries)
                # From the host image cache when it has it: no MLIR context, no LLVM compile.
                return _cache.host_program(native, text, symbol, key, libraries)
            if linked:
                from . import _cudalink  # the PTX linked with the link files by nvJitLink; the driver loads the cubin

                linked_program = getattr(_cudalink, "linked_program", None)
                if linked_program is None:
                    raise _native.error_class("CompileError")(
                        f"error: {what} has link files or external functions, and this pydev cannot yet load a linked kernel on the cuda target (pydev._cudalink.linked_program is missing)"
                    )
                # With LTO-IR link files the kernel goes in as LTO-IR, from its NVVM IR (not with line information, which NVVM IR drops).
                nvvm_ir = None if lines else (lambda: self._compile(tgt, "nvvm-ir", lib, checks, False, fmad, extra))
                return linked_program(text, symbol, self.link, arch, what, self.declared, nvvm_ir, self.fastmath)
            if self._kernels is not None:
                return native.CudaModule(text, symbol)
            return native.CudaProgram(text, symbol)

        lib = "" if target == "host" else _libdevice()
        key = None
        if self._carried:  # compiled where it was pickled: for this target and compiler?
            dkey = self._disk_key(target, arch, lines, checks, lib, fmad, extra)
            found = self._carried.pop(dkey, None)
            if found is not None:
                text, ikey, image = found
                if ikey is None or ikey != _cache.host_image_key(native, dkey):
                    image = None  # object code for another CPU: the text is compiled here
                try:
                    prog = load(text, image)
                    _launch._count("disk_hits")
                    return prog
                except Exception:
                    pass  # an unusable text (corrupted on the way): compiled below
        if self.cache:  # cache=False: compiled every time, the disk cache neither read nor written
            key = self._disk_key(target, arch, lines, checks, lib, fmad, extra)
            text = _cache.load(key)
            if text is not None:
                try:
                    prog = load(text)
                    _launch._count("disk_hits")
                    return prog
                except Exception:
                    pass  # an unusable entry: compile again and replace it
        text = self._compile(tgt, stage, lib, checks, lines, fmad, extra)
        _launch._count("compiles")  # counted once it compiled
        if key is not None:
            _cache.store(key, text)
        return load(text)

    # --- arguments ----------------------------------------------------------------------
    def _bad(self, i, why, a):
        return TypeError(
            f"argument {i} of kernel '{self._symbol}' does not match parameter {i} (%arg{i}: {self.params[i]}): {why}, got {_describe(a)}"
        )

    def _scalar(self, i, a, p):
        """The bytes of scalar argument `a` for parameter type `p`."""
        t = p.text
        py_num = type(a) in (int, float, complex)
        if t == "i1":
            if isinstance(a, (bool, np.bool_)):
                return bytes([bool(a)])
            raise self._bad(i, "it takes a bool", a)
        if t in _INTEGERS:
            bits, sign = _INTEGERS[t]
            signed, unsigned = _INT[bits]
            want = {"si": (signed,), "ui": (unsigned,)}.get(sign, (signed, unsigned))
            if type(a) is int:
                lo = 0 if sign == "ui" else -(1 << (bits - 1))
                hi = (1 << bits) - 1 if sign != "si" else (1 << (bits - 1)) - 1
                if not lo <= a <= hi:
                    raise OverflowError(
                        f"argument {i} of kernel '{self._symbol}': {a} does not fit parameter {i} (%arg{i}: {t})"
                    )
                return (unsigned if a > (1 << (bits - 1)) - 1 else signed)(a).tobytes()
            if isinstance(a, np.integer) and not isinstance(a, np.bool_):
                if a.dtype in [np.dtype(w) for w in want]:
                    return a.tobytes()
            raise self._bad(i, f"it takes a Python int or a NumPy {'/'.join(np.dtype(w).name for w in want)} scalar", a)
        if t in _FLOATS:
            if (py_num and not isinstance(a, complex)) and type(a) is not bool:
                return _FLOATS[t](a).tobytes()
            if isinstance(a, np.floating) and a.dtype == np.dtype(_FLOATS[t]):
                return a.tobytes()
            raise self._bad(i, f"it takes a Python float or int, or a NumPy {np.dtype(_FLOATS[t]).name} scalar", a)
        if t in _COMPLEX:
            if py_num and type(a) is not bool:
                return _COMPLEX[t](a).tobytes()
            if isinstance(a, np.complexfloating) and a.dtype == np.dtype(_COMPLEX[t]):
                return a.tobytes()
            raise self._bad(
                i, f"it takes a Python complex, float or int, or a NumPy {np.dtype(_COMPLEX[t]).name} scalar", a
            )
        # Vectors, structs, tuples, warp masks, bfloat16, float8: the
        # argument's own type (the frontend's mapping) must be the parameter's.
        try:
            sig, b, _ = _types.scalar_arg(a, i)
        except (TypeError, OverflowError) as e:
            raise self._bad(i, str(e), a) from None
        if isinstance(a, _types.Struct):
            if t.startswith("!pydev.struct<") and _same_layout(type(a).dtype, t):
                return b
            raise self._bad(i, f"the parameter's layout is not that of {type(a).__name__} {type(a).dtype}", a)
        got = _ir_type(sig)
        if got is None or not _same_type(got, t):
            raise self._bad(i, f"its type is {got or sig}", a)
        return b

    def _array(self, i, arr, a, p):
        """Checks array argument `arr` against parameter type `p`."""
        if not p.is_array:
            raise self._bad(i, "it is not an array", a)
        p_elem, p_rank, p_words = p.array_parts()
        if arr.dtype.fields:
            # Structured elements match by layout (field names, offsets, types).
            if not _same_layout(arr.dtype, p_elem.text):
                raise self._bad(i, f"its elements {arr.dtype} do not have the layout of {p_elem}", a)
            layout = _arrays.dims(arr.shape, arr.strides)
            sig = ("readonly " if arr.readonly else "") + "int8[" + layout + "]"
            got = _ir_type(sig).replace("si8", p_elem.text, 1)
        else:
            got = _ir_type(arr.signature([], i))
        if got is None:
            raise self._bad(i, f"pydev has no IR type for an array {sig}", a)
        g_elem, g_rank, g_words = _ir().Type(got).array_parts()
        if g_rank != p_rank or not _same_type(g_elem.text, p_elem.text):
            raise self._bad(i, f"the argument is {got}", a)
        if "shared" in p_words or "local" in p_words:
            raise self._bad(i, "a shared or local array is no kernel parameter", a)
        # An empty array is both C- and Fortran-contiguous (dims calls it C).
        empty = 0 in arr.shape
        for layout in ("c", "f"):
            if layout in p_words and layout not in g_words and not ((p_rank == 1 or empty) and "c" in g_words):
                raise self._bad(
                    i,
                    f"the parameter needs a {'C' if layout == 'c' else 'Fortran'}-contiguous array; the argument is {got}",
                    a,
                )
        if "readonly" in g_words and "readonly" not in p_words:
            raise self._bad(i, "the argument is read-only and the parameter is writable", a)

    def _pack(self, args, target, handle):
        if len(args) != len(self.params):
            raise TypeError(
                f"kernel '{self._symbol}' takes {len(self.params)} argument{'s' * (len(self.params) != 1)} ({', '.join(map(str, self.params))}), got {len(args)}"
            )
        packed, arrays = [], []
        for i, (a, p) in enumerate(zip(args, self.params)):
            if a is None:
                raise self._bad(i, "None is no value of a pydev IR parameter", a)
            arr = _arrays.array_arg(a, i, stream=handle if target == "cuda" else None)
            if arr is not None:
                if not arr.shape:
                    raise ValueError(
                        f"argument {i}: 0-dimensional arrays cannot be passed to a kernel: pass a scalar (a[()]) or a 1-element array"
                    )
                self._array(i, arr, a, p)
                packed.append(arr.descriptor())
                arrays.append((i, arr))
            else:
                packed.append(self._scalar(i, a, p))
        for i, arr in arrays:  # after every argument's protocol data is validated
            _arrays.check_device(arr, i, target)
        return packed, [arr for _, arr in arrays]

    # --- launching ----------------------------------------------------------------------
    # device.launch(program, *args, ...) is the native entry's, as a kernel's
    # (python/src/dispatch.rs): the Dispatch under _launch._FAST, else this.
    def __pydev_launch__(self, args, *, grid, block, stream, shared, fast):
        if self._kernels is not None:
            first = next(iter(self._kernels))
            raise TypeError(
                f"pydev.Program has {len(self._kernels)} kernels ({self.__name__}): launch one of them, "
                f"device.launch(program.kernel('{first}'), ...)"
            )
        target, handle, grid, block = _launch.launch_config(grid, block, stream, shared)
        packed, arrays = self._pack(args, target, handle)
        arch = _launch.cuda_arch() if target == "cuda" else "host"
        prog = self._program(target, arch)
        _launch.run_loaded(prog, target, grid, block, shared, handle, packed, arrays, stream)
        # An empty array's layout key is C, though _array took it for any
        # order: registering it would let a later C array skip that check.
        if fast and not any(0 in arr.shape for arr in arrays):
            _launch.register_fast(
                self, args, prog, target, handle if target == "cuda" else 0, params=self.params, packed=packed
            )
