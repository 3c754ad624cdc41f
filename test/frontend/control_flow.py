# Control flow and locals in device code (docs/frontend.md "What device code
# may contain"): locals in SSA form across if/elif/else (numbers promote
# where paths join), while (with else), for over range() with 1, 2 and 3
# arguments and either step sign, for over tuples and vectors (unrolled),
# break/continue, early return, augmented assignment, short-circuit and/or
# with Python's value semantics, conditional expressions, tuple packing and
# unpacking, module-level constants folded as constant expressions, and
# parameterless local closures used as predicates.
# RUN: pydevc %s --kernel branches --signature 'float32[:], float32, int32' --emit pydev | FileCheck %s --check-prefix=IF
# RUN: pydevc %s --kernel while_loops --signature 'int32[:], int32' --emit pydev | FileCheck %s --check-prefix=WHILE
# RUN: pydevc %s --kernel range_loops --signature 'int32[:], int32, int32' --emit pydev | FileCheck %s --check-prefix=RANGE
# RUN: pydevc %s --kernel typed_ranges --signature 'int32[:], int32' --emit pydev | FileCheck %s --check-prefix=TYPED
# RUN: pydevc %s --kernel unrolled --signature 'float32[:], float32x4' --emit pydev | FileCheck %s --check-prefix=UNROLL
# RUN: pydevc %s --kernel early_return --signature 'float32[:], float32' --emit pydev | FileCheck %s --check-prefix=RETURN
# RUN: pydevc %s --kernel logic --signature 'float32[:], int32, int32' --emit pydev | FileCheck %s --check-prefix=LOGIC
# RUN: pydevc %s --kernel tuples --signature 'float32[:], int32, float32, (int32, float64)' --emit pydev | FileCheck %s --check-prefix=TUPLE
# RUN: pydevc %s --kernel constants --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=CONST
# RUN: pydevc %s --kernel closures --signature 'int32[:], int32, int32' --emit pydev | FileCheck %s --check-prefix=CLOSURE
# RUN: pydevc %s --kernel augmented --signature 'float32[:], float32, int32' --emit pydev | FileCheck %s --check-prefix=AUG

import cuda.device as device

N = 32
SCALE = 2.5
SHAPE = (4, N * 2)
DEBUG = False
NAME = "pydev"


# if/elif/else: each local has one value where the paths join (a block
# argument); an int32 and a float32 join as float32.
# IF-LABEL: func.func @branches
# IF-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[X:.*]]: f32, %[[N:.*]]: si32)
# IF: %[[GT:.*]] = pydev.cmp gt, %[[X]], %{{.*}} : f32, si32
# IF-NEXT: cf.cond_br %[[GT]], ^[[THEN:.*]], ^[[ELIF:.*]]
# IF: ^[[THEN]]:
# IF-NEXT: %[[ONE:.*]] = pydev.constant 1 : si32
# IF-NEXT: cf.br ^[[JOIN:.*]](%[[ONE]] : si32)
# IF: ^[[ELIF]]:
# IF: %[[LT:.*]] = pydev.cmp lt, %[[X]], %{{.*}} : f32, si32
# IF-NEXT: cf.cond_br %[[LT]], ^[[B2:.*]], ^[[ELSE:.*]]
# IF: ^[[B2]]:
# IF-NEXT: %[[TWO:.*]] = pydev.constant 2 : si32
# IF-NEXT: cf.br ^[[JOIN]](%[[TWO]] : si32)
# IF: ^[[ELSE]]:
# IF-NEXT: %[[THREE:.*]] = pydev.constant 3 : si32
# IF-NEXT: cf.br ^[[JOIN]](%[[THREE]] : si32)
# IF: ^[[JOIN]](%[[Y:.*]]: si32):
# IF: %[[YF:.*]] = pydev.cast %[[Y]] : si32 to f32
# IF-NEXT: pydev.array_store %[[YF]], %[[OUT]]
# z is x (float32) on one path and 1 (int32) on the other: float32.
# IF: cf.cond_br %{{.*}}, ^[[ZT:.*]], ^[[ZF:.*]]
# IF: ^[[ZT]]:
# IF-NEXT: cf.br ^[[ZJ:.*]](%[[X]] : f32)
# IF: ^[[ZF]]:
# IF-NEXT: %[[Z1:.*]] = pydev.constant 1 : si32
# IF-NEXT: %[[Z1F:.*]] = pydev.cast %[[Z1]] : si32 to f32
# IF-NEXT: cf.br ^[[ZJ]](%[[Z1F]] : f32)
# IF: ^[[ZJ]](%[[Z:.*]]: f32):
# IF: pydev.array_store %[[Z]], %[[OUT]]
# `if n:` is `n != 0`; w keeps its old value on the path without the if.
# IF: %[[W0:.*]] = pydev.constant 0 : si32
# IF: %[[NZ:.*]] = pydev.cmp ne, %[[N]], %{{.*}} : si32, si32
# IF-NEXT: cf.cond_br %[[NZ]], ^[[WT:.*]], ^[[WF:.*]]
# IF: ^[[WT]]:
# w + 1 folds to the constant 1.
# IF: pydev.constant 1 : si32
# IF-NEXT: %[[W1:.*]] = pydev.constant 1 : si32
# IF-NEXT: cf.br ^[[WJ:.*]](%[[W1]] : si32)
# IF: ^[[WF]]:
# IF-NEXT: cf.br ^[[WJ]](%[[W0]] : si32)
# IF: ^[[WJ]](%[[W:.*]]: si32):
# IF: pydev.cast %[[W]] : si32 to f32
@device.kernel
def branches(out, x, n):
    if x > 0:
        y = 1
    elif x < -10:
        y = 2
    else:
        y = 3
    out[0] = y
    if x > 5:
        z = x
    else:
        z = 1
    out[1] = z
    w = 0
    if n:
        w += 1
    out[2] = w


