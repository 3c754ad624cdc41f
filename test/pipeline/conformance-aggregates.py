# Conformance of tuples, user-defined types (methods, @struct(align=N)),
# interoperable functions and interoperable kernels (spec sections "Tuples",
# "User-Defined Types", "Interoperable Functions", "Heterogeneous Functions"
# and "Kernel Functions") in PTX: the kernels of
# python/tests/conformance_kernels.py (run on the host target against NumPy by
# python/tests/test_conformance_host.py), compiled for sm_90 and FileChecked
# (one prefix per kernel), and compiled for sm_70, sm_80 and sm_90 and
# assembled by ptxas.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' --target sm_90 -o %t.tuple.ptx
# RUN: FileCheck %s --check-prefix=TUPLE --input-file=%t.tuple.ptx
# RUN: ptxas -arch=sm_90 %t.tuple.ptx -o %t.tuple.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' --target sm_70 -o %t.tuple.70.ptx
# RUN: ptxas -arch=sm_70 %t.tuple.70.ptx -o %t.tuple.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' --target sm_80 -o %t.tuple.80.ptx
# RUN: ptxas -arch=sm_80 %t.tuple.80.ptx -o %t.tuple.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_90 -o %t.tuple-interop.ptx
# RUN: FileCheck %s --check-prefix=TUPLE-INTEROP --input-file=%t.tuple-interop.ptx
# RUN: ptxas -arch=sm_90 %t.tuple-interop.ptx -o %t.tuple-interop.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_70 -o %t.tuple-interop.70.ptx
# RUN: ptxas -arch=sm_70 %t.tuple-interop.70.ptx -o %t.tuple-interop.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_80 -o %t.tuple-interop.80.ptx
# RUN: ptxas -arch=sm_80 %t.tuple-interop.80.ptx -o %t.tuple-interop.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' --target sm_90 -o %t.methods.ptx
# RUN: FileCheck %s --check-prefix=METHODS --input-file=%t.methods.ptx
# RUN: ptxas -arch=sm_90 %t.methods.ptx -o %t.methods.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' --target sm_70 -o %t.methods.70.ptx
# RUN: ptxas -arch=sm_70 %t.methods.70.ptx -o %t.methods.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' --target sm_80 -o %t.methods.80.ptx
# RUN: ptxas -arch=sm_80 %t.methods.80.ptx -o %t.methods.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' --target sm_90 -o %t.align16.ptx
# RUN: FileCheck %s --check-prefix=ALIGN16 --input-file=%t.align16.ptx
# RUN: ptxas -arch=sm_90 %t.align16.ptx -o %t.align16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' --target sm_70 -o %t.align16.70.ptx
# RUN: ptxas -arch=sm_70 %t.align16.70.ptx -o %t.align16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' --target sm_80 -o %t.align16.80.ptx
# RUN: ptxas -arch=sm_80 %t.align16.80.ptx -o %t.align16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' --target sm_90 -o %t.align16-nested.ptx
# RUN: FileCheck %s --check-prefix=ALIGN16-NESTED --input-file=%t.align16-nested.ptx
# RUN: ptxas -arch=sm_90 %t.align16-nested.ptx -o %t.align16-nested.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' --target sm_70 -o %t.align16-nested.70.ptx
# RUN: ptxas -arch=sm_70 %t.align16-nested.70.ptx -o %t.align16-nested.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' --target sm_80 -o %t.align16-nested.80.ptx
# RUN: ptxas -arch=sm_80 %t.align16-nested.80.ptx -o %t.align16-nested.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' --target sm_90 -o %t.interop.ptx
# RUN: FileCheck %s --check-prefix=INTEROP --input-file=%t.interop.ptx
# RUN: ptxas -arch=sm_90 %t.interop.ptx -o %t.interop.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.interop.70.ptx
# RUN: ptxas -arch=sm_70 %t.interop.70.ptx -o %t.interop.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.interop.80.ptx
# RUN: ptxas -arch=sm_80 %t.interop.80.ptx -o %t.interop.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' --target sm_90 -o %t.interop-kernel.ptx
# RUN: FileCheck %s --check-prefix=INTEROP-KERNEL --input-file=%t.interop-kernel.ptx
# RUN: ptxas -arch=sm_90 %t.interop-kernel.ptx -o %t.interop-kernel.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.interop-kernel.70.ptx
# RUN: ptxas -arch=sm_70 %t.interop-kernel.70.ptx -o %t.interop-kernel.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.interop-kernel.80.ptx
# RUN: ptxas -arch=sm_80 %t.interop-kernel.80.ptx -o %t.interop-kernel.80.cubin

