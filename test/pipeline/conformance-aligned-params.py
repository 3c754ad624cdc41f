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
