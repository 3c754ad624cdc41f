# Static errors of calls between device functions (spec: Heterogeneous
# Functions, Kernel Functions): recursion, wrong argument counts and
# keywords, kernels called from device code, an interop function with two
# signatures, undecorated functions, functions as values, parameter hints
# that do not match, ConstExpr parameters given run-time values, and
# parameters device code does not support. Decorator errors, which fail the
# whole module, are in functions-module-errors.py.
# RUN: not pydevc %s --kernel recursion --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RECURSION
# RUN: not pydevc %s --kernel mutual --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MUTUAL
# RUN: not pydevc %s --kernel too_few --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-FEW
# RUN: not pydevc %s --kernel too_many --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-MANY
# RUN: not pydevc %s --kernel unknown_keyword --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-KEYWORD
# RUN: not pydevc %s --kernel twice_keyword --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=TWICE-KEYWORD
# RUN: not pydevc %s --kernel missing_keyword --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING-KEYWORD
# RUN: not pydevc %s --kernel star_args --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=STAR-ARGS
# RUN: not pydevc %s --kernel kernel_arity --signature 'float32[:], float32, float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=KERNEL-ARITY
# RUN: not pydevc %s --kernel runtime_default --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=DEFAULT
# RUN: not pydevc %s --kernel call_kernel --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CALL-KERNEL
# RUN: not pydevc %s --kernel interop_twice --signature 'float32[:], float32, int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=INTEROP-TWICE
# RUN: not pydevc %s --kernel undecorated --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNDECORATED
# RUN: not pydevc %s --kernel plain_class --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=PLAIN-CLASS
# RUN: not pydevc %s --kernel function_value --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FUNCTION-VALUE
# RUN: not pydevc %s --kernel return_function --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RETURN-FUNCTION
# RUN: not pydevc %s --kernel annotation_mismatch --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ANNOTATION
# RUN: not pydevc %s --kernel const_expr_runtime --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR
# RUN: not pydevc %s --kernel call_varargs --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VARARGS
# RUN: not pydevc %s --kernel call_keyword_only --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD-ONLY
# RUN: not pydevc %s --kernel kernel_varargs --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KERNEL-VARARGS
# RUN: not pydevc %s --kernel method_args --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=METHOD-ARGS
# RUN: not pydevc %s --kernel unknown_method --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-METHOD
# RUN: not pydevc %s --kernel not_callable --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=NOT-CALLABLE
# RUN: not pydevc %s --kernel no_such_kernel --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
# RUN: not pydevc %s --kernel const_expr_runtime_shape --signature 'float32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-SHAPE
# RUN: not pydevc %s --kernel const_expr_typed_dtype --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR-TYPED

import cuda.device as device


# RECURSION: {{.*}}functions-errors.py:[[@LINE+6]]:16: error: recursive call to 'fact': device functions cannot be recursive
# RECURSION: help: rewrite the recursion as a loop
@device.func
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@device.kernel
def recursion(out, n):
    out[0] = fact(n)


# MUTUAL: {{.*}}functions-errors.py:[[@LINE+9]]:12: error: recursive call to 'ping': device functions cannot be recursive
# MUTUAL: help: rewrite the recursion as a loop
@device.func
def ping(n):
    return pong(n - 1)


@device.func
def pong(n):
    return ping(n)


@device.kernel
def mutual(out, n):
    out[0] = ping(n)


@device.func
def add(a, b):
    return a + b


# TOO-FEW: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: add() is missing a value for parameter 'b'
# TOO-FEW: help: pass it positionally or by keyword
@device.kernel
def too_few(out, x):
    out[0] = add(x)


# TOO-MANY: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: 'add' takes 2 arguments, 3 given
# TOO-MANY: help: call it as add(a, b)
@device.kernel
def too_many(out, x):
    out[0] = add(x, x, x)


# UNKNOWN-KEYWORD: {{.*}}functions-errors.py:[[@LINE+4]]:21: error: add() has no parameter 'c'
# UNKNOWN-KEYWORD: help: its parameters are 'a', 'b'
@device.kernel
def unknown_keyword(out, x):
    out[0] = add(x, c=x)


# TWICE-KEYWORD: {{.*}}functions-errors.py:[[@LINE+3]]:21: error: add() got two values for parameter 'a'
@device.kernel
def twice_keyword(out, x):
    out[0] = add(x, a=x)


# MISSING-KEYWORD: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: add() is missing a value for parameter 'a'
# MISSING-KEYWORD: help: pass it positionally or by keyword
@device.kernel
def missing_keyword(out, x):
    out[0] = add(b=x)


# STAR-ARGS: {{.*}}functions-errors.py:[[@LINE+4]]:18: error: *args unpacking is not supported in device code
@device.kernel
def star_args(out, x):
    t = (x, x)
    out[0] = add(*t)


# KERNEL-ARITY: {{.*}}functions-errors.py:[[@LINE+2]]:5: error: 'kernel_arity' takes 2 parameters but the signature gives 3 argument types
@device.kernel
def kernel_arity(out, x):
    out[0] = x


@device.func
def with_runtime_default(a, b=device.float16(1.0)):
    return a + b


# DEFAULT: {{.*}}functions-errors.py:[[@LINE-4]]:31: error: the default value of parameter 'b' of with_runtime_default() is not a constant expression
# DEFAULT: help: use a literal or a module-level constant
@device.kernel
def runtime_default(out, x):
    out[0] = with_runtime_default(x)


@device.kernel
def callee(out):
    out[0] = 1


# CALL-KERNEL: {{.*}}functions-errors.py:[[@LINE+4]]:5: error: 'callee' is a kernel and cannot be called from device code
# CALL-KERNEL: help: launch kernels from the host with device.launch
@device.kernel
def call_kernel(out):
    callee(out)


