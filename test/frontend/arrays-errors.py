# Static errors of arrays in device code (spec: Arrays; API.md "Arrays"):
# writes to read-only arrays (an error at compile time when the write is
# visible), indices that are not integers or too many, slice assignment,
# values of the wrong kind, slices with a zero step, views and reshapes
# that would need a copy, attributes that are not heterogeneous (.flags),
# and bad array types in the signature.
# RUN: not pydevc %s --kernel readonly_store --signature 'readonly float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY-STORE
# RUN: not pydevc %s --kernel readonly_aug --signature 'readonly float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY-AUG
# RUN: not pydevc %s --kernel readonly_field --signature 'readonly P[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY-FIELD
# RUN: not pydevc %s --kernel readonly_slice --signature 'readonly float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY-SLICE
# RUN: not pydevc %s --kernel readonly_callee --signature 'readonly float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY-CALLEE
# RUN: not pydevc %s --kernel too_many_indices --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-MANY-INDICES
# RUN: not pydevc %s --kernel float_index --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-INDEX
# RUN: not pydevc %s --kernel store_partial --signature 'float32[:, :]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-PARTIAL
# RUN: not pydevc %s --kernel slice_assign --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SLICE-ASSIGN
# RUN: not pydevc %s --kernel store_tuple --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-TUPLE
# RUN: not pydevc %s --kernel store_struct --signature 'float32[:], P[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-STRUCT
# RUN: not pydevc %s --kernel step_zero --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STEP-ZERO
# RUN: not pydevc %s --kernel runtime_step --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME-STEP
# RUN: not pydevc %s --kernel view_strided --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VIEW-STRIDED
# RUN: not pydevc %s --kernel view_not_dtype --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VIEW-NOT-DTYPE
# RUN: not pydevc %s --kernel reshape_strided --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RESHAPE-STRIDED
# RUN: not pydevc %s --kernel reshape_order --signature 'float32[:, ::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RESHAPE-ORDER
# RUN: not pydevc %s --kernel reshape_two_unknown --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RESHAPE-TWO-UNKNOWN
# RUN: not pydevc %s --kernel reshape_keyword --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RESHAPE-KEYWORD
# RUN: not pydevc %s --kernel astype_copy --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASTYPE-COPY
# RUN: not pydevc %s --kernel astype_other --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASTYPE-OTHER
# RUN: not pydevc %s --kernel flags --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLAGS
# RUN: not pydevc %s --kernel method --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=METHOD
# RUN: not pydevc %s --kernel arithmetic --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ARITHMETIC
# RUN: not pydevc %s --kernel truth --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TRUTH
# RUN: not pydevc %s --kernel signature_struct --signature 'Q[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SIGNATURE-STRUCT
# RUN: not pydevc %s --kernel signature_dims --signature 'float32[::1, ::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SIGNATURE-DIMS
# RUN: not pydevc %s --kernel signature_readonly --signature 'readonly float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=SIGNATURE-READONLY
# RUN: not pydevc %s --kernel view_column_slice --signature 'float32[:, ::1], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VIEW-COLUMNS
# RUN: not pydevc %s --kernel view_step_slice --signature 'float32[::1], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VIEW-STEP

import cuda.device as device


@device.struct
class P:
    x: float


# READONLY-STORE: {{.*}}arrays-errors.py:[[@LINE+4]]:5: error: cannot write to a read-only array
# READONLY-STORE: help: this argument was passed read-only (CAI data[1] or DLPack read-only flag)
@device.kernel
def readonly_store(r, x):
    r[0] = x


# READONLY-AUG: {{.*}}arrays-errors.py:[[@LINE+4]]:5: error: cannot write to a read-only array
# READONLY-AUG: help: this argument was passed read-only (CAI data[1] or DLPack read-only flag)
@device.kernel
def readonly_aug(r):
    r[0] += 1


