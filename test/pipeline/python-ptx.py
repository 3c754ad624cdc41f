# Python source to PTX through pydevc and the whole cuda pipeline, assembled
# by ptxas.
# REQUIRES: ptxas
# RUN: pydevc %S/../samples/saxpy.py --kernel saxpy --signature 'float32, float32[::1], float32[::1], float32[::1]' -o %t.ptx
# RUN: FileCheck %s --input-file=%t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: pydevc %S/../samples/saxpy.py --kernel saxpy --signature 'float32, float32[::1], float32[::1], float32[::1]' --line-info --fast-math | FileCheck %s --check-prefix=LINES
# RUN: pydevc %s --kernel histogram --signature 'uint32[::1], readonly int32[::1]' -o %t.hist.ptx
# RUN: FileCheck %s --check-prefix=HIST --input-file=%t.hist.ptx
# RUN: ptxas -arch=sm_90 %t.hist.ptx -o %t.hist.cubin

# CHECK: .target sm_90
# CHECK-LABEL: .visible .entry saxpy(
# CHECK-NEXT: .param .f32 saxpy_param_0,
# CHECK-NEXT: .param .align 8 .b8 saxpy_param_1[24],
# CHECK: mov.u32 {{.*}}%nctaid.x
# CHECK: fma.rn.f32
# CHECK: st.global.b32

# LINES: .loc [[FILE:[0-9]+]] 8 13
# LINES: .file [[FILE]] "{{.*}}saxpy.py"

# HIST-LABEL: .visible .entry histogram(
# HIST: red.global.add.u32
# HIST: atom.acq_rel.sys.global.max.u32

import cuda.device as device


@device.kernel
def histogram(bins, data):
    i = device.tid(1)
    if i < data.size:
        b = data[i] % bins.size
        device.atomic_ref(bins, b).add(1, memory="relaxed", scope="device")
        device.atomic_ref(bins, 0).max(device.uint32(i), memory="acq_rel")
