# Errors of warp synchronization (spec: Thread Warp Synchronization):
# predicates are callables [User Requirement], shuffled values have at most
# 8 bytes [User Requirement], constant lanes lie in 0..31 [User Requirement],
# WarpMask bits are 0..31 [User Requirement], masks are WarpMasks or int32.
# RUN: not pydevc %s --kernel vote_value --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VOTE-VALUE
# RUN: not pydevc %s --kernel ballot_mask --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=BALLOT-MASK
# RUN: not pydevc %s --kernel shfl_complex128 --signature 'complex128[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SHFL-BIG
# RUN: not pydevc %s --kernel shfl_tuple --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SHFL-TUPLE
# RUN: not pydevc %s --kernel shfl_vector --signature 'float32x4[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SHFL-VECTOR
# RUN: not pydevc %s --kernel shfl_array --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SHFL-ARRAY
# RUN: not pydevc %s --kernel lane_32 --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LANE-32
# RUN: not pydevc %s --kernel delta_negative --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DELTA-NEG
# RUN: not pydevc %s --kernel up_64 --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UP-64
# RUN: not pydevc %s --kernel xor_const --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=XOR
# RUN: not pydevc %s --kernel float_lane --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-LANE
# RUN: not pydevc %s --kernel match_int16 --signature 'int16[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATCH-INT16
# RUN: not pydevc %s --kernel match_bool --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATCH-BOOL
# RUN: not pydevc %s --kernel match_flag --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATCH-FLAG
# RUN: not pydevc %s --kernel float_mask --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-MASK
# RUN: not pydevc %s --kernel mask_get_32 --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=GET-32
# RUN: not pydevc %s --kernel mask_set_negative --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SET-NEG
# RUN: not pydevc %s --kernel mask_float_index --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-INDEX
# RUN: not pydevc %s --kernel shfl_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel shfl_two --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not pydevc %s --kernel activemask_arg --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ACTIVEMASK
# RUN: not pydevc %s --kernel mask_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MASK-KEYWORD
# RUN: not pydevc %s --kernel repr_value --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=REPR
# RUN: not pydevc %s --kernel mask_or_tuple --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MASK-JOIN
# RUN: not pydevc %s --kernel mask_and_float --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MASK-FLOAT-BITS

import cuda.device as device


# VOTE-VALUE: {{.*}}warp-errors.py:[[@LINE+4]]:49: error: device.all_sync() takes a predicate callable with no arguments, got a value of type bool
# VOTE-VALUE: help: pass e.g. `lambda: x > 0`
@device.kernel
def vote_value(a):
    a[0] = device.all_sync(device.activemask(), a[1] > 0)


# BALLOT-MASK: {{.*}}warp-errors.py:[[@LINE+3]]:35: error: device.ballot_sync() takes a predicate callable with no arguments, got a value of type WarpMask
@device.kernel
def ballot_mask(a):
    a[0] = device.ballot_sync(-1, device.activemask())


# SHFL-BIG: {{.*}}warp-errors.py:[[@LINE+4]]:33: error: device.shfl_sync() moves values of at most 8 bytes, got complex128 (16 bytes)
# SHFL-BIG: help: shuffle the parts of a larger value one by one
@device.kernel
def shfl_complex128(a):
    a[0] = device.shfl_sync(-1, a[1], 0)


# SHFL-TUPLE: {{.*}}warp-errors.py:[[@LINE+3]]:35: error: device.shfl_down_sync() moves values of at most 8 bytes, got tuple[int32, int32, int32] (12 bytes)
@device.kernel
def shfl_tuple(a):
    t = device.shfl_down_sync(-1, (a[0], a[1], a[2]), 1)


# SHFL-VECTOR: {{.*}}warp-errors.py:[[@LINE+3]]:37: error: device.shfl_xor_sync() moves values of at most 8 bytes, got float32x4 (16 bytes)
@device.kernel
def shfl_vector(a):
    a[0] = device.shfl_xor_sync(-1, a[1], 1)


# SHFL-ARRAY: {{.*}}warp-errors.py:[[@LINE+3]]:30: error: device.shfl_sync() moves values of at most 8 bytes, got int32[:] (24 bytes)
@device.kernel
def shfl_array(a):
    b = device.shfl_sync(-1, a, 0)


# LANE-32: {{.*}}warp-errors.py:[[@LINE+4]]:39: error: src_lane 32 of device.shfl_sync() is outside the warp (0 to 31)
# LANE-32: help: lanes of a warp are numbered 0 to 31
@device.kernel
def lane_32(a):
    a[0] = device.shfl_sync(-1, a[1], 32)


# DELTA-NEG: {{.*}}warp-errors.py:[[@LINE+3]]:44: error: delta -1 of device.shfl_down_sync() is outside the warp (0 to 31)
@device.kernel
def delta_negative(a):
    a[0] = device.shfl_down_sync(-1, a[1], -1)


LANES = 64


