"""`cuda.vectorize`: Numba-CUDA's element-wise ufuncs on pydev.numba kernels.

`@cuda.vectorize(["float32(float32, float32)", ...])` makes the scalar
function a device function and applies it to every element of its
(broadcast) arguments with one generated kernel per number of arguments:

    def __pydev_vectorize_2(x0, x1, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = f(x0[i], x1[i])

Its source is registered in `linecache` (pydev.numba compiles from source),
under a name that says what it is. The arguments are converted to the first
signature their dtypes cast to safely (NumPy's rule; Python numbers to the
same kind), broadcast as NumPy does and flattened; the result has the
broadcast shape and the signature's result dtype. NumPy arguments give a
NumPy result; when any argument is a device array the result is a device
array (`out=`, `stream=` as Numba's).
"""

import linecache
import warnings

import numpy as np

from .. import types as _t

_KERNELS = {}  # (device function, number of arguments) -> kernel


def _kernel(cuda, device_fn, nargs):
    key = (device_fn, nargs)
    hit = _KERNELS.get(key)
    if hit is not None:
        return hit
    names = [f"x{j}" for j in range(nargs)]
    name = f"__pydev_vectorize_{nargs}"
    src = (
        f"def {name}({', '.join(names + ['out'])}):\n"
        "    i = cuda.grid(1)\n"
        "    if i < out.size:\n"
        f"        out[i] = f({', '.join(n + '[i]' for n in names)})\n"
    )
    filename = f"<pydev.numba cuda.vectorize kernel of {device_fn.__qualname__}, {nargs} arguments, {id(device_fn):x}>"
    lines = src.splitlines(keepends=True)
    linecache.cache[filename] = (len(src), None, lines, filename)
    ns = {"cuda": cuda, "f": device_fn}
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - the fixed text above
    hit = _KERNELS[key] = cuda.jit(ns[name])
    return hit


def _dtype_of(a):
    if isinstance(a, (bool, np.bool_)):
        return np.dtype(np.bool_), True
    if isinstance(a, int):
        return np.dtype(np.int64), True
    if isinstance(a, float):
        return np.dtype(np.float64), True
    if isinstance(a, complex):
        return np.dtype(np.complex128), True
    return np.dtype(a.dtype), False


def _casts(frm, python_scalar, to):
    if frm == to or np.can_cast(frm, to, "safe"):
        return True
    return python_scalar and np.can_cast(frm, to, "same_kind")


def _array_like(a):
    """An argument as NumPy's ufuncs take it: numbers and arrays as they
    are, sequences (tuples, named tuples, lists, tuples of arrays) as
    `np.asarray` reads them, as Numba's CUDA ufuncs do."""
    if isinstance(a, (list, tuple)) and not _is_device(a):
        return np.asarray(a)
    return a


def _is_device(a):
    import pydev

    return isinstance(a, pydev.DeviceArray) or (
        hasattr(a, "__cuda_array_interface__") and not isinstance(a, np.ndarray)
    )


def _result_type(device_fn, argtypes):
    """The type `device_fn` returns for arguments of `argtypes` (compiled to find it)."""
    from .. import _compiler as _c

    try:
        return _c.compile_device(_c.ModuleBuilder(device_fn.options), device_fn, list(argtypes))[1]
    except _c.NumbaError as e:  # as the dispatcher reports it
        from ..core import errors

        raise getattr(errors, e.kind or "TypingError")(
            _c.render(getattr(e, "src", None) or device_fn.source(), e.node, e.message, e.help)
        ) from None


