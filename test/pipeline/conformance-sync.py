# Thread Block Synchronization and Thread Warp Synchronization (spec sections of
# those names) compiled to PTX: the kernels of test/frontend/sync.py,
# test/frontend/warp.py, python/tests/conformance_kernels.py (run on the host
# target against NumPy by python/tests/test_conformance_host.py) and
# test/Inputs/host_semantics.py, FileChecked for sm_90 and assembled by ptxas for
# sm_70, sm_80 and sm_90 (match.sync and the .sync votes and shuffles need sm_70).
# REQUIRES: ptxas
# RUN: pydevc %S/../frontend/sync.py --kernel barriers --signature 'float32[:], int32[:]' --target sm_90 -o %t.barriers.ptx
# RUN: FileCheck %s --check-prefix=BARRIERS --input-file=%t.barriers.ptx
# RUN: ptxas -arch=sm_90 %t.barriers.ptx -o %t.barriers.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel barriers --signature 'float32[:], int32[:]' --target sm_70 -o %t.barriers.70.ptx
# RUN: ptxas -arch=sm_70 %t.barriers.70.ptx -o %t.barriers.70.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel barriers --signature 'float32[:], int32[:]' --target sm_80 -o %t.barriers.80.ptx
# RUN: ptxas -arch=sm_80 %t.barriers.80.ptx -o %t.barriers.80.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel local_def --signature 'float32[:], int32[:]' --target sm_90 -o %t.local_def.ptx
# RUN: FileCheck %s --check-prefix=LOCAL_DEF --input-file=%t.local_def.ptx
# RUN: ptxas -arch=sm_90 %t.local_def.ptx -o %t.local_def.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel local_def --signature 'float32[:], int32[:]' --target sm_70 -o %t.local_def.70.ptx
# RUN: ptxas -arch=sm_70 %t.local_def.70.ptx -o %t.local_def.70.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel local_def --signature 'float32[:], int32[:]' --target sm_80 -o %t.local_def.80.ptx
# RUN: ptxas -arch=sm_80 %t.local_def.80.ptx -o %t.local_def.80.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel func_pred --signature 'int32[:]' --target sm_90 -o %t.func_pred.ptx
# RUN: FileCheck %s --check-prefix=FUNC_PRED --input-file=%t.func_pred.ptx
# RUN: ptxas -arch=sm_90 %t.func_pred.ptx -o %t.func_pred.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel func_pred --signature 'int32[:]' --target sm_70 -o %t.func_pred.70.ptx
# RUN: ptxas -arch=sm_70 %t.func_pred.70.ptx -o %t.func_pred.70.cubin
# RUN: pydevc %S/../frontend/sync.py --kernel func_pred --signature 'int32[:]' --target sm_80 -o %t.func_pred.80.ptx
# RUN: ptxas -arch=sm_80 %t.func_pred.80.ptx -o %t.func_pred.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel votes --signature 'int32[:], int32[:]' --target sm_90 -o %t.votes.ptx
# RUN: FileCheck %s --check-prefix=VOTES --input-file=%t.votes.ptx
# RUN: ptxas -arch=sm_90 %t.votes.ptx -o %t.votes.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel votes --signature 'int32[:], int32[:]' --target sm_70 -o %t.votes.70.ptx
# RUN: ptxas -arch=sm_70 %t.votes.70.ptx -o %t.votes.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel votes --signature 'int32[:], int32[:]' --target sm_80 -o %t.votes.80.ptx
# RUN: ptxas -arch=sm_80 %t.votes.80.ptx -o %t.votes.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffles --signature 'int32[:], float32[:], float64[:], float64[:]' --target sm_90 -o %t.shuffles.ptx
# RUN: FileCheck %s --check-prefix=SHUFFLES --input-file=%t.shuffles.ptx
# RUN: ptxas -arch=sm_90 %t.shuffles.ptx -o %t.shuffles.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffles --signature 'int32[:], float32[:], float64[:], float64[:]' --target sm_70 -o %t.shuffles.70.ptx
# RUN: ptxas -arch=sm_70 %t.shuffles.70.ptx -o %t.shuffles.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffles --signature 'int32[:], float32[:], float64[:], float64[:]' --target sm_80 -o %t.shuffles.80.ptx
# RUN: ptxas -arch=sm_80 %t.shuffles.80.ptx -o %t.shuffles.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffle_values --signature 'float32[:], float32[:]' --target sm_90 -o %t.shuffle_values.ptx
# RUN: FileCheck %s --check-prefix=SHUFFLE_VALUES --input-file=%t.shuffle_values.ptx
# RUN: ptxas -arch=sm_90 %t.shuffle_values.ptx -o %t.shuffle_values.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffle_values --signature 'float32[:], float32[:]' --target sm_70 -o %t.shuffle_values.70.ptx
# RUN: ptxas -arch=sm_70 %t.shuffle_values.70.ptx -o %t.shuffle_values.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel shuffle_values --signature 'float32[:], float32[:]' --target sm_80 -o %t.shuffle_values.80.ptx
# RUN: ptxas -arch=sm_80 %t.shuffle_values.80.ptx -o %t.shuffle_values.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'int32[:], float64[:], int32[:]' --target sm_90 -o %t.matches32.ptx
# RUN: FileCheck %s --check-prefix=MATCHES32 --input-file=%t.matches32.ptx
# RUN: ptxas -arch=sm_90 %t.matches32.ptx -o %t.matches32.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'int32[:], float64[:], int32[:]' --target sm_70 -o %t.matches32.70.ptx
# RUN: ptxas -arch=sm_70 %t.matches32.70.ptx -o %t.matches32.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'int32[:], float64[:], int32[:]' --target sm_80 -o %t.matches32.80.ptx
# RUN: ptxas -arch=sm_80 %t.matches32.80.ptx -o %t.matches32.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'uint64[:], float32[:], int32[:]' --target sm_90 -o %t.matches64.ptx
# RUN: FileCheck %s --check-prefix=MATCHES64 --input-file=%t.matches64.ptx
# RUN: ptxas -arch=sm_90 %t.matches64.ptx -o %t.matches64.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'uint64[:], float32[:], int32[:]' --target sm_70 -o %t.matches64.70.ptx
# RUN: ptxas -arch=sm_70 %t.matches64.70.ptx -o %t.matches64.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel matches --signature 'uint64[:], float32[:], int32[:]' --target sm_80 -o %t.matches64.80.ptx
# RUN: ptxas -arch=sm_80 %t.matches64.80.ptx -o %t.matches64.80.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel mask_bits --signature 'int32[:]' --target sm_90 -o %t.mask_bits.ptx
# RUN: FileCheck %s --check-prefix=MASK_BITS --input-file=%t.mask_bits.ptx
# RUN: ptxas -arch=sm_90 %t.mask_bits.ptx -o %t.mask_bits.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel mask_bits --signature 'int32[:]' --target sm_70 -o %t.mask_bits.70.ptx
# RUN: ptxas -arch=sm_70 %t.mask_bits.70.ptx -o %t.mask_bits.70.cubin
# RUN: pydevc %S/../frontend/warp.py --kernel mask_bits --signature 'int32[:]' --target sm_80 -o %t.mask_bits.80.ptx
# RUN: ptxas -arch=sm_80 %t.mask_bits.80.ptx -o %t.mask_bits.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' --target sm_90 -o %t.mask_items.ptx
# RUN: FileCheck %s --check-prefix=MASK_ITEMS --input-file=%t.mask_items.ptx
# RUN: ptxas -arch=sm_90 %t.mask_items.ptx -o %t.mask_items.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' --target sm_70 -o %t.mask_items.70.ptx
# RUN: ptxas -arch=sm_70 %t.mask_items.70.ptx -o %t.mask_items.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel mask_bits --signature 'int32[:, ::1], int32[::1]' --target sm_80 -o %t.mask_items.80.ptx
# RUN: ptxas -arch=sm_80 %t.mask_items.80.ptx -o %t.mask_items.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' --target sm_90 -o %t.eq_votes.ptx
# RUN: FileCheck %s --check-prefix=EQ_VOTES --input-file=%t.eq_votes.ptx
# RUN: ptxas -arch=sm_90 %t.eq_votes.ptx -o %t.eq_votes.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' --target sm_70 -o %t.eq_votes.70.ptx
# RUN: ptxas -arch=sm_70 %t.eq_votes.70.ptx -o %t.eq_votes.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel eq_votes --signature 'int32[:, ::1], float32[::1]' --target sm_80 -o %t.eq_votes.80.ptx
# RUN: ptxas -arch=sm_80 %t.eq_votes.80.ptx -o %t.eq_votes.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' --target sm_90 -o %t.warp_ops.ptx
# RUN: FileCheck %s --check-prefix=WARP_OPS --input-file=%t.warp_ops.ptx
# RUN: ptxas -arch=sm_90 %t.warp_ops.ptx -o %t.warp_ops.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' --target sm_70 -o %t.warp_ops.70.ptx
# RUN: ptxas -arch=sm_70 %t.warp_ops.70.ptx -o %t.warp_ops.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel warp_ops --signature 'int32[:, ::1], readonly int32[::1]' --target sm_80 -o %t.warp_ops.80.ptx
# RUN: ptxas -arch=sm_80 %t.warp_ops.80.ptx -o %t.warp_ops.80.cubin

