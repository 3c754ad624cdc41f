# Target Specialization, Thread Positioning and Local, Shared, and Constant
# memory (spec sections of those names) compiled to PTX: kernels of
# test/frontend/ and python/tests/conformance_kernels.py (run on the host target
# against NumPy by python/tests/test_conformance_host.py), FileChecked for sm_90
# (target() also for sm_80 and sm_70) and assembled by ptxas for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../frontend/target.py --kernel targets --signature 'int32[:]' --target sm_90 -o %t.target90.ptx
# RUN: FileCheck %s --check-prefix=TARGET90 --input-file=%t.target90.ptx
# RUN: ptxas -arch=sm_90 %t.target90.ptx -o %t.target90.cubin
# RUN: pydevc %S/../frontend/target.py --kernel targets --signature 'int32[:]' --target sm_70 -o %t.target90.70.ptx
# RUN: ptxas -arch=sm_70 %t.target90.70.ptx -o %t.target90.70.cubin
# RUN: pydevc %S/../frontend/target.py --kernel targets --signature 'int32[:]' --target sm_80 -o %t.target90.80.ptx
# RUN: ptxas -arch=sm_80 %t.target90.80.ptx -o %t.target90.80.cubin
# RUN: pydevc %S/../frontend/target.py --kernel uses_func --signature 'float32[:]' --target sm_90 -o %t.target_func.ptx
# RUN: FileCheck %s --check-prefix=TARGET_FUNC --input-file=%t.target_func.ptx
# RUN: ptxas -arch=sm_90 %t.target_func.ptx -o %t.target_func.cubin
# RUN: pydevc %S/../frontend/target.py --kernel uses_func --signature 'float32[:]' --target sm_70 -o %t.target_func.70.ptx
# RUN: ptxas -arch=sm_70 %t.target_func.70.ptx -o %t.target_func.70.cubin
# RUN: pydevc %S/../frontend/target.py --kernel uses_func --signature 'float32[:]' --target sm_80 -o %t.target_func.80.ptx
# RUN: ptxas -arch=sm_80 %t.target_func.80.ptx -o %t.target_func.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' --target sm_90 -o %t.target_false.ptx
# RUN: FileCheck %s --check-prefix=TARGET_FALSE --input-file=%t.target_false.ptx
# RUN: ptxas -arch=sm_90 %t.target_false.ptx -o %t.target_false.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' --target sm_70 -o %t.target_false.70.ptx
# RUN: ptxas -arch=sm_70 %t.target_false.70.ptx -o %t.target_false.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel target_false_branch --signature 'int32[::1]' --target sm_80 -o %t.target_false.80.ptx
# RUN: ptxas -arch=sm_80 %t.target_false.80.ptx -o %t.target_false.80.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dims --signature 'uint32[:]' --target sm_90 -o %t.dims.ptx
# RUN: FileCheck %s --check-prefix=DIMS --input-file=%t.dims.ptx
# RUN: ptxas -arch=sm_90 %t.dims.ptx -o %t.dims.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dims --signature 'uint32[:]' --target sm_70 -o %t.dims.70.ptx
# RUN: ptxas -arch=sm_70 %t.dims.70.ptx -o %t.dims.70.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dims --signature 'uint32[:]' --target sm_80 -o %t.dims.80.ptx
# RUN: ptxas -arch=sm_80 %t.dims.80.ptx -o %t.dims.80.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dim3_values --signature 'uint32[:]' --target sm_90 -o %t.dim3.ptx
# RUN: FileCheck %s --check-prefix=DIM3 --input-file=%t.dim3.ptx
# RUN: ptxas -arch=sm_90 %t.dim3.ptx -o %t.dim3.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dim3_values --signature 'uint32[:]' --target sm_70 -o %t.dim3.70.ptx
# RUN: ptxas -arch=sm_70 %t.dim3.70.ptx -o %t.dim3.70.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel dim3_values --signature 'uint32[:]' --target sm_80 -o %t.dim3.80.ptx
# RUN: ptxas -arch=sm_80 %t.dim3.80.ptx -o %t.dim3.80.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel tid3 --signature 'int32[:, :, :]' --target sm_90 -o %t.tid3.ptx
# RUN: FileCheck %s --check-prefix=TID3 --input-file=%t.tid3.ptx
# RUN: ptxas -arch=sm_90 %t.tid3.ptx -o %t.tid3.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel tid3 --signature 'int32[:, :, :]' --target sm_70 -o %t.tid3.70.ptx
# RUN: ptxas -arch=sm_70 %t.tid3.70.ptx -o %t.tid3.70.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel tid3 --signature 'int32[:, :, :]' --target sm_80 -o %t.tid3.80.ptx
# RUN: ptxas -arch=sm_80 %t.tid3.80.ptx -o %t.tid3.80.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel grid_sizes --signature 'int32[:]' --target sm_90 -o %t.grid_sizes.ptx
# RUN: FileCheck %s --check-prefix=GRID_SIZES --input-file=%t.grid_sizes.ptx
# RUN: ptxas -arch=sm_90 %t.grid_sizes.ptx -o %t.grid_sizes.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel grid_sizes --signature 'int32[:]' --target sm_70 -o %t.grid_sizes.70.ptx
# RUN: ptxas -arch=sm_70 %t.grid_sizes.70.ptx -o %t.grid_sizes.70.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel grid_sizes --signature 'int32[:]' --target sm_80 -o %t.grid_sizes.80.ptx
# RUN: ptxas -arch=sm_80 %t.grid_sizes.80.ptx -o %t.grid_sizes.80.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel warp --signature 'int32[:]' --target sm_90 -o %t.lane.ptx
# RUN: FileCheck %s --check-prefix=LANE --input-file=%t.lane.ptx
# RUN: ptxas -arch=sm_90 %t.lane.ptx -o %t.lane.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel warp --signature 'int32[:]' --target sm_70 -o %t.lane.70.ptx
# RUN: ptxas -arch=sm_70 %t.lane.70.ptx -o %t.lane.70.cubin
# RUN: pydevc %S/../frontend/thread_positioning.py --kernel warp --signature 'int32[:]' --target sm_80 -o %t.lane.80.ptx
# RUN: ptxas -arch=sm_80 %t.lane.80.ptx -o %t.lane.80.cubin
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, ::1], uint64[:, ::1], float64[:, ::1], float32[::1], int64' --target sm_90 -o %t.local.ptx
# RUN: FileCheck %s --check-prefix=LOCAL --input-file=%t.local.ptx
# RUN: ptxas -arch=sm_90 %t.local.ptx -o %t.local.cubin
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, ::1], uint64[:, ::1], float64[:, ::1], float32[::1], int64' --target sm_70 -o %t.local.70.ptx
# RUN: ptxas -arch=sm_70 %t.local.70.ptx -o %t.local.70.cubin
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, ::1], uint64[:, ::1], float64[:, ::1], float32[::1], int64' --target sm_80 -o %t.local.80.ptx
# RUN: ptxas -arch=sm_80 %t.local.80.ptx -o %t.local.80.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel tile --signature 'float32[:, ::1]' --target sm_90 -o %t.shared_tile.ptx
# RUN: FileCheck %s --check-prefix=SHARED_TILE --input-file=%t.shared_tile.ptx
# RUN: ptxas -arch=sm_90 %t.shared_tile.ptx -o %t.shared_tile.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel tile --signature 'float32[:, ::1]' --target sm_70 -o %t.shared_tile.70.ptx
# RUN: ptxas -arch=sm_70 %t.shared_tile.70.ptx -o %t.shared_tile.70.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel tile --signature 'float32[:, ::1]' --target sm_80 -o %t.shared_tile.80.ptx
# RUN: ptxas -arch=sm_80 %t.shared_tile.80.ptx -o %t.shared_tile.80.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel dynamic --signature 'float32[:]' --target sm_90 -o %t.dynamic.ptx
# RUN: FileCheck %s --check-prefix=DYNAMIC --input-file=%t.dynamic.ptx
# RUN: ptxas -arch=sm_90 %t.dynamic.ptx -o %t.dynamic.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel dynamic --signature 'float32[:]' --target sm_70 -o %t.dynamic.70.ptx
# RUN: ptxas -arch=sm_70 %t.dynamic.70.ptx -o %t.dynamic.70.cubin
# RUN: pydevc %S/../frontend/memory.py --kernel dynamic --signature 'float32[:]' --target sm_80 -o %t.dynamic.80.ptx
# RUN: ptxas -arch=sm_80 %t.dynamic.80.ptx -o %t.dynamic.80.cubin

