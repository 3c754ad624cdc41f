# Static errors of control flow and locals in device code (docs/frontend.md
# "What device code may contain"): locals that change type around a loop or
# between paths, locals read before assignment, kernels returning values,
# loops over what cannot be iterated, and Python statements and expressions
# that device code does not support (each reported at its line and column).
# RUN: not pydevc %s --kernel loop_type --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOOP-TYPE
# RUN: not pydevc %s --kernel for_type --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FOR-TYPE
# RUN: not pydevc %s --kernel path_type --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=PATH-TYPE
# RUN: not pydevc %s --kernel unassigned --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNASSIGNED
# RUN: not pydevc %s --kernel loop_variable --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOOP-VARIABLE
# RUN: not pydevc %s --kernel ifexp_types --signature 'float32[:], int32, float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=IFEXP-TYPES
# RUN: not pydevc %s --kernel or_types --signature 'float32[:], int32, float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=OR-TYPES
# RUN: not pydevc %s --kernel kernel_return --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=KERNEL-RETURN
# RUN: not pydevc %s --kernel call_mixed_returns --signature 'float32[:], int32, float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RETURN-TYPES
# RUN: not pydevc %s --kernel call_some_returns --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RETURN-SOME
# RUN: not pydevc %s --kernel iterate_array --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ITERATE-ARRAY
# RUN: not pydevc %s --kernel range_float --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RANGE-FLOAT
# RUN: not pydevc %s --kernel range_zero_step --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RANGE-ZERO-STEP
# RUN: not pydevc %s --kernel range_args --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RANGE-ARGS
# RUN: not pydevc %s --kernel unpack_count --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNPACK-COUNT
# RUN: not pydevc %s --kernel starred --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=STARRED
# RUN: not pydevc %s --kernel truth_tuple --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=TRUTH-TUPLE
# RUN: not pydevc %s --kernel unknown_name --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-NAME
# RUN: not pydevc %s --kernel dict_literal --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DICT
# RUN: not pydevc %s --kernel set_literal --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=SET
# RUN: not pydevc %s --kernel list_literal --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LIST
# RUN: not pydevc %s --kernel list_comprehension --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LIST-COMP
# RUN: not pydevc %s --kernel generator --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=GENERATOR
# RUN: not pydevc %s --kernel try_except --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TRY
# RUN: not pydevc %s --kernel with_statement --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=WITH
# RUN: not pydevc %s --kernel raise_statement --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=RAISE
# RUN: not pydevc %s --kernel yield_expression --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=YIELD
# RUN: not pydevc %s --kernel assert_statement --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not pydevc %s --kernel global_statement --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=GLOBAL
# RUN: not pydevc %s --kernel nonlocal_statement --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NONLOCAL
# RUN: not pydevc %s --kernel del_statement --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=DEL
# RUN: not pydevc %s --kernel match_statement --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATCH
# RUN: not pydevc %s --kernel import_inside --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=IMPORT
# RUN: not pydevc %s --kernel class_inside --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLASS
# RUN: not pydevc %s --kernel lambda_params --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=LAMBDA-PARAMS
# RUN: not pydevc %s --kernel local_def_params --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOCAL-DEF-PARAMS
# RUN: not pydevc %s --kernel closure_early_return --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLOSURE-EARLY-RETURN
# RUN: not pydevc %s --kernel closure_no_return --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLOSURE-NO-RETURN
# RUN: not pydevc %s --kernel closure_args --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLOSURE-ARGS
# RUN: not pydevc %s --kernel rebind_function --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=REBIND-FUNCTION
# RUN: not pydevc %s --kernel async_for --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASYNC-FOR
# RUN: not pydevc %s --kernel call_uint64_returns --signature 'int32[:], int32, uint64' --emit pydev 2>&1 | FileCheck %s --check-prefix=RETURN-UINT64
# RUN: not pydevc %s --kernel call_bare_return --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RETURN-BARE

import cuda.device as device


# LOOP-TYPE: {{.*}}control_flow-errors.py:[[@LINE+5]]:5: error: local 's' is int32 before the loop and float32 inside it
# LOOP-TYPE: help: give 's' its final type before the loop, e.g. by converting its first value
@device.kernel
def loop_type(out, n):
    s = 0
    while s < n:
        s = s + 0.5
    out[0] = s


# FOR-TYPE: {{.*}}control_flow-errors.py:[[@LINE+5]]:5: error: local 'r' is int32 before the loop and uint32 inside it
# FOR-TYPE: help: give 'r' its final type before the loop, e.g. by converting its first value
@device.kernel
def for_type(out, n):
    r = 0
    for u in range(device.uint32(n)):
        r += u
    out[0] = r


# PATH-TYPE: {{.*}}control_flow-errors.py:[[@LINE+8]]:14: error: local 'y' is tuple[int32, int32] on one path and float32 on another
# PATH-TYPE: help: convert 'y' to one type on every path
@device.kernel
def path_type(out, c):
    if c:
        y = (1, 2)
    else:
        y = 1.0
    out[0] = y


