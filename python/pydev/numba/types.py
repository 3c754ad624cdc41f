"""Numba's type objects for `pydev.numba` signatures and dtypes:
`float32`, `int64[:]`, `float32[:, ::1]`, `void(float32[:], int32)`,
`from_dtype(np.dtype(...))`. Each maps to a pydev IR type (`.ir`)."""

import enum
import numpy as np

from .. import ir

__all__ = [
    "Type",
    "Number",
    "Integer",
    "Float",
    "Complex",
    "Boolean",
    "Array",
    "UniTuple",
    "Tuple",
    "NamedUniTuple",
    "NamedTuple",
    "Record",
    "Signature",
    "NoneType",
    "NPDatetime",
    "NPTimedelta",
    "CPointer",
    "boolean",
    "bool_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "intp",
    "uintp",
    "void",
    "none",
    "from_dtype",
    "typeof",
    "f2",
    "f4",
    "f8",
    "i1",
    "i2",
    "i4",
    "i8",
    "u1",
    "u2",
    "u4",
    "u8",
    "b1",
    "byte",
    "char",
    "short",
    "int_",
    "long_",
    "longlong",
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "ulonglong",
    "float_",
    "double",
    "half",
    "complex64",
    "complex128",
    "bfloat16",
    "fp8_e4m3",
    "fp8_e5m2",
    "fp8_e8m0",
    "bfloat16_raw",
]


class Type:
    """A Numba type, as `numba.types` has them: `float32[:]` makes an array
    type, `float32(int32, float32[:])` a signature, `float32(1.5)` converts a
    number in host code."""

    name = "?"

    def __init__(self, name=None):
        # Numba's `Type(name)`: a library's own type class names itself.
        if name is not None:
            self.name = name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and self.key() == other.key()

    def __hash__(self):
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash(self.key())
        return h

    def key(self):
        return (type(self).__name__, self.name)

    def __getitem__(self, spec):
        """`float32[:]`, `float32[::1]`, `float32[:, :]`, `float32[:, ::1]` (C), `float32[::1, :]` (F)."""
        spec = spec if isinstance(spec, tuple) else (spec,)
        if not all(isinstance(s, slice) and s.start is None and s.stop is None and s.step in (None, 1) for s in spec):
            raise TypeError(f"an array type is written {self.name}[:] / [::1] / [:, ::1] / [::1, :], got {spec!r}")
        ndim = len(spec)
        layout = "A"
        if spec[-1].step == 1 and all(s.step is None for s in spec[:-1]):
            layout = "C"
        elif spec[0].step == 1 and all(s.step is None for s in spec[1:]):
            layout = "F" if ndim > 1 else "C"
        elif any(s.step == 1 for s in spec):
            raise TypeError(f"{self.name}{list(spec)}: ::1 goes on the first (F) or the last (C) dimension")
        return Array(self, ndim, layout)

    def __call__(self, *args):
        if all(
            isinstance(a, (Type, str)) or a is None for a in args
        ):  # int32() is a signature without arguments, as in Numba
            return Signature(self, [_as_type(a) for a in args])
        if len(args) == 1 and isinstance(self, (Number, Boolean)):
            return self.dtype.type(args[0])  # a conversion in host code
        raise TypeError(f"{self.name}() takes one number (a conversion) or argument types (a signature)")