# target(): each branch whose description is False for the architecture is
# gone. sm_90 keeps is_device (12), is_exactly(sm90)|is_exactly(sm80) (13),
# provides(sm80)&~is_exactly(sm80) (16), provides(sm80) (17), any_target (18),
# not target(is_host) (22); sm_80 and sm_70 keep the ones of their own.
# TARGET90-LABEL: .visible .entry targets(
# TARGET90-NOT: setp
# TARGET90: st.global.b32 {{.*}}, 12;
# TARGET90-NEXT: mul.lo.s64
# TARGET90-NEXT: add.s64
# TARGET90-NEXT: st.global.b32 {{.*}}, 13;
# TARGET90-NOT: , 14;
# TARGET90-NOT: , 15;
# TARGET90: st.global.b32 {{.*}}, 16;
# TARGET90: st.global.b32 {{.*}}, 17;
# TARGET90: st.global.b32 {{.*}}, 18;
# TARGET90-NOT: , 19;
# TARGET90-NOT: , 20;
# TARGET90-NOT: , 21;
# TARGET90: st.global.b32 {{.*}}, 22;
# TARGET90-NEXT: ret;
# RUN: FileCheck %s --check-prefix=TARGET80 --input-file=%t.target90.80.ptx
# TARGET80-LABEL: .visible .entry targets(
# TARGET80-NOT: setp
# TARGET80: st.global.b32 {{.*}}, 12;
# TARGET80: st.global.b32 {{.*}}, 13;
# TARGET80-NOT: , 14;
# TARGET80: st.global.b32 {{.*}}, 15;
# TARGET80-NOT: , 16;
# TARGET80: st.global.b32 {{.*}}, 17;
# TARGET80: st.global.b32 {{.*}}, 18;
# TARGET80-NOT: , 20;
# TARGET80: st.global.b32 {{.*}}, 22;
# TARGET80-NEXT: ret;
# RUN: FileCheck %s --check-prefix=TARGET70 --input-file=%t.target90.70.ptx
# TARGET70-LABEL: .visible .entry targets(
# TARGET70-NOT: setp
# TARGET70: st.global.b32 {{.*}}, 12;
# TARGET70-NOT: , 13;
# TARGET70: st.global.b32 {{.*}}, 14;
# TARGET70: st.global.b32 {{.*}}, 15;
# TARGET70-NOT: , 16;
# TARGET70-NOT: , 17;
# TARGET70: st.global.b32 {{.*}}, 18;
# TARGET70: st.global.b32 {{.*}}, 20;
# TARGET70-NOT: , 21;
# TARGET70: st.global.b32 {{.*}}, 22;
# TARGET70-NEXT: ret;

