"""Structs and the types of their fields on the host: `@struct` classes with
the CUDA C++ layout as NumPy dtypes, `align()`, `Atomic` (a field accessed
atomically; its operations are device-only), the dtype of any type
(to_dtype), the C-like conversion of a host value to a type (convert_to),
its bytes (pack), a struct's name in a signature (sig_name), and the CUDA
C++ layout of NumPy dtypes: (size, alignment) of a dtype (c_layout), and
where a structured dtype departs from the C layout of its fields
(c_layout_mismatch).

Layout rules (the same as the compiler's, frontends/python/src/types.rs):
a number is aligned to its size (a complex number to the size of one part);
a vector of N lanes of T is N * sizeof(T) bytes aligned to min(N * sizeof(T),
16), except 3 lanes, aligned to sizeof(T) (CUDA's float3, double3, ...); a
struct or tuple is a C struct of its members in order, each at the next
multiple of its alignment, the whole rounded up to the largest alignment
(and to `align=` for a struct).
"""

import copyreg
import inspect
import math
import sys

import numpy as np

from . import _facts
from ._native import device_only
from ._lazy_types import dtype_name
from ._numbers import _NumberMeta, complex64, float32, int32
from ._numbers import _is_softfloat
from ._vectors import Vector


# --- the C layout of dtypes ---------------------------------------------------------------


def _round_up(n, a):
    return (n + a - 1) // a * a


def c_layout(dt):
    """(size, alignment) of a NumPy dtype laid out with the CUDA C++ rules."""
    dt = np.dtype(dt)
    if dt.metadata and "pydev_align" in dt.metadata:
        return dt.itemsize, dt.metadata["pydev_align"]
    if dt.subdtype is not None:  # a vector field: (T, (n,))
        base, shape = dt.subdtype
        n = int(math.prod(shape))
        size = n * base.itemsize
        return size, base.itemsize if n == 3 else min(size, 16)
    if dt.fields:
        align = 1
        for name in dt.names:
            align = max(align, c_layout(dt.fields[name][0])[1])
        return _round_up(dt.itemsize, align), align
    if dt.kind == "c":
        return dt.itemsize, dt.itemsize // 2
    return dt.itemsize, dt.itemsize


def c_layout_mismatch(dt):
    """None when structured dtype `dt` has the C layout of its fields (as
    the compiler lays it out), else a sentence saying where it differs."""
    dt = np.dtype(dt)
    offset, align = 0, int((dt.metadata or {}).get("pydev_align", 1))
    for name in dt.names:
        fdt, foff = dt.fields[name][:2]
        if fdt.subdtype is not None:
            base, shape = fdt.subdtype
            if len(shape) != 1 or not 1 <= shape[0] <= 4 or dtype_name(base) is None:
                return (
                    f"field '{name}' is a {fdt} sub-array; only vectors (a number type with 1 to 4 lanes) are supported"
                )
        elif fdt.fields:
            inner = c_layout_mismatch(fdt)
            if inner:
                return f"in field '{name}': {inner}"
        elif dtype_name(fdt) is None:
            return f"field '{name}' has dtype {fdt}, which device code does not support"
        size, a = c_layout(fdt)
        offset = _round_up(offset, a)
        if foff != offset:
            return f"field '{name}' is at offset {foff}, but the C layout puts it at {offset} (build the dtype with align=True)"
        offset += size
        align = max(align, a)
    if dt.itemsize != _round_up(offset, align):
        return f"its itemsize is {dt.itemsize}, but the C layout's is {_round_up(offset, align)} (build the dtype with align=True)"
    return None


# --- structs ------------------------------------------------------------------------------


def to_dtype(t):
    """The NumPy dtype of a type: builtins (int -> int32, float -> float32,
    complex -> complex64, bool), fixed-format numbers, NumPy dtypes, vector
    and struct classes (their storage), align() types."""
    if t is int:
        return np.dtype(np.int32)
    if t is float:
        return np.dtype(np.float32)
    if t is complex:
        return np.dtype(np.complex64)
    if t is bool:
        return np.dtype(np.bool_)
    if isinstance(t, type) and issubclass(t, Vector):
        return t._storage
    if isinstance(t, (Aligned, Atomic)) or is_struct(t):
        return t.dtype
    if isinstance(t, _NumberMeta):
        return t.dtype
    return np.dtype(t)


