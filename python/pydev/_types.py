"""The host's types, in one namespace (the facade the backend, cuda.device,
pydev.numba and the tests import): heterogeneous types on the host —
fixed-format numbers, vectors, `@struct` classes with the CUDA C++ layout
as NumPy dtypes, `align()`, `Atomic`, `WarpMask` — and the type names of
pydevc's signature syntax. Each job is a module of its own (DeviceOnlyError,
for device-only entities used on the host, is pydev._native's):

- pydev._numbers: the fixed-format number types, WarpMask, and bfloat16 /
  float8 bits without ml_dtypes (SoftFloat);
- pydev._vectors: the Vector base and the maker of vector types;
- pydev._lazy_types: the types made on first use (bfloat16, float8, the
  vector types, Dim3, NUMBER_TYPES, VECTOR_TYPES) and dtype_name();
- pydev._structs: @struct, align(), Atomic, to_dtype, convert_to, pack, and the
  CUDA C++ layout of NumPy dtypes (c_layout, c_layout_mismatch);
- pydev._scalar_args: kernel arguments passed by value (scalar_arg,
  imported on first use).

The names made on first use are attributes of this module too (its
`__getattr__` makes them; once made they are bound here).
"""

import sys

import numpy as np

from . import _lazy_types
from ._native import DeviceOnlyError, device_only  # noqa: F401
from ._lazy_types import (  # noqa: F401
    _DTYPE_NAMES,
    _LAZY_ATTRS,
    _LAZY_LOCK,
    _LAZY_NUMBERS,
    _LAZY_VECTOR_ATTRS,
    _NUMBER_ORDER,
    _bind_in_device,
    _lazy_device_names,
    _load_lazy,
    _load_vectors,
    _soft_converter,
    dtype_name,
)
from ._numbers import (  # noqa: F401
    _NUMBERS,
    WarpMask,
    _float_converter,
    _int_converter,
    _number,
    _NumberMeta,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    VECTOR_ELEMENTS,
)
from ._numbers import _SOFT_FORMATS, SoftFloat, _is_softfloat, _soft_type, soft_decode, soft_encode  # noqa: F401

# Imported on first use: a launch of NumPy arrays of numbers needs neither.
_STRUCT_NAMES = (
    "Aligned",
    "Atomic",
    "Struct",
    "_annotations",
    "_Field",
    "_round_up",
    "_same",
    "align",
    "c_layout",
    "c_layout_mismatch",
    "convert_to",
    "pack",
    "sig_name",
    "struct",
    "to_dtype",
)
_VECTOR_NAMES = ("Vector", "_converter", "_lane_property", "_vector_type")


def __getattr__(name):
    if name in _LAZY_ATTRS or name in _LAZY_VECTOR_ATTRS:
        return getattr(_lazy_types, name)  # makes it, and binds it here
    if name in _STRUCT_NAMES:
        from . import _structs as module
    elif name in _VECTOR_NAMES:
        from . import _vectors as module
    elif name == "scalar_arg":  # at the first launch with an argument passed by value
        from . import _scalar_args as module
    else:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    value = globals()[name] = getattr(module, name)
    return value


def is_struct(v):
    """Whether `v` is a @struct class (none exists before pydev._structs,
    which makes them, is imported)."""
    structs = sys.modules.get("pydev._structs")
    return structs is not None and structs.is_struct(v)


def is_value(obj):
    """Whether `obj` is passed by value: a NumPy number, a vector or a
    struct (no vector or struct exists before their module is imported)."""
    if isinstance(obj, np.generic):
        return True
    vectors, structs = sys.modules.get("pydev._vectors"), sys.modules.get("pydev._structs")
    return (vectors is not None and isinstance(obj, vectors.Vector)) or (
        structs is not None and isinstance(obj, structs.Struct)
    )


def is_aggregate_type(t):
    """Whether `t` is a vector type, a @struct class or an align()ed type
    (whose dtypes to_dtype gives)."""
    vectors, structs = sys.modules.get("pydev._vectors"), sys.modules.get("pydev._structs")
    if vectors is not None and isinstance(t, type) and issubclass(t, vectors.Vector):
        return True
    return structs is not None and (isinstance(t, structs.Aligned) or structs.is_struct(t))


def __dir__():
    return sorted(
        set(globals())
        | set(_LAZY_ATTRS)
        | set(_LAZY_VECTOR_ATTRS)
        | set(_STRUCT_NAMES)
        | set(_VECTOR_NAMES)
        | {"scalar_arg"}
    )
