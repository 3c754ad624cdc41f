# Errors of target specialization and of device-only entities misused in
# device code (spec: Target Specialization, Kernel Functions).
# RUN: not pydevc %s --kernel runtime_desc --signature 'int32[:], bool' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUN: not pydevc %s --kernel bool_desc --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=BOOL
# RUN: not pydevc %s --kernel unknown_sm --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-SM
# RUN: not pydevc %s --kernel number_sm --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NUMBER-SM
# RUN: not pydevc %s --kernel plus --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=PLUS
# RUN: not pydevc %s --kernel target_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel no_desc --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not pydevc %s --kernel launches --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LAUNCH
# RUN: not pydevc %s --kernel calls_kernel --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CALL-KERNEL
# RUN: not pydevc %s --kernel decorator_call --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DECORATOR
# RUN: not pydevc %s --kernel plus --signature 'int32[:]' --target sm_60 2>&1 | FileCheck %s --check-prefix=CHIP
# CHIP: pydevc: error: unknown target 'sm_60': expected host or one of sm_70, {{.*}}, sm_121

import cuda.device as device


# RUNTIME: {{.*}}target-errors.py:[[@LINE+4]]:22: error: device.target() takes a constant target description, got a value of type bool
# RUNTIME: help: e.g. target(is_host) or target(provides(sm80) & ~is_exactly(sm90))
@device.kernel
def runtime_desc(out, flag):
    if device.target(flag):
        out[0] = 1


# BOOL: {{.*}}target-errors.py:[[@LINE+3]]:22: error: device.target() takes a constant target description, got a value of type bool
@device.kernel
def bool_desc(out):
    if device.target(True):
        out[0] = 1


# UNKNOWN-SM: {{.*}}target-errors.py:[[@LINE+4]]:38: error: cuda.device has no architecture 'sm91'
# UNKNOWN-SM: help: the SM selectors are sm50, {{.*}}, sm90, sm100,
@device.kernel
def unknown_sm(out):
    if device.target(device.provides(device.sm91)):
        out[0] = 1


# NUMBER-SM: {{.*}}target-errors.py:[[@LINE+4]]:40: error: device.is_exactly() takes an SM selector
# NUMBER-SM: help: e.g. device.sm80
@device.kernel
def number_sm(out):
    if device.target(device.is_exactly(90)):
        out[0] = 1


# PLUS: {{.*}}target-errors.py:[[@LINE+3]]:22: error: target descriptions combine only with &, | and ~
@device.kernel
def plus(out):
    if device.target(device.is_host + device.is_device):
        out[0] = 1


# KEYWORD: {{.*}}target-errors.py:[[@LINE+4]]:43: error: device.target() has no keyword argument 'arch'
# KEYWORD: help: the parameters of device.target() are 'desc'
@device.kernel
def target_kw(out):
    if device.target(desc=device.is_host, arch=90):
        out[0] = 1


# MISSING: {{.*}}target-errors.py:[[@LINE+3]]:8: error: device.target() is missing argument 'desc'
@device.kernel
def no_desc(out):
    if device.target():
        out[0] = 1


# LAUNCH: {{.*}}target-errors.py:[[@LINE+4]]:5: error: device.launch cannot be called in device code
# LAUNCH: help: launch kernels from host code
@device.kernel
def launches(out):
    device.launch(bool_desc, out, grid=1, block=32, stream=0)


# CALL-KERNEL: {{.*}}target-errors.py:[[@LINE+4]]:5: error: 'bool_desc' is a kernel and cannot be called from device code
# CALL-KERNEL: help: launch kernels from the host with device.launch
@device.kernel
def calls_kernel(out):
    bool_desc(out)


# DECORATOR: {{.*}}target-errors.py:[[@LINE+4]]:9: error: @device.kernel is a decorator, not a function of device code
# DECORATOR: help: apply it to a definition at module level
@device.kernel
def decorator_call(out):
    k = device.kernel(bool_desc)
