# Errors of thread positioning (spec: Thread Positioning): ndims of tid() and
# grid_size() is a constant from 1 to 3 [User Requirement].
# RUN: not pydevc %s --kernel tid4 --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TID4
# RUN: not pydevc %s --kernel tid0 --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TID0
# RUN: not pydevc %s --kernel grid_size_neg --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=GRID-NEG
# RUN: not pydevc %s --kernel runtime_ndims --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUN: not pydevc %s --kernel float_ndims --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not pydevc %s --kernel no_ndims --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not pydevc %s --kernel two_ndims --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TWO
# RUN: not pydevc %s --kernel unknown_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel component_w --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=COMPONENT
# RUN: not pydevc %s --kernel call_lane_id --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CALL
# RUN: not pydevc %s --kernel unpack_tid --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNPACK
# RUN: not pydevc %s --kernel unpack_two --signature 'uint32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DIM3-UNPACK
# RUN: not pydevc %s --kernel lane_three --signature 'uint32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DIM3-LANE

import cuda.device as device


# TID4: {{.*}}thread_positioning-errors.py:[[@LINE+4]]:14: error: device.tid(4): ndims must be 1, 2 or 3
# TID4: help: the grid has three dimensions, x, y and z
@device.kernel
def tid4(out):
    out[0] = device.tid(4)


# TID0: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: device.tid(0): ndims must be 1, 2 or 3
@device.kernel
def tid0(out):
    out[0] = device.tid(0)


# GRID-NEG: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: device.grid_size(-1): ndims must be 1, 2 or 3
@device.kernel
def grid_size_neg(out):
    out[0] = device.grid_size(-1)


# RUNTIME: {{.*}}thread_positioning-errors.py:[[@LINE+4]]:25: error: the ndims of device.tid() must be a constant expression
# RUNTIME: help: use a literal, or a local or global assigned a constant
@device.kernel
def runtime_ndims(out, n):
    out[0] = device.tid(n)


# FLOAT: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:31: error: the ndims of device.grid_size() must be an integer, got float32
@device.kernel
def float_ndims(out):
    out[0] = device.grid_size(1.0)


# MISSING: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: device.tid() is missing argument 'ndims'
@device.kernel
def no_ndims(out):
    out[0] = device.tid()


# TWO: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: device.tid() takes 1 argument, 2 given
@device.kernel
def two_ndims(out):
    out[0] = device.tid(1, 2)


# KEYWORD: {{.*}}thread_positioning-errors.py:[[@LINE+4]]:25: error: device.tid() has no keyword argument 'dims'
# KEYWORD: help: the parameters of device.tid() are 'ndims'
@device.kernel
def unknown_kw(out):
    out[0] = device.tid(dims=1)


# COMPONENT: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: device.thread_idx has components x, y and z, not 'w'
@device.kernel
def component_w(out):
    out[0] = device.thread_idx.w


# CALL: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:14: error: a value of type int32 is not callable in device code
@device.kernel
def call_lane_id(out):
    out[0] = device.lane_id()


# UNPACK: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:5: error: cannot unpack 2 values into 3 names
@device.kernel
def unpack_tid(out):
    x, y, z = device.tid(2)


# A Dim3 has three lanes, x, y and z.
# DIM3-UNPACK: {{.*}}thread_positioning-errors.py:[[@LINE+3]]:5: error: cannot unpack 3 values into 2 names
@device.kernel
def unpack_two(out):
    x, y = device.thread_idx
    out[0] = x + y


# DIM3-LANE: {{.*}}thread_positioning-errors.py:[[@LINE+4]]:31: error: index 3 is out of range for a uint32x3 (3 lanes)
# DIM3-LANE: help: use an index from 0 to 2
@device.kernel
def lane_three(out):
    out[0] = device.block_dim[3]