# syncthreads is bar.sync 0; syncthreads_count/_and/_or are bar.red
# .popc/.and/.or on barrier 0 with the predicate (a number by its truth).
# BARRIERS-LABEL: .visible .entry barriers(
# BARRIERS: bar.sync 0;
# BARRIERS: setp.gt.f32 [[P1:%p[0-9]+]], %r{{[0-9]+}}, 0f00000000;
# BARRIERS-NEXT: bar.red.popc.u32 %r{{[0-9]+}}, 0, [[P1]];
# BARRIERS: setp.lt.f32 [[P2:%p[0-9]+]], %r{{[0-9]+}}, 0f3F800000;
# BARRIERS-NEXT: bar.red.and.pred [[A:%p[0-9]+]], 0, [[P2]];
# BARRIERS-NEXT: selp.b32 %r{{[0-9]+}}, 1, 0, [[A]];
# BARRIERS: setp.ne.b32 [[P3:%p[0-9]+]], %r{{[0-9]+}}, 0;
# BARRIERS-NEXT: bar.red.or.pred [[O:%p[0-9]+]], 0, [[P3]];
# BARRIERS-NEXT: selp.b32 %r{{[0-9]+}}, 1, 0, [[O]];
# BARRIERS: bar.sync 0;

# Local defs as predicates: inlined at the barrier.
# LOCAL_DEF-LABEL: .visible .entry local_def(
# LOCAL_DEF: setp.gt.f32 [[P1:%p[0-9]+]], %r{{[0-9]+}}, 0f41200000;
# LOCAL_DEF-NEXT: bar.red.popc.u32 %r{{[0-9]+}}, 0, [[P1]];
# LOCAL_DEF: setp.gt.f32 [[P2:%p[0-9]+]], %r{{[0-9]+}}, 0f00000000;
# LOCAL_DEF-NEXT: bar.red.and.pred %p{{[0-9]+}}, 0, [[P2]];

