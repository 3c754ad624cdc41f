# Errors of the entities in spec-names.py.
# RUN: not pydevc %s --kernel wrong_type --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-TYPE
# RUN: not pydevc %s --kernel not_constant --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-RUNTIME
# RUN: not pydevc %s --kernel exposition --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EXPOSITION
# RUN: not pydevc %s --kernel astype_args --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASTYPE
# RUN: not pydevc %s --kernel view_size --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VIEW-SIZE
# RUN: not pydevc %s --kernel reshape_shape --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: not pydevc %s --kernel number_index --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NUMBER-INDEX
# RUN: not pydevc %s --kernel exposition_hint --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EXPOSITION-HINT
# RUN: not pydevc %s --kernel exposition_imported --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EXPOSITION-IMPORTED
import cuda.device as device
from cuda.device import Dim3Like


@device.func
def times(x, n: device.ConstExpr[int]):
    return x * n


# CONST-EXPR-TYPE: {{.*}}spec-names-errors.py:[[@LINE-4]]:17: error: parameter 'n' is annotated ConstExpr[int32] but is called with float32
@device.kernel
def wrong_type(out):
    out[0] = times(out[0], 2.5)


# CONST-EXPR-RUNTIME: {{.*}}spec-names-errors.py:[[@LINE+3]]:14: error: argument 'n' of 'times' must be a constant expression (the parameter is ConstExpr)
@device.kernel
def not_constant(out):
    out[0] = times(out[0], device.tid(1))


# EXPOSITION: {{.*}}spec-names-errors.py:[[@LINE+3]]:9: error: 'Dim3Like' is exposition only in the spec: cuda.device has no such entity
@device.kernel
def exposition(out):
    d = device.Dim3Like


# ASTYPE: {{.*}}spec-names-errors.py:[[@LINE+3]]:14: error: astype() takes one dtype
@device.kernel
def astype_args(out):
    out[0] = out[1].astype()


# A zero-dimensional array can only be viewed as a type of its size.
# VIEW-SIZE: {{.*}}spec-names-errors.py:[[@LINE+4]]:14: error: view(float64) of a float32 changes the size (4 to 8 bytes), which a zero-dimensional array cannot
# VIEW-SIZE: help: view it as a type of the same size
@device.kernel
def view_size(out):
    out[0] = out[1].view(device.float64)


# RESHAPE: {{.*}}spec-names-errors.py:[[@LINE+4]]:14: error: reshape() of a float32 (a zero-dimensional array) to a non-empty shape would make an array, which needs memory
# RESHAPE: help: reshape(()) keeps the number
@device.kernel
def reshape_shape(out):
    out[0] = out[1].reshape(1)


# NUMBER-INDEX: {{.*}}spec-names-errors.py:[[@LINE+4]]:14: error: a float32 is a zero-dimensional array: its only index is ()
# NUMBER-INDEX: help: write x[()] (or just x)
@device.kernel
def number_index(out):
    out[0] = out[1][0]


# Exposition-only names are errors as type hints and imported by name too.
@device.func
def extent(d: device.Dim3Like):
    return d


# EXPOSITION-HINT: {{.*}}spec-names-errors.py:[[@LINE-4]]:15: error: parameter 'd' is annotated Dim3Like, which is exposition only in the spec: cuda.device has no such entity
# EXPOSITION-HINT: help: annotate it with the type it takes (e.g. device.uint32x3 or int), or leave it unannotated
@device.kernel
def exposition_hint(out):
    out[0] = extent(4)


# EXPOSITION-IMPORTED: {{.*}}spec-names-errors.py:[[@LINE+3]]:18: error: 'Dim3Like' is exposition only in the spec: cuda.device has no such entity
@device.kernel
def exposition_imported(out):
    out[0] = len(Dim3Like)
