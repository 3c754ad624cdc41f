"""DLPack's C structures and the CPython capsule API, through ctypes: what
consuming a capsule and exporting without the native module need
(pydev._dlpack imports this on first use: a launch of NumPy arrays, or an
export through the native module, needs none of it, and defining it costs
~2 ms)."""

import ctypes

_exports = {}  # address of a managed tensor -> what keeps it and its memory alive


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


# The C API calls, with the GIL held (PYFUNCTYPE). Capsule names must
# outlive the capsules that carry them: these buffers live as long as the
# module.
_api = ctypes.pythonapi
_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_SetName = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(("PyCapsule_SetName", _api))
_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(("PyCapsule_New", _api))
# Raw (PyObject*) variants for the capsule destructor, which runs while the
# capsule is being deallocated and must not touch its reference count.
_IsValidRaw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_GetPointerRaw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_ErrClear = ctypes.PYFUNCTYPE(None)(("PyErr_Clear", _api))


_NAMES = {
    n: ctypes.create_string_buffer(n)
    for n in (b"dltensor", b"dltensor_versioned", b"used_dltensor", b"used_dltensor_versioned")
}


_Deleter = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)


# Exporting without the native module: the managed tensor's deleter
# and the capsule's destructor.
@ctypes.PYFUNCTYPE(None, ctypes.c_void_p)
def _delete_export(address):
    _exports.pop(address, None)


@ctypes.PYFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # A capsule still named "dltensor(_versioned)" was never consumed: free
    # its tensor. A consumer that renamed it calls the deleter itself.
    try:
        for name in (b"dltensor", b"dltensor_versioned"):
            if _IsValidRaw(capsule, name):
                _exports.pop(_GetPointerRaw(capsule, name), None)
                return
        _ErrClear()
    except Exception:  # pragma: no cover - interpreter shutdown
        pass
