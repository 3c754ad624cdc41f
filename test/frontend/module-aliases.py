# Module-level names bound to cuda.device entities (dtypes, target
# descriptions, struct classes) are usable in device code: reading one
# evaluates its expression there.
# RUN: pydevc %s --kernel k --signature 'float32[::1]' --emit pydev | FileCheck %s
# CHECK-LABEL: func.func @k
# CHECK: pydev.shared_array shape [32] order "C" : <f32, 1, shared, c>
# CHECK: pydev.cast %{{.*}} : ui32 to f32
# CHECK: pydev.target <provides(sm_80)>
import cuda.device as device

DT = device.float32
NEWER = device.provides(device.sm80)
Float = DT


@device.kernel
def k(out):
    buf = device.shared_array(32, DT)
    i = device.thread_idx.x
    buf[i] = Float(i)
    if device.target(NEWER):
        out[i] = buf[i] * 2
    else:
        out[i] = buf[i]
