# Target specialization in the frontend (spec: Target Specialization: a
# False constant target(...) condition's constructs need not be usable).
# With the compile target known, `if target(...)` lowers only the branch the
# target takes, like `#if __CUDA_ARCH__`: host-only Python in an is_host
# branch compiles for a GPU, and a branch for other architectures may use
# what this one lacks. The pydev.target op stays in the IR.
# RUN: pydevc %s --kernel k --signature 'float32[::1], float32[::1]' --target sm_90 --emit pydev | FileCheck %s --check-prefix=SM90
# RUN: pydevc %s --kernel k --signature 'float32[::1], float32[::1]' --target sm_90 -o %t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: not pydevc %s --kernel k --signature 'float32[::1], float32[::1]' --target sm_70 --emit pydev 2>&1 | FileCheck %s --check-prefix=SM70
# RUN: not pydevc %s --kernel k --signature 'float32[::1], float32[::1]' --target host --emit pydev 2>&1 | FileCheck %s --check-prefix=HOST
# REQUIRES: ptxas
import numpy as np

import cuda.device as device


# SM90-LABEL: func.func @scale_float32
# SM90: pydev.target <is_host>
# SM90-NOT: cf.cond_br
# SM90: pydev.mul
# SM90: return
@device.func
def scale(x):
    if device.target(device.is_host):
        return float(np.multiply(x, 2))
    else:
        return x * 2.0


# SM90-LABEL: func.func @k
# SM90: pydev.target <provides(sm_80)>
# SM90-NEXT: pydev.not
# SM90-NOT: undefined_on_old_gpus
# On sm_70 the branch is live, so its error is reported; on the host target
# the is_host branch is live and its host-only Python cannot compile.
# SM70: target-branches.py:[[@LINE+8]]:22: error: name 'undefined_on_old_gpus' is not defined in device code
# HOST: target-branches.py:26:22: error: numpy.multiply is not supported in device code
@device.kernel
def k(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = scale(x[i])
        if not device.target(device.provides(device.sm80)):
            out[i] = undefined_on_old_gpus(x[i])  # noqa: F821
