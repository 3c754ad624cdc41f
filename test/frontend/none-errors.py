# Errors of None in device code (none.py).
# RUN: not pydevc %s --kernel hint_not_none --signature 'int32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=HINT-NONE
# RUN: not pydevc %s --kernel none_for_int --signature 'int32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NONE-FOR-INT
# RUN: not pydevc %s --kernel array_eq_none --signature 'int32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ARRAY-EQ
# RUN: not pydevc %s --kernel none_order --signature 'int32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ORDER
import cuda.device as device


@device.func
def only_none(a: None):
    return 1


# A None hint is NoneType: any other argument breaks it.
# HINT-NONE: {{.*}}none-errors.py:[[@LINE-5]]:18: error: parameter 'a' is annotated None but is called with int32
# HINT-NONE: help: pass None
@device.kernel
def hint_not_none(out):
    out[0] = only_none(3)


@device.func
def only_int(a: int):
    return a


# And None does not match another hint.
# NONE-FOR-INT: {{.*}}none-errors.py:[[@LINE-5]]:17: error: parameter 'a' is annotated int32 but is called with None
@device.kernel
def none_for_int(out):
    out[0] = only_int(None)


# NumPy compares an array with None element-wise: not in device code.
# ARRAY-EQ: {{.*}}none-errors.py:[[@LINE+4]]:19: error: a value of type int32[::1] cannot be compared with None in device code
# ARRAY-EQ: help: test for None with 'is None'
@device.kernel
def array_eq_none(out):
    out[0] = 1 if out == None else 0  # noqa: E711


# None has no order.
# ORDER: {{.*}}none-errors.py:[[@LINE+3]]:19: error: comparison needs numbers, got None
@device.kernel
def none_order(out):
    out[0] = 1 if None < out[0] else 0
