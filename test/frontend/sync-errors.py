# Errors of block synchronization (spec: Thread Block Synchronization):
# predicates are callables with no arguments [User Requirement].
# RUN: not pydevc %s --kernel pred_value --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VALUE
# RUN: not pydevc %s --kernel pred_array --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ARRAY
# RUN: not pydevc %s --kernel lambda_args --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LAMBDA-ARGS
# RUN: not pydevc %s --kernel def_args --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DEF-ARGS
# RUN: not pydevc %s --kernel func_args --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FUNC-ARGS
# RUN: not pydevc %s --kernel early_return --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EARLY-RETURN
# RUN: not pydevc %s --kernel no_return --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NO-RETURN
# RUN: not pydevc %s --kernel sync_args --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SYNC-ARGS
# RUN: not pydevc %s --kernel count_none --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not pydevc %s --kernel count_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel closure_local --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLOSURE-LOCAL

import cuda.device as device


# VALUE: {{.*}}sync-errors.py:[[@LINE+4]]:37: error: device.syncthreads_count() takes a predicate callable with no arguments, got a value of type bool
# VALUE: help: pass e.g. `lambda: x > 0`
@device.kernel
def pred_value(a):
    a[0] = device.syncthreads_count(a[1] > 0)


# ARRAY: {{.*}}sync-errors.py:[[@LINE+3]]:34: error: device.syncthreads_or() takes a predicate callable with no arguments, got a value of type int32[:]
@device.kernel
def pred_array(a):
    a[0] = device.syncthreads_or(a)


# LAMBDA-ARGS: {{.*}}sync-errors.py:[[@LINE+4]]:35: error: lambdas in device code take no parameters
# LAMBDA-ARGS: help: lambdas are predicates for syncthreads_count, all_sync and friends
@device.kernel
def lambda_args(a):
    a[0] = device.syncthreads_and(lambda x: x > 0)


# DEF-ARGS: {{.*}}sync-errors.py:[[@LINE+3]]:5: error: local function 'p' must take no parameters and have no decorators
@device.kernel
def def_args(a):
    def p(x):
        return x > 0
    a[0] = device.syncthreads_or(p)


@device.func
def positive(x):
    return x > 0


# FUNC-ARGS: {{.*}}sync-errors.py:[[@LINE+4]]:37: error: device.syncthreads_count() takes a predicate callable with no arguments, got function 'positive'
# FUNC-ARGS: help: pass e.g. `lambda: x > 0`
@device.kernel
def func_args(a):
    a[0] = device.syncthreads_count(positive)


# The inlined body of a predicate returns once, at its end.
# EARLY-RETURN: {{.*}}sync-errors.py:[[@LINE+6]]:13: error: local function 'p' may only return at its end
# EARLY-RETURN: help: compute the result in a local and end with `return <expression>`
@device.kernel
def early_return(a):
    def p():
        if a[1] > 0:
            return True
        return False
    a[0] = device.syncthreads_and(p)


# NO-RETURN: {{.*}}sync-errors.py:[[@LINE+6]]:34: error: local function 'p' must end with `return <expression>`
# NO-RETURN: help: predicates return a bool
@device.kernel
def no_return(a):
    def p():
        x = a[1]
    a[0] = device.syncthreads_or(p)


# SYNC-ARGS: {{.*}}sync-errors.py:[[@LINE+3]]:5: error: device.syncthreads() takes 0 arguments, 1 given
@device.kernel
def sync_args(a):
    device.syncthreads(a)


# MISSING: {{.*}}sync-errors.py:[[@LINE+3]]:12: error: device.syncthreads_count() is missing argument 'pred'
@device.kernel
def count_none(a):
    a[0] = device.syncthreads_count()


# KEYWORD: {{.*}}sync-errors.py:[[@LINE+4]]:37: error: device.syncthreads_count() has no keyword argument 'predicate'
# KEYWORD: help: the parameters of device.syncthreads_count() are 'pred'
@device.kernel
def count_kw(a):
    a[0] = device.syncthreads_count(predicate=lambda: a[1] > 0)


# A local of a predicate is not a local of its caller.
# CLOSURE-LOCAL: {{.*}}sync-errors.py:[[@LINE+7]]:12: error: name 'y' is not defined in device code
@device.kernel
def closure_local(a):
    def p():
        y = a[1]
        return y > 0
    n = device.syncthreads_count(p)
    a[0] = y