# READONLY-FIELD: {{.*}}arrays-errors.py:[[@LINE+4]]:5: error: cannot write to a read-only array
# READONLY-FIELD: help: this argument was passed read-only (CAI data[1] or DLPack read-only flag)
@device.kernel
def readonly_field(r, x):
    r[0].x = x


# READONLY-SLICE: {{.*}}arrays-errors.py:[[@LINE+5]]:5: error: cannot write to a read-only array
# READONLY-SLICE: help: this argument was passed read-only (CAI data[1] or DLPack read-only flag)
@device.kernel
def readonly_slice(r, x):
    v = r[1:]
    v[0] = x


@device.func
def fill(a, x):
    a[0] = x


# READONLY-CALLEE: {{.*}}arrays-errors.py:[[@LINE-3]]:5: error: cannot write to a read-only array
# READONLY-CALLEE: help: this argument was passed read-only (CAI data[1] or DLPack read-only flag)
@device.kernel
def readonly_callee(r, x):
    fill(r, x)


# TOO-MANY-INDICES: {{.*}}arrays-errors.py:[[@LINE+4]]:12: error: too many indices: the array has 1 dimension, 2 given
# TOO-MANY-INDICES: help: give at most one index per dimension
@device.kernel
def too_many_indices(a):
    a[0] = a[1, 2]


# FLOAT-INDEX: {{.*}}arrays-errors.py:[[@LINE+3]]:14: error: indices must be integers, got a value of type float32
@device.kernel
def float_index(a, x):
    a[0] = a[x]


# STORE-PARTIAL: {{.*}}arrays-errors.py:[[@LINE+3]]:5: error: assignment needs one index per dimension: the array has 2, 1 given
@device.kernel
def store_partial(m):
    m[0] = 1.0


# SLICE-ASSIGN: {{.*}}arrays-errors.py:[[@LINE+4]]:7: error: slice assignment is not supported in device code
# SLICE-ASSIGN: help: assign elements in a loop
@device.kernel
def slice_assign(a):
    a[1:3] = 0.0


# STORE-TUPLE: {{.*}}arrays-errors.py:[[@LINE+3]]:5: error: cannot store a tuple[float32, float32] into an array of float32
@device.kernel
def store_tuple(a):
    a[0] = (1.0, 2.0)


# STORE-STRUCT: {{.*}}arrays-errors.py:[[@LINE+3]]:5: error: cannot store a P into an array of float32
@device.kernel
def store_struct(a, ps):
    a[0] = ps[0]


# STEP-ZERO: {{.*}}arrays-errors.py:[[@LINE+3]]:11: error: slice step cannot be zero
@device.kernel
def step_zero(a):
    b = a[::0]


# RUNTIME-STEP: {{.*}}arrays-errors.py:[[@LINE+4]]:11: error: a slice with a run-time step needs explicit bounds
# RUNTIME-STEP: help: write a[lo:hi:step]
@device.kernel
def runtime_step(a, s):
    b = a[::s]


# VIEW-STRIDED: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: view(float64) changes the element size, which needs a C-contiguous array
# VIEW-STRIDED: help: declare the argument C-contiguous (e.g. float32[:, ::1])
@device.kernel
def view_strided(a):
    b = a.view(device.float64)


# VIEW-NOT-DTYPE: {{.*}}arrays-errors.py:[[@LINE+3]]:16: error: view() needs a dtype, got a value of type float32
@device.kernel
def view_not_dtype(a, x):
    b = a.view(x)


# RESHAPE-STRIDED: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: reshape() without a copy needs a contiguous array
# RESHAPE-STRIDED: help: declare the argument C-contiguous (e.g. float32[::1])
@device.kernel
def reshape_strided(a):
    b = a.reshape(2, -1)


# RESHAPE-ORDER: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: reshape() in F order of a C-ordered array needs a copy, which device code cannot make
# RESHAPE-ORDER: help: reshape in the array's own order (order='C')
@device.kernel
def reshape_order(m):
    b = m.reshape(-1, order='F')


