# Errors of Atomic objects and Atomic fields (spec: Atomics / Atomic.__init__:
# a dtype of at most 16 bytes; User-Defined Types: structs are immutable).
# RUN: not pydevc %s --kernel too_big --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-BIG
# RUN: not pydevc %s --kernel not_a_number --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NOT-NUMBER
# RUN: not pydevc %s --kernel bad_align --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=BAD-ALIGN
# RUN: not pydevc %s --kernel by_value --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=BY-VALUE
# RUN: not pydevc %s --kernel read_only --signature 'readonly Mutex[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=READ-ONLY
# RUN: not pydevc %s --kernel assign_field --signature 'Mutex[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASSIGN

import cuda.device as device


@device.struct
class Mutex:
    count: device.Atomic(device.int32)


# TOO-BIG: {{.*}}atomic-objects-errors.py:[[@LINE+3]]:23: error: atomics work on objects of at most 16 bytes, float64x4 has 32
@device.kernel
def too_big(out):
    a = device.Atomic(device.float64x4)


# NOT-NUMBER: {{.*}}atomic-objects-errors.py:[[@LINE+3]]:23: error: the dtype of device.Atomic() must be a number type, got float32x2
@device.kernel
def not_a_number(out):
    a = device.Atomic(device.float32x2)


# BAD-ALIGN: {{.*}}atomic-objects-errors.py:[[@LINE+3]]:43: error: the align of device.Atomic() must be a power of two, got 12
@device.kernel
def bad_align(out):
    a = device.Atomic(device.int32, align=12)


# BY-VALUE: {{.*}}atomic-objects-errors.py:[[@LINE+3]]:9: error: struct 'Mutex' holds device.Atomic fields, so it lives in memory and cannot be built as a value in device code
@device.kernel
def by_value(out):
    m = Mutex(0)


# READ-ONLY: {{.*}}atomic-objects-errors.py:[[@LINE+3]]:9: error: an element of a read-only array of 'Mutex', which holds device.Atomic fields
@device.kernel
def read_only(ms, out):
    m = ms[0]
    out[0] = m.count.load()


# ASSIGN: {{.*}}atomic-objects-errors.py:[[@LINE+4]]:5: error: cannot assign field 'count' of 'Mutex', a struct in memory that holds device.Atomic fields
@device.kernel
def assign_field(ms):
    m = ms[0]
    m.count = 3