# target() in a @device.func: provides(sm90) doubles x on sm_90 only.
# TARGET_FUNC-LABEL: .visible .entry uses_func(
# TARGET_FUNC: add.f32 [[D:%r[0-9]+]], [[X:%r[0-9]+]], [[X]];
# TARGET_FUNC-NEXT: st.global.b32 [%rd{{[0-9]+}}], [[D]];
# RUN: FileCheck %s --check-prefix=TARGET_FUNC70 --input-file=%t.target_func.70.ptx
# TARGET_FUNC70-LABEL: .visible .entry uses_func(
# TARGET_FUNC70-NOT: add.f32
# TARGET_FUNC70: ret;

# The False branches of target(is_host) and target(no_target) are gone: only
# the out-of-range store (out[out.size + 100]) of the is_device branch is left.
# TARGET_FALSE-LABEL: .visible .entry target_false_branch(
# TARGET_FALSE-NOT: st.global
# TARGET_FALSE: st.global.b32 [%rd{{[0-9]+}}+400], 7;
# TARGET_FALSE-NOT: st.global
# TARGET_FALSE: ret;

# thread_idx, block_idx, block_dim, grid_dim: every component is its special register.
# DIMS-LABEL: .visible .entry dims(
# DIMS: mov.u32 {{.*}}, %tid.x;
# DIMS: mov.u32 {{.*}}, %tid.y;
# DIMS: mov.u32 {{.*}}, %tid.z;
# DIMS: mov.u32 {{.*}}, %ctaid.x;
# DIMS: mov.u32 {{.*}}, %ctaid.y;
# DIMS: mov.u32 {{.*}}, %ctaid.z;
# DIMS: mov.u32 {{.*}}, %ntid.x;
# DIMS: mov.u32 {{.*}}, %ntid.y;
# DIMS: mov.u32 {{.*}}, %ntid.z;
# DIMS: mov.u32 {{.*}}, %nctaid.x;
# DIMS: mov.u32 {{.*}}, %nctaid.y;
# DIMS: mov.u32 {{.*}}, %nctaid.z;

# A Dim3 named, indexed and unpacked: only the components used are read.
# DIM3-LABEL: .visible .entry dim3_values(
# DIM3-NOT: %tid.x
# DIM3: mov.u32 {{.*}}, %tid.y;
# DIM3: mov.u32 {{.*}}, %ntid.z;
# DIM3: mov.u32 [[X:%r[0-9]+]], %nctaid.x;
# DIM3-NEXT: mov.u32 [[Y:%r[0-9]+]], %nctaid.y;
# DIM3-NEXT: mov.u32 [[Z:%r[0-9]+]], %nctaid.z;
# DIM3-NEXT: add.s32 [[XY:%r[0-9]+]], [[X]], [[Y]];
# DIM3-NEXT: add.s32 {{%r[0-9]+}}, [[XY]], [[Z]];