# A tuple by value is a C struct of its members in order (nested tuples are
# nested structs): int8@0, int32@4, int16@8, float32@12, (int8@16, int64@24),
# 32 bytes aligned to 8; unpacked and stored, len(t) is the constant 5.0.
# TUPLE-LABEL: .visible .entry tuple_arg(
# TUPLE-DAG: .param .align 8 .b8 tuple_arg_param_1[32]
# TUPLE-DAG: ld.param.s8 	%rs{{[0-9]+}}, [tuple_arg_param_1]
# TUPLE-DAG: ld.param.b32 	%r{{[0-9]+}}, [tuple_arg_param_1+4]
# TUPLE-DAG: ld.param.b16 	%rs{{[0-9]+}}, [tuple_arg_param_1+8]
# TUPLE-DAG: ld.param.b32 	%r{{[0-9]+}}, [tuple_arg_param_1+12]
# TUPLE-DAG: ld.param.s8 	%rs{{[0-9]+}}, [tuple_arg_param_1+16]
# TUPLE-DAG: ld.param.b64 	%rd{{[0-9]+}}, [tuple_arg_param_1+24]
# TUPLE-DAG: st.global.b64 	[%rd{{[0-9]+}}+48], 4617315517961601024

# An interoperable function taking a tuple: the plain symbol tuple_sum with one
# by-value parameter, the C struct {int8; float; int64} (16 bytes, align 8);
# int8 + float32 + int64 is float32 (the .b32 return value).
# TUPLE-INTEROP-LABEL: .visible .func (.param .b32 func_retval0) tuple_sum(
# TUPLE-INTEROP-NEXT: .param .align 8 .b8 tuple_sum_param_0[16]
# TUPLE-INTEROP-NEXT: )
# TUPLE-INTEROP-DAG: ld.param.s8 	%rs{{[0-9]+}}, [tuple_sum_param_0]
# TUPLE-INTEROP-DAG: ld.param.b32 	%r{{[0-9]+}}, [tuple_sum_param_0+4]
# TUPLE-INTEROP-DAG: ld.param.b64 	%rd{{[0-9]+}}, [tuple_sum_param_0+8]
# TUPLE-INTEROP-DAG: cvt.rn.f32.s64
# TUPLE-INTEROP: st.param.b32 	[func_retval0]
# TUPLE-INTEROP-LABEL: .visible .entry tuple_interop(
# TUPLE-INTEROP: add.f32

# Struct methods (@device.func in an @struct class): v.scaled(k), v.dot(w),
# w.norm2() (a method calling a method) and a keyword argument, inlined into
# the kernel: no call, the dot products are fma.rn.f32 of the scaled lanes.
# METHODS-LABEL: .visible .entry struct_methods(
# METHODS: ld.global.b32 	[[X:%r[0-9]+]]
# METHODS: ld.global.b32 	[[Y:%r[0-9]+]]
# METHODS: cvt.rn.f32.s32 	[[K:%r[0-9]+]]
# METHODS-NEXT: mul.f32 	[[WX:%r[0-9]+]], [[X]], [[K]]
# METHODS-NEXT: mul.f32 	[[WY:%r[0-9]+]], [[Y]], [[K]]
# METHODS-NEXT: mul.f32 	[[T:%r[0-9]+]], [[Y]], [[WY]]
# METHODS-NEXT: fma.rn.f32 	[[DOT:%r[0-9]+]], [[X]], [[WX]], [[T]]
# METHODS: st.global.b32 	[%rd{{[0-9]+}}], [[DOT]]
# METHODS: mul.f32 	[[U:%r[0-9]+]], [[WY]], [[WY]]
# METHODS-NEXT: fma.rn.f32 	[[N2:%r[0-9]+]], [[WX]], [[WX]], [[U]]
# METHODS-NEXT: st.global.b32 	[%rd{{[0-9]+}}+4], [[N2]]
# METHODS-NEXT: st.global.b32 	[%rd{{[0-9]+}}+8], [[DOT]]
# METHODS-NEXT: st.global.b32 	[%rd{{[0-9]+}}+12], [[WX]]
# METHODS-NOT: call

