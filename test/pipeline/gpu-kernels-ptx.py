# Every kernel that test/gpu/run.py runs on a GPU, compiled to PTX with the
# instructions a CUDA C++ programmer would expect, and assembled by ptxas
# (make test-gpu assembles the same kernels for sm_70 and sm_80 too).
# REQUIRES: ptxas
# RUN: pydevc %S/../gpu/kernels.py --kernel vector_add --signature 'float32[::1], readonly float32[::1], readonly float32[::1]' -o %t.vector_add.ptx
# RUN: FileCheck %s --check-prefix=VECTOR_ADD --input-file=%t.vector_add.ptx
# RUN: ptxas -arch=sm_90 %t.vector_add.ptx -o %t.vector_add.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel saxpy --signature 'float32, float32[::1], float32[::1], float32[::1]' -o %t.saxpy.ptx
# RUN: FileCheck %s --check-prefix=SAXPY --input-file=%t.saxpy.ptx
# RUN: ptxas -arch=sm_90 %t.saxpy.ptx -o %t.saxpy.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel histogram --signature 'uint32[::1], readonly int32[::1]' -o %t.histogram.ptx
# RUN: FileCheck %s --check-prefix=HISTOGRAM --input-file=%t.histogram.ptx
# RUN: ptxas -arch=sm_90 %t.histogram.ptx -o %t.histogram.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel warp_sum --signature 'float32[::1], readonly float32[::1]' -o %t.warp_sum.ptx
# RUN: FileCheck %s --check-prefix=WARP_SUM --input-file=%t.warp_sum.ptx
# RUN: ptxas -arch=sm_90 %t.warp_sum.ptx -o %t.warp_sum.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel block_votes --signature 'int32[::1], int32[::1], readonly float32[::1]' -o %t.block_votes.ptx
# RUN: FileCheck %s --check-prefix=BLOCK_VOTES --input-file=%t.block_votes.ptx
# RUN: ptxas -arch=sm_90 %t.block_votes.ptx -o %t.block_votes.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel python_ints --signature 'int32[:, ::1], readonly int32[::1], readonly int32[::1]' -o %t.python_ints.ptx
# RUN: FileCheck %s --check-prefix=PYTHON_INTS --input-file=%t.python_ints.ptx
# RUN: ptxas -arch=sm_90 %t.python_ints.ptx -o %t.python_ints.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel block_sum --signature 'float32[::1], readonly float32[::1]' -o %t.block_sum.ptx
# RUN: FileCheck %s --check-prefix=BLOCK_SUM --input-file=%t.block_sum.ptx
# RUN: ptxas -arch=sm_90 %t.block_sum.ptx -o %t.block_sum.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel transpose --signature 'float32[:, ::1], readonly float32[:, ::1]' -o %t.transpose.ptx
# RUN: FileCheck %s --check-prefix=TRANSPOSE --input-file=%t.transpose.ptx
# RUN: ptxas -arch=sm_90 %t.transpose.ptx -o %t.transpose.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel local_scan --signature 'float32[::1], readonly float32[::1]' -o %t.local_scan.ptx
# RUN: FileCheck %s --check-prefix=LOCAL_SCAN --input-file=%t.local_scan.ptx
# RUN: ptxas -arch=sm_90 %t.local_scan.ptx -o %t.local_scan.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature 'Particle[::1], float32' -o %t.push.ptx
# RUN: FileCheck %s --check-prefix=PUSH --input-file=%t.push.ptx
# RUN: ptxas -arch=sm_90 %t.push.ptx -o %t.push.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel stencil --signature 'float32[:, ::1], readonly float32[:, ::1]' -o %t.stencil.ptx
# RUN: FileCheck %s --check-prefix=STENCIL --input-file=%t.stencil.ptx
# RUN: ptxas -arch=sm_90 %t.stencil.ptx -o %t.stencil.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel float_extrema --signature 'float32[::1], readonly float32[::1]' -o %t.float_extrema.ptx
# RUN: FileCheck %s --check-prefix=FLOAT_EXTREMA --input-file=%t.float_extrema.ptx
# RUN: ptxas -arch=sm_90 %t.float_extrema.ptx -o %t.float_extrema.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel handoff --signature 'int32[::1], int32[::1]' -o %t.handoff.ptx
# RUN: FileCheck %s --check-prefix=HANDOFF --input-file=%t.handoff.ptx
# RUN: ptxas -arch=sm_90 %t.handoff.ptx -o %t.handoff.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel views --signature 'float32[:, ::1], readonly float32[::1], readonly float32[:, ::1]' -o %t.views.ptx
# RUN: FileCheck %s --check-prefix=VIEWS --input-file=%t.views.ptx
# RUN: ptxas -arch=sm_90 %t.views.ptx -o %t.views.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel array_args --signature 'float32[::1], readonly float32[::1], int32' -o %t.array_args.ptx
# RUN: FileCheck %s --check-prefix=ARRAY_ARGS --input-file=%t.array_args.ptx
# RUN: ptxas -arch=sm_90 %t.array_args.ptx -o %t.array_args.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel complex_math --signature 'float32[:, ::1], readonly complex64[::1], readonly complex64[::1], readonly float32[::1]' -o %t.complex_math.ptx
# RUN: FileCheck %s --check-prefix=COMPLEX_MATH --input-file=%t.complex_math.ptx
# RUN: ptxas -arch=sm_90 %t.complex_math.ptx -o %t.complex_math.cubin
# RUN: FileCheck %s --check-prefix=PRECISE --input-file=%t.complex_math.ptx
# RUN: pydevc %S/../gpu/kernels.py --kernel shuffle_aggregates --signature 'float32[:, ::1], readonly float32[::1]' -o %t.shuffle_aggregates.ptx
# RUN: FileCheck %s --check-prefix=SHUFFLE_AGGREGATES --input-file=%t.shuffle_aggregates.ptx
# RUN: ptxas -arch=sm_90 %t.shuffle_aggregates.ptx -o %t.shuffle_aggregates.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel row_sums --signature 'float32[::1], readonly float32[:, ::1]' -o %t.row_sums.ptx
# RUN: FileCheck %s --check-prefix=ROW_SUMS --input-file=%t.row_sums.ptx
# RUN: ptxas -arch=sm_90 %t.row_sums.ptx -o %t.row_sums.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel float8_round_trip --signature 'float32[:, ::1], readonly float32[::1]' -o %t.float8_round_trip.ptx
# RUN: FileCheck %s --check-prefix=FLOAT8 --input-file=%t.float8_round_trip.ptx
# RUN: ptxas -arch=sm_90 %t.float8_round_trip.ptx -o %t.float8_round_trip.cubin

