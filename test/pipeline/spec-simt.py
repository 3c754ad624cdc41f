# Target specialization, thread positioning, memory, memory orders and thread
# scopes, atomics, block and warp synchronization and numeric intrinsics (spec
# sections of those names), compiled to PTX: the kernels of
# python/tests/conformance_kernels.py (run on the host target against NumPy by
# python/tests/test_conformance_host.py) and test/Inputs/host_semantics.py,
# FileChecked for sm_90 and assembled by ptxas for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' -o %t.targets.ptx
# RUN: FileCheck %s --check-prefix=TARGETS --input-file=%t.targets.ptx
# RUN: ptxas -arch=sm_90 %t.targets.ptx -o %t.targets.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' --target sm_70 -o %t.targets.70.ptx
# RUN: ptxas -arch=sm_70 %t.targets.70.ptx -o %t.targets.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' --target sm_80 -o %t.targets.80.ptx
# RUN: ptxas -arch=sm_80 %t.targets.80.ptx -o %t.targets.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' -o %t.target-false.ptx
# RUN: FileCheck %s --check-prefix=TARGET-FALSE --input-file=%t.target-false.ptx
# RUN: ptxas -arch=sm_90 %t.target-false.ptx -o %t.target-false.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' --target sm_70 -o %t.target-false.70.ptx
# RUN: ptxas -arch=sm_70 %t.target-false.70.ptx -o %t.target-false.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' --target sm_80 -o %t.target-false.80.ptx
# RUN: ptxas -arch=sm_80 %t.target-false.80.ptx -o %t.target-false.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel positions_3d --signature 'int32[:, :, ::1]' -o %t.positions.ptx
# RUN: FileCheck %s --check-prefix=POSITIONS --input-file=%t.positions.ptx
# RUN: ptxas -arch=sm_90 %t.positions.ptx -o %t.positions.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel positions_3d --signature 'int32[:, :, ::1]' --target sm_70 -o %t.positions.70.ptx
# RUN: ptxas -arch=sm_70 %t.positions.70.ptx -o %t.positions.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel positions_3d --signature 'int32[:, :, ::1]' --target sm_80 -o %t.positions.80.ptx
# RUN: ptxas -arch=sm_80 %t.positions.80.ptx -o %t.positions.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' -o %t.dynamic-shared.ptx
# RUN: FileCheck %s --check-prefix=DYNAMIC-SHARED --input-file=%t.dynamic-shared.ptx
# RUN: ptxas -arch=sm_90 %t.dynamic-shared.ptx -o %t.dynamic-shared.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_70 -o %t.dynamic-shared.70.ptx
# RUN: ptxas -arch=sm_70 %t.dynamic-shared.70.ptx -o %t.dynamic-shared.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_80 -o %t.dynamic-shared.80.ptx
# RUN: ptxas -arch=sm_80 %t.dynamic-shared.80.ptx -o %t.dynamic-shared.80.cubin
# RUN: FileCheck %s --check-prefix=DYNAMIC-SHARED-SYM --input-file=%t.dynamic-shared.ptx
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' -o %t.consume.ptx
# RUN: FileCheck %s --check-prefix=CONSUME --input-file=%t.consume.ptx
# RUN: ptxas -arch=sm_90 %t.consume.ptx -o %t.consume.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_70 -o %t.consume.70.ptx
# RUN: ptxas -arch=sm_70 %t.consume.70.ptx -o %t.consume.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_80 -o %t.consume.80.ptx
# RUN: ptxas -arch=sm_80 %t.consume.80.ptx -o %t.consume.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' -o %t.scopes.ptx
# RUN: FileCheck %s --check-prefix=SCOPES --input-file=%t.scopes.ptx
# RUN: ptxas -arch=sm_90 %t.scopes.ptx -o %t.scopes.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' --target sm_70 -o %t.scopes.70.ptx
# RUN: ptxas -arch=sm_70 %t.scopes.70.ptx -o %t.scopes.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' --target sm_80 -o %t.scopes.80.ptx
# RUN: ptxas -arch=sm_80 %t.scopes.80.ptx -o %t.scopes.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' -o %t.load.ptx
# RUN: FileCheck %s --check-prefix=LOAD --input-file=%t.load.ptx
# RUN: ptxas -arch=sm_90 %t.load.ptx -o %t.load.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_70 -o %t.load.70.ptx
# RUN: ptxas -arch=sm_70 %t.load.70.ptx -o %t.load.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_80 -o %t.load.80.ptx
# RUN: ptxas -arch=sm_80 %t.load.80.ptx -o %t.load.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel atomics --signature 'int32[::1], readonly int32[::1]' -o %t.rmw32.ptx
# RUN: FileCheck %s --check-prefix=RMW32 --input-file=%t.rmw32.ptx
# RUN: ptxas -arch=sm_90 %t.rmw32.ptx -o %t.rmw32.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel atomics --signature 'int32[::1], readonly int32[::1]' --target sm_70 -o %t.rmw32.70.ptx
# RUN: ptxas -arch=sm_70 %t.rmw32.70.ptx -o %t.rmw32.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel atomics --signature 'int32[::1], readonly int32[::1]' --target sm_80 -o %t.rmw32.80.ptx
# RUN: ptxas -arch=sm_80 %t.rmw32.80.ptx -o %t.rmw32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' -o %t.rmw64.ptx
# RUN: FileCheck %s --check-prefix=RMW64 --input-file=%t.rmw64.ptx
# RUN: ptxas -arch=sm_90 %t.rmw64.ptx -o %t.rmw64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' --target sm_70 -o %t.rmw64.70.ptx
# RUN: ptxas -arch=sm_70 %t.rmw64.70.ptx -o %t.rmw64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' --target sm_80 -o %t.rmw64.80.ptx
# RUN: ptxas -arch=sm_80 %t.rmw64.80.ptx -o %t.rmw64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' -o %t.small-exch.ptx
# RUN: FileCheck %s --check-prefix=SMALL-EXCH --input-file=%t.small-exch.ptx
# RUN: ptxas -arch=sm_90 %t.small-exch.ptx -o %t.small-exch.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' --target sm_70 -o %t.small-exch.70.ptx
# RUN: ptxas -arch=sm_70 %t.small-exch.70.ptx -o %t.small-exch.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' --target sm_80 -o %t.small-exch.80.ptx
# RUN: ptxas -arch=sm_80 %t.small-exch.80.ptx -o %t.small-exch.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' -o %t.small-cas.ptx
# RUN: FileCheck %s --check-prefix=SMALL-CAS --input-file=%t.small-cas.ptx
# RUN: ptxas -arch=sm_90 %t.small-cas.ptx -o %t.small-cas.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' --target sm_70 -o %t.small-cas.70.ptx
# RUN: ptxas -arch=sm_70 %t.small-cas.70.ptx -o %t.small-cas.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' --target sm_80 -o %t.small-cas.80.ptx
# RUN: ptxas -arch=sm_80 %t.small-cas.80.ptx -o %t.small-cas.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' -o %t.notify.ptx
# RUN: FileCheck %s --check-prefix=NOTIFY --input-file=%t.notify.ptx
# RUN: ptxas -arch=sm_90 %t.notify.ptx -o %t.notify.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' --target sm_70 -o %t.notify.70.ptx
# RUN: ptxas -arch=sm_70 %t.notify.70.ptx -o %t.notify.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' --target sm_80 -o %t.notify.80.ptx
# RUN: ptxas -arch=sm_80 %t.notify.80.ptx -o %t.notify.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' -o %t.fence.ptx
# RUN: FileCheck %s --check-prefix=FENCE --input-file=%t.fence.ptx
# RUN: ptxas -arch=sm_90 %t.fence.ptx -o %t.fence.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' --target sm_70 -o %t.fence.70.ptx
# RUN: ptxas -arch=sm_70 %t.fence.70.ptx -o %t.fence.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' --target sm_80 -o %t.fence.80.ptx
# RUN: ptxas -arch=sm_80 %t.fence.80.ptx -o %t.fence.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' -o %t.warp.ptx
# RUN: FileCheck %s --check-prefix=WARP --input-file=%t.warp.ptx
# RUN: ptxas -arch=sm_90 %t.warp.ptx -o %t.warp.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' --target sm_70 -o %t.warp.70.ptx
# RUN: ptxas -arch=sm_70 %t.warp.70.ptx -o %t.warp.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' --target sm_80 -o %t.warp.80.ptx
# RUN: ptxas -arch=sm_80 %t.warp.80.ptx -o %t.warp.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' -o %t.eq.ptx
# RUN: FileCheck %s --check-prefix=EQ --input-file=%t.eq.ptx
# RUN: ptxas -arch=sm_90 %t.eq.ptx -o %t.eq.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' --target sm_70 -o %t.eq.70.ptx
# RUN: ptxas -arch=sm_70 %t.eq.70.ptx -o %t.eq.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' --target sm_80 -o %t.eq.80.ptx
# RUN: ptxas -arch=sm_80 %t.eq.80.ptx -o %t.eq.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' -o %t.mask.ptx
# RUN: FileCheck %s --check-prefix=MASK --input-file=%t.mask.ptx
# RUN: ptxas -arch=sm_90 %t.mask.ptx -o %t.mask.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' --target sm_70 -o %t.mask.70.ptx
# RUN: ptxas -arch=sm_70 %t.mask.70.ptx -o %t.mask.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' --target sm_80 -o %t.mask.80.ptx
# RUN: ptxas -arch=sm_80 %t.mask.80.ptx -o %t.mask.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' -o %t.bits32.ptx
# RUN: FileCheck %s --check-prefix=BITS32 --input-file=%t.bits32.ptx
# RUN: ptxas -arch=sm_90 %t.bits32.ptx -o %t.bits32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' --target sm_70 -o %t.bits32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits32.70.ptx -o %t.bits32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' --target sm_80 -o %t.bits32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits32.80.ptx -o %t.bits32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int64[::1], int32[:, ::1], int64[::1]' -o %t.bits64.ptx
# RUN: FileCheck %s --check-prefix=BITS64 --input-file=%t.bits64.ptx
# RUN: ptxas -arch=sm_90 %t.bits64.ptx -o %t.bits64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int64[::1], int32[:, ::1], int64[::1]' --target sm_70 -o %t.bits64.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits64.70.ptx -o %t.bits64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int64[::1], int32[:, ::1], int64[::1]' --target sm_80 -o %t.bits64.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits64.80.ptx -o %t.bits64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' -o %t.float32.ptx
# RUN: FileCheck %s --check-prefix=FLOAT32 --input-file=%t.float32.ptx
# RUN: ptxas -arch=sm_90 %t.float32.ptx -o %t.float32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.float32.70.ptx
# RUN: ptxas -arch=sm_70 %t.float32.70.ptx -o %t.float32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.float32.80.ptx
# RUN: ptxas -arch=sm_80 %t.float32.80.ptx -o %t.float32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' -o %t.float64.ptx
# RUN: FileCheck %s --check-prefix=FLOAT64 --input-file=%t.float64.ptx
# RUN: ptxas -arch=sm_90 %t.float64.ptx -o %t.float64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' --target sm_70 -o %t.float64.70.ptx
# RUN: ptxas -arch=sm_70 %t.float64.70.ptx -o %t.float64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' --target sm_80 -o %t.float64.80.ptx
# RUN: ptxas -arch=sm_80 %t.float64.80.ptx -o %t.float64.80.cubin

