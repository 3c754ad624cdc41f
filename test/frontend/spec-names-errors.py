# Errors of the entities in spec-names.py.
# RUN: not pydevc %s --kernel wrong_type --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-TYPE
# RUN: not pydevc %s --kernel not_constant --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-RUNTIME
# RUN: not pydevc %s --kernel exposition --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EXPOSITION
# RUN: not pydevc %s --kernel astype_args --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASTYPE
import cuda.device as device


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
