# Target specialization (spec: Target Specialization): target() of every kind
# of TargetDescription, and the tree the frontend prints for | & ~.
# RUN: pydevc %s --kernel targets --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=TARGETS
# RUN: pydevc %s --kernel imported --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=IMPORTED
# RUN: pydevc %s --kernel uses_func --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=FUNC
# The descriptions mean what the spec's table says once a target is chosen:
# RUN: pydevc %s --kernel targets --signature 'int32[:]' --emit pydev-opt --target sm_90 | FileCheck %s --check-prefix=SM90
# RUN: pydevc %s --kernel targets --signature 'int32[:]' --emit pydev-opt --target sm_80 | FileCheck %s --check-prefix=SM80

import cuda.device as device
import cuda.device
from cuda.device import target, is_host, is_device, is_exactly, provides, sm90, sm80, any_target, no_target

# TARGETS-LABEL: func.func @targets
# TARGETS: pydev.target <is_host>
# TARGETS: pydev.target <is_device>
# TARGETS: pydev.target <or(is_exactly(sm_90), is_exactly(sm_80))>
# TARGETS: pydev.target <not(provides(sm_80))>
# TARGETS: pydev.target <or(not(provides(sm_80)), is_exactly(sm_80))>
# TARGETS: pydev.target <and(provides(sm_80), not(is_exactly(sm_80)))>
# TARGETS: pydev.target <provides(sm_80)>
# TARGETS: pydev.target <any_target>
# TARGETS: pydev.target <no_target>
# TARGETS: pydev.target <or(or(is_exactly(sm_70), is_exactly(sm_75)), and(is_host, not(no_target)))>
# TARGETS: pydev.target <is_exactly(sm_100)>
# TARGETS: %[[NOT:.*]] = pydev.target <is_host>
# TARGETS: pydev.not %[[NOT]] : i1 -> i1
# TARGETS: return


# SM90-LABEL: gpu.func @targets
# SM90-NOT: array_store %c11_i32
# SM90: array_store %c12_i32
# SM90: array_store %c13_i32
# SM90-NOT: array_store %c14_i32
# SM90-NOT: array_store %c15_i32
# SM90: array_store %c16_i32
# SM90: array_store %c17_i32
# SM90: array_store %c18_i32
# SM90-NOT: array_store %c19_i32
# SM90-NOT: array_store %c20_i32
# SM90-NOT: array_store %c21_i32
# SM90: array_store %c22_i32
# SM90: gpu.return

# SM80-LABEL: gpu.func @targets
# SM80-NOT: array_store %c11_i32
# SM80: array_store %c12_i32
# SM80: array_store %c13_i32
# SM80-NOT: array_store %c14_i32
# SM80: array_store %c15_i32
# SM80-NOT: array_store %c16_i32
# SM80: array_store %c17_i32
# SM80: array_store %c18_i32
# SM80-NOT: array_store %c19_i32
# SM80-NOT: array_store %c20_i32
# SM80-NOT: array_store %c21_i32
# SM80: array_store %c22_i32
# SM80: gpu.return
@device.kernel
def targets(out):
    if device.target(device.is_host):
        out[1] = 11
    if device.target(device.is_device):
        out[2] = 12
    if device.target(device.is_exactly(device.sm90) | device.is_exactly(device.sm80)):
        out[3] = 13
    if device.target(~device.provides(device.sm80)):  # __CUDA_ARCH__ < 800
        out[4] = 14
    if device.target(~device.provides(device.sm80) | device.is_exactly(device.sm80)):  # <= 800
        out[5] = 15
    if device.target(device.provides(device.sm80) & ~device.is_exactly(device.sm80)):  # > 800
        out[6] = 16
    if device.target(device.provides(device.sm80)):  # >= 800
        out[7] = 17
    if device.target(device.any_target):
        out[8] = 18
    if device.target(device.no_target):
        out[9] = 19
    # A description is a value: it can be named and combined.
    old = device.is_exactly(device.sm70) | device.is_exactly(device.sm75)
    desc = old | (device.is_host & ~device.no_target)
    if device.target(desc):
        out[10] = 20
    if cuda.device.target(cuda.device.is_exactly(cuda.device.sm100)):
        out[11] = 21
    if not device.target(device.is_host):
        out[12] = 22


# Names imported from cuda.device are the same entities.
# IMPORTED-LABEL: func.func @imported
# IMPORTED: pydev.target <is_host>
# IMPORTED: pydev.target <is_device>
# IMPORTED: pydev.target <or(is_exactly(sm_90), not(provides(sm_80)))>
# IMPORTED: pydev.target <and(any_target, not(no_target))>
@device.kernel
def imported(out):
    if target(is_host):
        out[0] = 1
    elif target(is_device):
        out[0] = 2
    if target(is_exactly(sm90) | ~provides(sm80)):
        out[1] = 3
    if target(any_target & ~no_target):
        out[2] = 4


@device.func
def pick(x):
    if device.target(device.provides(device.sm90)):
        return x * 2.0
    return x


# target() in a @device.func called from a kernel.
# FUNC-LABEL: func.func @pick_float32(%{{.*}}: f32) -> f32
# FUNC: pydev.target <provides(sm_90)>
# FUNC-LABEL: func.func @uses_func
# FUNC: call @pick_float32
@device.kernel
def uses_func(out):
    out[0] = pick(out[0])
