# Over-aligned structs as kernel parameters, and align(S, n) fields moved
# into plain S (spec: User-Defined Types,
# `@struct(align=N)` and `align(t, n)`): a struct passed by value has the
# CUDA C++ layout and alignment, `.param .align N .b8 name[size]` as nvcc
# writes it (pydev-lower-aggregates marks the parameter, pydev-align-params
# makes it `llvm.alignstack`). The kernel is aligned_by_value of
# python/tests/conformance_kernels.py, which runs on the host against NumPy
# (test_conformance_host.py test_align_structs_by_value). Assembled for
# sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_by_value --signature 'float32[:, ::1], int8, Complex, Holder, Padded, Quad, float32' -o %t.ptx
# RUN: FileCheck %s --input-file=%t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_by_value --signature 'float32[:, ::1], int8, Complex, Holder, Padded, Quad, float32' --target sm_70 -o %t.70.ptx
# RUN: FileCheck %s --input-file=%t.70.ptx
# RUN: ptxas -arch=sm_70 %t.70.ptx -o %t.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_by_value --signature 'float32[:, ::1], int8, Complex, Holder, Padded, Quad, float32' --target sm_80 -o %t.80.ptx
# RUN: FileCheck %s --input-file=%t.80.ptx
# RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# The align(Complex, 32) field of Padded (offset 32) stored into an array of
# plain Complex (test_align_field_to_plain_struct).
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_to_plain --signature 'Complex[::1], Padded[::1]' -o %t.to-plain.ptx
# RUN: FileCheck %s --check-prefix=TO-PLAIN --input-file=%t.to-plain.ptx
# RUN: ptxas -arch=sm_90 %t.to-plain.ptx -o %t.to-plain.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_to_plain --signature 'Complex[::1], Padded[::1]' --target sm_70 -o %t.to-plain.70.ptx
# RUN: ptxas -arch=sm_70 %t.to-plain.70.ptx -o %t.to-plain.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_to_plain --signature 'Complex[::1], Padded[::1]' --target sm_80 -o %t.to-plain.80.ptx
# RUN: ptxas -arch=sm_80 %t.to-plain.80.ptx -o %t.to-plain.80.cubin

# Complex (align=16, two floats): 16 bytes aligned to 16; Holder (int8, then
# Complex at 16): 32 bytes aligned to 16; Padded (int8, align(float32, 16) at
# 16, align(Complex, 32) at 32): 64 bytes aligned to 32; Quad (align=16, four
# floats, LLVM's size already CUDA's): aligned to 16. The parameters around
# them keep their own alignment.
# CHECK-LABEL: .visible .entry aligned_by_value(
# CHECK-NEXT: .param .align 8 .b8 aligned_by_value_param_0[40],
# CHECK-NEXT: .param .u8 aligned_by_value_param_1,
# CHECK-NEXT: .param .align 16 .b8 aligned_by_value_param_2[16],
# CHECK-NEXT: .param .align 16 .b8 aligned_by_value_param_3[32],
# CHECK-NEXT: .param .align 32 .b8 aligned_by_value_param_4[64],
# CHECK-NEXT: .param .align 16 .b8 aligned_by_value_param_5[16],
# CHECK-NEXT: .param .f32 aligned_by_value_param_6
# The fields at their CUDA offsets.
# CHECK-DAG: ld.param.v2.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}}, [aligned_by_value_param_2];
# CHECK-DAG: ld.param.v2.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}}, [aligned_by_value_param_3+16];
# CHECK-DAG: ld.param.b32 	%r{{[0-9]+}}, [aligned_by_value_param_4+16];
# CHECK-DAG: ld.param.v2.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}}, [aligned_by_value_param_4+32];
# CHECK-DAG: ld.param.v4.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [aligned_by_value_param_5];
# CHECK-DAG: fma.rn.f32
# CHECK: st.global.b32


# TO-PLAIN-LABEL: .visible .entry aligned_field_to_plain(
# TO-PLAIN-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+32];
# TO-PLAIN-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+36];
# TO-PLAIN-DAG: st.global.b32 	[%rd{{[0-9]+}}], %r{{[0-9]+}};
# TO-PLAIN-DAG: st.global.b32 	[%rd{{[0-9]+}}+4], %r{{[0-9]+}};

# align(t, n) fields read and written at their offsets (aligned_types:
# test_align_types); a shared array of align(float32, 16), 64 elements of 16
# bytes (aligned_shared: test_align_shared_array); a plain Complex stored into
# its align(Complex, 32) field at offset 32 (aligned_field_from_plain:
# test_align_field_takes_plain_struct).
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' -o %t.types.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-TYPES --input-file=%t.types.ptx
# RUN: ptxas -arch=sm_90 %t.types.ptx -o %t.types.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' --target sm_70 -o %t.types.70.ptx
# RUN: ptxas -arch=sm_70 %t.types.70.ptx -o %t.types.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' --target sm_80 -o %t.types.80.ptx
# RUN: ptxas -arch=sm_80 %t.types.80.ptx -o %t.types.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' -o %t.shared.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-SHARED --input-file=%t.shared.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-SHARED-SYM --input-file=%t.shared.ptx
# RUN: ptxas -arch=sm_90 %t.shared.ptx -o %t.shared.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.shared.70.ptx
# RUN: ptxas -arch=sm_70 %t.shared.70.ptx -o %t.shared.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.shared.80.ptx
# RUN: ptxas -arch=sm_80 %t.shared.80.ptx -o %t.shared.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' -o %t.from-plain.ptx
# RUN: FileCheck %s --check-prefix=FROM-PLAIN --input-file=%t.from-plain.ptx
# RUN: ptxas -arch=sm_90 %t.from-plain.ptx -o %t.from-plain.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' --target sm_70 -o %t.from-plain.70.ptx
# RUN: ptxas -arch=sm_70 %t.from-plain.70.ptx -o %t.from-plain.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' --target sm_80 -o %t.from-plain.80.ptx
# RUN: ptxas -arch=sm_80 %t.from-plain.80.ptx -o %t.from-plain.80.cubin
# ALIGNED-TYPES-LABEL: .visible .entry aligned_types(
# ALIGNED-TYPES-DAG: ld.global.s8
# ALIGNED-TYPES-DAG: st.global.b8
# ALIGNED-TYPES-DAG: fma.rn.f32
# ALIGNED-SHARED-SYM: .shared .align 16 .b8 __pydev_shared_{{[0-9]+}}[1024]
# ALIGNED-SHARED-LABEL: .visible .entry aligned_shared(
# ALIGNED-SHARED: bar.sync
# FROM-PLAIN-LABEL: .visible .entry aligned_field_from_plain(
# FROM-PLAIN-DAG: ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+32]
# FROM-PLAIN-DAG: st.global.b32 [%rd{{[0-9]+}}+36]