# target(...) folds for sm_90: only stores of constants and of x remain (no branch).
# TARGETS-LABEL: .visible .entry targets(
# TARGETS-DAG: ld.param.b32
# TARGETS-DAG: st.global.b32

# The false branch of a constant target(...) is gone.
# TARGET-FALSE-LABEL: .visible .entry target_false_branch(
# TARGET-FALSE-DAG: st.global.b32

# Dim3 components (thread_idx, block_idx, block_dim) and lane_id.
# POSITIONS-LABEL: .visible .entry positions_3d(
# POSITIONS-DAG: %tid.x
# POSITIONS-DAG: %tid.y
# POSITIONS-DAG: %tid.z
# POSITIONS-DAG: %ctaid.z
# POSITIONS-DAG: %ntid.z
# POSITIONS-DAG: %laneid

# dynamic_shared_array(): the launch's dynamic shared bytes, sized by %dynamic_smem_size.
# DYNAMIC-SHARED-SYM-DAG: .extern .shared .align 16 .b8 __pydev_dynamic_shared[]
# DYNAMIC-SHARED-LABEL: .visible .entry dyn_reverse(
# DYNAMIC-SHARED-DAG: %dynamic_smem_size
# DYNAMIC-SHARED-DAG: bar.sync 	0

# memory='consume' is acquire (PTX has no consume).
# CONSUME-LABEL: .visible .entry consume_orders(
# CONSUME-DAG: ld.acquire.sys.global.b32
# CONSUME-DAG: ld.acquire.cta.global.b32
# CONSUME-DAG: atom.acquire.gpu.global.add.u32
# CONSUME-DAG: fence.acq_rel.sys