class Aligned:
    """`align(t, n)`: type `t` aligned to at least `n` bytes. For a struct it
    is the struct with the larger alignment; for another type, a one-field
    struct {value: t} aligned to n (as the compiler lays it out). It is a
    dtype (`.dtype`) and a constructor (`align(float32, 16)(x)` is t(x))."""

    def __init__(self, t, n):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0 or n & (n - 1):
            raise ValueError(f"align() takes a power of two, got {n!r}")
        self.type, self.alignment = t, int(n)
        inner = to_dtype(t)
        size, a = c_layout(inner)
        a = max(a, self.alignment)
        if is_struct(t) or isinstance(t, Aligned):
            fields = {name: inner.fields[name][:2] for name in inner.names}
            self.dtype = np.dtype(
                {
                    "names": list(fields),
                    "formats": [f[0] for f in fields.values()],
                    "offsets": [f[1] for f in fields.values()],
                    "itemsize": _round_up(size, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )
        else:
            self.dtype = np.dtype(
                {
                    "names": ["value"],
                    "formats": [inner],
                    "offsets": [0],
                    "itemsize": _round_up(size, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )

    def __call__(self, *args, **kwargs):
        return convert_to(self.type, *args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, Aligned) and other.type == self.type and other.alignment == self.alignment

    def __hash__(self):
        return hash((Aligned, self.type, self.alignment))

    def __repr__(self):
        return f"align({getattr(self.type, '__name__', self.type)!r}, {self.alignment})"


def align(t, n):
    """A type equivalent to `t`, aligned to at least `n` bytes."""
    return Aligned(t, n)


class Atomic:
    """`Atomic(dtype, align=0)`: an object accessed atomically; as a struct
    field type (`line: device.Atomic(int, align=16)`) it lays out like its
    dtype aligned to `align`. Its operations are device-only."""

    def __init__(self, dtype, align=0):
        self.type = dtype
        inner = to_dtype(dtype)
        if inner.itemsize > 16:
            raise TypeError(f"Atomic() objects hold at most 16 bytes, {inner} has {inner.itemsize}")
        a = max(c_layout(inner)[1], int(align or 1))
        if a & (a - 1):
            raise ValueError(f"Atomic(align=...) takes a power of two, got {align!r}")
        self.alignment = a
        self.dtype = inner
        self._field_dtype = (
            inner
            if a == c_layout(inner)[1]
            else np.dtype(
                {
                    "names": ["value"],
                    "formats": [inner],
                    "offsets": [0],
                    "itemsize": _round_up(inner.itemsize, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )
        )

    def __repr__(self):
        return f"Atomic({self.dtype}, align={self.alignment})"

    def _device_only(self, *args, **kwargs):
        raise device_only("Atomic operations")


for _method in _facts.ATOMIC_METHODS:  # load, store, exch, cas, add, ... (device-only)
    setattr(Atomic, _method, Atomic._device_only)


def is_struct(t):
    return isinstance(t, type) and issubclass(t, Struct) and t is not Struct


class _Field:
    """A struct field: its name, declared type, NumPy dtype, the bytes and
    alignment it takes in the C layout, its offset, and how host values
    convert to it. An align(t, n) or Atomic(t, align=n) field has the plain
    dtype of t (so that `arr["f"]` reads numbers) at an n-aligned offset,
    and takes the padded size of the aligned type."""

    def __init__(self, name, t, offset=0):
        self.name, self.type = name, t
        inner = t
        while isinstance(inner, (Aligned, Atomic)):
            inner = inner.type
        self.value_type = inner
        self.dtype = to_dtype(inner)
        dt = self.dtype
        if dt.kind == "O" or (dt.subdtype is None and not dt.fields and dtype_name(dt) is None):
            raise TypeError(f"{dt} is not a type device code supports")
        self.size, self.align = c_layout(dt)
        if is_struct(inner):
            self.size, self.align = dt.itemsize, inner._alignment
        if isinstance(t, (Aligned, Atomic)):
            full = t.dtype if isinstance(t, Aligned) else t._field_dtype
            self.size, self.align = c_layout(full)
            self.size = full.itemsize
        self.offset = offset

    def convert(self, value):
        return convert_to(self.value_type, value)


def convert_to(t, *args, **kwargs):
    """A host value of type `t` from `args` (a C-like conversion)."""
    if isinstance(t, Aligned):
        return convert_to(t.type, *args, **kwargs)
    if is_struct(t):
        if len(args) == 1 and not kwargs and isinstance(args[0], t):
            return args[0]
        if len(args) == 1 and not kwargs and isinstance(args[0], tuple):
            return t(*args[0])
        return t(*args, **kwargs)
    if isinstance(t, type) and issubclass(t, Vector):
        if len(args) == 1 and isinstance(args[0], t):
            return args[0]
        return t(*args)
    (value,) = args
    if t is int:
        return int32(value)
    if t is float:
        return float32(value)
    if t is complex:
        return complex64(value)
    if t is bool:
        return bool(value)
    if isinstance(t, _NumberMeta):
        return t(value)
    return np.dtype(t).type(value)


def pack(value, t):
    """The bytes of host value `value` of type `t` in the CUDA C++ layout."""
    dt = to_dtype(t)
    if isinstance(t, Aligned):
        inner = pack(value, t.type)
        return inner + b"\0" * (dt.itemsize - len(inner))
    if isinstance(t, Atomic):
        inner = pack(value, t.type)
        return inner + b"\0" * (t._field_dtype.itemsize - len(inner))
    if is_struct(t):
        return convert_to(t, value).tobytes()
    if isinstance(t, type) and issubclass(t, Vector):
        return convert_to(t, value).tobytes()
    v = convert_to(t, value)
    if _is_softfloat(v):
        return v.tobytes()
    return np.array(v, dtype=dt).tobytes()


class _StructClass(type):
    """The metaclass of structs: with it `pickle` stores a struct class of
    `__main__` or made in a function by value (pydev._pickling.reduce_class;
    copyreg knows metaclasses, not classes), as cloudpickle does."""


def _reduce_class(cls):
    from . import _pickling

    return _pickling.reduce_class(cls)


copyreg.pickle(_StructClass, _reduce_class)


class Struct(metaclass=_StructClass):
    """Base of `@struct` classes: immutable values constructed by position
    (in field order) or keyword, with field defaults from the class body."""

    _fields = ()
    _defaults = {}
    _alignment = 1
    _site = (None, 0)  # (file, line) where @struct made the class
    dtype = None

    def __init__(self, *args, **kwargs):
        cls = type(self)
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(
                f"{cls.__name__}() takes {len(fields)} field value{'s' if len(fields) != 1 else ''}, got {len(args)}"
            )
        values = {f.name: v for f, v in zip(fields, args)}
        for k, v in kwargs.items():
            if not any(f.name == k for f in fields):
                raise TypeError(f"{cls.__name__}() has no field '{k}'")
            if k in values:
                raise TypeError(f"{cls.__name__}() got field '{k}' twice")
            values[k] = v
        for f in fields:
            if f.name not in values:
                if f.name in cls._defaults:
                    values[f.name] = cls._defaults[f.name]
                else:
                    raise TypeError(f"{cls.__name__}() is missing field '{f.name}'")
            object.__setattr__(self, f.name, f.convert(values[f.name]))

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable: build a new one, e.g. s._replace({name}=...)")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _replace(self, **changes):
        """A copy with some fields changed (structs are values)."""
        values = {f.name: getattr(self, f.name) for f in self._fields}
        values.update(changes)
        return type(self)(**values)

    def _astuple(self):
        return tuple(getattr(self, f.name) for f in self._fields)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.tobytes() == other.tobytes() or all(
            _same(getattr(self, f.name), getattr(other, f.name)) for f in self._fields
        )

    def __hash__(self):
        return hash((type(self).__name__, self.tobytes()))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in self._fields)})"

    def tobytes(self):
        """The CUDA C++ representation (Cls.dtype.itemsize bytes)."""
        buf = bytearray(type(self).dtype.itemsize)
        for f in self._fields:
            b = pack(getattr(self, f.name), f.type)
            buf[f.offset : f.offset + len(b)] = b
        return bytes(buf)

    def _record(self):
        """This struct as a NumPy structured scalar of Cls.dtype."""
        return np.frombuffer(self.tobytes(), dtype=type(self).dtype)[0]

    @classmethod
    def from_record(cls, record):
        """A struct from an element of an array of Cls.dtype."""
        rec = np.asarray(record)
        if rec.dtype != cls.dtype:
            rec = rec.astype(cls.dtype)
        values = {}
        for f in cls._fields:
            v = rec[f.name]
            if is_struct(f.value_type):
                values[f.name] = f.value_type.from_record(v)
            elif isinstance(f.value_type, type) and issubclass(f.value_type, Vector):
                values[f.name] = f.value_type.frombytes(np.asarray(v).tobytes())
            else:
                values[f.name] = v[()]
        return cls(**values)


def sig_name(cls):
    """The name of @struct class `cls` in a signature and a program
    description: its name for a class of its module's top level, else
    `qualname@line` (`make.<locals>.P@12`), which the compiler finds
    anywhere in the file (in a function, a class body, a block) and which
    keeps two classes of one name apart."""
    name = cls.__dict__.get("_sig_name")
    if name is not None:  # a struct loaded from a pickle keeps the name it had (cuda.device._pickling)
        return name
    name = cls.__name__
    if cls.__qualname__ == name and getattr(sys.modules.get(cls.__module__), name, None) is cls:
        return name
    return f"{cls.__qualname__}@{cls._site[1]}"


def _same(a, b):
    try:
        return bool(np.all(np.asarray(a) == np.asarray(b)))
    except Exception:
        return a == b


def _annotations(c, scope=None):
    """The class's own field annotations, strings evaluated (PEP 563), in
    the module, the names `scope` held where the class was defined (the
    locals of its function, for a struct defined there) and the class."""
    try:
        if scope:
            return inspect.get_annotations(c, locals={**scope, **vars(c)}, eval_str=True)
        return inspect.get_annotations(c, eval_str=True)
    except Exception:
        raw = inspect.get_annotations(c)
        module = sys.modules.get(c.__module__)
        env = dict(vars(module)) if module else {}
        env.update(scope or {})
        env.update(vars(c))
        out = {}
        for name, t in raw.items():
            if isinstance(t, str):
                try:
                    t = eval(t, env)  # noqa: S307 - the user's own annotation
                except Exception as e:
                    raise TypeError(
                        f"@device.struct {c.__name__}: cannot evaluate the type hint of field '{name}': {t!r} ({e})"
                    ) from None
            out[name] = t
        return out


def struct(cls=None, *, align=0):
    """`@struct` / `@struct(align=16)`: a heterogeneous struct with the CUDA
    C++ layout; `Cls.dtype` is the NumPy structured dtype of that layout
    (field offsets, alignment, itemsize; a vector field float32x4 is a
    (float32, (4,)) sub-array at its aligned offset)."""
    if (
        isinstance(align, bool)
        or not isinstance(align, (int, np.integer))
        or align < 0
        or (align and align & (align - 1))
    ):
        raise ValueError(f"@device.struct(align=...) takes a power of two, got {align!r}")
    if cls is not None and not isinstance(cls, type):
        raise TypeError(f"@device.struct decorates a class, got {cls!r}")
    # Where the class is defined (the line `@struct` runs at, in the class's
    # decorators; the file), for the compiler to find a class defined
    # anywhere (sig_name), and the locals there (its string annotations).
    frame = sys._getframe(1)
    site = (frame.f_code.co_filename, frame.f_lineno)
    scope = dict(frame.f_locals) if frame.f_locals is not frame.f_globals else None
    del frame

    def make(c):
        if is_struct(c):
            raise TypeError(f"{c.__name__} is already a @device.struct")
        hints = _annotations(c, scope)
        fields = []
        offset, max_align = 0, 1
        for name, t in hints.items():
            try:
                f = _Field(name, t)
            except TypeError as e:
                raise TypeError(
                    f"@device.struct {c.__name__}: field '{name}' has type {t!r}, which is not heterogeneous ({e})"
                ) from None
            offset = _round_up(offset, f.align)
            f.offset = offset
            offset += f.size
            max_align = max(max_align, f.align)
            fields.append(f)
        max_align = max(max_align, int(align) or 1)
        itemsize = _round_up(offset, max_align)
        defaults = {f.name: c.__dict__[f.name] for f in fields if f.name in c.__dict__}
        body = {k: v for k, v in c.__dict__.items() if k not in ("__dict__", "__weakref__") and k not in defaults}
        body.update(_fields=tuple(fields), _defaults=defaults, _alignment=max_align, underlying=c)
        bases = (Struct,) + tuple(b for b in c.__bases__ if b is not object)
        new = type(c.__name__, bases, body)
        new.__module__, new.__qualname__ = c.__module__, c.__qualname__
        new._site = (site[0], getattr(c, "__firstlineno__", None) or site[1])
        new.dtype = np.dtype(
            {
                "names": [f.name for f in fields],
                "formats": [f.dtype for f in fields],
                "offsets": [f.offset for f in fields],
                "itemsize": itemsize,
                "aligned": True,
            },
            metadata={"pydev_align": max_align},
        )
        return new

    return make(cls) if cls is not None else make
