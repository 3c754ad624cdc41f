"""Heterogeneous types on the host: fixed-format numbers (NumPy scalar types),
vectors, `@struct` classes with their CUDA C++ layout as NumPy dtypes, and
the signature names the compiler reads (pydevc's syntax)."""
import numpy as np

int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
bool_ = np.bool_

try:  # NumPy has no bfloat16 or float8: ml_dtypes provides them when installed.
    import ml_dtypes as _ml

    bfloat16 = _ml.bfloat16
    float8e4m3 = _ml.float8_e4m3fn
    float8e5m2 = _ml.float8_e5m2
except ImportError:  # pragma: no cover - depends on the environment

    class _Unavailable:
        def __init__(self, name):
            self.__name__ = name

        def __call__(self, *args):
            raise TypeError(f"{self.__name__} numbers on the host need the ml_dtypes package (pip install ml-dtypes); device code supports them")

    bfloat16 = _Unavailable("bfloat16")
    float8e4m3 = _Unavailable("float8e4m3")
    float8e5m2 = _Unavailable("float8e5m2")

WarpMask = np.int32

# NumPy dtype -> the compiler's name.
_DTYPE_NAMES = {
    np.dtype(t): n
    for t, n in [
        (np.int8, "int8"), (np.int16, "int16"), (np.int32, "int32"), (np.int64, "int64"),
        (np.uint8, "uint8"), (np.uint16, "uint16"), (np.uint32, "uint32"), (np.uint64, "uint64"),
        (np.float16, "float16"), (np.float32, "float32"), (np.float64, "float64"),
        (np.complex64, "complex64"), (np.complex128, "complex128"), (np.bool_, "bool"),
    ]
}
if not isinstance(bfloat16, type) or True:
    try:
        _DTYPE_NAMES[np.dtype(bfloat16)] = "bfloat16"
        _DTYPE_NAMES[np.dtype(float8e4m3)] = "float8e4m3"
        _DTYPE_NAMES[np.dtype(float8e5m2)] = "float8e5m2"
    except TypeError:
        pass


def dtype_name(dt):
    """The compiler's name of a NumPy scalar dtype, or None."""
    return _DTYPE_NAMES.get(np.dtype(dt))


def layout(dt):
    """(size, alignment) of a NumPy dtype with pydev's CUDA C++ rules."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:  # a vector field: (T, (n,))
        base, shape = dt.subdtype
        n = int(np.prod(shape))
        size = n * base.itemsize
        return size, base.itemsize if n == 3 else min(size, 16)
    if dt.fields:
        return dt.itemsize, dt.alignment
    if dt.kind == "c":
        return dt.itemsize, dt.itemsize // 2
    return dt.itemsize, dt.itemsize


# --- vectors -------------------------------------------------------------------


class Vector:
    """A vector of `size` numbers of one dtype (`float32x4(1, 2, 3, 4)`)."""

    _base = np.dtype(np.float32)
    size = 4

    def __init__(self, *args):
        if len(args) == 1 and np.ndim(args[0]) == 1:
            args = tuple(args[0])
        if len(args) != self.size:
            raise TypeError(f"{type(self).__name__}() takes {self.size} values, got {len(args)}")
        object.__setattr__(self, "_v", np.array(args, dtype=self._base))

    @classmethod
    def _dtype(cls):
        return np.dtype((cls._base, (cls.size,)))

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        return self._v[i]

    def __setitem__(self, i, value):
        self._v[i] = value

    def __iter__(self):
        return iter(self._v)

    def __eq__(self, other):
        return type(other) is type(self) and bool(np.array_equal(self._v, other._v))

    def __hash__(self):
        return hash((type(self).__name__, self._v.tobytes()))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(x.item()) for x in self._v)})"

    def _component(i):
        def get(self):
            if i >= self.size:
                raise AttributeError(f"{type(self).__name__} has {self.size} lanes")
            return self._v[i]

        return property(get)

    x, y, z, w = _component(0), _component(1), _component(2), _component(3)

    def tobytes(self):
        return self._v.tobytes()


_VECTOR_TYPES = {}
for _t in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"]:
    for _n in range(1, 5):
        _cls = type(f"{_t}x{_n}", (Vector,), {"_base": np.dtype(_t), "size": _n})
        _cls.dtype = _cls._dtype()
        _VECTOR_TYPES[f"{_t}x{_n}"] = _cls

Dim3 = _VECTOR_TYPES["uint32x3"]


# --- structs -------------------------------------------------------------------


class Aligned:
    """`align(t, n)`: type `t` aligned to at least `n` bytes."""

    def __init__(self, t, n):
        if n <= 0 or n & (n - 1):
            raise ValueError(f"align() takes a power of two, got {n}")
        self.type, self.alignment = t, n

    def __repr__(self):
        return f"align({self.type!r}, {self.alignment})"


def align(t, n):
    return Aligned(t, n)


class Atomic:
    """`Atomic(dtype, align=...)`: a struct field accessed atomically (device only)."""

    def __init__(self, dtype, align=0):
        self.dtype, self.alignment = np.dtype(dtype), align


def field_dtype(t):
    """(NumPy dtype, alignment) of a struct field's annotation."""
    if isinstance(t, Aligned):
        dt, a = field_dtype(t.type)
        return dt, max(a, t.alignment)
    if isinstance(t, Atomic):
        return t.dtype, max(t.dtype.itemsize, t.alignment)
    if t is int:
        t = np.int32
    elif t is float:
        t = np.float32
    elif t is complex:
        t = np.complex64
    elif t is bool:
        t = np.bool_
    if isinstance(t, type) and issubclass(t, Vector):
        dt = t.dtype
    elif hasattr(t, "_pydev_struct"):
        dt = t.dtype
    else:
        dt = np.dtype(t)
    return dt, layout(dt)[1]


