# Errors of atomics (spec: Atomics, Memory Orderings, Thread Scopes): dtype
# rules per method [User Requirement], memory orders and scopes outside the
# spec's lists [User Requirement], orders a load or store cannot have,
# atomic_ref of read-only arrays and with the wrong number of indices.
# RUN: not pydevc %s --kernel add_int16 --signature 'int16[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ADD-INT16
# RUN: not pydevc %s --kernel and_float --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=AND-FLOAT
# RUN: not pydevc %s --kernel max_bool --signature 'bool[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MAX-BOOL
# RUN: not pydevc %s --kernel exch_big --signature 'complex128[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EXCH-BIG
# RUN: not pydevc %s --kernel cas_big --signature 'float64x2[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CAS-BIG
# RUN: not pydevc %s --kernel too_big --signature 'float64x4[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-BIG
# RUN: not pydevc %s --kernel load_release --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOAD-RELEASE
# RUN: not pydevc %s --kernel load_acq_rel --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOAD-ACQ-REL
# RUN: not pydevc %s --kernel store_acquire --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-ACQUIRE
# RUN: not pydevc %s --kernel store_consume --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-CONSUME
# RUN: not pydevc %s --kernel bad_order --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ORDER
# RUN: not pydevc %s --kernel bad_scope --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SCOPE
# RUN: not pydevc %s --kernel positional_scope --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=POSITIONAL
# RUN: not pydevc %s --kernel runtime_order --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUN: not pydevc %s --kernel fence_scope --signature '' --emit pydev 2>&1 | FileCheck %s --check-prefix=FENCE-SCOPE
# RUN: not pydevc %s --kernel fence_order --signature '' --emit pydev 2>&1 | FileCheck %s --check-prefix=FENCE-ORDER
# RUN: not pydevc %s --kernel fence_kw --signature '' --emit pydev 2>&1 | FileCheck %s --check-prefix=FENCE-KEYWORD
# RUN: not pydevc %s --kernel readonly --signature 'readonly int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=READONLY
# RUN: not pydevc %s --kernel too_few --signature 'int32[:, :]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-FEW
# RUN: not pydevc %s --kernel too_many --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-MANY
# RUN: not pydevc %s --kernel float_index --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-INDEX
# RUN: not pydevc %s --kernel not_array --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NOT-ARRAY
# RUN: not pydevc %s --kernel unknown_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel notify_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NOTIFY
# RUN: not pydevc %s --kernel cas_one --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CAS-ONE
# RUN: not pydevc %s --kernel too_many_args --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-MANY-ARGS
# RUN: not pydevc %s --kernel narrowing --signature 'int32[:], int64' --emit pydev 2>&1 | FileCheck %s --check-prefix=NARROWING
# RUN: not pydevc %s --kernel unknown_method --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=METHOD

import cuda.device as device


# ADD-INT16: {{.*}}atomics-errors.py:[[@LINE+4]]:5: error: AtomicInterface.add() is not defined for int16
# ADD-INT16: help: add() needs uint32, int32, uint64, int64, float32 or float64; use an array of such a type
@device.kernel
def add_int16(a):
    device.atomic_ref(a, 0).add(1)


# AND-FLOAT: {{.*}}atomics-errors.py:[[@LINE+4]]:5: error: AtomicInterface.and_() is not defined for float32
# AND-FLOAT: help: and_() needs uint32, int32, uint64 or int64; use an array of such a type
@device.kernel
def and_float(a):
    device.atomic_ref(a, 0).and_(1)


# MAX-BOOL: {{.*}}atomics-errors.py:[[@LINE+3]]:5: error: AtomicInterface.max() is not defined for bool
@device.kernel
def max_bool(a):
    device.atomic_ref(a, 0).max(True)


# EXCH-BIG: {{.*}}atomics-errors.py:[[@LINE+4]]:5: error: AtomicInterface.exch() is not defined for complex128
# EXCH-BIG: help: exch() needs a type of at most 8 bytes; use an array of such a type
@device.kernel
def exch_big(a):
    device.atomic_ref(a, 0).exch(a[1])


# CAS-BIG: {{.*}}atomics-errors.py:[[@LINE+3]]:5: error: AtomicInterface.cas() is not defined for float64x2
@device.kernel
def cas_big(a):
    device.atomic_ref(a, 0).cas(a[1], a[2])


# TOO-BIG: {{.*}}atomics-errors.py:[[@LINE+3]]:23: error: atomics work on objects of at most 16 bytes, float64x4 has 32
@device.kernel
def too_big(a):
    device.atomic_ref(a, 0).load()


# LOAD-RELEASE: {{.*}}atomics-errors.py:[[@LINE+4]]:45: error: memory order 'release' is not valid for AtomicInterface.load()
# LOAD-RELEASE: help: a load takes 'relaxed', 'consume', 'acquire' or 'seq_cst'
@device.kernel
def load_release(a):
    x = device.atomic_ref(a, 0).load(memory="release")


# LOAD-ACQ-REL: {{.*}}atomics-errors.py:[[@LINE+3]]:38: error: memory order 'acq_rel' is not valid for AtomicInterface.load()
@device.kernel
def load_acq_rel(a):
    x = device.atomic_ref(a, 0).load("acq_rel", "device")


# STORE-ACQUIRE: {{.*}}atomics-errors.py:[[@LINE+4]]:38: error: memory order 'acquire' is not valid for AtomicInterface.store()
# STORE-ACQUIRE: help: a store takes 'relaxed', 'release' or 'seq_cst'
@device.kernel
def store_acquire(a):
    device.atomic_ref(a, 0).store(1, "acquire")


