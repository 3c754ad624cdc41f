# Stage nvvm-ir (runtime/src/nvvm_ir.rs): the cuda pipeline's LLVM 22 module
# written as NVVM IR 2.0 text (LLVM 7 syntax) for libNVVM, which makes the
# kernel's LTO-IR (stage "ltoir"). One case per rewrite of the writer's
# contract, then what it refuses. python/tests/test_nvvm_ir.py runs libNVVM
# on every kernel of the lit suite and compares prototypes with pydev's PTX.
# RUN: pydevc %S/../gpu/kernels.py --kernel block_sum --signature 'float32[::1], readonly float32[::1]' --emit nvvm-ir | FileCheck %s --check-prefix=SUM
# RUN: pydevc %s --kernel votes --signature 'int32[::1], readonly float32[::1]' --emit nvvm-ir | FileCheck %s --check-prefix=VOTES
# RUN: pydevc %s --kernel scale --signature 'Cplx[::1], Cplx, float32' --emit nvvm-ir | FileCheck %s --check-prefix=BYVAL
# RUN: pydevc %s --kernel halves --signature 'bfloat16[::1], bfloat16[::1]' --emit nvvm-ir | FileCheck %s --check-prefixes=BF16,BF16-90
# RUN: pydevc %s --kernel halves --signature 'bfloat16[::1], bfloat16[::1]' --emit nvvm-ir --target sm_70 | FileCheck %s --check-prefixes=BF16,BF16-70
# RUN: pydevc %S/../gpu/kernels.py --kernel block_sum --signature 'float32[::1], readonly float32[::1]' --emit nvvm-ir --target sm_70 | FileCheck %s --check-prefix=SUM
# RUN: not pydevc %S/../gpu/kernels.py --kernel block_sum --signature 'float32[::1], readonly float32[::1]' --emit nvvm-ir --target host 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not pydevc %s --kernel bf16_interop --signature 'bfloat16' --emit nvvm-ir 2>&1 | FileCheck %s --check-prefix=CABI

# test/gpu/kernels.py's block_sum: typed pointers (bitcasts around each access), shared memory as a global,
# barrier0, the kernel as annotation and in @llvm.used, libNVVM's layout.
# SUM: target datalayout = "e-p:64:64:64-
# SUM: target triple = "nvptx64-nvidia-cuda"
# SUM: @__pydev_shared_{{[0-9]+}} = internal addrspace(3) global [256 x float] undef, align 4
# SUM: @llvm.used = appending global [1 x i8*] [i8* bitcast (void ({ i8 addrspace(1)*, [1 x i64], [1 x i64] }, { i8 addrspace(1)*, [1 x i64], [1 x i64] })* @block_sum to i8*)], section "llvm.metadata"
# SUM-LABEL: define void @block_sum({ i8 addrspace(1)*, [1 x i64], [1 x i64] } %a0, { i8 addrspace(1)*, [1 x i64], [1 x i64] } %a1) {
# SUM: [[P:%t[0-9]+]] = bitcast i8 addrspace(1)* %v{{[0-9]+}} to float addrspace(1)*
# SUM-NEXT: [[G:%t[0-9]+]] = getelementptr float, float addrspace(1)* [[P]], i64 %v{{[0-9]+}}
# SUM-NEXT: [[V:%v[0-9]+]] = bitcast float addrspace(1)* [[G]] to i8 addrspace(1)*
# SUM-NEXT: [[T:%t[0-9]+]] = bitcast i8 addrspace(1)* [[V]] to float addrspace(1)*
# SUM-NEXT: load float, float addrspace(1)* [[T]], align 4
# SUM: getelementptr float, float addrspace(3)* bitcast (i8 addrspace(3)* bitcast ([256 x float] addrspace(3)* @__pydev_shared_{{[0-9]+}} to i8 addrspace(3)*) to float addrspace(3)*)
# SUM: call void @llvm.nvvm.barrier0()
# SUM-NOT: {{[ (]ptr[ ,)]}}
# SUM: declare void @llvm.nvvm.barrier0()
# SUM: !nvvm.annotations = !{!0}
# SUM-NEXT: !0 = !{void ({ i8 addrspace(1)*, [1 x i64], [1 x i64] }, { i8 addrspace(1)*, [1 x i64], [1 x i64] })* @block_sum, !"kernel", i32 1}
# SUM-NEXT: !nvvmir.version = !{!1}
# SUM-NEXT: !1 = !{i32 2, i32 0}