# while: the loop header carries the locals; continue goes to the header,
# break to the exit, the else clause runs when the condition fails.
# WHILE-LABEL: func.func @while_loops
# WHILE-SAME: (%[[OUT:.*]]: !pydev.array<si32, 1>, %[[N:.*]]: si32)
# WHILE: %[[I0:.*]] = pydev.constant 0 : si32
# WHILE-NEXT: %[[T0:.*]] = pydev.constant 0 : si32
# WHILE-NEXT: cf.br ^[[HEAD:.*]](%[[I0]], %[[T0]] : si32, si32)
# WHILE: ^[[HEAD]](%[[I:.*]]: si32, %[[T:.*]]: si32):
# WHILE-NEXT: %[[C:.*]] = pydev.cmp lt, %[[I]], %[[N]] : si32, si32
# WHILE-NEXT: cf.cond_br %[[C]], ^[[BODY:.*]], ^[[ELSE:.*]]
# WHILE: ^[[BODY]]:
# WHILE: %[[I1:.*]] = pydev.add %[[I]], %{{.*}} : si32, si32 -> si32
# WHILE: %[[IS3:.*]] = pydev.cmp eq, %[[I1]], %{{.*}} : si32, si32
# WHILE-NEXT: cf.cond_br %[[IS3]], ^[[CONT:.*]], ^{{.*}}
# WHILE: ^[[CONT]]:
# WHILE-NEXT: cf.br ^[[HEAD]](%[[I1]], %[[T]] : si32, si32)
# WHILE: %[[BIG:.*]] = pydev.cmp gt, %[[I1]], %{{.*}} : si32, si32
# WHILE-NEXT: cf.cond_br %[[BIG]], ^[[BRK:.*]], ^{{.*}}
# WHILE: ^[[BRK]]:
# WHILE-NEXT: cf.br ^[[EXIT:.*]](%[[T]] : si32)
# WHILE: %[[T1:.*]] = pydev.add %[[T]], %[[I1]] : si32, si32 -> si32
# WHILE-NEXT: cf.br ^[[HEAD]](%[[I1]], %[[T1]] : si32, si32)
# WHILE: ^[[ELSE]]:
# WHILE-NEXT: %[[M1:.*]] = pydev.constant -1 : si32
# WHILE-NEXT: cf.br ^[[EXIT]](%[[M1]] : si32)
# WHILE: ^[[EXIT]](%[[TOTAL:.*]]: si32):
# WHILE: pydev.array_store %[[TOTAL]], %[[OUT]]
# while True: the only way out is the break.
# WHILE: cf.br ^[[FOREVER:.*]](%[[N]] : si32)
# WHILE: ^[[FOREVER]](%[[K:.*]]: si32):
# WHILE: %[[K1:.*]] = pydev.sub %[[K]], %{{.*}} : si32, si32 -> si32
# WHILE: cf.br ^[[FOREVER]](%[[K1]] : si32)
@device.kernel
def while_loops(out, n):
    i = 0
    total = 0
    while i < n:
        i += 1
        if i == 3:
            continue
        if i > 10:
            break
        total += i
    else:
        total = -1
    out[0] = total
    k = n
    while True:
        k -= 1
        if k < 0:
            break
    out[1] = k