# @struct(align=16) of two floats: array elements of 16 bytes (index << 4),
# fields at 0 and 4; by value a 16-byte parameter aligned to 16 as nvcc
# declares alignas(16) structs.
# ALIGN16-LABEL: .visible .entry aligned_structs(
# ALIGN16-DAG: .param .align 16 .b8 aligned_structs_param_2[16]
# ALIGN16-DAG: ld.param.v2.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}}, [aligned_structs_param_2]
# ALIGN16-DAG: shl.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 4
# ALIGN16-DAG: ld.global.b32 	[[RE:%r[0-9]+]], [[[P:%rd[0-9]+]]]
# ALIGN16-DAG: ld.global.b32 	[[IM:%r[0-9]+]], [[[P]]+4]
# ALIGN16-DAG: st.global.b32 	[[[P]]], [[IM]]
# ALIGN16-DAG: st.global.b32 	[[[P]]+4]

# A struct holding an align=16 struct: 32-byte elements (index << 5), the
# int8 tag at 0, the inner struct at offset 16.
# ALIGN16-NESTED-LABEL: .visible .entry aligned_nested(
# ALIGN16-NESTED-DAG: .param .align 16 .b8 aligned_nested_param_2[16]
# ALIGN16-NESTED-DAG: shl.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 5
# ALIGN16-NESTED-DAG: ld.global.s8 	%rs{{[0-9]+}}, [[[P:%rd[0-9]+]]]
# ALIGN16-NESTED-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[P]]+16]
# ALIGN16-NESTED-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[P]]+20]
# ALIGN16-NESTED-DAG: st.global.b32 	[[[P]]+16]
# ALIGN16-NESTED-DAG: st.global.b32 	[[[P]]+20]
# ALIGN16-NESTED-DAG: st.global.b8 	[[[P]]]

# An interoperable function: the plain unmangled symbol `diff` with the C
# signature float diff(float, float) (what extern "C" __device__ gives),
# called from a kernel (inlined there).
# INTEROP-LABEL: .visible .func (.param .b32 func_retval0) diff(
# INTEROP-NEXT: .param .b32 diff_param_0,
# INTEROP-NEXT: .param .b32 diff_param_1
# INTEROP-NEXT: )
# INTEROP: ld.param.b32 	[[A:%r[0-9]+]], [diff_param_0]
# INTEROP: ld.param.b32 	[[B:%r[0-9]+]], [diff_param_1]
# INTEROP: sub.f32 	[[D:%r[0-9]+]], [[A]], [[B]]
# INTEROP: abs.f32 	[[R:%r[0-9]+]], [[D]]
# INTEROP: st.param.b32 	[func_retval0], [[R]]
# INTEROP-LABEL: .visible .entry interop_calls(
# INTEROP: sub.f32
# INTEROP: abs.f32

# An interoperable kernel (@kernel(interop=True)): a __global__ with the plain
# name, one by-value parameter per argument (array descriptors of 24 bytes).
# INTEROP-KERNEL-LABEL: .visible .entry interop_kernel(
# INTEROP-KERNEL-NEXT: .param .align 8 .b8 interop_kernel_param_0[24],
# INTEROP-KERNEL-NEXT: .param .align 8 .b8 interop_kernel_param_1[24],
# INTEROP-KERNEL-NEXT: .param .align 8 .b8 interop_kernel_param_2[24]
# INTEROP-KERNEL-NEXT: )
# INTEROP-KERNEL: ld.global.b32
# INTEROP-KERNEL: sub.f32
# INTEROP-KERNEL: abs.f32
# INTEROP-KERNEL: add.f32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 0f3F800000
