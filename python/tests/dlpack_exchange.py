"""A DLPack producer with the C exchange API (`__dlpack_c_exchange_api__`,
dlpack.h 1.2/1.3), as PyTorch publishes one, written with ctypes over a
pydev.DeviceArray so that the consumer side runs without PyTorch or a GPU.

`exchange_type(name, stream=...)` makes a class whose instances wrap an
array; the class counts what the consumer called: `dunder` (`__dlpack__`
from Python), `exports` (`managed_tensor_from_py_object_no_sync`) and
`stream_queries` (`current_work_stream`, which reports `cls.stream`).
Exported tensors are pydev's own DLPack exports, so
`pydev._dlpack.live_exports()` shows when the consumer ran their deleters."""

import ctypes

from pydev import _dlpack

FROM_PY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(ctypes.c_void_p))
WORK_STREAM = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))


class ExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("version", _dlpack.DLPackVersion),
        ("prev_api", ctypes.c_void_p),
        ("managed_tensor_allocator", ctypes.c_void_p),
        ("managed_tensor_from_py_object_no_sync", FROM_PY),
        ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
        ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
        ("current_work_stream", WORK_STREAM),
    ]


_NAME = ctypes.create_string_buffer(b"dlpack_exchange_api")
_USED = ctypes.create_string_buffer(b"used_dltensor_versioned")
_CapsuleNew = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi)
)
_keep = []  # tables and callbacks live as long as the process, as DLPack asks


def exchange_type(name, stream=0, major=1, fail=False):
    """A producer class with its own exchange API table. `major` other than
    1 publishes a table of another major version linking (prev_api) to the
    version 1 one; `fail` makes every export fail."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack__(self, **kw):
        cls.dunder += 1
        return self.arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()

    cls = type(
        name,
        (),
        {
            "__init__": __init__,
            "__dlpack__": __dlpack__,
            "__dlpack_device__": __dlpack_device__,
            "dunder": 0,
            "exports": 0,
            "stream_queries": 0,
            "stream": stream,
        },
    )

    @FROM_PY
    def from_py(obj, out):
        try:
            if fail or type(obj) is not cls:
                return -1
            capsule = obj.arr.__dlpack__(max_version=(1, 0))
            address = _dlpack._GetPointer(capsule, b"dltensor_versioned")
            # the tensor now belongs to the consumer, which calls its deleter
            if _dlpack._SetName(capsule, ctypes.addressof(_USED)) != 0:
                return -1
            out[0] = address
            cls.exports += 1
            return 0
        except Exception:
            return -1

    @WORK_STREAM
    def current_work_stream(device_type, device_id, out):
        cls.stream_queries += 1
        out[0] = cls.stream if device_type == _dlpack.kDLCUDA else 0
        return 0

    table = ExchangeAPI(_dlpack.DLPackVersion(1, 3), None, None, from_py, None, None, current_work_stream)
    _keep.extend((from_py, current_work_stream, table))
    if major != 1:
        newer = ExchangeAPI(_dlpack.DLPackVersion(major, 0), ctypes.addressof(table))
        _keep.append(newer)
        table = newer
    cls.__dlpack_c_exchange_api__ = _CapsuleNew(ctypes.addressof(table), ctypes.addressof(_NAME), None)
    return cls