# A @device.func predicate (threadIdx.x == 0).
# FUNC_PRED-LABEL: .visible .entry func_pred(
# FUNC_PRED: mov.u32 [[T:%r[0-9]+]], %tid.x;
# FUNC_PRED-NEXT: setp.eq.b32 [[P:%p[0-9]+]], [[T]], 0;
# FUNC_PRED-NEXT: bar.red.popc.u32 %r{{[0-9]+}}, 0, [[P]];

# activemask is activemask.b32 (as CUDA's __activemask), lanemask_lt
# %lanemask_lt, syncwarp bar.warp.sync (of a mask and of -1), the votes
# vote.sync .all/.any/.uni (eq_sync)/.ballot.
# VOTES-LABEL: .visible .entry votes(
# VOTES: activemask.b32 [[M:%r[0-9]+]];
# VOTES: mov.u32 %r{{[0-9]+}}, %lanemask_lt;
# VOTES-NEXT: bar.warp.sync [[M]];
# VOTES-NEXT: bar.warp.sync -1;
# VOTES: vote.sync.all.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[M]];
# VOTES: vote.sync.any.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[M]];
# VOTES: vote.sync.uni.pred %p{{[0-9]+}}, [[ODD:%p[0-9]+]], [[M]];
# VOTES-NEXT: vote.sync.ballot.b32 %r{{[0-9]+}}, [[ODD]], [[M]];

