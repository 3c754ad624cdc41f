# Errors in @device.struct definitions (spec: User-Defined Types, @struct):
# each field needs a heterogeneous type hint [User Requirement], align= is a
# power of two, unknown decorator arguments, methods are @device.func.
# Python runs class bodies and decorators when the module is imported, so
# these errors fail the whole module: every one is reported, whichever
# kernel is compiled.
# RUN: not pydevc %s --kernel fine --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STRUCT

import cuda.device as device


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+2]]:16: error: unknown keyword 'packed' of @device.struct
# STRUCT: help: the only keyword is align=N
@device.struct(packed=True)
class UnknownKeyword:
    x: int


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+2]]:22: error: align of struct 'NotPowerOfTwo' must be a power of two, got 12
# STRUCT: help: e.g. @device.struct(align=16)
@device.struct(align=12)
class NotPowerOfTwo:
    x: int


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+2]]:22: error: align of struct 'NotConstant' must be an integer constant
# STRUCT: help: use a literal or a module-level constant
@device.struct(align=int("16"))
class NotConstant:
    x: int


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+2]]:15: error: the arguments of @device.struct must be keywords
# STRUCT: help: write @device.struct(align=16)
@device.struct(16)
class Positional:
    x: int


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+4]]:8: error: field 'x' of struct 'BadHint' needs a heterogeneous type hint
# STRUCT: help: use int, float, bool, complex, a device number or vector type, or another @device.struct
@device.struct
class BadHint:
    x: list
    y: "device.float32"


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+5]]:5: error: field 'x' of struct 'Twice' is declared twice
# STRUCT: help: give each field its own name
@device.struct
class Twice:
    x: int
    x: float


# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+9]]:9: error: method 'plain' of struct 'Methods' needs @device.func
# STRUCT: help: decorate it with @device.func
# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+10]]:5: error: method 'kern' of struct 'Methods' cannot be a kernel
# STRUCT: help: decorate methods with @device.func
# STRUCT: {{.*}}aggregates-module-errors.py:[[@LINE+12]]:5: error: struct 'Methods' may hold only annotated fields and @device.func methods
@device.struct
class Methods:
    x: int

    def plain(self):
        return self.x

    @device.kernel
    def kern(self):
        pass

    z = 3


# STRUCT-NOT: error
@device.kernel
def fine(out):
    out[0] = 1
