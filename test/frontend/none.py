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