# Shuffles: shfl.sync .idx/.up/.down/.bfly with clamp 31 (0 for up); 64-bit
# values are two 32-bit shuffles; lanes constant, computed or a mask.
# SHUFFLES-LABEL: .visible .entry shuffles(
# SHUFFLES: activemask.b32 [[M:%r[0-9]+]];
# SHUFFLES: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 31, [[M]];
# SHUFFLES: shfl.sync.up.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 1, 0, [[M]];
# SHUFFLES: shfl.sync.down.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 16, 31, [[M]];
# SHUFFLES: shfl.sync.down.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 16, 31, [[M]];
# SHUFFLES: shfl.sync.bfly.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 31, 31, [[M]];
# SHUFFLES: shfl.sync.bfly.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 31, 31, [[M]];
# SHUFFLES: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, 31, -1;
# SHUFFLES: shfl.sync.down.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 2, 31, [[M]];
# SHUFFLES: shfl.sync.bfly.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[M]], 31, [[M]];

# Values of at most 8 bytes move member by member: a float32x2 (2), a
# tuple (2), a struct (2), a bool (widened), a WarpMask (its 32 bits) and a
# complex64 (2).
# SHUFFLE_VALUES-LABEL: .visible .entry shuffle_values(
# SHUFFLE_VALUES: activemask.b32 [[M:%r[0-9]+]];
# SHUFFLE_VALUES: shfl.sync.idx.b32 {{.*}}, 0, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.idx.b32 {{.*}}, 0, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.down.b32 {{.*}}, 1, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.down.b32 {{.*}}, 1, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.bfly.b32 {{.*}}, 1, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.bfly.b32 {{.*}}, 1, 31, [[M]];
# SHUFFLE_VALUES: selp.b32 [[B:%r[0-9]+]], 1, 0,
# SHUFFLE_VALUES: shfl.sync.up.b32 %r{{[0-9]+}}, [[B]], 1, 0, [[M]];
# SHUFFLE_VALUES: shfl.sync.idx.b32 %r{{[0-9]+}}, [[M]], 0, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.idx.b32 {{.*}}, 0, 31, [[M]];
# SHUFFLE_VALUES: shfl.sync.idx.b32 {{.*}}, 0, 31, [[M]];

# match_any_sync / match_all_sync on 32- and 64-bit values (float64 as its bits).
# MATCHES32-LABEL: .visible .entry matches(
# MATCHES32: activemask.b32 [[M:%r[0-9]+]];
# MATCHES32: match.any.sync.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[M]];
# MATCHES32: match.all.sync.b64 %r{{[0-9]+}}|%p{{[0-9]+}}, %rd{{[0-9]+}}, [[M]];
# MATCHES32: match.all.sync.b32 %r{{[0-9]+}}|%p{{[0-9]+}}, %r{{[0-9]+}}, [[M]];
# MATCHES64-LABEL: .visible .entry matches(
# MATCHES64: match.any.sync.b64 %r{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}};
# MATCHES64: match.all.sync.b32 %r{{[0-9]+}}|%p{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
# MATCHES64: match.all.sync.b64 %r{{[0-9]+}}|%p{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}};

