"""The host types made on first use, and the names of dtypes, which they
extend: bfloat16, float8e4m3 and float8e5m2 (ml_dtypes' types when it is
installed, else SoftFloat stand-ins), NUMBER_TYPES, the vector types,
VECTOR_TYPES and Dim3; dtype_name(), the compiler's name of a NumPy dtype.
What is made is bound in pydev._types and cuda.device."""

import sys
import threading

import numpy as np

from ._numbers import _NUMBERS, VECTOR_ELEMENTS, _number
from ._numbers import _soft_type, soft_encode


# Made on first use, through the module __getattr__ (a launch of float32
# arrays needs none of them):
# - bfloat16, float8e4m3 and float8e5m2, their vector types, and
#   HAVE_ML_DTYPES, NUMBER_TYPES, VECTOR_TYPES, _BF16, _F8E4M3, _F8E5M2, which
#   list them (_load_lazy): importing ml_dtypes costs ~9 ms. An array or
#   scalar of an ml_dtypes dtype has ml_dtypes imported already:
#   dtype_name() loads them when it meets one.
# - the vector types of the other numbers, and Dim3 (_load_vectors): 44
#   classes, ~0.7 ms.
_LAZY_NUMBERS = ("bfloat16", "float8e4m3", "float8e5m2")
_LAZY_ATTRS = ("HAVE_ML_DTYPES", "_BF16", "_F8E4M3", "_F8E5M2", "NUMBER_TYPES", "VECTOR_TYPES") + _LAZY_NUMBERS
_LAZY_VECTOR_ATTRS = ("_VECTORS", "Dim3")
_LAZY_LOCK = threading.RLock()
_NUMBER_ORDER = (
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "float8e4m3",
    "float8e5m2",
    "complex64",
    "complex128",
)


def _soft_converter(np_type):
    if HAVE_ML_DTYPES:  # noqa: F821 - a lazy global (_LAZY_ATTRS)
        return None

    def convert(value):
        if isinstance(value, np.ndarray):
            return np.array(
                [soft_encode(v, np_type._fmt) for v in value.ravel().astype(np.float64)], np_type.dtype
            ).reshape(value.shape)
        return np_type(value)

    return convert


def __getattr__(name):
    if name in _LAZY_ATTRS:
        _load_lazy()
        return globals()[name]
    if name in _LAZY_VECTOR_ATTRS:
        _load_vectors()
        return globals()[name]
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_ATTRS) | set(_LAZY_VECTOR_ATTRS))


def _bind_in_device():
    """Binds what is made so far in pydev._types (the facade, whose lazy
    names are then plain attributes, as cuda.device._bind_lazy reads them)
    and in cuda.device, when they are imported."""
    g = globals()
    facade = sys.modules.get("pydev._types")
    if facade is not None:
        vars(facade).update({n: g[n] for n in _LAZY_ATTRS + _LAZY_VECTOR_ATTRS if n in g})
    device = sys.modules.get("cuda.device")
    if device is not None and "_bind_lazy" in vars(device):
        device._bind_lazy()


def _load_vectors():
    """Makes the vector types of the numbers made at import (int8x1 ..
    float64x4, not bfloat16 or float8), and Dim3. Once; Dim3, set last,
    says it is done."""
    g = globals()
    if "Dim3" in g:
        return
    from ._vectors import _vector_type

    with _LAZY_LOCK:
        if "Dim3" in g:
            return
        vectors = {
            f"{t}x{n}": _vector_type(_NUMBERS[t], t, n) for t in VECTOR_ELEMENTS if t in _NUMBERS for n in range(1, 5)
        }

        class Dim3(vectors["uint32x3"]):
            """The type of thread_idx, block_idx, block_dim, grid_dim (a uint32x3)."""

            __slots__ = ()

        Dim3.__qualname__ = "Dim3"
        Dim3.__module__ = "pydev._types"  # the facade, which holds it once made (as before the split)
        g["_VECTORS"] = vectors
        g["Dim3"] = Dim3
        _bind_in_device()


def _load_lazy():
    """Makes bfloat16, float8e4m3, float8e5m2 (ml_dtypes' types when it is
    installed, else the SoftFloat stand-ins), their vector types, and
    NUMBER_TYPES / VECTOR_TYPES; binds them in cuda.device when it is
    imported. Once; NUMBER_TYPES, set last, says it is done."""
    g = globals()
    if "NUMBER_TYPES" in g:
        return
    with _LAZY_LOCK:
        if "NUMBER_TYPES" in g:
            return
        _load_vectors()
        from ._vectors import _vector_type

        try:  # NumPy has no bfloat16 or float8: ml_dtypes provides them when installed.
            import ml_dtypes as _ml

            have = True
            bf16, f8e4m3, f8e5m2 = _ml.bfloat16, _ml.float8_e4m3fn, _ml.float8_e5m2
        except ImportError:  # pragma: no cover - depends on the environment
            have = False
            bf16, f8e4m3, f8e5m2 = _soft_type("bfloat16"), _soft_type("float8e4m3"), _soft_type("float8e5m2")
        g.update(HAVE_ML_DTYPES=have, _BF16=bf16, _F8E4M3=f8e4m3, _F8E5M2=f8e5m2)
        numbers = dict(_NUMBERS)
        for name, t in zip(_LAZY_NUMBERS, (bf16, f8e4m3, f8e5m2)):
            numbers[name] = g[name] = _number(name, t, _soft_converter(t))
            if not np.dtype(numbers[name]).metadata:
                _DTYPE_NAMES[np.dtype(numbers[name])] = name
        vectors = dict(_VECTORS)  # noqa: F821 - a lazy global (_LAZY_ATTRS)
        for t in _LAZY_NUMBERS:
            for n in range(1, 5):
                cls = _vector_type(numbers[t], t, n)
                vectors[cls.__name__] = cls
        g["VECTOR_TYPES"] = {f"{t}x{n}": vectors[f"{t}x{n}"] for t in VECTOR_ELEMENTS for n in range(1, 5)}
        g["NUMBER_TYPES"] = {name: numbers[name] for name in _NUMBER_ORDER}
        _bind_in_device()


def _lazy_device_names():
    """{name: the loader that makes it} of the names of cuda.device made on first use."""
    out = {f"{t}x{n}": _load_vectors for t in VECTOR_ELEMENTS if t in _NUMBERS for n in range(1, 5)}
    out["Dim3"] = _load_vectors
    out.update({name: _load_lazy for name in _LAZY_NUMBERS})
    out.update({f"{t}x{n}": _load_lazy for t in _LAZY_NUMBERS for n in range(1, 5)})
    return out


# NumPy dtype -> the compiler's name of it.
_DTYPE_NAMES = {np.dtype(bool): "bool"}
for _name, _t in _NUMBERS.items():
    if not np.dtype(_t).metadata:
        _DTYPE_NAMES[np.dtype(_t)] = _name


def dtype_name(dt):
    """The compiler's name of a NumPy scalar dtype, or None."""
    try:
        dt = np.dtype(dt)
    except TypeError:
        return None
    if dt.metadata and "pydev" in dt.metadata:
        return dt.metadata["pydev"]
    if dt.byteorder == ">":
        return None
    name = _DTYPE_NAMES.get(dt)
    if name is None and "NUMBER_TYPES" not in globals() and "ml_dtypes" in sys.modules:
        _load_lazy()  # perhaps an ml_dtypes dtype: their names come with bfloat16 and float8
        name = _DTYPE_NAMES.get(dt)
    return name
