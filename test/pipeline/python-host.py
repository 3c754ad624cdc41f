# Python source to host LLVM through pydevc and the host pipeline.
# RUN: pydevc %S/../samples/saxpy.py --kernel saxpy --signature 'float32, float32[::1], float32[::1], float32[::1]' --target host --emit llvm | FileCheck %s
# RUN: pydevc %S/../samples/saxpy.py --kernel saxpy --signature 'float32, float32[::1], float32[::1], float32[::1]' --target host --emit llvm-ir | FileCheck %s --check-prefix=IR
# RUN: pydevc %s --kernel block_total --signature 'float32[::1], readonly float32[::1]' --target host --emit llvm | FileCheck %s --check-prefix=SYNC
# RUN: not pydevc %s --kernel block_total --signature 'float32[::1], readonly float32[::1]' --target host --emit ptx 2>&1 | FileCheck %s --check-prefix=NOPTX

# The kernel keeps its Python name and ABI, plus the thread context; the
# block loop runs its threads; no coroutines are needed without barriers.
# CHECK: module attributes {pydev.host_kernels = {saxpy = array<i64: 4, 24, 24, 24>}
# CHECK-NOT: pydev.host_fibers
# CHECK: llvm.func @saxpy(%{{.*}}: f32, %{{.*}}: !llvm.struct<(ptr, array<1 x i64>, array<1 x i64>)>, {{.*}}, %{{.*}}: !llvm.ptr {llvm.noalias})
# CHECK: llvm.func @__pydev_block_saxpy(

# IR: define void @saxpy(float %0, { ptr, [1 x i64], [1 x i64] } %1,
# IR: define void @__pydev_block_saxpy(

# Barriers: shared memory from the runtime; the kernel is split at its
# barrier into a step function that the block loop runs for every thread.
# SYNC: module attributes {pydev.host_fibers, pydev.host_frames = {block_total = 80 : i64}, pydev.host_kernels = {block_total = array<i64: 24, 24>}
# SYNC-SAME: pydev.host_shared_bytes = 1024 : i64
# SYNC: llvm.func @block_total({{.*}}, %{{.*}}: i32) -> i32
# SYNC-NOT: llvm.call @pydev_rt_barrier(
# SYNC: llvm.func @__pydev_block_block_total(
# SYNC: llvm.call @block_total(

# NOPTX: stage 'ptx' needs a cuda target (sm_XX), not host
import cuda.device as device


@device.kernel
def block_total(out, x):
    buf = device.shared_array(256, device.float32)
    t = device.thread_idx.x
    buf[t] = x[device.tid(1)]
    device.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(256):
            s += buf[k]
        out[device.block_idx.x] = s