# WarpMask m[3] is a bit extract, m[3] = False an and with ~8, m[lane] = True
# an or of 1 << lane; the mask goes to bar.warp.sync.
# MASK_BITS-LABEL: .visible .entry mask_bits(
# MASK_BITS: activemask.b32 [[M:%r[0-9]+]];
# MASK_BITS: bfe.u32 %r{{[0-9]+}}, [[M]], 3, 1;
# MASK_BITS: and.b32 [[C:%r[0-9]+]], [[M]], -9;
# MASK_BITS-NEXT: mov.u32 [[L:%r[0-9]+]], %laneid;
# MASK_BITS: shl.b32 [[BIT:%r[0-9]+]], %r{{[0-9]+}}, [[L]];
# MASK_BITS-NEXT: or.b32 [[S:%r[0-9]+]], [[C]], [[BIT]];
# MASK_BITS: bar.warp.sync [[S]];

# m[lane] read (shr, and 1), m[lane] = False (and of ~(1 << lane)),
# m[0] = m[31] = True (or 0x80000001).
# MASK_ITEMS-LABEL: .visible .entry mask_bits(
# MASK_ITEMS: mov.u32 [[L:%r[0-9]+]], %laneid;
# MASK_ITEMS: shr.u32 [[R:%r[0-9]+]], [[B:%r[0-9]+]], [[L]];
# MASK_ITEMS-NEXT: and.b32 %r{{[0-9]+}}, [[R]], 1;
# MASK_ITEMS: shl.b32 [[BIT:%r[0-9]+]], %r{{[0-9]+}}, [[L]];
# MASK_ITEMS-NEXT: not.b32 [[NB:%r[0-9]+]], [[BIT]];
# MASK_ITEMS-NEXT: and.b32 [[CL:%r[0-9]+]], [[B]], [[NB]];
# MASK_ITEMS: or.b32 %r{{[0-9]+}}, [[CL]], -2147483647;
# MASK_ITEMS: activemask.b32

# eq_sync is vote.sync.uni, for the whole warp and for half of it.
# EQ_VOTES-LABEL: .visible .entry eq_votes(
# EQ_VOTES: activemask.b32 [[M:%r[0-9]+]];
# EQ_VOTES: vote.sync.uni.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[M]];
# EQ_VOTES: activemask.b32 [[H:%r[0-9]+]];
# EQ_VOTES: vote.sync.uni.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[H]];

# Every warp function and block reduction in one kernel (host_semantics.py).
# WARP_OPS-LABEL: .visible .entry warp_ops(
# WARP_OPS: activemask.b32 [[M:%r[0-9]+]];
# WARP_OPS: shfl.sync.bfly.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 1, 31, [[M]];
# WARP_OPS: shfl.sync.up.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 3, 0, [[M]];
# WARP_OPS: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 5, 31, [[M]];
# WARP_OPS: match.any.sync.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[M]];
# WARP_OPS: match.all.sync.b32 %r{{[0-9]+}}|%p{{[0-9]+}}, %r{{[0-9]+}}, [[M]];
# WARP_OPS: mov.u32 %r{{[0-9]+}}, %lanemask_lt;
# WARP_OPS: bar.warp.sync [[M]];
# WARP_OPS: vote.sync.any.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[M]];
# WARP_OPS: vote.sync.all.pred %p{{[0-9]+}}, %p{{[0-9]+}}, [[M]];
# WARP_OPS: bar.red.popc.u32
# WARP_OPS: bar.red.and.pred
# WARP_OPS: bar.red.or.pred