# tid(3): blockIdx * blockDim + threadIdx per dimension, one mad.lo.s32 each.
# TID3-LABEL: .visible .entry tid3(
# TID3: mov.u32 [[TX:%r[0-9]+]], %tid.x;
# TID3-NEXT: mov.u32 [[BX:%r[0-9]+]], %ctaid.x;
# TID3-NEXT: mov.u32 [[NX:%r[0-9]+]], %ntid.x;
# TID3-NEXT: mad.lo.s32 {{%r[0-9]+}}, [[BX]], [[NX]], [[TX]];
# TID3: mov.u32 [[TY:%r[0-9]+]], %tid.y;
# TID3-NEXT: mov.u32 [[BY:%r[0-9]+]], %ctaid.y;
# TID3-NEXT: mov.u32 [[NY:%r[0-9]+]], %ntid.y;
# TID3-NEXT: mad.lo.s32 {{%r[0-9]+}}, [[BY]], [[NY]], [[TY]];
# TID3: mov.u32 {{.*}}, %tid.z;
# TID3: %ctaid.z
# TID3: %ntid.z

# grid_size(n): blockDim * gridDim per dimension, as int32.
# GRID_SIZES-LABEL: .visible .entry grid_sizes(
# GRID_SIZES: mov.u32 [[NX:%r[0-9]+]], %ntid.x;
# GRID_SIZES-NEXT: mov.u32 [[GX:%r[0-9]+]], %nctaid.x;
# GRID_SIZES-NEXT: mul.lo.s32 {{%r[0-9]+}}, [[NX]], [[GX]];
# GRID_SIZES: mov.u32 [[NY:%r[0-9]+]], %ntid.y;
# GRID_SIZES-NEXT: mov.u32 [[GY:%r[0-9]+]], %nctaid.y;
# GRID_SIZES-NEXT: mul.lo.s32 {{%r[0-9]+}}, [[NY]], [[GY]];
# GRID_SIZES: mov.u32 [[NZ:%r[0-9]+]], %ntid.z;
# GRID_SIZES-NEXT: mov.u32 [[GZ:%r[0-9]+]], %nctaid.z;
# GRID_SIZES-NEXT: mul.lo.s32 {{%r[0-9]+}}, [[NZ]], [[GZ]];

# warp_size is the constant 32, lane_id is %laneid.
# LANE-LABEL: .visible .entry warp(
# LANE: st.global.b32 [%rd{{[0-9]+}}], 32;
# LANE-NEXT: mov.u32 [[L:%r[0-9]+]], %laneid;
# LANE: st.global.b32 [%rd{{[0-9]+}}], [[L]];

# local_array(4, int32) (with int8, uint64, float32 and complex128 ones):
# the thread's .local depot, accessed with st.local/ld.local at an index known
# only at run time (block_scope's constant-indexed local array now lives in
# registers: its atomics are plain loads and stores, issue 14).
# LOCAL-LABEL: .visible .entry local_every_kind(
# LOCAL: .local .align {{[0-9]+}} .b8 __local_depot0[{{[0-9]+}}];
# LOCAL: mov.b64 %SPL, __local_depot0;
# LOCAL: st.local.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
# LOCAL: st.local.b32 [%rd{{[0-9]+}}+4], %r{{[0-9]+}};
# LOCAL: ld.local.b32

# shared_array((16, 17), float32): a 1088-byte .shared array, written, a
# barrier, read back transposed.
# SHARED_TILE-LABEL: .visible .entry tile(
# SHARED_TILE: .shared .align 4 .b8 __pydev_shared_{{[0-9]+}}[1088];
# SHARED_TILE: st.shared.b32
# SHARED_TILE-NEXT: bar.sync 0;
# SHARED_TILE: ld.shared.b32

# dynamic_shared_array(): the .extern .shared array; its size is %dynamic_smem_size;
# views of it as float32 and int32 address the same bytes.
# DYNAMIC: .extern .shared .align 16 .b8 __pydev_dynamic_shared[];
# DYNAMIC-LABEL: .visible .entry dynamic(
# DYNAMIC: %dynamic_smem_size
# DYNAMIC: st.shared.b8 [__pydev_dynamic_shared], 1;
# DYNAMIC: st.shared.b32 [__pydev_dynamic_shared+4], 1073741824;
# DYNAMIC: ld.shared.b32 {{%r[0-9]+}}, [__pydev_dynamic_shared+8];