# syncthreads_count => barrier0.popc of the predicate widened to i32; an
# atomic max on a local array (a plain llvm.smax) => icmp + select
# (llvm.smax is newer than LLVM 7); the local array is an alloca.
# VOTES-LABEL: define void @votes(
# VOTES: [[A:%t[0-9]+]] = alloca i32, i64 2, align 4
# VOTES-NEXT: bitcast i32* [[A]] to i8*
# VOTES: [[W:%t[0-9]+]] = zext i1 %v{{[0-9]+}} to i32
# VOTES-NEXT: call i32 @llvm.nvvm.barrier0.popc(i32 [[W]])
# VOTES: [[C:%t[0-9]+]] = icmp sgt i32 %v{{[0-9]+}}, %v{{[0-9]+}}
# VOTES-NEXT: select i1 [[C]], i32
# VOTES-NOT: llvm.smax
# VOTES: declare i32 @llvm.nvvm.barrier0.popc(i32)

# A struct CUDA aligns beyond its members (align=16) is a byval pointer
# (what nvcc's NVVM IR passes), loaded at entry.
# BYVAL-LABEL: define void @scale({ i8 addrspace(1)*, [1 x i64], [1 x i64] } %a0, { float, float, [8 x i8] }* byval align 16 %a1.p, float %a2) {
# BYVAL-NEXT: b0:
# BYVAL-NEXT: %a1 = load { float, float, [8 x i8] }, { float, float, [8 x i8] }* %a1.p, align 16

# bfloat16 values are their bits: loads and stores of i16, arithmetic in
# float, rounding to nearest even by cvt.rn.bf16.f32 from sm_80 on (in
# integer code before), negation on the sign bit.
# BF16-LABEL: define void @halves(
# BF16: load i16, i16 addrspace(1)*
# BF16: zext i16 %v{{[0-9]+}} to i32
# BF16: zext i16 16128 to i32
# BF16: fmul contract float
# BF16-90: call i16 asm "cvt.rn.bf16.f32 $0, $1;", "=h,f"(float %t{{[0-9]+}})
# BF16-70: add i32 %t{{[0-9]+}}, 32767
# BF16-70-NOT: asm
# BF16: xor i16 %v{{[0-9]+}}, -32768
# BF16: store i16 %v{{[0-9]+}}, i16 addrspace(1)*
# BF16-NOT: bfloat

# HOST: stage 'nvvm-ir' needs a cuda target (sm_XX), not host
# CABI: error: stage 'nvvm-ir': interoperable function 'bf16_interop' takes or returns bfloat16, whose C ABI (a struct) NVVM IR here does not give it

import cuda.device as device


@device.kernel
def votes(counts, x):
    i = device.tid(1)
    positive = x[i] > 0.0
    mine = device.local_array(2, device.int32)
    mine[0] = counts[i]
    n = device.syncthreads_count(lambda: positive)
    device.atomic_ref(mine, 0).max(n, memory="relaxed", scope="thread")
    counts[i] = mine[0]


@device.struct(align=16)
class Cplx:
    re: device.float32
    im: device.float32


@device.kernel
def scale(out, c, s):
    i = device.tid(1)
    if i < out.size:
        out[i] = Cplx(c.re * s, c.im * s)


@device.kernel
def halves(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = -(x[i] * device.bfloat16(0.5))


@device.func(interop=True)
def bf16_interop(v: device.bfloat16) -> device.bfloat16:
    return v
