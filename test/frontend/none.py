# None in device code (spec: None): identity with None is known at compile
# time (`x is None` is a constant), so dead branches fold away.
# RUN: pydevc %s --kernel nones --signature 'int32[::1]' --emit pydev-opt | FileCheck %s
# CHECK-LABEL: gpu.func @nones
# CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK: pydev.array_store %[[ONE]]
# CHECK: pydev.array_store %[[ZERO]]
# A None argument is passed as nothing: the callee is specialised for
# NoneType, and `a is None` folds inside it.
# RUN: pydevc %s --kernel picks --signature 'float32[::1]' --emit pydev | FileCheck %s --check-prefix=ARG
# ARG-DAG: func.func @pick_None_float32(%{{.*}}: f32) -> f32
# ARG-DAG: func.func @pick_float32_None(%{{.*}}: f32) -> f32
# ARG: call @pick_None_float32(%{{.*}}) : (f32) -> f32
# ARG: call @pick_float32_None(%{{.*}}) : (f32) -> f32
# NoneType is heterogeneous: `None` is a type hint (NoneType), and `==` /
# `!=` with None fold like `is` (None equals only None; a number or vector is
# never None). Errors: none-errors.py.
# RUN: pydevc %s --kernel none_hints --signature 'int32[::1]' --emit pydev | FileCheck %s --check-prefix=HINT
# HINT-LABEL: func.func @maybe_None_int32(%{{.*}}: si32) -> si32
# HINT-NOT: pydev.cmp
# HINT-LABEL: func.func @none_hints
# HINT: call @nothing() : () -> ()
# HINT: %[[R:.*]] = call @maybe_None_int32(%{{.*}}) : (si32) -> si32
# HINT: pydev.array_store %[[R]], %arg0
# HINT: %[[T:.*]] = pydev.constant 1 : si32
# HINT: pydev.array_store %[[T]], %arg0
# HINT: %[[F:.*]] = pydev.constant 0 : si32
# HINT: pydev.array_store %[[F]], %arg0
# HINT: %[[T2:.*]] = pydev.constant 1 : si32
# HINT: pydev.array_store %[[T2]], %arg0
# HINT-NOT: pydev.cmp
# HINT: return
import cuda.device as device


@device.func
def nothing():
    pass


@device.kernel
def nones(out):
    r = nothing()
    out[0] = 1 if r is None else 0
    out[1] = 1 if out is None else 0


@device.func
def pick(a, b):
    if a is None:
        return b
    return a


@device.kernel
def picks(out):
    i = device.tid(1)
    out[i] = pick(None, out[i]) + pick(out[i], None)


@device.func
def maybe(a: None, b: int):
    return b if a == None else -b  # noqa: E711


@device.kernel
def none_hints(out):
    r = nothing()
    i = device.tid(1)
    out[i] = maybe(None, out[i])
    out[i + 1] = 1 if r == None else 0  # noqa: E711
    out[i + 2] = 1 if out[i] == None else 0  # noqa: E711
    out[i + 3] = 1 if device.float32x2(1.0, 2.0) != None else 0  # noqa: E711
