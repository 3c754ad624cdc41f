# None in device code (spec: None): identity with None is known at compile
# time (`x is None` is a constant), so dead branches fold away.
# RUN: pydevc %s --kernel nones --signature 'int32[::1]' --emit pydev-opt | FileCheck %s
# CHECK-LABEL: gpu.func @nones
# CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK: pydev.array_store %[[ONE]]
# CHECK: pydev.array_store %[[ZERO]]
import cuda.device as device


@device.func
def nothing():
    pass


@device.kernel
def nones(out):
    r = nothing()
    out[0] = 1 if r is None else 0
    out[1] = 1 if out is None else 0