# UNASSIGNED: {{.*}}control_flow-errors.py:[[@LINE+6]]:14: error: local 'y' may be used before it is assigned
# UNASSIGNED: help: assign 'y' on every path before this use
@device.kernel
def unassigned(out, c):
    if c > 0:
        y = 1.0
    out[0] = y


# LOOP-VARIABLE: {{.*}}control_flow-errors.py:[[@LINE+6]]:14: error: local 'i' may be used before it is assigned
# LOOP-VARIABLE: help: assign 'i' on every path before this use
@device.kernel
def loop_variable(out, n):
    for i in range(n):
        pass
    out[0] = i


# IFEXP-TYPES: {{.*}}control_flow-errors.py:[[@LINE+3]]:9: error: the branches of this conditional expression are tuple[float32, float32] and float32
@device.kernel
def ifexp_types(out, c, x):
    t = (x, x) if c else x
    out[0] = 1


# OR-TYPES: {{.*}}control_flow-errors.py:[[@LINE+3]]:9: error: 'or' of int32 and tuple[float32, float32] has no common type
@device.kernel
def or_types(out, c, x):
    t = c or (x, x)
    out[0] = 1


# KERNEL-RETURN: {{.*}}control_flow-errors.py:[[@LINE+5]]:5: error: a kernel cannot return a value
# KERNEL-RETURN: help: write results to an array argument
@device.kernel
def kernel_return(out, x):
    out[0] = x
    return x


# RETURN-TYPES: {{.*}}control_flow-errors.py:[[@LINE+6]]:5: error: this function returns tuple[float32, float32] on one path and float32 on another
# RETURN-TYPES: help: return one type on every path
@device.func
def mixed_returns(c, x):
    if c:
        return (x, x)
    return x


@device.kernel
def call_mixed_returns(out, c, x):
    out[0] = mixed_returns(c, x)


# RETURN-SOME: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: this function returns int32 on some paths but reaches its end without a return
# RETURN-SOME: help: return a value on every path
@device.func
def some_returns(c):
    if c:
        return 1


@device.kernel
def call_some_returns(out, c):
    out[0] = some_returns(c)


# ITERATE-ARRAY: {{.*}}control_flow-errors.py:[[@LINE+4]]:14: error: cannot iterate over a value of type float32[:] in device code
# ITERATE-ARRAY: help: loop over range(...), a tuple or a vector
@device.kernel
def iterate_array(out):
    for x in out:
        out[0] = x


# RANGE-FLOAT: {{.*}}control_flow-errors.py:[[@LINE+3]]:20: error: range() needs integers, got float32
@device.kernel
def range_float(out, x):
    for i in range(x):
        out[i] = 0


# RANGE-ZERO-STEP: {{.*}}control_flow-errors.py:[[@LINE+3]]:14: error: range() step must not be zero
@device.kernel
def range_zero_step(out, n):
    for i in range(0, n, 0):
        out[i] = 0


# RANGE-ARGS: {{.*}}control_flow-errors.py:[[@LINE+3]]:14: error: range() takes 1 to 3 arguments, 4 given
@device.kernel
def range_args(out, n):
    for i in range(0, n, 1, 2):
        out[i] = 0


# UNPACK-COUNT: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: cannot unpack 3 values into 2 names
@device.kernel
def unpack_count(out, x):
    a, b = (x, x, x)


# STARRED: {{.*}}control_flow-errors.py:[[@LINE+4]]:8: error: starred assignment is not supported in device code
# STARRED: help: unpack into one name per element
@device.kernel
def starred(out, x):
    a, *b = (x, x, x)


# TRUTH-TUPLE: {{.*}}control_flow-errors.py:[[@LINE+3]]:8: error: a tuple has no truth value in device code
@device.kernel
def truth_tuple(out, x):
    if (x, x):
        out[0] = x


# UNKNOWN-NAME: {{.*}}control_flow-errors.py:[[@LINE+4]]:14: error: name 'undefined_thing' is not defined in device code
# UNKNOWN-NAME: help: device code sees its parameters and locals, module constants, @device.func/@device.struct definitions and cuda.device
@device.kernel
def unknown_name(out):
    out[0] = undefined_thing


# DICT: {{.*}}control_flow-errors.py:[[@LINE+4]]:9: error: dicts are not supported in device code
# DICT: help: use a tuple, a struct or an array
@device.kernel
def dict_literal(out):
    d = {"a": 1}


# SET: {{.*}}control_flow-errors.py:[[@LINE+3]]:9: error: sets are not supported in device code
@device.kernel
def set_literal(out):
    s = {1, 2}


# LIST: {{.*}}control_flow-errors.py:[[@LINE+4]]:9: error: lists are not supported in device code
# LIST: help: use a tuple, or device.local_array for a mutable array
@device.kernel
def list_literal(out):
    l = [1, 2]


# LIST-COMP: {{.*}}control_flow-errors.py:[[@LINE+4]]:9: error: lists are not supported in device code
# LIST-COMP: help: use a tuple, or device.local_array for a mutable array
@device.kernel
def list_comprehension(out):
    l = [i for i in range(4)]