# RESHAPE-TWO-UNKNOWN: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: reshape() extents must be positive, except for one -1
# RESHAPE-TWO-UNKNOWN: help: -1 stands for the extent that keeps the size
@device.kernel
def reshape_two_unknown(a):
    b = a.reshape(-1, -1)


# RESHAPE-KEYWORD: {{.*}}arrays-errors.py:[[@LINE+4]]:26: error: reshape() has no keyword argument 'copy'
# RESHAPE-KEYWORD: help: the only keyword is order='C'|'F'|'A'
@device.kernel
def reshape_keyword(a):
    b = a.reshape(2, -1, copy=False)


# ASTYPE-COPY: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: astype() would allocate a copy, which device code cannot do
# ASTYPE-COPY: help: pass copy=False (allowed when no copy is needed)
@device.kernel
def astype_copy(a):
    b = a.astype(device.float32)


# ASTYPE-OTHER: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: astype(float64, copy=False) of a float32 array needs a copy
# ASTYPE-OTHER: help: device code can only reinterpret in place: use view()
@device.kernel
def astype_other(a):
    b = a.astype(device.float64, copy=False)


# FLAGS: {{.*}}arrays-errors.py:[[@LINE+4]]:9: error: arrays have no attribute 'flags' in device code
# FLAGS: help: device code can read .shape, .strides, .size, .ndim and .dtype, and call view, reshape and astype
@device.kernel
def flags(a):
    f = a.flags


# METHOD: {{.*}}arrays-errors.py:[[@LINE+4]]:12: error: arrays have no attribute 'sum' in device code
# METHOD: help: device code can read .shape, .strides, .size, .ndim and .dtype, and call view, reshape and astype
@device.kernel
def method(a):
    a[0] = a.sum()


# ARITHMETIC: {{.*}}arrays-errors.py:[[@LINE+3]]:9: error: '+' needs numbers, got a value of type float32[:]
@device.kernel
def arithmetic(a):
    b = a + 1


# TRUTH: {{.*}}arrays-errors.py:[[@LINE+3]]:8: error: a float32[:] has no truth value
@device.kernel
def truth(a):
    if a:
        a[0] = 1.0


# SIGNATURE-STRUCT: {{.*}}arrays-errors.py:[[@LINE+2]]:5: error: bad signature for 'signature_struct': unknown type 'Q' in the signature (expected a number, vector or struct type of this file)
@device.kernel
def signature_struct(a):
    pass


# SIGNATURE-DIMS: {{.*}}arrays-errors.py:[[@LINE+2]]:5: error: bad signature for 'signature_dims': 'float32[::1, ::1]': only the last (C order) or the first (Fortran order) dimension can be ::1
@device.kernel
def signature_dims(a):
    pass


# SIGNATURE-READONLY: {{.*}}arrays-errors.py:[[@LINE+2]]:5: error: bad signature for 'signature_readonly': 'readonly' applies to arrays, not to 'float32'
@device.kernel
def signature_readonly(a):
    pass


# Slices that leave gaps are strided, whatever their array: a view that
# changes the element size needs a C-contiguous one.
# VIEW-COLUMNS: {{.*}}arrays-errors.py:[[@LINE+4]]:15: error: view(int16) changes the element size, which needs a C-contiguous array
# VIEW-COLUMNS: help: {{.*}}a slice stays contiguous only with unit steps over whole trailing dimensions
@device.kernel
def view_column_slice(m, k):
    m[0, 0] = m[:, 0:k].view(device.int16)[0, 0]


# VIEW-STEP: {{.*}}arrays-errors.py:[[@LINE+3]]:12: error: view(int16) changes the element size, which needs a C-contiguous array
@device.kernel
def view_step_slice(c, k):
    c[0] = c[0:k:2].view(device.int16)[0]
