"""Vector types on the host (`float32x4(1, 2, 3, 4)`): the Vector base with
the CUDA C++ layout and lanes .x .y .z .w, and the maker of a vector type
of a number type (the types themselves are made on first use,
pydev._lazy_types)."""

import numpy as np

from ._numbers import VECTOR_ELEMENTS, _is_softfloat  # noqa: F401 - VECTOR_ELEMENTS: pydev._types's


def _converter(t):
    """The C-cast conversion of fixed-format number type `t`."""
    return t._convert


class Vector:
    """A vector of `size` (1 to 4) numbers of one type (`float32x4(1, 2, 3, 4)`),
    with the CUDA C++ layout (float4, ...). `.dtype` is the element type, as
    the spec says; `.x .y .z .w`, indexing, len() and iteration read lanes.
    Device code treats vectors as values (`v[1] = x` rebinds v); on the host
    `v[i] = x` and `v.x = e` update the vector in place."""

    __slots__ = ("_v",)
    size = 0
    dtype = None
    _elem = None  # the fixed-format number type of the lanes
    _storage = None  # NumPy dtype of one vector in memory: (T, (N,))

    def __init__(self, *args):
        n = self.size
        if len(args) == 1 and n != 1 and not np.isscalar(args[0]) and not _is_softfloat(args[0]):
            args = tuple(args[0])
        if len(args) != n:
            raise TypeError(f"{type(self).__name__}() takes {n} value{'s' if n > 1 else ''}, got {len(args)}")
        object.__setattr__(self, "_v", self._lanes(args))

    @classmethod
    def _lanes(cls, values):
        conv = _converter(cls._elem)
        out = [conv(v) for v in values]
        if cls.dtype.metadata:  # only the SoftFloat stand-ins' dtypes have metadata (no ml_dtypes)
            return np.array([v._bits for v in out], dtype=cls.dtype)
        return np.array(out, dtype=cls.dtype)

    def _lane(self, i):
        v = self._v[i]
        if self.dtype.metadata:  # a SoftFloat stand-in lane
            return self._elem._np.from_bits(int(v))
        return v

    def __setattr__(self, name, value):
        if name in ("x", "y", "z", "w"):
            return object.__setattr__(self, name, value)
        raise AttributeError(f"{type(self).__name__} has no attribute '{name}'")

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"{type(self).__name__} indices must be integers, got {type(i).__name__}")
        if not -self.size <= i < self.size:
            raise IndexError(f"{type(self).__name__} index {i} out of range (it has {self.size} lanes)")
        return self._lane(int(i))

    def __setitem__(self, i, value):
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"{type(self).__name__} indices must be integers, got {type(i).__name__}")
        if not -self.size <= i < self.size:
            raise IndexError(f"{type(self).__name__} index {i} out of range (it has {self.size} lanes)")
        self._v[int(i)] = self._lanes([value])[0]

    def __iter__(self):
        return (self._lane(i) for i in range(self.size))

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._v.tobytes() == other._v.tobytes() or bool(np.array_equal(self.tolist(), other.tolist()))

    __hash__ = None  # updatable in place on the host

    def tolist(self):
        return [x.item() if hasattr(x, "item") else x for x in self]

    def tobytes(self):
        return self._v.tobytes()

    @classmethod
    def frombytes(cls, data):
        obj = cls.__new__(cls)
        object.__setattr__(obj, "_v", np.frombuffer(bytes(data), dtype=cls.dtype, count=cls.size).copy())
        return obj

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(x) for x in self.tolist())})"


def _lane_property(i, letter):
    def get(self):
        if i >= self.size:
            raise AttributeError(f"{type(self).__name__} has no lane '{letter}' (it has {self.size})")
        return self._lane(i)

    def put(self, value):
        if i >= self.size:
            raise AttributeError(f"{type(self).__name__} has no lane '{letter}' (it has {self.size})")
        self._v[i] = self._lanes([value])[0]

    return property(get, put, doc=f"lane {i}")


for _i, _letter in enumerate("xyzw"):
    setattr(Vector, _letter, _lane_property(_i, _letter))


_CUDA_NAMES = {
    "int8": "char",
    "uint8": "uchar",
    "int16": "short",
    "uint16": "ushort",
    "int32": "int",
    "uint32": "uint",
    "int64": "longlong",
    "uint64": "ulonglong",
    "float32": "float",
    "float64": "double",
}


def vector_doc(name, n):
    """The docstring of the vector type `{name}x{n}` of cuda.device."""
    cuda = f"CUDA's {_CUDA_NAMES[name]}{n}" if name in _CUDA_NAMES else "CUDA's layout"
    lanes = " ".join(f".{c}" for c in "xyzw"[:n])
    return (
        f"cuda.device.{name}x{n}: a vector of {n} {name} lane{'s' if n > 1 else ''} ({cuda}), a value. "
        f"`device.{name}x{n}(...)` constructs one in host and device code; lanes {lanes} or v[i]; "
        "a launch passes it by value with its CUDA C++ layout, and a struct field of this type is a "
        f"({name}, ({n},)) sub-array of the struct's NumPy dtype."
    )


def _vector_type(elem, name, n):
    dt = np.dtype(elem)
    return type(
        f"{name}x{n}",
        (Vector,),
        {
            "__doc__": vector_doc(name, n),
            "__slots__": (),
            "size": n,
            "dtype": dt,
            "_elem": elem,
            "_storage": np.dtype((dt, (n,))),
            "__module__": "cuda.device",
        },
    )