# scope='block' and 'thread' are .cta (thread: a local atomic on generic addressing).
# SCOPES-LABEL: .visible .entry block_scope(
# SCOPES-DAG: atom.relaxed.cta.shared.add.u32
# SCOPES-DAG: atom.acq_rel.cta.global.add.u32
# SCOPES-DAG: st.release.cta.global.b32
# SCOPES-DAG: fence.sc.cta
# SCOPES-DAG: atom.relaxed.cta.add.u32

# AtomicInterface.load with each order and scope.
# LOAD-LABEL: .visible .entry atomic_load(
# LOAD-DAG: fence.sc.sys
# LOAD-DAG: ld.acquire.sys.global.b64
# LOAD-DAG: ld.relaxed.sys.global.b64
# LOAD-DAG: ld.acquire.gpu.global.b64
# LOAD-DAG: ld.acquire.cta.global.b64

# add, max, min, xor, exch, cas with the default seq_cst/system: fence.sc.sys then .acquire.sys.
# RMW32-LABEL: .visible .entry atomics(
# RMW32-DAG: atom.acquire.sys.global.add.u32
# RMW32-DAG: atom.acquire.sys.global.max.s32
# RMW32-DAG: atom.acquire.sys.global.min.s32
# RMW32-DAG: atom.acquire.sys.global.xor.b32
# RMW32-DAG: atom.acquire.sys.global.exch.b32
# RMW32-DAG: atom.acquire.sys.global.cas.b32

