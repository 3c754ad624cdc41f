# A module-level name bound to a host-only expression, or to itself, is an
# error where device code reads it, pointing at the module-level expression.
# RUN: not pydevc %s --kernel host_value --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=HOST
# HOST: module-aliases-errors.py:10:10: error: numpy.zeros is not supported in device code
# RUN: not pydevc %s --kernel cycle --signature 'float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CYCLE
# CYCLE: module-aliases-errors.py:11:8: error: module-level name 'LOOP' is defined in terms of itself
import cuda.device as device
import numpy as np

BUFFER = np.zeros(3)
LOOP = LOOP


@device.kernel
def host_value(out):
    out[0] = BUFFER[0]


@device.kernel
def cycle(out):
    out[0] = LOOP