# range(stop), range(start, stop), range(start, stop, step) with a constant
# negative step (counts down with `>`) and with a run-time step (compares
# by the step's sign); the else clause of a for; nested loops with break
# and continue; the loop variable keeps its last value.
# RANGE-LABEL: func.func @range_loops
# RANGE-SAME: (%[[OUT:.*]]: !pydev.array<si32, 1>, %[[N:.*]]: si32, %[[STEP:.*]]: si32)
# RANGE: %[[ACC0:.*]] = pydev.constant 0 : si32
# RANGE-NEXT: %[[Z:.*]] = pydev.constant 0 : si32
# RANGE-NEXT: %[[ONE:.*]] = pydev.constant 1 : si32
# RANGE-NEXT: cf.br ^[[H1:.*]](%[[Z]], %[[ACC0]] : si32, si32)
# RANGE: ^[[H1]](%[[J:.*]]: si32, %[[ACC:.*]]: si32):
# RANGE-NEXT: %[[C1:.*]] = pydev.cmp lt, %[[J]], %[[N]] : si32, si32
# RANGE: %[[ACC1:.*]] = pydev.add %[[ACC]], %[[J]] : si32, si32 -> si32
# RANGE: %[[J1:.*]] = pydev.add %[[J]], %[[ONE]] : si32, si32 -> si32
# RANGE-NEXT: cf.br ^[[H1]](%[[J1]], %[[ACC1]] : si32, si32)
# RANGE: %[[TWO:.*]] = pydev.constant 2 : si32
# RANGE: cf.br ^[[H2:.*]](%[[TWO]], %[[ACC]] : si32, si32)
# RANGE: ^[[H2]](%[[J2:.*]]: si32, %{{.*}}: si32):
# RANGE-NEXT: pydev.cmp lt, %[[J2]], %[[N]] : si32, si32
# RANGE: %[[MINUS1:.*]] = pydev.constant -1 : si32
# RANGE-NEXT: cf.br ^[[H3:.*]](%[[N]], %{{.*}} : si32, si32)
# RANGE: ^[[H3]](%[[J3:.*]]: si32, %{{.*}}: si32):
# RANGE-NEXT: pydev.cmp gt, %[[J3]], %{{.*}} : si32, si32
# RANGE: pydev.add %[[J3]], %[[MINUS1]] : si32, si32 -> si32
# RANGE: ^[[H4:.*]](%[[J4:.*]]: si32, %{{.*}}: si32, %[[LAST:.*]]: si32):
# RANGE-NEXT: pydev.constant 0 : si32
# RANGE-NEXT: %[[POS:.*]] = pydev.cmp gt, %[[STEP]], %{{.*}} : si32, si32
# RANGE-NEXT: %[[LT:.*]] = pydev.cmp lt, %[[J4]], %[[N]] : si32, si32
# RANGE-NEXT: %[[GT:.*]] = pydev.cmp gt, %[[J4]], %[[N]] : si32, si32
# RANGE-NEXT: %[[GO:.*]] = arith.select %[[POS]], %[[LT]], %[[GT]] : i1
# RANGE-NEXT: cf.cond_br %[[GO]]
# RANGE: %[[NEXT:.*]] = pydev.add %[[J4]], %[[STEP]] : si32, si32 -> si32
# RANGE-NEXT: cf.br ^[[H4]](%[[NEXT]], %{{.*}}, %[[J4]] : si32, si32, si32)
# A local assigned in the loop, after the loop; for/else and nested loops.
# RANGE: pydev.array_store %[[LAST]], %[[OUT]]
# RANGE: ^[[OUTER:.*]](%[[A:.*]]: si32):
# RANGE: ^[[INNER:.*]](%[[B:.*]]: si32):
# RANGE: pydev.cmp gt, %[[B]], %[[A]] : si32, si32
# RANGE: pydev.array_store %{{.*}}, %[[OUT]]
@device.kernel
def range_loops(out, n, step):
    acc = 0
    for j in range(n):
        acc += j
    for j in range(2, n):
        acc += j
    for j in range(n, 0, -1):
        acc -= j
    last = -1
    for j in range(0, n, step):
        acc += j
        last = j
    out[0] = acc
    out[1] = last
    for a in range(n):
        for b in range(n):
            if b > a:
                break
            if b == 1:
                continue
            out[2] += b
    else:
        out[3] = 1