# sub (an add of the negation), and_, or_, xor on 64 bits with their orders and scopes.
# RMW64-LABEL: .visible .entry rmw_ops(
# RMW64-DAG: neg.s64
# RMW64-DAG: atom.acquire.sys.global.add.u64
# RMW64-DAG: atom.acquire.sys.global.and.b64
# RMW64-DAG: atom.release.gpu.global.or.b64
# RMW64-DAG: atom.acq_rel.cta.global.xor.b64
# RMW64-DAG: atom.relaxed.sys.global.add.u64

# exch on int8: a CAS loop on the aligned 32-bit word holding the byte (PTX has no 8-bit atom).
# SMALL-EXCH-LABEL: .visible .entry small_exch(
# SMALL-EXCH-DAG: and.b64 %word, %rd{{[0-9]+}}, -4
# SMALL-EXCH-DAG: shl.b32 %mask, 0xFF, %sh
# SMALL-EXCH-DAG: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new

# cas on float16: the same loop on 16-bit lanes; a mismatch returns the current value.
# SMALL-CAS-LABEL: .visible .entry small_cas(
# SMALL-CAS-DAG: shl.b32 %mask, 0xFFFF, %sh
# SMALL-CAS-DAG: setp.ne.b32 %miss, %cur, %r{{[0-9]+}}
# SMALL-CAS-DAG: atom.acquire.sys.global.cas.b32

# wait polls with nanosleep; notify_one has nothing to do (the store releases).
# NOTIFY-LABEL: .visible .entry notify_one_handoff(
# NOTIFY-DAG: ld.acquire.gpu.global.b32
# NOTIFY-DAG: nanosleep.u32
# NOTIFY-DAG: st.release.gpu.global.b32

