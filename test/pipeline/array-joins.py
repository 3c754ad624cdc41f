# Arrays joined at control flow through pydevc and the whole cuda pipeline,
# assembled by ptxas: a local a branch rebinds (a block argument of array
# type, or an arith.select of arrays once canonicalize folds the branch) and
# buffers swapped in a loop carry the descriptor (pydev-lower-arrays).
# REQUIRES: ptxas
# RUN: pydevc %s --kernel branch_join --signature 'float32[::1], float32[::1], float32[::1], int32' -o %t.branch.ptx
# RUN: FileCheck %s --check-prefix=BRANCH --input-file=%t.branch.ptx
# RUN: ptxas -arch=sm_90 %t.branch.ptx -o %t.branch.cubin
# RUN: pydevc %s --kernel loop_swap --signature 'float32[::1], float32[:, :], float32[:, :], int32' -o %t.loop.ptx
# RUN: FileCheck %s --check-prefix=LOOP --input-file=%t.loop.ptx
# RUN: ptxas -arch=sm_90 %t.loop.ptx -o %t.loop.cubin
# RUN: pydevc %s --kernel loop_swap --signature 'float32[::1], float32[:, :], float32[:, :], int32' --emit llvm | FileCheck %s --check-prefix=LLVM

# BRANCH-LABEL: .visible .entry branch_join(
# BRANCH: selp.b64
# BRANCH: ld.global.b32

# LOOP-LABEL: .visible .entry loop_swap(
# LOOP: ld.global.b32
# LOOP: st.global.b32

# LLVM-LABEL: llvm.func @loop_swap
# LLVM-NOT: pydev.array
# LLVM: ^bb{{[0-9]+}}({{.*}}!llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>, {{.*}}!llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>

import cuda.device as device


@device.kernel
def branch_join(out, a, b, flag):
    i = device.tid(1)
    x = a
    if flag:
        x = b
    if i < out.size:
        out[i] = x[i]


@device.kernel
def loop_swap(out, u, v, n):
    i = device.tid(1)
    for _ in range(n):
        u, v = v, u
        u[i, 0] = v[i, 0] + 1.0
    out[i] = u[i, 0]