# UP-64: {{.*}}warp-errors.py:[[@LINE+3]]:42: error: delta 64 of device.shfl_up_sync() is outside the warp (0 to 31)
@device.kernel
def up_64(a):
    a[0] = device.shfl_up_sync(-1, a[1], LANES)


# XOR: {{.*}}warp-errors.py:[[@LINE+4]]:43: error: flag 33 of device.shfl_xor_sync() is outside the warp (0 to 31)
@device.kernel
def xor_const(a):
    n = 33
    a[0] = device.shfl_xor_sync(-1, a[1], n)


# FLOAT-LANE: {{.*}}warp-errors.py:[[@LINE+3]]:39: error: the src_lane of device.shfl_sync() must be an int32, got a value of type float32
@device.kernel
def float_lane(a):
    a[0] = device.shfl_sync(-1, a[1], 1.0)


# MATCH-INT16: {{.*}}warp-errors.py:[[@LINE+4]]:52: error: device.match_any_sync() compares 32- or 64-bit numbers, got int16
# MATCH-INT16: help: convert the value, e.g. device.int32(...)
@device.kernel
def match_int16(a):
    m = device.match_any_sync(device.activemask(), a[0], 0)


# MATCH-BOOL: {{.*}}warp-errors.py:[[@LINE+3]]:38: error: device.match_all_sync() compares 32- or 64-bit numbers, got bool
@device.kernel
def match_bool(a):
    m, p = device.match_all_sync(-1, a[0] > 0, 0)


# MATCH-FLAG: {{.*}}warp-errors.py:[[@LINE+3]]:41: error: the flag of device.match_any_sync() must be an int32, got float32
@device.kernel
def match_flag(a):
    m = device.match_any_sync(-1, a[0], 0.5)


# FLOAT-MASK: {{.*}}warp-errors.py:[[@LINE+4]]:21: error: the mask of device.syncwarp() must be a WarpMask or an int32, got float32
# FLOAT-MASK: help: e.g. device.activemask(), or -1 for the whole warp
@device.kernel
def float_mask(a):
    device.syncwarp(1.5)


# GET-32: {{.*}}warp-errors.py:[[@LINE+5]]:14: error: lane 32 is outside the warp mask (0 to 31)
# GET-32: help: a WarpMask has one bit per lane of the warp
@device.kernel
def mask_get_32(a):
    m = device.activemask()
    a[0] = m[32]


# SET-NEG: {{.*}}warp-errors.py:[[@LINE+4]]:7: error: lane -1 is outside the warp mask (0 to 31)
@device.kernel
def mask_set_negative(a):
    m = device.activemask()
    m[-1] = True


# FLOAT-INDEX: {{.*}}warp-errors.py:[[@LINE+4]]:14: error: indices must be integers, got a value of type float32
@device.kernel
def mask_float_index(a):
    m = device.activemask()
    a[0] = m[1.0]


# KEYWORD: {{.*}}warp-errors.py:[[@LINE+4]]:42: error: device.shfl_up_sync() has no keyword argument 'lane'
# KEYWORD: help: the parameters of device.shfl_up_sync() are 'mask', 'value', 'delta'
@device.kernel
def shfl_kw(a):
    a[0] = device.shfl_up_sync(-1, a[1], lane=1)


# MISSING: {{.*}}warp-errors.py:[[@LINE+3]]:12: error: device.shfl_sync() is missing argument 'src_lane'
@device.kernel
def shfl_two(a):
    a[0] = device.shfl_sync(-1, a[1])


# ACTIVEMASK: {{.*}}warp-errors.py:[[@LINE+3]]:9: error: device.activemask() takes 0 arguments, 1 given
@device.kernel
def activemask_arg(a):
    m = device.activemask(0)


# MASK-KEYWORD: {{.*}}warp-errors.py:[[@LINE+4]]:25: error: WarpMask() takes no keyword arguments
# MASK-KEYWORD: help: write WarpMask(x)
@device.kernel
def mask_kw(a):
    m = device.WarpMask(value=5)


# REPR: {{.*}}warp-errors.py:[[@LINE+3]]:5: error: a string is not a value that device code can store or pass
@device.kernel
def repr_value(a):
    a[0] = device.machine_representation()


# A WarpMask joins with numbers as the int32 it is, not with other values.
# MASK-JOIN: {{.*}}warp-errors.py:[[@LINE+4]]:9: error: the branches of this conditional expression are WarpMask and tuple[int32, int32]
@device.kernel
def mask_or_tuple(a, p):
    m = device.activemask()
    t = m if p else (1, 2)
    a[0] = t[0]


# As an int32, a WarpMask has no bit operations with a float.
# MASK-FLOAT-BITS: {{.*}}warp-errors.py:[[@LINE+4]]:12: error: '&' needs integers or bools, got int32 and float32
@device.kernel
def mask_and_float(a, p):
    m = device.activemask()
    a[0] = m & 1.5