# threadfence with each order and scope.
# FENCE-LABEL: .visible .entry fence_message(
# FENCE-DAG: fence.acq_rel.gpu
# FENCE-DAG: fence.acq_rel.sys
# FENCE-DAG: fence.sc.sys
# FENCE-DAG: fence.acq_rel.cta
# FENCE-DAG: fence.sc.gpu

# Warp functions and the syncthreads_count/_and/_or barriers.
# WARP-LABEL: .visible .entry warp_ops(
# WARP-DAG: activemask.b32
# WARP-DAG: shfl.sync.bfly.b32
# WARP-DAG: shfl.sync.up.b32
# WARP-DAG: shfl.sync.idx.b32
# WARP-DAG: match.any.sync.b32
# WARP-DAG: match.all.sync.b32
# WARP-DAG: %lanemask_lt
# WARP-DAG: bar.warp.sync
# WARP-DAG: vote.sync.any.pred
# WARP-DAG: vote.sync.all.pred
# WARP-DAG: bar.red.popc.u32
# WARP-DAG: bar.red.and.pred
# WARP-DAG: bar.red.or.pred

# eq_sync is vote.sync.uni.
# EQ-LABEL: .visible .entry eq_votes(
# EQ-DAG: vote.sync.uni.pred

# WarpMask item reads and writes are bit operations.
# MASK-LABEL: .visible .entry mask_bits(
# MASK-DAG: shl.b32
# MASK-DAG: not.b32
# MASK-DAG: or.b32
# MASK-DAG: and.b32

# brev, clz, and ffs (popc of the bits below the lowest set bit) on 32 bits.
# BITS32-LABEL: .visible .entry bit_intrinsics(
# BITS32-DAG: brev.b32
# BITS32-DAG: clz.b32
# BITS32-DAG: popc.b32

# ... and on 64 bits.
# BITS64-LABEL: .visible .entry bit_intrinsics(
# BITS64-DAG: brev.b64
# BITS64-DAG: clz.b64
# BITS64-DAG: popc.b64

# fma is one fma.rn; cbrt is libdevice's, inlined (no call).
# FLOAT32-LABEL: .visible .entry float_intrinsics(
# FLOAT32-DAG: fma.rn.f32
# FLOAT32-DAG: lg2.approx.f32
# FLOAT32-DAG: ex2.approx.ftz.f32

# The same on float64.
# FLOAT64-LABEL: .visible .entry float_intrinsics(
# FLOAT64-DAG: fma.rn.f64
# FLOAT64-DAG: rcp.approx.ftz.f64

# target(...) for each architecture: is_device, is_exactly and provides
# with the real ordering; is_host false on every GPU.
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' --target sm_90 | FileCheck %s --check-prefix=T90
# T90-LABEL: .visible .entry targets(
# T90: st.global.b32 [%rd{{[0-9]+}}+4], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+8], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+20], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+24], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+28], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+44], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+52], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+56], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+60], 1065353216;
# T90-NEXT: st.global.b32 [%rd{{[0-9]+}}+64], %r{{[0-9]+}};
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' --target sm_80 | FileCheck %s --check-prefix=T80
# T80-LABEL: .visible .entry targets(
# T80: st.global.b32 [%rd{{[0-9]+}}+4], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+8], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+16], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+24], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+28], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+44], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+52], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+60], 1065353216;
# T80-NEXT: st.global.b32 [%rd{{[0-9]+}}+64], %r{{[0-9]+}};
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel targets --signature 'float32[::1], float32' --target sm_70 | FileCheck %s --check-prefix=T70
# T70-LABEL: .visible .entry targets(
# T70: st.global.b32 [%rd{{[0-9]+}}+4], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+12], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+16], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+28], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+36], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+44], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+52], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+60], 1065353216;
# T70-NEXT: st.global.b32 [%rd{{[0-9]+}}+64], %r{{[0-9]+}};

# cbrt comes from libdevice, inlined: no call is left.
# RUN: not grep -E 'call(\.uni)? ' %t.float32.ptx
