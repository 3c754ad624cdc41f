# Conformance of arrays (spec section "Arrays") in PTX: indexing, slicing and
# strided views, .shape, .strides in bytes, view(dtype), and structured element
# types; kernels of python/tests/conformance_kernels.py (run on the host target
# against NumPy by python/tests/test_conformance_host.py), gpu/kernels.py and
# Inputs/host_semantics.py, compiled for sm_90 and FileChecked (one prefix per
# kernel), and compiled for sm_70, sm_80 and sm_90 and assembled by ptxas.
# Element types of every fixed-format number: conformance-numbers.py.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' --target sm_90 -o %t.strides.ptx
# RUN: FileCheck %s --check-prefix=STRIDES --input-file=%t.strides.ptx
# RUN: ptxas -arch=sm_90 %t.strides.ptx -o %t.strides.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' --target sm_70 -o %t.strides.70.ptx
# RUN: ptxas -arch=sm_70 %t.strides.70.ptx -o %t.strides.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' --target sm_80 -o %t.strides.80.ptx
# RUN: ptxas -arch=sm_80 %t.strides.80.ptx -o %t.strides.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides3 --signature 'int64[::1], int16[:, :, :]' --target sm_90 -o %t.strides3.ptx
# RUN: FileCheck %s --check-prefix=STRIDES3 --input-file=%t.strides3.ptx
# RUN: ptxas -arch=sm_90 %t.strides3.ptx -o %t.strides3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides3 --signature 'int64[::1], int16[:, :, :]' --target sm_70 -o %t.strides3.70.ptx
# RUN: ptxas -arch=sm_70 %t.strides3.70.ptx -o %t.strides3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides3 --signature 'int64[::1], int16[:, :, :]' --target sm_80 -o %t.strides3.80.ptx
# RUN: ptxas -arch=sm_80 %t.strides3.80.ptx -o %t.strides3.80.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel views --signature 'float32[:, ::1], readonly float32[::1], readonly float32[:, ::1]' --target sm_90 -o %t.views.ptx
# RUN: FileCheck %s --check-prefix=VIEWS --input-file=%t.views.ptx
# RUN: ptxas -arch=sm_90 %t.views.ptx -o %t.views.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel views --signature 'float32[:, ::1], readonly float32[::1], readonly float32[:, ::1]' --target sm_70 -o %t.views.70.ptx
# RUN: ptxas -arch=sm_70 %t.views.70.ptx -o %t.views.70.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel views --signature 'float32[:, ::1], readonly float32[::1], readonly float32[:, ::1]' --target sm_80 -o %t.views.80.ptx
# RUN: ptxas -arch=sm_80 %t.views.80.ptx -o %t.views.80.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel stencil --signature 'float32[:, ::1], readonly float32[:, ::1]' --target sm_90 -o %t.stencil.ptx
# RUN: FileCheck %s --check-prefix=STENCIL --input-file=%t.stencil.ptx
# RUN: ptxas -arch=sm_90 %t.stencil.ptx -o %t.stencil.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel stencil --signature 'float32[:, ::1], readonly float32[:, ::1]' --target sm_70 -o %t.stencil.70.ptx
# RUN: ptxas -arch=sm_70 %t.stencil.70.ptx -o %t.stencil.70.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel stencil --signature 'float32[:, ::1], readonly float32[:, ::1]' --target sm_80 -o %t.stencil.80.ptx
# RUN: ptxas -arch=sm_80 %t.stencil.80.ptx -o %t.stencil.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_90 -o %t.dyn-view.ptx
# RUN: FileCheck %s --check-prefix=DYN-VIEW --input-file=%t.dyn-view.ptx
# RUN: ptxas -arch=sm_90 %t.dyn-view.ptx -o %t.dyn-view.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_70 -o %t.dyn-view.70.ptx
# RUN: ptxas -arch=sm_70 %t.dyn-view.70.ptx -o %t.dyn-view.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_80 -o %t.dyn-view.80.ptx
# RUN: ptxas -arch=sm_80 %t.dyn-view.80.ptx -o %t.dyn-view.80.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_90 -o %t.structured.ptx
# RUN: FileCheck %s --check-prefix=STRUCTURED --input-file=%t.structured.ptx
# RUN: ptxas -arch=sm_90 %t.structured.ptx -o %t.structured.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_70 -o %t.structured.70.ptx
# RUN: ptxas -arch=sm_70 %t.structured.70.ptx -o %t.structured.70.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_80 -o %t.structured.80.ptx
# RUN: ptxas -arch=sm_80 %t.structured.80.ptx -o %t.structured.80.cubin