# The counter has the promoted type of the bounds.
# TYPED-LABEL: func.func @typed_ranges
# TYPED: %[[N64:.*]] = pydev.cast %{{.*}} : si32 to si64
# TYPED: ^{{.*}}(%[[Q:.*]]: si64):
# TYPED-NEXT: pydev.cmp lt, %[[Q]], %[[N64]] : si64, si64
# TYPED: pydev.add %[[Q]], %{{.*}} : si64, si64 -> si64
# TYPED: %[[NU:.*]] = pydev.cast %{{.*}} : si32 to ui32
# TYPED: ^{{.*}}(%[[U:.*]]: ui32, %[[R:.*]]: ui32):
# TYPED-NEXT: pydev.cmp lt, %[[U]], %[[NU]] : ui32, ui32
# TYPED: pydev.add %[[R]], %[[U]] : ui32, ui32 -> ui32
@device.kernel
def typed_ranges(out, n):
    for q in range(device.int64(n)):
        out[0] = q
    r = device.uint32(0)
    for u in range(device.uint32(n)):
        r += u
    out[1] = r


# for over a tuple or a vector is unrolled, one copy of the body per
# element (so the elements may have different types).
# UNROLL-LABEL: func.func @unrolled
# UNROLL-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[V:.*]]: !pydev.vector<4 x f32>)
# Constant elements fold: 0.0 + 1 + 2.5 + True.
# UNROLL: %[[S:.*]] = pydev.constant 4.500000e+00 : f32
# UNROLL: pydev.array_store %[[S]], %[[OUT]]
# UNROLL: %[[E0:.*]] = pydev.vector_extract %[[V]][%{{.*}}] : <4 x f32>, si32 -> f32
# UNROLL-NEXT: pydev.constant 1 : si32
# UNROLL-NEXT: %[[E1:.*]] = pydev.vector_extract %[[V]][%{{.*}}] : <4 x f32>, si32 -> f32
# UNROLL-NEXT: pydev.constant 2 : si32
# UNROLL-NEXT: %[[E2:.*]] = pydev.vector_extract %[[V]][%{{.*}}] : <4 x f32>, si32 -> f32
# UNROLL-NEXT: pydev.constant 3 : si32
# UNROLL-NEXT: %[[E3:.*]] = pydev.vector_extract %[[V]][%{{.*}}] : <4 x f32>, si32 -> f32
# UNROLL-NEXT: %[[S0:.*]] = pydev.add %[[S]], %[[E0]] : f32, f32 -> f32
# UNROLL: %[[S1:.*]] = pydev.add %[[S0]], %[[E1]] : f32, f32 -> f32
# UNROLL: %[[S2:.*]] = pydev.add %[[S1]], %[[E2]] : f32, f32 -> f32
# UNROLL: %[[S3:.*]] = pydev.add %[[S2]], %[[E3]] : f32, f32 -> f32
# UNROLL: pydev.array_store %[[S3]], %[[OUT]]
# for a, b in ((1, 2), (3, 4)): 1 * 2 + 3 * 4.
# UNROLL: pydev.array_load
# UNROLL-NEXT: %[[P1:.*]] = pydev.constant 2 : si32
# UNROLL-NEXT: pydev.add %{{.*}}, %[[P1]] : f32, si32 -> f32
# UNROLL: pydev.array_load
# UNROLL-NEXT: %[[P2:.*]] = pydev.constant 12 : si32
# UNROLL-NEXT: pydev.add %{{.*}}, %[[P2]] : f32, si32 -> f32
@device.kernel
def unrolled(out, v):
    s = 0.0
    for e in (1, 2.5, True):
        s += e
    out[0] = s
    for e in v:
        s += e
    out[1] = s
    for a, b in ((1, 2), (3, 4)):
        out[2] += a * b