# VECTOR_ADD-LABEL: .visible .entry vector_add(
# VECTOR_ADD: ld.global.b32
# VECTOR_ADD: add.f32
# VECTOR_ADD: st.global.b32

# SAXPY-LABEL: .visible .entry saxpy(
# SAXPY: mov.u32 {{.*}}%nctaid.x
# SAXPY: fma.rn.f32
# SAXPY: st.global.b32

# HISTOGRAM-LABEL: .visible .entry histogram(
# HISTOGRAM: rem.s64
# HISTOGRAM: red.global.add.u32

# WARP_SUM-LABEL: .visible .entry warp_sum(
# WARP_SUM: activemask.b32
# WARP_SUM: shfl.sync.down.b32
# WARP_SUM: red.global.add.f32

# BLOCK_VOTES-LABEL: .visible .entry block_votes(
# BLOCK_VOTES: bar.red.popc.u32
# BLOCK_VOTES: vote.sync.ballot.b32
# BLOCK_VOTES: popc.b32

# PYTHON_INTS-LABEL: .visible .entry python_ints(
# PYTHON_INTS: div.s32
# PYTHON_INTS: rem.s32
# PYTHON_INTS: max.s32
# PYTHON_INTS: abs.s32

# BLOCK_SUM-LABEL: .visible .entry block_sum(
# BLOCK_SUM: .shared .align 4 .b8 __pydev_shared_1[1024];
# BLOCK_SUM: st.shared.b32
# BLOCK_SUM: bar.sync 0;
# BLOCK_SUM: ld.shared.b32

# TRANSPOSE-LABEL: .visible .entry transpose(
# TRANSPOSE: .shared .align 4 .b8 __pydev_shared_1[4224];
# TRANSPOSE: st.shared.b32
# TRANSPOSE: bar.sync 0;
# TRANSPOSE: ld.shared.b32

# LOCAL_SCAN-LABEL: .visible .entry local_scan(
# LOCAL_SCAN-NOT: .local
# LOCAL_SCAN: ld.global.b32
# LOCAL_SCAN: st.global.b32

# PUSH-LABEL: .visible .entry push(
# PUSH: ld.global.b32 {{.*}}+16]
# PUSH: ld.global.v4.b32
# PUSH: st.global.v4.b32

# STENCIL-LABEL: .visible .entry stencil(
# STENCIL: fma.rn.f32
# STENCIL: st.global.b32

# FLOAT_EXTREMA-LABEL: .visible .entry float_extrema(
# FLOAT_EXTREMA: max.f32
# FLOAT_EXTREMA: atom.relaxed.gpu.global.cas.b32
# FLOAT_EXTREMA: fence.sc.sys

# HANDOFF-LABEL: .visible .entry handoff(
# HANDOFF: ld.acquire.gpu.global.b32
# HANDOFF: nanosleep

# VIEWS-LABEL: .visible .entry views(
# VIEWS: max.s64
# VIEWS: st.global.b32

# ARRAY_ARGS-LABEL: .visible .entry array_args(
# ARRAY_ARGS: ld.global.b32

# COMPLEX_MATH-LABEL: .visible .entry complex_math(
# COMPLEX_MATH: div.rn.f32
# COMPLEX_MATH: ex2.approx

# Python's math.sqrt is correctly rounded: libdevice is told so (__CUDA_PREC_SQRT).
# PRECISE-NOT: sqrt.approx
# PRECISE: sqrt.rn.f32
# PRECISE-NOT: sqrt.approx

# Aggregates of at most 8 bytes move member by member: float32x2 (2), Pair
# {int16, float32} (2), (int32, float32) (2), complex64 (2).
# SHUFFLE_AGGREGATES-LABEL: .visible .entry shuffle_aggregates(
# SHUFFLE_AGGREGATES-COUNT-2: shfl.sync.bfly.b32
# SHUFFLE_AGGREGATES-COUNT-2: shfl.sync.down.b32
# SHUFFLE_AGGREGATES-COUNT-2: shfl.sync.idx.b32
# SHUFFLE_AGGREGATES-COUNT-2: shfl.sync.up.b32

# A device function returning an array view: inlined, the row's loads remain.
# ROW_SUMS-LABEL: .visible .entry row_sums(
# ROW_SUMS: ld.global.b32
# ROW_SUMS: add.f32
# ROW_SUMS: st.global.b32

# float8 values are their bits (b8/b16 in PTX); conversions are software
# (pydev-lower-float8): the e5m2 reading goes through an IEEE half.
# FLOAT8-LABEL: .visible .entry float8_round_trip(
# FLOAT8: cvt.f32.f16
# FLOAT8-NOT: .f8
