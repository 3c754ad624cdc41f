# --line-info: the PTX carries .file/.loc of the Python source for NVIDIA's
# tools and nothing else changes: no ", debug" on .target (ptxas would
# compile unoptimised debug code), no DWARF sections, no location from the
# IR text ("-"), and the PTX without its .loc/.file lines (and the labels
# the line table uses) is the PTX compiled without line info.
# REQUIRES: ptxas
# RUN: pydevc %s --kernel scale --signature 'float32[::1], float32[::1], int32' --line-info -o %t.lines.ptx
# RUN: pydevc %s --kernel scale --signature 'float32[::1], float32[::1], int32' -o %t.plain.ptx
# RUN: FileCheck %s --input-file=%t.lines.ptx
# RUN: FileCheck %s --check-prefix=PLAIN --input-file=%t.plain.ptx
# RUN: grep -v -E '^[[:space:]]*[.](loc|file)[[:space:]]|^[$]L__(func_begin|func_end|tmp)[0-9]+:$|[.]section[[:space:]]+[.]debug_macinfo' %t.lines.ptx > %t.stripped.ptx
# RUN: diff %t.stripped.ptx %t.plain.ptx
# RUN: ptxas -arch=sm_90 -lineinfo %t.lines.ptx -o %t.lines.cubin
# RUN: pydevc %s --kernel scale --signature 'float32[::1], float32[::1], int32' --target sm_70 --line-info -o %t.lines70.ptx
# RUN: ptxas -arch=sm_70 -lineinfo %t.lines70.ptx -o %t.lines70.cubin

# CHECK: .target sm_90{{$}}
# CHECK-NOT: debug_info

# PLAIN-NOT: .loc
# PLAIN-NOT: .file

import cuda.device as device


@device.kernel
def scale(out, x, n):
    i = device.tid(1)  # CHECK: .loc [[F:[0-9]+]] [[@LINE]] {{[0-9]+}}
    if i < n:
        v = x[i] * 2.0  # CHECK: .loc [[F]] [[@LINE]] {{[0-9]+}}
        if v > 1.0:
            v = v - 1.0
        out[i] = v  # CHECK: .loc [[F]] [[@LINE]] {{[0-9]+}}


# (after the kernel's lines: FileCheck reads checks in file order)
# CHECK-NOT: .file {{[0-9]+}} "-"
# CHECK: .file [[F]] "{{.*}}lineinfo.py"
# CHECK-NOT: .file {{[0-9]+}} "-"
# CHECK-NOT: debug_info