class Struct:
    """Base of `@struct` classes: immutable, constructed by position or keyword."""

    _fields = ()

    def __init__(self, *args, **kwargs):
        names = [n for n, _ in self._fields]
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} fields, got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{type(self).__name__}() has no field '{k}'")
            if k in values:
                raise TypeError(f"{type(self).__name__}() got field '{k}' twice")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"{type(self).__name__}() is missing field '{missing[0]}'")
        for n in names:
            object.__setattr__(self, n, values[n])

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable: build a new one, e.g. {type(self).__name__}(...)")

    def __eq__(self, other):
        return type(other) is type(self) and all(_same(getattr(self, n), getattr(other, n)) for n, _ in self._fields)

    def __hash__(self):
        return hash(self.tobytes())

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n, _ in self._fields)})"

    def _record(self):
        rec = np.zeros((), dtype=type(self).dtype)
        for n, _ in self._fields:
            v = getattr(self, n)
            rec[n] = v._record() if isinstance(v, Struct) else (v._v if isinstance(v, Vector) else v)
        return rec

    def tobytes(self):
        return self._record().tobytes()


def _same(a, b):
    try:
        return bool(np.all(np.asarray(a) == np.asarray(b)))
    except Exception:
        return a == b


def struct(cls=None, *, align=0):
    """`@struct` / `@struct(align=16)`: a heterogeneous struct with the CUDA
    C++ layout; `Cls.dtype` is the NumPy structured dtype of that layout."""
    if align and align & (align - 1):
        raise ValueError(f"align of a struct must be a power of two, got {align}")

    def make(c):
        hints = c.__dict__.get("__annotations__", {})
        fields = list(hints.items())
        names, formats, offsets = [], [], []
        offset, max_align = 0, 1
        for name, t in fields:
            dt, a = field_dtype(t)
            offset = (offset + a - 1) // a * a
            names.append(name)
            formats.append(dt)
            offsets.append(offset)
            offset += dt.itemsize
            max_align = max(max_align, a)
        max_align = max(max_align, align or 1)
        itemsize = (offset + max_align - 1) // max_align * max_align
        body = {k: v for k, v in c.__dict__.items() if k not in ("__dict__", "__weakref__")}
        body["_fields"] = tuple(fields)
        body["_pydev_struct"] = True
        body["__annotations__"] = hints
        new = type(c.__name__, (Struct,) + tuple(b for b in c.__bases__ if b is not object), body)
        new.dtype = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize, "aligned": True})
        new.__module__ = c.__module__
        new.__qualname__ = c.__qualname__
        return new

    return make(cls) if cls is not None else make