# .strides in bytes: the descriptor's element strides (at +24 and +32 of the
# 40-byte 2-d float64 descriptor) times 8; a[::2, ::3] gives 16 and 24 times
# them, a[:, 1] the row stride, a[::-1] the negated row stride.
# STRIDES-LABEL: .visible .entry strides2(
# STRIDES-DAG: .param .align 8 .b8 strides2_param_1[40]
# STRIDES-DAG: ld.param.b64 	[[S0:%rd[0-9]+]], [strides2_param_1+24]
# STRIDES-DAG: ld.param.b64 	[[S1:%rd[0-9]+]], [strides2_param_1+32]
# STRIDES-DAG: shl.b64 	[[B0:%rd[0-9]+]], [[S0]], 3
# STRIDES-DAG: shl.b64 	[[B1:%rd[0-9]+]], [[S1]], 3
# STRIDES-DAG: shl.b64 	[[R0:%rd[0-9]+]], [[S0]], 4
# STRIDES-DAG: mul.lo.s64 	[[R1:%rd[0-9]+]], [[S1]], 24
# STRIDES-DAG: neg.s64 	[[N0:%rd[0-9]+]], [[B0]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}], [[B0]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+8], [[B1]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+16], [[R0]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+24], [[R1]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+32], [[B0]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+40], [[N0]]
# STRIDES-DAG: st.global.b64 	[%rd{{[0-9]+}}+48], [[B1]]

# A 3-d int16 array (56-byte descriptor): strides times 2.
# STRIDES3-LABEL: .visible .entry strides3(
# STRIDES3-DAG: .param .align 8 .b8 strides3_param_1[56]
# STRIDES3-DAG: ld.param.b64 	[[S0:%rd[0-9]+]], [strides3_param_1+32]
# STRIDES3-DAG: ld.param.b64 	[[S2:%rd[0-9]+]], [strides3_param_1+48]
# STRIDES3-DAG: shl.b64 	[[B0:%rd[0-9]+]], [[S0]], 1
# STRIDES3-DAG: shl.b64 	[[B2:%rd[0-9]+]], [[S2]], 1
# STRIDES3-DAG: st.global.b64 	[%rd{{[0-9]+}}], [[B0]]
# STRIDES3-DAG: st.global.b64 	[%rd{{[0-9]+}}+16], [[B2]]

# Views: a[::-1] (addresses going down: sub), a[1:-1:2] (Python's slice bounds
# clamped with min/max, a step of 2 floats: << 3), m[2] (row offset 2 * stride
# * 4: << 3), m[:, 1] and m.reshape(m.size), each stored in its column.
# VIEWS-LABEL: .visible .entry views(
# VIEWS-DAG: .param .align 8 .b8 views_param_1[24]
# VIEWS-DAG: .param .align 8 .b8 views_param_2[40]
# VIEWS-DAG: ld.param.b64 	[[AS:%rd[0-9]+]], [views_param_1+16]
# VIEWS-DAG: ld.param.b64 	[[MS:%rd[0-9]+]], [views_param_2+24]
# VIEWS-DAG: max.s64
# VIEWS-DAG: min.s64
# VIEWS-DAG: sub.s64
# VIEWS-DAG: mul.lo.s64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, [[AS]]
# VIEWS-DAG: shl.b64 	%rd{{[0-9]+}}, [[MS]], 3
# VIEWS-DAG: shl.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 3
# VIEWS-DAG: st.global.b32 	[%rd{{[0-9]+}}+4]
# VIEWS-DAG: st.global.b32 	[%rd{{[0-9]+}}+8]
# VIEWS-DAG: st.global.b32 	[%rd{{[0-9]+}}+12]
# VIEWS-DAG: st.global.b32 	[%rd{{[0-9]+}}+16]

# Tuple indexing, .shape (n, m read from the descriptor at +8 and +16) and a
# C-contiguous inner dimension (u[i, j -+ 1] at -4 and +4 bytes).
# STENCIL-LABEL: .visible .entry stencil(
# STENCIL-DAG: ld.param.b64 	%rd{{[0-9]+}}, [stencil_param_1+8]
# STENCIL-DAG: ld.param.b64 	%rd{{[0-9]+}}, [stencil_param_1+16]
# STENCIL-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[U:%rd[0-9]+]]+-4]
# STENCIL-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[U]]+4]
# STENCIL-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[U]]]
# STENCIL-DAG: fma.rn.f32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 0fC0800000, %r{{[0-9]+}}
# STENCIL-DAG: st.global.b32

# view(float32) of the dynamic uint8 shared array: extent / 4 (shr), 4-byte
# shared accesses.
# DYN-VIEW-LABEL: .visible .entry dyn_reverse(
# DYN-VIEW-DAG: shr.u32
# DYN-VIEW-DAG: st.shared.b32
# DYN-VIEW-DAG: ld.shared.b32

# A NumPy structured dtype {pos: float32x4, mass: float32} as the element type:
# 32-byte elements (<< 5), the float4 field as vector loads and stores, mass at 16.
# STRUCTURED-LABEL: .visible .entry push(
# STRUCTURED-DAG: shl.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 5
# STRUCTURED-DAG: ld.global.v4.b32 	{%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [[[P:%rd[0-9]+]]]
# STRUCTURED-DAG: ld.global.b32 	%r{{[0-9]+}}, [[[P]]+16]
# STRUCTURED-DAG: st.global.v4.b32 	[[[P]]]