# STORE-CONSUME: {{.*}}atomics-errors.py:[[@LINE+3]]:45: error: memory order 'consume' is not valid for AtomicInterface.store()
@device.kernel
def store_consume(a):
    device.atomic_ref(a, 0).store(1, memory="consume")


# ORDER: {{.*}}atomics-errors.py:[[@LINE+4]]:43: error: 'sequential' is not a valid memory order
# ORDER: help: use one of 'relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst'
@device.kernel
def bad_order(a):
    device.atomic_ref(a, 0).add(1, memory="sequential")


# SCOPE: {{.*}}atomics-errors.py:[[@LINE+4]]:42: error: 'grid' is not a valid thread scope
# SCOPE: help: use one of 'system', 'device', 'block', 'thread'
@device.kernel
def bad_scope(a):
    device.atomic_ref(a, 0).add(1, scope="grid")


# POSITIONAL: {{.*}}atomics-errors.py:[[@LINE+3]]:47: error: 'warp' is not a valid thread scope
@device.kernel
def positional_scope(a):
    device.atomic_ref(a, 0).max(1, "relaxed", "warp")


# RUNTIME: {{.*}}atomics-errors.py:[[@LINE+4]]:43: error: the memory order must be a constant string, got a value of type int32
# RUNTIME: help: use one of 'relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst'
@device.kernel
def runtime_order(a, m):
    device.atomic_ref(a, 0).add(1, memory=m)


# FENCE-SCOPE: {{.*}}atomics-errors.py:[[@LINE+3]]:30: error: 'cluster' is not a valid thread scope
@device.kernel
def fence_scope():
    device.threadfence(scope="cluster")


# FENCE-ORDER: {{.*}}atomics-errors.py:[[@LINE+3]]:24: error: 'strong' is not a valid memory order
@device.kernel
def fence_order():
    device.threadfence("strong")


# FENCE-KEYWORD: {{.*}}atomics-errors.py:[[@LINE+4]]:24: error: device.threadfence() has no keyword argument 'order'
# FENCE-KEYWORD: help: the parameters of device.threadfence() are 'memory', 'scope'
@device.kernel
def fence_kw():
    device.threadfence(order="acquire")


# READONLY: {{.*}}atomics-errors.py:[[@LINE+4]]:23: error: device.atomic_ref() of a read-only array
# READONLY: help: atomics may write; pass a writable array
@device.kernel
def readonly(a):
    device.atomic_ref(a, 0).add(1)


# TOO-FEW: {{.*}}atomics-errors.py:[[@LINE+4]]:26: error: device.atomic_ref() needs one index per dimension: the array has 2, 1 given
# TOO-FEW: help: index an n-d array with a tuple, e.g. atomic_ref(a, (i, j))
@device.kernel
def too_few(a):
    device.atomic_ref(a, 0).add(1)


# TOO-MANY: {{.*}}atomics-errors.py:[[@LINE+3]]:26: error: device.atomic_ref() needs one index per dimension: the array has 1, 2 given
@device.kernel
def too_many(a):
    device.atomic_ref(a, (0, 1)).add(1)


# FLOAT-INDEX: {{.*}}atomics-errors.py:[[@LINE+3]]:26: error: indices must be integers, got a value of type float32
@device.kernel
def float_index(a):
    device.atomic_ref(a, 1.0).add(1)


# NOT-ARRAY: {{.*}}atomics-errors.py:[[@LINE+3]]:23: error: device.atomic_ref() needs an array, got int32
@device.kernel
def not_array(a):
    device.atomic_ref(a[0], 0).add(1)


# KEYWORD: {{.*}}atomics-errors.py:[[@LINE+4]]:36: error: AtomicInterface.add() has no keyword argument 'order'
# KEYWORD: help: the parameters of AtomicInterface.add() are 'val', 'memory', 'scope'
@device.kernel
def unknown_kw(a):
    device.atomic_ref(a, 0).add(1, order="relaxed")


# NOTIFY: {{.*}}atomics-errors.py:[[@LINE+4]]:40: error: AtomicInterface.notify_all() has no keyword argument 'scope'
# NOTIFY: help: AtomicInterface.notify_all() takes no arguments
@device.kernel
def notify_kw(a):
    device.atomic_ref(a, 0).notify_all(scope="block")


# CAS-ONE: {{.*}}atomics-errors.py:[[@LINE+3]]:5: error: AtomicInterface.cas() is missing argument 'val'
@device.kernel
def cas_one(a):
    device.atomic_ref(a, 0).cas(1)


# TOO-MANY-ARGS: {{.*}}atomics-errors.py:[[@LINE+3]]:5: error: AtomicInterface.add() takes 3 arguments, 4 given
@device.kernel
def too_many_args(a):
    device.atomic_ref(a, 0).add(1, "relaxed", "block", 2)


# A value that does not convert to the atomic's type without loss.
# NARROWING: {{.*}}atomics-errors.py:[[@LINE+4]]:33: error: the value of AtomicInterface.add() must be int32, got int64
# NARROWING: help: convert it explicitly, e.g. device.int32(...)
@device.kernel
def narrowing(a, x):
    device.atomic_ref(a, 0).add(x)


# METHOD: {{.*}}atomics-errors.py:[[@LINE+3]]:5: error: {{.*}}AtomicInterface[int32] has no attribute 'inc'
@device.kernel
def unknown_method(a):
    device.atomic_ref(a, 0).inc(1)