class UFunc:
    """A CUDA ufunc made by `cuda.vectorize`: call it on arrays and numbers."""

    def __init__(self, cuda, py_func, signatures):
        self._cuda = cuda
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self._device_fn = cuda.jit(device=True)(py_func)
        self._given = list(signatures)
        self.types = []
        self._sigs = []
        for s in signatures:
            sig = _t.parse(s) if isinstance(s, str) else s
            if isinstance(sig, tuple):
                # Argument types alone: the result type is the function's, as Numba infers it.
                sig = _t.Signature(_result_type(self._device_fn, sig), list(sig))
            if sig.return_type is None or isinstance(sig.return_type, _t.NoneType):
                raise TypeError(f"cuda.vectorize: signature {sig} needs a result type")
            for t in list(sig.args) + [sig.return_type]:
                if not isinstance(t, (_t.Number, _t.Boolean, _t.NPDatetime)):
                    raise TypeError(f"cuda.vectorize: signature {sig} has a non-scalar type {t}")
            self._sigs.append(sig)
        self.nin = len(self._sigs[0].args)
        self.nout = 1
        self.nargs = self.nin + 1

    def __reduce__(self):
        # As Numba-CUDA's ufuncs pickle: the function (as its device function
        # pickles: by reference, else by value) and the signatures given.
        return (_new_ufunc, (UFunc, self._device_fn, self._given))

    def _choose(self, args):
        got = [_dtype_of(a) for a in args]
        # Python numbers next to arrays take the arrays' precision (NumPy's
        # value-based casting); numbers alone are int64 / float64 / complex128.
        alone = all(py for _, py in got)
        # Numbers alone that fit no signature so: any type of their kind.
        for lenient in (False, True) if alone else (True,):
            for sig in self._sigs:
                if len(sig.args) == len(args) and all(
                    _casts(d, py and lenient, want.dtype) for (d, py), want in zip(got, sig.args)
                ):
                    return sig
        names = ", ".join(str(d) for d, _ in got)
        raise TypeError(f"ufunc '{self.__name__}': no signature of {[str(s) for s in self._sigs]} takes ({names})")

    def reduce(self, arr, axis=0, stream=0):
        """Numba's `ufunc.reduce(arr, axis=0, stream=0)` of a two-argument
        ufunc: pairwise halving along axis 0, with this ufunc's kernel."""
        if self.nin != 2:
            raise TypeError(f"ufunc '{self.__name__}': reduce needs a ufunc of two arguments")
        if axis != 0:
            raise NotImplementedError(f"ufunc '{self.__name__}'.reduce(axis={axis}): only axis 0")
        on_device = _is_device(arr)
        cur = arr if on_device else np.asarray(arr)
        n = cur.shape[0]
        if n == 0:
            raise TypeError(f"ufunc '{self.__name__}'.reduce of an empty array (no identity)")
        while n > 1:
            half = n // 2
            head = self(cur[:half], cur[half : 2 * half], stream=stream)
            if n % 2:
                tail = cur[2 * half : n]
                head = self(head[:1], tail, stream=stream) if half == 1 else _concat(head, tail, on_device, stream)
            cur, n = head, head.shape[0]
        res = cur[0]
        return res.copy_to_host(stream=stream) if hasattr(res, "copy_to_host") else res

    def __call__(self, *args, out=None, stream=0):
        if len(args) != self.nin:
            raise TypeError(f"ufunc '{self.__name__}' takes {self.nin} arguments, got {len(args)}")
        args = tuple(_array_like(a) for a in args)
        cuda = self._cuda
        sig = self._choose(args)
        on_device = any(_is_device(a) for a in args) or (out is not None and _is_device(out))
        shapes = [tuple(getattr(a, "shape", ())) for a in args]
        shape = np.broadcast_shapes(*shapes)
        scalar_result = all(s == () for s in shapes) and out is None
        n = int(np.prod(shape, dtype=np.int64))
        flat = []
        for a, want in zip(args, sig.args):
            if _is_device(a):
                a = cuda.as_cuda_array(a)
                if tuple(a.shape) == shape and a.dtype == want.dtype and a.is_c_contiguous():
                    flat.append(a.ravel())
                    continue
                a = a.copy_to_host(stream=stream)
            h = np.asarray(a, dtype=want.dtype)
            h = np.ascontiguousarray(h if h.shape == shape else np.broadcast_to(h, shape)).reshape(n)
            if not h.flags.writeable:  # a broadcast view: the kernel's parameters are writable arrays
                h = h.copy()
            flat.append(cuda.to_device(h, stream=stream) if on_device else h)
        rdt = sig.return_type.dtype
        if out is not None and _is_device(out):
            if tuple(out.shape) != shape:
                raise ValueError(f"ufunc '{self.__name__}': out has shape {tuple(out.shape)}, the result {shape}")
            res = out if out.dtype == rdt and out.is_c_contiguous() else cuda.device_array(shape, rdt, stream=stream)
        elif on_device:
            res = cuda.device_array(shape, rdt, stream=stream)
        else:
            res = np.empty(shape, rdt)
        if n:
            k = _kernel(cuda, self._device_fn, self.nin)
            tpb = 128
            k[(n + tpb - 1) // tpb, tpb, stream](*flat, res.reshape(n) if on_device else res.reshape(n))
        if out is not None and res is not out:
            if _is_device(out):
                out.copy_to_device(res, stream=stream)
            else:
                out[...] = res.copy_to_host(stream=stream) if on_device else res
            return out
        if scalar_result:
            return (res.copy_to_host(stream=stream) if on_device else res).reshape(())[()]
        return res


def _parse_layout(layout):
    """'(m,n),(n,p)->(m,p)' -> ([('m','n'), ('n','p')], [('m','p')])."""
    import re

    text = layout.replace(" ", "")
    if "->" not in text:
        raise ValueError(f"cuda.guvectorize: the layout {layout!r} has no '->'")
    ins, outs = text.split("->", 1)

    def dims(part):
        groups = re.findall(r"\(([^()]*)\)", part)
        if "".join(f"({g})" for g in groups).replace(",", "") != part.replace(",", ""):
            raise ValueError(f"cuda.guvectorize: cannot read the layout {layout!r}")
        return [tuple(d for d in g.split(",") if d) for g in groups]

    return dims(ins), dims(outs)


def _gu_kernel(cuda, device_fn, nargs):
    key = ("gu", device_fn, nargs)
    hit = _KERNELS.get(key)
    if hit is not None:
        return hit
    names = [f"a{j}" for j in range(nargs)]
    name = f"__pydev_guvectorize_{nargs}"
    src = (
        f"def {name}({', '.join(names)}):\n"
        "    i = cuda.grid(1)\n"
        f"    if i < {names[-1]}.shape[0]:\n"
        f"        f({', '.join(n + '[i]' for n in names)})\n"
    )
    filename = (
        f"<pydev.numba cuda.guvectorize kernel of {device_fn.__qualname__}, {nargs} arguments, {id(device_fn):x}>"
    )
    linecache.cache[filename] = (len(src), None, src.splitlines(keepends=True), filename)
    ns = {"cuda": cuda, "f": device_fn}
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - the fixed text above
    hit = _KERNELS[key] = cuda.jit(ns[name])
    return hit


class GUFunc:
    """A generalized CUDA ufunc made by `cuda.guvectorize`: the function runs
    once per element of the loop dimensions (the broadcast leading
    dimensions), on views of the core dimensions the layout names."""

    def __init__(self, cuda, py_func, signatures, layout):
        self._cuda = cuda
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self._device_fn = cuda.jit(device=True)(py_func)
        self._given, self._layout = list(signatures), layout
        self._ins, self._outs = _parse_layout(layout)
        self.nin, self.nout = len(self._ins), len(self._outs)
        self._sigs = []
        for s in signatures:
            sig = _t.parse(s) if isinstance(s, str) else s
            args = tuple(sig) if isinstance(sig, tuple) else tuple(sig.args)
            if (
                isinstance(sig, _t.Signature)
                and sig.return_type is not None
                and not isinstance(sig.return_type, _t.NoneType)
            ):
                raise TypeError(
                    f"guvectorized functions cannot return values: signature {sig} specifies {sig.return_type} return type"
                )
            if len(args) != self.nin + self.nout:
                raise TypeError(
                    f"cuda.guvectorize: signature {s} has {len(args)} arguments, the layout {layout!r} "
                    f"{self.nin + self.nout}"
                )
            self._sigs.append(args)

    def __reduce__(self):
        return (_new_ufunc, (GUFunc, self._device_fn, self._given, self._layout))

    def _choose(self, args):
        got = [_dtype_of(a) for a in args]
        alone = all(py for _, py in got)
        for lenient in (False, True) if alone else (True,):
            for sig in self._sigs:
                want = [t.dtype.dtype if isinstance(t, _t.Array) else t.dtype for t in sig[: self.nin]]
                if all(_casts(d, py and lenient, w) for (d, py), w in zip(got, want)):
                    return sig
        # numba-cuda's last resort (deviceufunc's _search_matching_signature):
        # the first signature whose dtypes cast safely to the arguments', the
        # arguments then cast to it (np.int64(2) for an int32 scalar); a device
        # array cannot be cast so (below).
        for sig in self._sigs:
            want = [t.dtype.dtype if isinstance(t, _t.Array) else t.dtype for t in sig[: self.nin]]
            if all(np.can_cast(w, d) for (d, _), w in zip(got, want)):
                for a, w in zip(args, want):
                    if _is_device(a) and np.dtype(a.dtype) != w:
                        raise TypeError(
                            f"gufunc '{self.__name__}': a compatible signature is possible by casting but "
                            f"{type(a).__name__} does not support .astype() (a device array of {a.dtype} for {w})"
                        )
                return sig
        names = ", ".join(str(d) for d, _ in got)
        raise TypeError(f"gufunc '{self.__name__}': no signature takes ({names})")

    def __call__(self, *args, out=None, stream=0):
        cuda = self._cuda
        if out is not None:
            if len(args) > self.nin:
                raise ValueError("cannot specify argument 'out' as both positional and keyword")
            args = args + (out,)
        if len(args) not in (self.nin, self.nin + self.nout):
            n = len(args)
            raise TypeError(
                f"gufunc accepts {self.nin} positional arguments (the inputs) or {self.nin + self.nout} positional "
                f"arguments (inputs and outputs). Got {n} positional argument{'' if n == 1 else 's'}."
            )
        ins, given = tuple(_array_like(a) for a in args[: self.nin]), list(args[self.nin :])
        if len({id(o) for o in given}) != len(given):
            raise ValueError(f"gufunc '{self.__name__}': the same array is passed as more than one output")
        sig = self._choose(ins)
        on_device = any(_is_device(a) for a in args)
        host_ins = []
        for a, t in zip(ins, sig):
            if _is_device(a):
                a = cuda.as_cuda_array(a).copy_to_host(stream=stream)
            host_ins.append(np.asarray(a, dtype=t.dtype.dtype if isinstance(t, _t.Array) else t.dtype))
        sizes = {}
        loops = []
        for a, core in zip(host_ins, self._ins):
            if a.ndim < len(core):
                raise ValueError(f"gufunc '{self.__name__}': an input of rank {a.ndim} for core dimensions {core}")
            for d, n in zip(core, a.shape[a.ndim - len(core) :]):
                if sizes.setdefault(d, n) != n:
                    raise ValueError(f"gufunc '{self.__name__}': core dimension {d} is {sizes[d]} and {n}")
            loops.append(a.shape[: a.ndim - len(core)])
        for o, core in zip(given, self._outs):
            for d, n in zip(core, tuple(o.shape)[len(o.shape) - len(core) :]):
                sizes.setdefault(d, n)
        loop = np.broadcast_shapes(
            *loops, *[tuple(o.shape)[: len(o.shape) - len(c)] for o, c in zip(given, self._outs)]
        )
        n = int(np.prod(loop, dtype=np.int64))
        flat = []
        for a, core, t in zip(host_ins, self._ins, sig):
            full = np.ascontiguousarray(np.broadcast_to(a, loop + a.shape[a.ndim - len(core) :]))
            shape = (n,) + full.shape[len(loop) :] if isinstance(t, _t.Array) else (n,)
            full = full.reshape((n, 1) if isinstance(t, _t.Array) and not core else shape)
            if not full.flags.writeable:
                full = full.copy()
            flat.append(cuda.to_device(full, stream=stream) if on_device else full)
        results = []
        for j, (core, t) in enumerate(zip(self._outs, sig[self.nin :])):
            for d in core:
                if d not in sizes:
                    raise ValueError(f"gufunc '{self.__name__}': the size of core dimension {d} is unknown")
            cshape = tuple(sizes[d] for d in core)
            kshape = (n,) + (cshape or (1,))
            res = (
                cuda.device_array(kshape, t.dtype.dtype, stream=stream)
                if on_device
                else np.zeros(kshape, t.dtype.dtype)
            )
            flat.append(res)
            results.append((res, loop + cshape))
        if n:
            k = _gu_kernel(cuda, self._device_fn, len(flat))
            tpb = 64
            k[(n + tpb - 1) // tpb, tpb, stream](*flat)
        outs = []
        for j, (res, shape) in enumerate(results):
            r = res.reshape(shape) if on_device else res.reshape(shape)
            if j < len(given):
                o = given[j]
                if _is_device(o):
                    o.copy_to_device(r if on_device else r, stream=stream)
                else:
                    o[...] = r.copy_to_host(stream=stream) if on_device else r
                r = o
            outs.append(r)
        return outs[0] if len(outs) == 1 else tuple(outs)


def _nopython_redundant(what, fn, kws):
    """Numba-CUDA's RuntimeWarning for `nopython=True`: device code is always nopython."""
    if kws.get("nopython"):
        warnings.warn(
            f"cuda.{what}('{fn.__name__}'): nopython kwarg for cuda target is redundant "
            "(CUDA functions always compile in nopython mode)",
            RuntimeWarning,
            stacklevel=3,
        )


def _new_ufunc(cls, device_fn, signatures, *layout):
    from pydev.numba import cuda

    return cls(cuda, device_fn.py_func, signatures, *layout)


def guvectorize(cuda, ftylist, signature, **kws):
    target = kws.pop("target", "cuda")
    if target != "cuda":
        raise TypeError(f"cuda.guvectorize(target={target!r}): pydev.numba makes CUDA gufuncs only")
    unknown = [k for k in kws if k not in ("identity", "cache", "fastmath", "nopython", "forceobj", "writable_args")]
    if unknown:  # Numba's errors and messages
        raise TypeError(f"The following target options are not supported: {', '.join(map(repr, unknown))}")
    if kws.get("nopython") is False or kws.get("forceobj"):
        raise TypeError("nopython flag must be True")
    sigs = ftylist
    if isinstance(sigs, (str, _t.Signature)):
        sigs = [sigs]

    def decorate(fn):
        _nopython_redundant("guvectorize", fn, kws)
        return GUFunc(cuda, fn, list(sigs), signature)

    return decorate


def _concat(head, tail, on_device, stream):
    if not on_device:
        return np.concatenate([head, tail])
    import pydev

    both = np.concatenate([head.copy_to_host(stream=stream), tail.copy_to_host(stream=stream)])
    return pydev.numba.cuda.to_device(both, stream=stream)


def vectorize(cuda, ftylist_or_function=(), **kws):
    target = kws.pop("target", "cuda")
    if target != "cuda":
        raise TypeError(f"cuda.vectorize(target={target!r}): pydev.numba makes CUDA ufuncs only")
    unknown = sorted(k for k in kws if k not in ("identity", "cache", "fastmath", "nopython", "forceobj"))
    if unknown:
        raise KeyError(f"Unrecognized options: {unknown}")  # Numba's error and message
    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, (_t.Type, _t.Signature)):
        raise NotImplementedError(
            f"cuda.vectorize without signatures ('{ftylist_or_function.__name__}'): pydev.numba needs the "
            "signatures, e.g. @cuda.vectorize(['float32(float32, float32)'])"
        )
    sigs = ftylist_or_function
    if isinstance(sigs, (str, _t.Signature)):
        sigs = [sigs]
    if not sigs:
        raise NotImplementedError("cuda.vectorize without signatures: pydev.numba needs them")

    def decorate(fn):
        _nopython_redundant("vectorize", fn, kws)
        return UFunc(cuda, fn, list(sigs))

    return decorate