@device.func(interop=True)
def cdiff(a, b):
    return a - b


# INTEROP-TWICE: {{.*}}functions-errors.py:[[@LINE+5]]:14: error: interoperable function 'cdiff' is already compiled for (float32, float32)
# INTEROP-TWICE: help: an interop=True function has one C symbol, so one signature
@device.kernel
def interop_twice(out, x, i):
    out[0] = cdiff(x, x)
    out[1] = cdiff(i, i)


def helper(x):
    return x


# UNDECORATED: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: function 'helper' is not decorated with @device.func
# UNDECORATED: help: decorate it with @device.func to call it from device code
@device.kernel
def undecorated(out, x):
    out[0] = helper(x)


class Plain:
    x: float


# PLAIN-CLASS: {{.*}}functions-errors.py:[[@LINE+4]]:9: error: class 'Plain' is not decorated with @device.struct
# PLAIN-CLASS: help: decorate it with @device.struct to use it in device code
@device.kernel
def plain_class(out, x):
    p = Plain(x)


@device.func
def apply(f, x):
    return f(x)


# FUNCTION-VALUE: {{.*}}functions-errors.py:[[@LINE+4]]:20: error: function 'add' is not a value that device code can store or pass
# FUNCTION-VALUE: help: device code stores and passes numbers, vectors, structs, tuples and arrays
@device.kernel
def function_value(out, x):
    out[0] = apply(add, x)


# RETURN-FUNCTION: {{.*}}functions-errors.py:[[@LINE+4]]:12: error: function 'add' is not a value that device code can store or pass
# RETURN-FUNCTION: help: device code stores and passes numbers, vectors, structs, tuples and arrays
@device.func
def give_function():
    return add


@device.kernel
def return_function(out, x):
    f = give_function()


@device.func
def typed(x: device.int8):
    return x


# ANNOTATION: {{.*}}functions-errors.py:[[@LINE-4]]:14: error: parameter 'x' is annotated int8 but is called with float32
# ANNOTATION: help: convert the argument, e.g. device.int8(x)
@device.kernel
def annotation_mismatch(out, x):
    out[0] = typed(x)


@device.func
def scaled(k: device.ConstExpr, x):
    return k * x


# CONST-EXPR: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: argument 'k' of 'scaled' must be a constant expression (the parameter is ConstExpr)
# CONST-EXPR: help: pass a literal, or a local or global assigned a constant
@device.kernel
def const_expr_runtime(out, x):
    out[0] = scaled(x, x)


@device.func
def varargs(*args):
    return 1


# VARARGS: {{.*}}functions-errors.py:[[@LINE-4]]:12: error: 'varargs' may only have plain positional parameters
# VARARGS: help: *args, **kwargs and keyword-only parameters are not supported in device code
@device.kernel
def call_varargs(out, x):
    out[0] = varargs(x)


@device.func
def keyword_only(a, *, b):
    return a + b


# KEYWORD-ONLY: {{.*}}functions-errors.py:[[@LINE-4]]:17: error: 'keyword_only' may only have plain positional parameters
# KEYWORD-ONLY: help: *args, **kwargs and keyword-only parameters are not supported in device code
@device.kernel
def call_keyword_only(out, x):
    out[0] = keyword_only(x, b=x)


# KERNEL-VARARGS: {{.*}}functions-errors.py:[[@LINE+3]]:19: error: 'kernel_varargs' may only have plain positional parameters
# KERNEL-VARARGS: help: *args, **kwargs and keyword-only parameters are not supported in device code
@device.kernel
def kernel_varargs(*arrays):
    pass


@device.struct
class P:
    x: float

    @device.func
    def get(self):
        return self.x


# METHOD-ARGS: {{.*}}functions-errors.py:[[@LINE+5]]:14: error: 'P.get' takes 0 arguments, 1 given
# METHOD-ARGS: help: call it as get()
@device.kernel
def method_args(out, x):
    p = P(x)
    out[0] = p.get(1)


# UNKNOWN-METHOD: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: a P has no attribute 'missing'
@device.kernel
def unknown_method(out, x):
    p = P(x)
    out[0] = p.missing()


# NOT-CALLABLE: {{.*}}functions-errors.py:[[@LINE+3]]:14: error: a value of type float32 is not callable in device code
@device.kernel
def not_callable(out, x):
    out[0] = x(1)


# NO-FUNCTION: {{.*}}functions-errors.py:1:1: error: no function 'no_such_kernel' in {{.*}}functions-errors.py (device functions here: {{.*}}recursion{{.*}})


@device.func
def zeros_of(shape: device.ConstExpr):
    a = device.local_array(shape, device.float32)
    return a.size


# A tuple with a run-time element is no constant expression.
# CONST-EXPR-SHAPE: {{.*}}functions-errors.py:[[@LINE+4]]:14: error: argument 'shape' of 'zeros_of' must be a constant expression (the parameter is ConstExpr)
# CONST-EXPR-SHAPE: help: pass a literal, or a local or global assigned a constant
@device.kernel
def const_expr_runtime_shape(out, n):
    out[0] = zeros_of((n, 2))


@device.func
def typed_const(x: device.ConstExpr[device.float32]):
    return x


# ConstExpr[T] takes a constant of type T: a dtype is a type, not a T.
# CONST-EXPR-TYPED: {{.*}}functions-errors.py:[[@LINE-5]]:20: error: parameter 'x' is annotated ConstExpr[float32] but is called with dtype float32
@device.kernel
def const_expr_typed_dtype(out):
    out[0] = typed_const(device.float32)
