# Vectors of float8 (spec: Vector Types `float8e4m3xN` <-> `__nv_fp8xN_e4m3`,
# `float8e5m2xN` <-> `__nv_fp8xN_e5m2`) on the cuda target: the kernels of
# python/tests/conformance_kernels.py that run on the host against ml_dtypes
# (test_conformance_host.py test_float8e4m3xN_vectors,
# test_float8e5m2xN_vectors, test_float8_vectors_in_shared_arrays).
# pydev-lower-float8 keeps the lanes as bits (`!pydev.vector<N x i8>`, one
# byte a lane: an x2 is 2 bytes aligned to 2, an x4 4 aligned to 4, as
# __nv_fp8x2/x4) and converts each lane in software (round to nearest even;
# e4m3 overflow is NaN as in ml_dtypes, where cvt.rn.satfinite would
# saturate). Compiled for sm_90 (FileChecked), sm_70 and sm_80, each
# assembled with ptxas.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' -o %t.e4m3.ptx
# RUN: FileCheck %s --check-prefix=E4M3 --input-file=%t.e4m3.ptx
# RUN: ptxas -arch=sm_90 %t.e4m3.ptx -o %t.e4m3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.e4m3.70.ptx
# RUN: ptxas -arch=sm_70 %t.e4m3.70.ptx -o %t.e4m3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.e4m3.80.ptx
# RUN: ptxas -arch=sm_80 %t.e4m3.80.ptx -o %t.e4m3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' -o %t.e5m2.ptx
# RUN: FileCheck %s --check-prefix=E5M2 --input-file=%t.e5m2.ptx
# RUN: ptxas -arch=sm_90 %t.e5m2.ptx -o %t.e5m2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.e5m2.70.ptx
# RUN: ptxas -arch=sm_70 %t.e5m2.70.ptx -o %t.e5m2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.e5m2.80.ptx
# RUN: ptxas -arch=sm_80 %t.e5m2.80.ptx -o %t.e5m2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_vectors --signature 'float32[:, ::1], float32[::1]' -o %t.shared.ptx
# RUN: FileCheck %s --check-prefix=SHARED --input-file=%t.shared.ptx
# RUN: ptxas -arch=sm_90 %t.shared.ptx -o %t.shared.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_vectors --signature 'float32[:, ::1], float32[::1]' --target sm_70 -o %t.shared.70.ptx
# RUN: ptxas -arch=sm_70 %t.shared.70.ptx -o %t.shared.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_vectors --signature 'float32[:, ::1], float32[::1]' --target sm_80 -o %t.shared.80.ptx
# RUN: ptxas -arch=sm_80 %t.shared.80.ptx -o %t.shared.80.cubin
# Kernel parameters of float8 vectors: __nv_fp8x2 is 2 bytes aligned to 2, x4 4 aligned to 4.
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float8e4m3x4' -o %t.param4.ptx
# RUN: FileCheck %s --check-prefix=PARAM4 --input-file=%t.param4.ptx
# RUN: ptxas -arch=sm_90 %t.param4.ptx -o %t.param4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float8e5m2x2' --target sm_70 -o %t.param2.70.ptx
# RUN: FileCheck %s --check-prefix=PARAM2 --input-file=%t.param2.70.ptx
# RUN: ptxas -arch=sm_70 %t.param2.70.ptx -o %t.param2.70.cubin

# float32 -> e4m3 lane by lane: RNE on the f32 bits (bfe of the guard bit),
# subnormals through the 2^23 trick (cvt.rzi), codes above 0x7E become NaN.
# E4M3-LABEL: .visible .entry build_float8e4m3(
# E4M3-DAG: ld.global.b32
# E4M3-DAG: bfe.u32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 20, 1;
# E4M3-DAG: add.rn.f32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 0f4B000000;
# E4M3-DAG: cvt.rzi.u32.f32
# E4M3-DAG: min.u32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 127;
# E4M3-DAG: st.global.b32
# E4M3-NOT: cvt.rn.satfinite

# e5m2 -> float32 is the upper byte of a half: cvt.f32.f16.
# E5M2-LABEL: .visible .entry build_float8e5m2(
# E5M2-DAG: bfe.u32 	%r{{[0-9]+}}, %r{{[0-9]+}}, 21, 1;
# E5M2-DAG: cvt.f32.f16
# E5M2-DAG: st.global.b32

# Shared arrays of float8e4m3x4 (4 bytes a vector, one 32-bit access) and
# float8e5m2x2 (2 bytes, a v2.b8 access).
# SHARED-LABEL: .visible .entry float8_vectors(
# SHARED-DAG: .shared .align 4 .b8 __pydev_shared_{{[0-9]+}}[128];
# SHARED-DAG: .shared .align 2 .b8 __pydev_shared_{{[0-9]+}}[64];
# SHARED-DAG: st.shared.b32
# SHARED-DAG: st.shared.v2.b8
# SHARED-DAG: bar.sync 	0;
# SHARED-DAG: ld.shared.b32
# SHARED-DAG: ld.shared.v2.b8
# SHARED-DAG: cvt.f32.f16

# PARAM4-LABEL: .visible .entry vector_lanes(
# PARAM4: .param .align 4 .b8 vector_lanes_param_1[4]
# PARAM2-LABEL: .visible .entry vector_lanes(
# PARAM2: .param .align 2 .b8 vector_lanes_param_1[2]
