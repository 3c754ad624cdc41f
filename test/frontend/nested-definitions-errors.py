# pydevc compiles functions of the file's top level (it has no Python
# process to ask where a nested definition is); a nested one is named with
# its qualified name at its own line, never at 1:1 of the file.
# RUN: not pydevc %s --kernel scale --signature 'float32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s

import cuda.device as device


def make_scale(k):
    @device.kernel
    # CHECK: {{.*}}nested-definitions-errors.py:[[@LINE+1]]:9: error: 'make_scale.<locals>.scale' is not at the top level of {{.*}}nested-definitions-errors.py: compile it from Python (pydev.compile or a launch), which finds nested definitions
    def scale(out, a):
        i = device.tid(1)
        out[i] = a[i] * k

    return scale