# return anywhere: a kernel returns nothing; a function's returns join to
# one type.
# RETURN-LABEL: func.func @sign_float32(%{{.*}}: f32) -> si32
# RETURN: %[[NEG:.*]] = pydev.constant -1 : si32
# RETURN-NEXT: return %[[NEG]] : si32
# RETURN: pydev.cmp eq
# RETURN: %[[ZERO:.*]] = pydev.constant 0 : si32
# RETURN-NEXT: return %[[ZERO]] : si32
# RETURN: %[[POS:.*]] = pydev.constant 1 : si32
# RETURN-NEXT: return %[[POS]] : si32
# RETURN-LABEL: func.func @early_return
# RETURN-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[X:.*]]: f32)
# RETURN: cf.cond_br %{{.*}}, ^[[EARLY:.*]], ^[[LATE:.*]]
# RETURN: ^[[EARLY]]:
# RETURN-NEXT: return
# RETURN: call @sign_float32(%[[X]]) : (f32) -> si32
# RETURN: return
@device.func
def sign(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    return 1


@device.kernel
def early_return(out, x):
    if x < 0:
        return
    out[0] = sign(x)
    return
    out[1] = x


# and/or evaluate the right operand only when needed and give one of the
# operands (promoted); a chained comparison evaluates its middle operand
# once; conditional expressions.
# LOGIC-LABEL: func.func @logic
# LOGIC-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[A:.*]]: si32, %[[B:.*]]: si32)
# LOGIC: %[[AP:.*]] = pydev.cmp gt, %[[A]], %{{.*}} : si32, si32
# LOGIC-NEXT: cf.cond_br %[[AP]], ^[[RHS:.*]], ^[[AND:.*]](%[[AP]] : i1)
# LOGIC: ^[[RHS]]:
# LOGIC: %[[BP:.*]] = pydev.cmp gt, %[[B]], %{{.*}} : si32, si32
# LOGIC-NEXT: cf.br ^[[AND]](%[[BP]] : i1)
# LOGIC: ^[[AND]](%{{.*}}: i1):
# `a or 1.5` is a (as float32) when a is true, else 1.5.
# LOGIC: %[[ANZ:.*]] = pydev.cmp ne, %[[A]], %{{.*}} : si32, si32
# LOGIC-NEXT: %[[AF:.*]] = pydev.cast %[[A]] : si32 to f32
# LOGIC-NEXT: cf.cond_br %[[ANZ]], ^[[OR:.*]](%[[AF]] : f32), ^[[ORR:.*]]
# LOGIC: ^[[ORR]]:
# LOGIC: cf.br ^[[OR]](%{{.*}} : f32)
# LOGIC: ^[[OR]](%[[ORV:.*]]: f32):
# LOGIC: pydev.array_store %[[ORV]], %[[OUT]]
# LOGIC: %[[GT:.*]] = pydev.cmp gt, %[[A]], %[[B]] : si32, si32
# LOGIC-NEXT: cf.cond_br %[[GT]], ^[[T:.*]], ^[[F:.*]]
# LOGIC: ^[[T]]:
# LOGIC-NEXT: cf.br ^[[J:.*]](%[[A]] : si32)
# LOGIC: ^[[F]]:
# LOGIC-NEXT: cf.br ^[[J]](%[[B]] : si32)
# twice(a) < 3 < twice(b): the second call only when the first test holds.
# LOGIC: %[[C1:.*]] = call @twice_int32(%[[A]])
# LOGIC: %[[L1:.*]] = pydev.cmp lt, %[[C1]], %[[THREE:.*]] : si32, si32
# LOGIC-NEXT: cf.cond_br %[[L1]], ^[[NEXT:.*]], ^[[CH:.*]](%[[L1]] : i1)
# LOGIC: ^[[NEXT]]:
# LOGIC-NEXT: %[[C2:.*]] = call @twice_int32(%[[B]])
# LOGIC-NEXT: pydev.cmp lt, %[[THREE]], %[[C2]] : si32, si32
# A constant condition selects its branch at compile time.
# LOGIC: %[[K:.*]] = pydev.constant 7.000000e+00 : f32
# LOGIC: pydev.array_store %[[K]], %[[OUT]]
@device.func
def twice(x):
    return 2 * x


@device.kernel
def logic(out, a, b):
    out[0] = a > 0 and b > 0
    out[1] = a or 1.5
    out[2] = a if a > b else b
    out[3] = twice(a) < 3 < twice(b)
    out[4] = 7 if N > 16 else 8
    out[5] = not (a and b)


# Tuples: packing, unpacking (also a swap), constant indices, tuple
# arguments, tuples of module constants.
# TUPLE-LABEL: func.func @tuples
# TUPLE-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[A:.*]]: si32, %[[X:.*]]: f32, %[[T:.*]]: !pydev.tuple<si32, f64>)
# TUPLE: %[[P:.*]] = pydev.tuple_create(%[[A]], %[[X]], %{{.*}}) : (si32, f32, f32) -> !pydev.tuple<si32, f32, f32>
# TUPLE: %[[AX:.*]] = pydev.add %[[A]], %[[X]] : si32, f32 -> f32
# TUPLE: %[[SWAP:.*]] = pydev.sub %[[X]], %[[A]] : f32, si32 -> f32
# TUPLE: %[[T0:.*]] = pydev.tuple_extract %[[T]][0] : <si32, f64> -> si32
# TUPLE-NEXT: %[[T1:.*]] = pydev.tuple_extract %[[T]][1] : <si32, f64> -> f64
# TUPLE-NEXT: pydev.mul %[[T0]], %[[T1]] : si32, f64 -> f64
# TUPLE: %[[LAST:.*]] = pydev.tuple_extract %[[T]][1] : <si32, f64> -> f64
# TUPLE: %[[S1:.*]] = pydev.constant 6.400000e+01 : f32
# TUPLE: pydev.array_store %[[S1]], %[[OUT]]
@device.kernel
def tuples(out, a, x, t):
    p = (a, x, 2.5)
    first, second, third = p
    out[0] = first + second
    a, x = x, a
    out[1] = a - x
    i, d = t
    out[2] = i * d
    out[3] = t[-1]
    out[4] = SHAPE[1]
    out[5] = len(p) + len(SHAPE)
    out[6] = p[2]


# Module constants are constant expressions: arithmetic on them folds, and
# a constant `if` keeps only the branch taken.
# CONST-LABEL: func.func @constants
# CONST-NOT: pydev.mul
# CONST: %[[A:.*]] = pydev.constant 8.000000e+01 : f32
# CONST: pydev.array_store %[[A]]
# CONST: %[[B:.*]] = pydev.constant 2.560000e+02 : f32
# CONST: pydev.array_store %[[B]]
# CONST-NOT: 9.900000e+01
# CONST: %[[C:.*]] = pydev.constant 1.000000e+00 : f32
# CONST: pydev.array_store %[[C]]
# CONST: %[[D:.*]] = pydev.constant 5.000000e+00 : f32
# CONST: pydev.array_store %[[D]]
@device.kernel
def constants(out):
    out[0] = N * SCALE
    out[1] = SHAPE[0] * SHAPE[1]
    if DEBUG:
        out[2] = 99
    if NAME == "pydev":
        out[3] = 1
    out[4] = len(NAME) if False else 5


# A local def or lambda without parameters is called where it is used, in
# the caller's scope (late binding), here as a predicate.
# CLOSURE-LABEL: func.func @closures
# CLOSURE-SAME: (%[[OUT:.*]]: !pydev.array<si32, 1>, %[[A:.*]]: si32, %[[B:.*]]: si32)
# CLOSURE: %[[P:.*]] = pydev.cmp gt, %[[A]], %[[B]] : si32, si32
# CLOSURE-NEXT: pydev.syncthreads_count %[[P]] : si32
# CLOSURE: %[[B2:.*]] = pydev.add %[[B]], %{{.*}} : si32, si32 -> si32
# CLOSURE: %[[P2:.*]] = pydev.cmp gt, %[[A]], %[[B2]] : si32, si32
# CLOSURE-NEXT: pydev.syncthreads_and %[[P2]] : i1
# CLOSURE: %[[L:.*]] = pydev.cmp eq, %[[A]], %{{.*}} : si32, si32
# CLOSURE-NEXT: pydev.syncthreads_or %[[L]] : i1
# CLOSURE: %[[DIRECT:.*]] = pydev.cmp gt, %[[A]], %[[B2]] : si32, si32
# CLOSURE-NEXT: pydev.constant 3 : si32
# CLOSURE-NEXT: pydev.cast %[[DIRECT]] : i1 to si32
@device.kernel
def closures(out, a, b):
    def bigger():
        return a > b
    out[0] = device.syncthreads_count(bigger)
    b = b + 1
    out[1] = device.syncthreads_and(bigger)
    out[2] = device.syncthreads_or(lambda: a == 0)
    out[3] = bigger()


# Augmented assignment: the operator with promotion, then rebinding (an
# array element is read, updated and stored).
# AUG-LABEL: func.func @augmented
# AUG-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[X:.*]]: f32, %[[I:.*]]: si32)
# AUG: %[[X1:.*]] = pydev.add %[[X]], %{{.*}} : f32, si32 -> f32
# AUG: %[[X2:.*]] = pydev.sub %[[X1]], %{{.*}} : f32, f32 -> f32
# AUG: %[[X3:.*]] = pydev.mul %[[X2]], %{{.*}} : f32, si32 -> f32
# AUG: %[[X4:.*]] = pydev.truediv %[[X3]], %{{.*}} : f32, si32 -> f32
# AUG: %[[X5:.*]] = pydev.floordiv %[[X4]], %{{.*}} : f32, si32 -> f32
# AUG: %[[X6:.*]] = pydev.mod %[[X5]], %{{.*}} : f32, si32 -> f32
# AUG: %[[X7:.*]] = pydev.pow %[[X6]], %{{.*}} : f32, si32 -> f32
# AUG: %[[I1:.*]] = pydev.lshift %[[I]], %{{.*}} : si32, si32 -> si32
# AUG: %[[I2:.*]] = pydev.rshift %[[I1]], %{{.*}} : si32, si32 -> si32
# AUG: %[[I3:.*]] = pydev.and %[[I2]], %{{.*}} : si32, si32 -> si32
# AUG: %[[I4:.*]] = pydev.or %[[I3]], %{{.*}} : si32, si32 -> si32
# AUG: %[[I5:.*]] = pydev.xor %[[I4]], %{{.*}} : si32, si32 -> si32
# AUG: pydev.add %[[X7]], %[[I5]] : f32, si32 -> f32
# AUG: %[[OLD:.*]] = pydev.array_load %[[OUT]][%[[IDX:.*]]] : <f32, 1>, si64 -> f32
# AUG-NEXT: pydev.constant 1 : si32
# AUG-NEXT: %[[NEW:.*]] = pydev.add %[[OLD]], %{{.*}} : f32, si32 -> f32
# AUG-NEXT: pydev.array_store %[[NEW]], %[[OUT]][%[[IDX]]] : f32, <f32, 1>, si64
@device.kernel
def augmented(out, x, i):
    x += 1
    x -= 2.0
    x *= 3
    x /= 4
    x //= 1
    x %= 7
    x **= 2
    i <<= 1
    i >>= 1
    i &= 3
    i |= 8
    i ^= 1
    out[0] = x + i
    out[i] += 1