class Number(Type):
    """An integer, float or complex type (`int32`, `float64`, `complex64`, ...),
    with its NumPy `dtype`."""

    def __init__(self, name, kind, bits):
        self.name, self.kind, self.bits = name, kind, bits
        self.dtype = np.dtype(f"{ {'i': 'int', 'u': 'uint', 'f': 'float', 'c': 'complex'}[kind] }{bits}")
        self.ir = ir.Type(
            {"i": "si", "u": "ui", "f": "f", "c": "complex<f"}[kind]
            + str(bits if kind != "c" else bits // 2)
            + (">" if kind == "c" else "")
        )

    @property
    def signed(self):
        return self.kind == "i"

    @property
    def bitwidth(self):
        """Numba's name of the number of bits (complex128: 128)."""
        return self.bits

    @property
    def is_int(self):
        return self.kind in "iu"

    @property
    def is_float(self):
        return self.kind == "f"

    @property
    def underlying_float(self):
        """Numba's: the float type of a complex type's parts (complex64: float32)."""
        if self.kind != "c":
            raise AttributeError(f"{self.name} has no underlying_float (not a complex type)")
        return float32 if self.bits == 64 else float64


class LowFloat(Number):
    """bfloat16 and the 8-bit float formats of numba-cuda (`numba.cuda.bf16`,
    `cuda_fp8`): `ir` the pydev IR type (the dialect's `bf16`, `f8E4M3FN`,
    `f8E5M2`; e8m0, which the dialect lacks, as its bits in `ui8`),
    `dtype` ml_dtypes' dtype (made on first use; None without ml_dtypes),
    `arith` whether it has operators (bfloat16; the float8 formats are
    storage only, as in numba-cuda). Conversions: pydev.numba._lowp."""

    def __init__(self, name, bits, ir_text, ml_name, arith):
        self.name, self.kind, self.bits, self.arith, self._ml_name = name, "f", bits, arith, ml_name
        self.__name__ = name  # numba-cuda's bfloat16 / float8 names are classes (`fp8_e4m3.__name__`)
        self.ir = ir.Type(ir_text)

    @property
    def dtype(self):
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover - depends on the environment
            return None
        return np.dtype(getattr(ml_dtypes, self._ml_name))


class Bfloat16Raw(Type):
    """CUDA's `__nv_bfloat16_raw` (numba-cuda's `bfloat16_raw_type`): the bits
    of a bfloat16, read as `raw.x` (uint16)."""

    name = "bfloat16_raw"
    ir = ir.ui16


class _NumberClass(type):
    """Numba's abstract number classes for `isinstance` tests (an
    `@overload`'s typing choices): a `Number` of the class's kinds."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Number) and obj.kind in cls._kinds


class Integer(metaclass=_NumberClass):
    """`isinstance(t, Integer)`: t is a signed or unsigned integer type (not bool), as in Numba."""

    _kinds = "iu"


class Float(metaclass=_NumberClass):
    """`isinstance(t, Float)`: t is float16, float32 or float64."""

    _kinds = "f"


class Complex(metaclass=_NumberClass):
    """`isinstance(t, Complex)`: t is complex64 or complex128."""

    _kinds = "c"


class Constant(Type):
    """A compile-time constant passed to a device function: a Numba type
    (`int32`), a function (`cuda.atomic.add`, `math.sin`), a dispatcher. As in
    Numba, where such arguments are first-class: the device function is
    compiled once per constant, and the parameter names the constant in its
    body. It has no run-time value."""

    def __init__(self, obj, literal=None):
        # literal: (type, value) of a number literal, or ("tuple", type, items)
        # of a tuple of them: Numba's literal typing, which lets a device
        # function use a literal argument as a shape.
        self.obj = obj
        self.literal = literal
        shown = literal[-1] if literal is not None else obj
        self.name = f"const({getattr(shown, '__qualname__', None) or getattr(shown, '__name__', None) or shown!r})"

    def key(self):
        # Equal Numba types are the same constant; literals by type and value; anything else by identity.
        if self.literal is not None:
            return ("Constant", "literal", _literal_key(self.literal))
        return ("Constant", self.obj.key() if isinstance(self.obj, Type) else id(self.obj))


def _literal_key(lit):
    if lit[0] == "tuple":
        return ("tuple", lit[1].key(), tuple(_literal_key(x) for x in lit[2]))
    return (lit[0].key(), type(lit[1]).__name__, lit[1])


class Boolean(Type):
    """The boolean type (`boolean`, `bool_`, `b1`)."""

    name, kind, bits, is_int, is_float, signed = "bool", "b", 1, False, False, False
    dtype = np.dtype(np.bool_)
    ir = ir.i1


class NPDatetime(Type):
    """NumPy's datetime64 of a unit (`NPDatetime("D")`, Numba's name
    `datetime64[D]`): in kernels an int64 count of units since the epoch
    (NaT is int64's minimum). Arithmetic and comparisons: pydev.numba._datetime."""

    kind = "M"
    ir = ir.si64

    def __init__(self, unit=""):
        self.unit = unit
        self.name = f"{self._np}64[{unit}]" if unit else f"{self._np}64"
        self.dtype = np.dtype(f"{self.kind}8[{unit}]" if unit else f"{self.kind}8")

    _np = "datetime"


class NPTimedelta(NPDatetime):
    """NumPy's timedelta64 of a unit (`NPTimedelta("D")`, `timedelta64[D]`):
    in kernels an int64 count of units."""

    kind = "m"
    _np = "timedelta"


class NoneType(Type):
    """The type of None (`void`, `none`): a kernel's return type in a signature."""

    name = "none"
    ir = None


class Array(Type):
    """An array type: element type, number of dimensions, layout ("C", "F" or
    "A" for any strides), whether it is read-only; `float32[:, ::1]` makes one."""

    def __init__(self, dtype, ndim, layout="C", readonly=False, space=None):
        self.dtype, self.ndim, self.layout, self.readonly, self.space = dtype, int(ndim), layout, readonly, space
        self.name = (
            f"array({dtype}, {self.ndim}d, {layout}{', readonly' if readonly else ''}{', ' + space if space else ''})"
        )
        self._ir = None

    @property
    def ir(self):
        # built on first use: an array of a packed record is a type (Numba's
        # from_dtype makes it) that only compiling refuses
        if self._ir is None:
            layout = {"C": "c", "F": "f"}.get(self.layout)
            self._ir = ir.array(self.dtype.ir, self.ndim, layout, self.space, self.readonly)
        return self._ir

    def key(self):
        return ("Array", self.dtype.key(), self.ndim, self.layout, self.readonly, self.space)

    def __getitem__(self, spec):
        raise TypeError("an array type cannot be indexed again")


class CPointer(Type):
    """Numba's `types.CPointer(dtype)`, a C pointer to `dtype`: a type object
    for signatures and `declare_device`; pydev IR has no pointer values, so
    compiling a kernel or device function with a pointer parameter is a
    TypeError naming it."""

    def __init__(self, dtype, addrspace=None):
        self.dtype, self.addrspace = dtype, addrspace
        self.name = f"{dtype}*" if addrspace is None else f"{dtype}* addrspace({addrspace})"
        self.ir = None

    def key(self):
        return ("CPointer", self.dtype.key(), self.addrspace)


class UniTuple(Type):
    """A tuple of `count` items of one type."""

    def __init__(self, dtype, count):
        self.items = [dtype] * int(count)
        self.name = f"UniTuple({dtype} x {count})"

    def key(self):
        return ("Tuple", tuple(t.key() for t in self.items))


class Tuple(Type):
    """A tuple of items of the given types."""

    def __init__(self, items):
        self.items = list(items)
        self.name = f"Tuple({', '.join(map(str, self.items))})"

    def key(self):
        return ("Tuple", tuple(t.key() for t in self.items))


class NamedUniTuple(UniTuple):
    """A named tuple (`collections.namedtuple`) of `count` items of one type:
    its fields are read by name in device code (`p.x`), as in Numba."""

    def __init__(self, dtype, count, cls):
        super().__init__(dtype, count)
        self.instance_class, self.fields = cls, tuple(cls._fields)
        self.name = f"{cls.__name__}({dtype} x {count})"

    def key(self):
        return ("NamedTuple", self.instance_class, self.fields, tuple(t.key() for t in self.items))


class NamedTuple(Tuple):
    """A named tuple of items of the given types (fields by name, as NamedUniTuple)."""

    def __init__(self, items, cls):
        super().__init__(items)
        self.instance_class, self.fields = cls, tuple(cls._fields)
        self.name = f"{cls.__name__}({', '.join(map(str, self.items))})"

    def key(self):
        return ("NamedTuple", self.instance_class, self.fields, tuple(t.key() for t in self.items))


def _natural_layout(dtype):
    """Whether a structured dtype has the C struct layout (aligned fields, padded size)."""
    off, align = 0, 1
    for name in dtype.names:
        fdt, foff = dtype.fields[name][:2]
        a = fdt.alignment
        off = (off + a - 1) // a * a
        if foff != off:
            return False
        off += fdt.itemsize
        align = max(align, a)
    return dtype.itemsize == (off + align - 1) // align * align


def _first_unaligned(dtype):
    """The dtype of the first field off its natural alignment (the last when only the size is off)."""
    for name in dtype.names:
        fdt, foff = dtype.fields[name][:2]
        if foff % fdt.alignment:
            return fdt
    return dtype.fields[dtype.names[-1]][0]


class NestedArray(Type):
    """A record's sub-array field (`("h", np.float32, (3, 2))`, Numba's
    NestedArray): read and written element by element (`r.h[i, j]`); its
    elements are fields of the record's struct, in C order."""

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(int(d) for d in shape)
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.name = f"nestedarray({dtype}, {self.shape})"

    def key(self):
        return ("NestedArray", self.dtype.key(), self.shape)

    @staticmethod
    def element_field(name, k):
        return f"{name}__{k}"


class Record(Type):
    """A NumPy structured dtype (Numba's Record): fields of numbers."""

    def __init__(self, dtype):
        dtype = np.dtype(dtype)
        if dtype.names is None:
            raise TypeError(f"{dtype} is not a structured dtype")
        if dtype.type is np.record:  # a recarray's dtype: the same record as the plain structured dtype (Numba's)
            dtype = np.dtype((np.void, dtype))
        self.dtype_np = dtype
        self.fields = {}
        ir_fields = []
        for n in dtype.names:
            fdt = dtype.fields[n][0]
            if fdt.subdtype is not None:  # a sub-array field: its elements are fields of the struct
                base, shape = fdt.subdtype
                et = from_dtype(base)
                if not isinstance(et, (Number, Boolean)):
                    raise TypeError(f"field '{n}' of {dtype} is {fdt}: pydev.numba sub-arrays hold numbers")
                ft = NestedArray(et, shape)
                ir_fields += [(ft.element_field(n, k), et.ir) for k in range(ft.size)]
            else:
                ft = from_dtype(fdt)
                if not isinstance(ft, (Number, Boolean)):
                    raise TypeError(f"field '{n}' of {dtype} is {fdt}: pydev.numba records hold numbers")
                if getattr(ft, "kind", None) == "c":
                    # A complex field is its two parts in the struct (the same
                    # layout; the backend's structs hold scalars).
                    part = float32 if ft.bits == 64 else float64
                    ir_fields += [(f"{n}__re", part.ir), (f"{n}__im", part.ir)]
                else:
                    ir_fields.append((n, ft.ir))
            self.fields[n] = ft
        # The dtype of the struct's layout (complex fields as their parts):
        # the launch views arrays of this record with it (`kernel_dtype`).
        self.kernel_dtype = None
        if any(getattr(t, "kind", None) == "c" for t in self.fields.values()):
            names, formats, offsets = [], [], []
            for n in dtype.names:
                fdt, off = dtype.fields[n][:2]
                if fdt.kind == "c" and fdt.subdtype is None:
                    part = np.dtype(f"f{fdt.itemsize // 2}")
                    names += [f"{n}__re", f"{n}__im"]
                    formats += [part, part]
                    offsets += [off, off + part.itemsize]
                else:
                    names.append(n)
                    formats.append(fdt)
                    offsets.append(off)
            self.kernel_dtype = np.dtype(
                {"names": names, "formats": formats, "offsets": offsets, "itemsize": dtype.itemsize}
            )
        if len({f for f, _ in ir_fields}) != len(ir_fields):
            raise TypeError(f"the fields of {dtype} collide with the names of its sub-arrays' elements")
        self.name = f"Record({', '.join(f'{n}: {t}' for n, t in self.fields.items())})"
        # A packed record is a type (as Numba's from_dtype makes one) that
        # device code cannot use: pydev's structs have the C layout.
        self._packed = None if _natural_layout(dtype) else _first_unaligned(dtype)
        tag = "rec" + str(abs(hash(str(dtype))) % 10**8)
        self._ir = None if self._packed is not None else ir.struct_type(tag, ir_fields)
        self.dtype = self  # Array(record).dtype is the record

    @property
    def ir(self):
        if self._packed is not None:
            raise TypeError(
                f"type {self._packed} is not aligned (Numba's words): the record dtype {self.dtype_np} is packed, "
                "and pydev.numba needs the C layout (np.dtype(..., align=True))"
            )
        return self._ir

    def key(self):
        return ("Record", str(self.dtype_np))


class Signature:
    """A function type: `return_type(*args)`, as `cuda.jit` and
    `cuda.declare_device` take it (`void(float32[:], int32)`)."""

    def __init__(self, ret, args):
        self.return_type, self.args = ret, tuple(args)  # a tuple, as Numba's (a key of `overloads`)

    def __repr__(self):
        return f"{self.return_type}({', '.join(map(str, self.args))})"


boolean = bool_ = b1 = Boolean()
int8 = i1 = byte = char = Number("int8", "i", 8)
int16 = i2 = short = Number("int16", "i", 16)
int32 = i4 = int_ = Number("int32", "i", 32)
int64 = i8 = intp = long_ = longlong = Number("int64", "i", 64)
uint8 = u1 = uchar = Number("uint8", "u", 8)
uint16 = u2 = ushort = Number("uint16", "u", 16)
uint32 = u4 = uint = Number("uint32", "u", 32)
uint64 = u8 = uintp = ulong = ulonglong = Number("uint64", "u", 64)
float16 = f2 = half = Number("float16", "f", 16)
float32 = f4 = float_ = Number("float32", "f", 32)
float64 = f8 = double = Number("float64", "f", 64)
complex64 = Number("complex64", "c", 64)
complex128 = Number("complex128", "c", 128)
bfloat16 = LowFloat("bfloat16", 16, "bf16", "bfloat16", True)
fp8_e4m3 = LowFloat("fp8_e4m3", 8, "f8E4M3FN", "float8_e4m3fn", False)
fp8_e5m2 = LowFloat("fp8_e5m2", 8, "f8E5M2", "float8_e5m2", False)
fp8_e8m0 = LowFloat("fp8_e8m0", 8, "ui8", "float8_e8m0fnu", False)
bfloat16_raw = Bfloat16Raw()
# ml_dtypes' dtype names (NumPy has none of these types).
# (e8m0 is not one: the dialect has no such type, its values are their bits.)
_BY_DTYPE_NAME = {t._ml_name: t for t in (bfloat16, fp8_e4m3, fp8_e5m2)}

# Numba's sets of number types (numba.types.signed_domain, ...).
signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain
void = none = NoneType()

_BY_DTYPE = {
    t.dtype: t
    for t in (
        boolean,
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
        float16,
        float32,
        float64,
        complex64,
        complex128,
    )
}


def from_dtype(dtype):
    """The Numba type of a NumPy dtype (a structured dtype gives a `Record`)."""
    dtype = np.dtype(dtype)
    if dtype.names is not None:
        return Record(dtype)
    if dtype.kind in "Mm":
        unit, count = np.datetime_data(dtype)
        if count != 1:
            raise TypeError(f"pydev.numba has no type for dtype {dtype} (Numba's units are counts of 1)")
        return (NPDatetime if dtype.kind == "M" else NPTimedelta)("" if unit == "generic" else unit)
    t = _BY_DTYPE.get(dtype.newbyteorder("=") if dtype.byteorder not in "=|" else dtype)
    if t is None:
        t = _BY_DTYPE_NAME.get(dtype.name)
    if t is None:
        raise TypeError(f"pydev.numba has no type for dtype {dtype}")
    return t


def _as_type(t):
    if t is None:
        return void
    if isinstance(t, str):
        return parse(t)
    return t


def parse(text):
    """A signature or type written as a string: 'void(float32[:], int32)'."""
    ns = {n: globals()[n] for n in __all__ if isinstance(globals().get(n), Type)}
    try:
        return eval(text, {"__builtins__": {}}, ns)  # noqa: S307 - names of this module only
    except Exception as e:
        raise TypeError(f"cannot read the signature {text!r}: {e}") from None


def as_dtype_type(obj):
    """A dtype argument (numba type, NumPy dtype or scalar class, string) as a type."""
    if isinstance(obj, (Number, Boolean, Record)):
        return obj
    if obj is float:
        return float64
    if obj is int:
        return int64
    if obj is bool:
        return boolean
    if isinstance(obj, str):
        try:
            dtype = np.dtype(obj)
        except TypeError:
            raise TypeError(f"Invalid NumPy dtype specified: '{obj}'") from None  # Numba's words
        return from_dtype(dtype)
    return from_dtype(np.dtype(obj))


def _layout_of(arr_like):
    flags = getattr(arr_like, "flags", None)
    if flags is not None:
        try:
            if flags["C_CONTIGUOUS"]:
                return "C"
            if flags["F_CONTIGUOUS"]:
                return "F"
            return "A"
        except (KeyError, TypeError):
            pass
    cai = getattr(arr_like, "__cuda_array_interface__", None)
    if cai is not None:
        strides = cai.get("strides")
        if strides is None:
            return "C"
        itemsize = np.dtype(cai["typestr"]).itemsize
        return "C" if _contiguity(tuple(cai["shape"]), tuple(strides), itemsize)[0] else "A"
    return "C"


_ARRAY_TYPES = {}


def _contiguity(shape, strides, itemsize):
    if 0 in shape:
        return True, True  # empty: both, whatever the strides (NumPy's flags)
    c = f = True
    exp = itemsize
    for n, st in zip(reversed(shape), reversed(strides)):
        if n > 1 and st != exp:
            c = False
        exp *= n
    exp = itemsize
    for n, st in zip(shape, strides):
        if n > 1 and st != exp:
            f = False
        exp *= n
    return c, f


def fast_key(value):
    """A cheap key that determines typeof(value) (None: no fast key)."""
    cls = type(value)
    if cls is np.ndarray:
        fl = value.flags
        return (value.dtype, value.ndim, fl.c_contiguous, fl.f_contiguous)
    if cls in (int, float, bool, complex):
        return cls
    if isinstance(value, np.generic):
        return (cls, value.dtype)
    dt, shape, strides = getattr(value, "dtype", None), getattr(value, "shape", None), getattr(value, "strides", None)
    if isinstance(dt, np.dtype) and shape is not None and strides is not None:
        return (dt, tuple(shape), tuple(strides))  # typeof computes the layout once per key
    return None


def typeof(value):
    """Numba's type of a launch argument (array types cached by dtype, rank and layout)."""
    if type(value) is np.ndarray:
        fl = value.flags
        key = (value.dtype, value.ndim, fl.c_contiguous, fl.f_contiguous)
    else:
        dt, shape, strides = (
            getattr(value, "dtype", None),
            getattr(value, "shape", None),
            getattr(value, "strides", None),
        )
        key = None
        if isinstance(dt, np.dtype) and shape is not None and strides is not None and not isinstance(value, np.generic):
            shape = tuple(shape)
            key = (dt, len(shape)) + _contiguity(shape, tuple(strides), dt.itemsize)
    if key is not None:
        hit = _ARRAY_TYPES.get(key)
        if hit is None:
            layout = "C" if key[2] else "F" if key[3] else "A"
            hit = _ARRAY_TYPES[key] = Array(from_dtype(key[0]), key[1], layout)
        return hit
    return _typeof_slow(value)


def _typeof_slow(value):
    known = getattr(value, "_numba_type_", None)  # Numba's hook (cuda.In(ary) is typed as ary)
    if isinstance(known, Type):
        return known
    if isinstance(value, enum.Enum):
        # An enum member (IntEnum's too, before int): a compile-time constant of
        # the kernel, compiled once per member (Numba compiles once per enum
        # class and passes the value); `==`, `is` and `.value` as in Python.
        return Constant(value)
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return boolean
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return float64
    if isinstance(value, complex):
        return complex128
    if isinstance(value, np.generic):
        if isinstance(value, np.void):
            return Record(value.dtype)
        return from_dtype(value.dtype)
    if isinstance(value, tuple):
        items = [typeof(v) for v in value]
        uniform = items and all(i == items[0] for i in items)
        if hasattr(type(value), "_fields"):  # a named tuple keeps its class and field names
            cls = type(value)
            return NamedUniTuple(items[0], len(items), cls) if uniform else NamedTuple(items, cls)
        return UniTuple(items[0], len(items)) if uniform else Tuple(items)
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if dtype is not None and not isinstance(dtype, np.dtype):
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            dtype = None  # e.g. a torch dtype: read the protocols below
    if dtype is None and hasattr(value, "__cuda_array_interface__"):
        cai = value.__cuda_array_interface__
        descr = cai.get("descr")
        dtype, shape = np.dtype(descr if descr and len(descr) > 1 else cai["typestr"]), cai["shape"]
    if dtype is None and hasattr(value, "__dlpack__"):
        host = np.from_dlpack(value)  # CPU DLPack producers
        dtype, shape = host.dtype, host.shape
    if dtype is not None and shape is not None:
        return Array(from_dtype(dtype), len(shape), _layout_of(value))
    raise TypeError(f"pydev.numba cannot pass a {type(value).__name__} to a kernel")