# GENERATOR: {{.*}}control_flow-errors.py:[[@LINE+3]]:9: error: generator expressions are not supported in device code
@device.kernel
def generator(out):
    g = (i for i in range(4))


# TRY: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: try/except is not supported in device code
# TRY: help: device code has no exceptions; check conditions explicitly
@device.kernel
def try_except(out):
    try:
        out[0] = 1
    except Exception:
        pass


# WITH: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: 'with' is not supported in device code
@device.kernel
def with_statement(out):
    with open("f") as f:
        out[0] = 1


# RAISE: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: raise is not supported in device code
# RAISE: help: device code has no exceptions
@device.kernel
def raise_statement(out):
    raise ValueError("no")


# YIELD: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: yield is not supported in device code
@device.kernel
def yield_expression(out):
    yield 1


# ASSERT: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: assert is not supported in device code
# ASSERT: help: check the condition and return early instead
@device.kernel
def assert_statement(out, x):
    assert x > 0


# GLOBAL: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: global and nonlocal are not supported in device code
# GLOBAL: help: device code cannot rebind module names; pass values as parameters
@device.kernel
def global_statement(out):
    global counter
    counter = 1


# NONLOCAL: {{.*}}control_flow-errors.py:[[@LINE+5]]:9: error: global and nonlocal are not supported in device code
# NONLOCAL: help: device code cannot rebind module names; pass values as parameters
@device.kernel
def nonlocal_statement(out):
    def inner():
        nonlocal out
        return 1
    out[0] = inner()


# DEL: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: del is not supported in device code
@device.kernel
def del_statement(out, x):
    y = x
    del y


# MATCH: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: match statements are not supported in device code
# MATCH: help: use if/elif/else
@device.kernel
def match_statement(out, c):
    match c:
        case 1:
            out[0] = 1


# IMPORT: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: imports are not allowed inside device code; import at module level
@device.kernel
def import_inside(out):
    import math
    out[0] = math.pi


# CLASS: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: classes cannot be defined inside device code; define @device.struct classes at module level
@device.kernel
def class_inside(out):
    class Point:
        x: int


# LAMBDA-PARAMS: {{.*}}control_flow-errors.py:[[@LINE+4]]:9: error: lambdas in device code take no parameters
# LAMBDA-PARAMS: help: lambdas are predicates for syncthreads_count, all_sync and friends
@device.kernel
def lambda_params(out, x):
    f = lambda a: a + 1


# LOCAL-DEF-PARAMS: {{.*}}control_flow-errors.py:[[@LINE+4]]:5: error: local function 'add' must take no parameters and have no decorators
# LOCAL-DEF-PARAMS: help: device code allows local closures without parameters (predicates); define other functions at module level with @device.func
@device.kernel
def local_def_params(out, x):
    def add(a):
        return a + x
    out[0] = add(1)


# CLOSURE-EARLY-RETURN: {{.*}}control_flow-errors.py:[[@LINE+6]]:13: error: local function 'pred' may only return at its end
# CLOSURE-EARLY-RETURN: help: compute the result in a local and end with `return <expression>`
@device.kernel
def closure_early_return(out, x):
    def pred():
        if x > 0:
            return True
        return False
    out[0] = device.syncthreads_count(pred)


# CLOSURE-NO-RETURN: {{.*}}control_flow-errors.py:[[@LINE+6]]:39: error: local function 'pred' must end with `return <expression>`
# CLOSURE-NO-RETURN: help: predicates return a bool
@device.kernel
def closure_no_return(out, x):
    def pred():
        y = x
    out[0] = device.syncthreads_count(pred)


# CLOSURE-ARGS: {{.*}}control_flow-errors.py:[[@LINE+5]]:14: error: this lambda takes no arguments
# CLOSURE-ARGS: help: local functions see the locals of the enclosing function; call it without arguments
@device.kernel
def closure_args(out, x):
    f = lambda: x + 1
    out[0] = f(2)


# REBIND-FUNCTION: {{.*}}control_flow-errors.py:[[@LINE+5]]:5: error: local 'f' holds a function or type elsewhere; use another name for this value
@device.kernel
def rebind_function(out, x):
    def f():
        return x
    f = 1


# ASYNC-FOR: {{.*}}control_flow-errors.py:[[@LINE+3]]:5: error: async for is not supported in device code
@device.kernel
def async_for(out, x):
    async for i in x:
        pass


# RETURN-UINT64: {{.*}}control_flow-errors.py:[[@LINE+6]]:5: error: this function returns uint64 on one path and int32 on another: uint64 and int32 have no common type (uint64 with a signed integer); convert one explicitly
# RETURN-UINT64: help: return one type on every path
@device.func
def uint64_returns(c, u):
    if c:
        return u
    return c


@device.kernel
def call_uint64_returns(out, c, u):
    out[0] = uint64_returns(c, u)


# RETURN-BARE: {{.*}}control_flow-errors.py:[[@LINE+5]]:9: error: this function returns float32 on some paths but returns nothing here
# RETURN-BARE: help: return a value on every path
@device.func
def bare_return(c):
    if c:
        return
    return 1.5


@device.kernel
def call_bare_return(out, c):
    out[0] = bare_return(c)
