# Conformance of vectors and the vector types (spec sections "Vectors" and
# "Vector Types") in PTX: the kernels of python/tests/conformance_kernels.py
# (run on the host target against NumPy by python/tests/test_conformance_host.py)
# and gpu/kernels.py (push), compiled for sm_90 and FileChecked (one prefix per
# kernel and vector type), and compiled for sm_70, sm_80 and sm_90 and
# assembled by ptxas.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' --target sm_90 -o %t.vec-rebind.ptx
# RUN: FileCheck %s --check-prefix=VEC-REBIND --input-file=%t.vec-rebind.ptx
# RUN: ptxas -arch=sm_90 %t.vec-rebind.ptx -o %t.vec-rebind.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' --target sm_70 -o %t.vec-rebind.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-rebind.70.ptx -o %t.vec-rebind.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' --target sm_80 -o %t.vec-rebind.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-rebind.80.ptx -o %t.vec-rebind.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' --target sm_90 -o %t.lanes-char4.ptx
# RUN: FileCheck %s --check-prefix=LANES-CHAR4 --input-file=%t.lanes-char4.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-char4.ptx -o %t.lanes-char4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' --target sm_70 -o %t.lanes-char4.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-char4.70.ptx -o %t.lanes-char4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' --target sm_80 -o %t.lanes-char4.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-char4.80.ptx -o %t.lanes-char4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' --target sm_90 -o %t.lanes-char3.ptx
# RUN: FileCheck %s --check-prefix=LANES-CHAR3 --input-file=%t.lanes-char3.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-char3.ptx -o %t.lanes-char3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' --target sm_70 -o %t.lanes-char3.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-char3.70.ptx -o %t.lanes-char3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' --target sm_80 -o %t.lanes-char3.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-char3.80.ptx -o %t.lanes-char3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' --target sm_90 -o %t.lanes-short2.ptx
# RUN: FileCheck %s --check-prefix=LANES-SHORT2 --input-file=%t.lanes-short2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-short2.ptx -o %t.lanes-short2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' --target sm_70 -o %t.lanes-short2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-short2.70.ptx -o %t.lanes-short2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' --target sm_80 -o %t.lanes-short2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-short2.80.ptx -o %t.lanes-short2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' --target sm_90 -o %t.lanes-int4.ptx
# RUN: FileCheck %s --check-prefix=LANES-INT4 --input-file=%t.lanes-int4.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-int4.ptx -o %t.lanes-int4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' --target sm_70 -o %t.lanes-int4.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-int4.70.ptx -o %t.lanes-int4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' --target sm_80 -o %t.lanes-int4.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-int4.80.ptx -o %t.lanes-int4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' --target sm_90 -o %t.lanes-longlong2.ptx
# RUN: FileCheck %s --check-prefix=LANES-LONGLONG2 --input-file=%t.lanes-longlong2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-longlong2.ptx -o %t.lanes-longlong2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' --target sm_70 -o %t.lanes-longlong2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-longlong2.70.ptx -o %t.lanes-longlong2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' --target sm_80 -o %t.lanes-longlong2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-longlong2.80.ptx -o %t.lanes-longlong2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' --target sm_90 -o %t.lanes-longlong3.ptx
# RUN: FileCheck %s --check-prefix=LANES-LONGLONG3 --input-file=%t.lanes-longlong3.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-longlong3.ptx -o %t.lanes-longlong3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' --target sm_70 -o %t.lanes-longlong3.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-longlong3.70.ptx -o %t.lanes-longlong3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' --target sm_80 -o %t.lanes-longlong3.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-longlong3.80.ptx -o %t.lanes-longlong3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' --target sm_90 -o %t.lanes-longlong4.ptx
# RUN: FileCheck %s --check-prefix=LANES-LONGLONG4 --input-file=%t.lanes-longlong4.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-longlong4.ptx -o %t.lanes-longlong4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' --target sm_70 -o %t.lanes-longlong4.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-longlong4.70.ptx -o %t.lanes-longlong4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' --target sm_80 -o %t.lanes-longlong4.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-longlong4.80.ptx -o %t.lanes-longlong4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' --target sm_90 -o %t.lanes-uchar2.ptx
# RUN: FileCheck %s --check-prefix=LANES-UCHAR2 --input-file=%t.lanes-uchar2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-uchar2.ptx -o %t.lanes-uchar2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' --target sm_70 -o %t.lanes-uchar2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-uchar2.70.ptx -o %t.lanes-uchar2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' --target sm_80 -o %t.lanes-uchar2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-uchar2.80.ptx -o %t.lanes-uchar2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' --target sm_90 -o %t.lanes-ushort4.ptx
# RUN: FileCheck %s --check-prefix=LANES-USHORT4 --input-file=%t.lanes-ushort4.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-ushort4.ptx -o %t.lanes-ushort4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' --target sm_70 -o %t.lanes-ushort4.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-ushort4.70.ptx -o %t.lanes-ushort4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' --target sm_80 -o %t.lanes-ushort4.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-ushort4.80.ptx -o %t.lanes-ushort4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' --target sm_90 -o %t.lanes-uint2.ptx
# RUN: FileCheck %s --check-prefix=LANES-UINT2 --input-file=%t.lanes-uint2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-uint2.ptx -o %t.lanes-uint2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' --target sm_70 -o %t.lanes-uint2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-uint2.70.ptx -o %t.lanes-uint2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' --target sm_80 -o %t.lanes-uint2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-uint2.80.ptx -o %t.lanes-uint2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' --target sm_90 -o %t.lanes-ulonglong2.ptx
# RUN: FileCheck %s --check-prefix=LANES-ULONGLONG2 --input-file=%t.lanes-ulonglong2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-ulonglong2.ptx -o %t.lanes-ulonglong2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' --target sm_70 -o %t.lanes-ulonglong2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-ulonglong2.70.ptx -o %t.lanes-ulonglong2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' --target sm_80 -o %t.lanes-ulonglong2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-ulonglong2.80.ptx -o %t.lanes-ulonglong2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' --target sm_90 -o %t.lanes-half2.ptx
# RUN: FileCheck %s --check-prefix=LANES-HALF2 --input-file=%t.lanes-half2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-half2.ptx -o %t.lanes-half2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' --target sm_70 -o %t.lanes-half2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-half2.70.ptx -o %t.lanes-half2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' --target sm_80 -o %t.lanes-half2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-half2.80.ptx -o %t.lanes-half2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'bfloat16[::1], bfloat16x2' --target sm_90 -o %t.lanes-bf162.ptx
# RUN: FileCheck %s --check-prefix=LANES-BF162 --input-file=%t.lanes-bf162.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-bf162.ptx -o %t.lanes-bf162.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'bfloat16[::1], bfloat16x2' --target sm_70 -o %t.lanes-bf162.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-bf162.70.ptx -o %t.lanes-bf162.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'bfloat16[::1], bfloat16x2' --target sm_80 -o %t.lanes-bf162.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-bf162.80.ptx -o %t.lanes-bf162.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x1' --target sm_90 -o %t.lanes-float1.ptx
# RUN: FileCheck %s --check-prefix=LANES-FLOAT1 --input-file=%t.lanes-float1.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-float1.ptx -o %t.lanes-float1.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x1' --target sm_70 -o %t.lanes-float1.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-float1.70.ptx -o %t.lanes-float1.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x1' --target sm_80 -o %t.lanes-float1.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-float1.80.ptx -o %t.lanes-float1.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' --target sm_90 -o %t.lanes-float3.ptx
# RUN: FileCheck %s --check-prefix=LANES-FLOAT3 --input-file=%t.lanes-float3.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-float3.ptx -o %t.lanes-float3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' --target sm_70 -o %t.lanes-float3.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-float3.70.ptx -o %t.lanes-float3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' --target sm_80 -o %t.lanes-float3.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-float3.80.ptx -o %t.lanes-float3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x4' --target sm_90 -o %t.lanes-float4.ptx
# RUN: FileCheck %s --check-prefix=LANES-FLOAT4 --input-file=%t.lanes-float4.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-float4.ptx -o %t.lanes-float4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x4' --target sm_70 -o %t.lanes-float4.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-float4.70.ptx -o %t.lanes-float4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x4' --target sm_80 -o %t.lanes-float4.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-float4.80.ptx -o %t.lanes-float4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' --target sm_90 -o %t.lanes-double2.ptx
# RUN: FileCheck %s --check-prefix=LANES-DOUBLE2 --input-file=%t.lanes-double2.ptx
# RUN: ptxas -arch=sm_90 %t.lanes-double2.ptx -o %t.lanes-double2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' --target sm_70 -o %t.lanes-double2.70.ptx
# RUN: ptxas -arch=sm_70 %t.lanes-double2.70.ptx -o %t.lanes-double2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' --target sm_80 -o %t.lanes-double2.80.ptx
# RUN: ptxas -arch=sm_80 %t.lanes-double2.80.ptx -o %t.lanes-double2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' --target sm_90 -o %t.build-int8.ptx
# RUN: FileCheck %s --check-prefix=BUILD-INT8 --input-file=%t.build-int8.ptx
# RUN: ptxas -arch=sm_90 %t.build-int8.ptx -o %t.build-int8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' --target sm_70 -o %t.build-int8.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-int8.70.ptx -o %t.build-int8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' --target sm_80 -o %t.build-int8.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-int8.80.ptx -o %t.build-int8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int16 --signature 'int16[::1], int16[::1]' --target sm_90 -o %t.build-int16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-INT16 --input-file=%t.build-int16.ptx
# RUN: ptxas -arch=sm_90 %t.build-int16.ptx -o %t.build-int16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int16 --signature 'int16[::1], int16[::1]' --target sm_70 -o %t.build-int16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-int16.70.ptx -o %t.build-int16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int16 --signature 'int16[::1], int16[::1]' --target sm_80 -o %t.build-int16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-int16.80.ptx -o %t.build-int16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int32 --signature 'int32[::1], int32[::1]' --target sm_90 -o %t.build-int32.ptx
# RUN: FileCheck %s --check-prefix=BUILD-INT32 --input-file=%t.build-int32.ptx
# RUN: ptxas -arch=sm_90 %t.build-int32.ptx -o %t.build-int32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int32 --signature 'int32[::1], int32[::1]' --target sm_70 -o %t.build-int32.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-int32.70.ptx -o %t.build-int32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int32 --signature 'int32[::1], int32[::1]' --target sm_80 -o %t.build-int32.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-int32.80.ptx -o %t.build-int32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int64 --signature 'int64[::1], int64[::1]' --target sm_90 -o %t.build-int64.ptx
# RUN: FileCheck %s --check-prefix=BUILD-INT64 --input-file=%t.build-int64.ptx
# RUN: ptxas -arch=sm_90 %t.build-int64.ptx -o %t.build-int64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int64 --signature 'int64[::1], int64[::1]' --target sm_70 -o %t.build-int64.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-int64.70.ptx -o %t.build-int64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int64 --signature 'int64[::1], int64[::1]' --target sm_80 -o %t.build-int64.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-int64.80.ptx -o %t.build-int64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint8 --signature 'uint8[::1], uint8[::1]' --target sm_90 -o %t.build-uint8.ptx
# RUN: FileCheck %s --check-prefix=BUILD-UINT8 --input-file=%t.build-uint8.ptx
# RUN: ptxas -arch=sm_90 %t.build-uint8.ptx -o %t.build-uint8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint8 --signature 'uint8[::1], uint8[::1]' --target sm_70 -o %t.build-uint8.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-uint8.70.ptx -o %t.build-uint8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint8 --signature 'uint8[::1], uint8[::1]' --target sm_80 -o %t.build-uint8.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-uint8.80.ptx -o %t.build-uint8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint16 --signature 'uint16[::1], uint16[::1]' --target sm_90 -o %t.build-uint16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-UINT16 --input-file=%t.build-uint16.ptx
# RUN: ptxas -arch=sm_90 %t.build-uint16.ptx -o %t.build-uint16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint16 --signature 'uint16[::1], uint16[::1]' --target sm_70 -o %t.build-uint16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-uint16.70.ptx -o %t.build-uint16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint16 --signature 'uint16[::1], uint16[::1]' --target sm_80 -o %t.build-uint16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-uint16.80.ptx -o %t.build-uint16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint32 --signature 'uint32[::1], uint32[::1]' --target sm_90 -o %t.build-uint32.ptx
# RUN: FileCheck %s --check-prefix=BUILD-UINT32 --input-file=%t.build-uint32.ptx
# RUN: ptxas -arch=sm_90 %t.build-uint32.ptx -o %t.build-uint32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint32 --signature 'uint32[::1], uint32[::1]' --target sm_70 -o %t.build-uint32.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-uint32.70.ptx -o %t.build-uint32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint32 --signature 'uint32[::1], uint32[::1]' --target sm_80 -o %t.build-uint32.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-uint32.80.ptx -o %t.build-uint32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint64 --signature 'uint64[::1], uint64[::1]' --target sm_90 -o %t.build-uint64.ptx
# RUN: FileCheck %s --check-prefix=BUILD-UINT64 --input-file=%t.build-uint64.ptx
# RUN: ptxas -arch=sm_90 %t.build-uint64.ptx -o %t.build-uint64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint64 --signature 'uint64[::1], uint64[::1]' --target sm_70 -o %t.build-uint64.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-uint64.70.ptx -o %t.build-uint64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_uint64 --signature 'uint64[::1], uint64[::1]' --target sm_80 -o %t.build-uint64.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-uint64.80.ptx -o %t.build-uint64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' --target sm_90 -o %t.build-float16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-FLOAT16 --input-file=%t.build-float16.ptx
# RUN: ptxas -arch=sm_90 %t.build-float16.ptx -o %t.build-float16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' --target sm_70 -o %t.build-float16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-float16.70.ptx -o %t.build-float16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' --target sm_80 -o %t.build-float16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-float16.80.ptx -o %t.build-float16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' --target sm_90 -o %t.build-float64.ptx
# RUN: FileCheck %s --check-prefix=BUILD-FLOAT64 --input-file=%t.build-float64.ptx
# RUN: ptxas -arch=sm_90 %t.build-float64.ptx -o %t.build-float64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' --target sm_70 -o %t.build-float64.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-float64.70.ptx -o %t.build-float64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' --target sm_80 -o %t.build-float64.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-float64.80.ptx -o %t.build-float64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' --target sm_90 -o %t.build-bfloat16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-BFLOAT16 --input-file=%t.build-bfloat16.ptx
# RUN: ptxas -arch=sm_90 %t.build-bfloat16.ptx -o %t.build-bfloat16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.build-bfloat16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-bfloat16.70.ptx -o %t.build-bfloat16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.build-bfloat16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-bfloat16.80.ptx -o %t.build-bfloat16.80.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_90 -o %t.push.ptx
# RUN: FileCheck %s --check-prefix=PUSH --input-file=%t.push.ptx
# RUN: ptxas -arch=sm_90 %t.push.ptx -o %t.push.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_70 -o %t.push.70.ptx
# RUN: ptxas -arch=sm_70 %t.push.70.ptx -o %t.push.70.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_80 -o %t.push.80.ptx
# RUN: ptxas -arch=sm_80 %t.push.80.ptx -o %t.push.80.cubin

# vector_rebind: a float32x4 by value is a float4 (.align 16, 16 bytes, one
# v4 load); v[i] = x and v.x = e rebind a copy (the old names keep their lanes:
# the int32x3 u.z stays 3.0 after w[2] = 9).
# VEC-REBIND-LABEL: .visible .entry vector_rebind(
# VEC-REBIND-DAG: .param .align 16 .b8 vector_rebind_param_1[16]
# VEC-REBIND-DAG: ld.param.v4.b32
# VEC-REBIND-DAG: st.global.b32 	[%rd{{[0-9]+}}+44], 1077936128
# VEC-REBIND-DAG: st.global.b32 	[%rd{{[0-9]+}}+48], 1091567616
# vector_lanes: a vector argument by value in its CUDA C++ layout (size and
# alignment of charN, shortN, ... as in vector_types.h), its lanes stored by
# iteration, a lane written, and v.size (a constant) stored last.
# LANES-CHAR4-LABEL: .visible .entry vector_lanes(
# LANES-CHAR4-DAG: .param .align 4 .b8 vector_lanes_param_1[4]
# LANES-CHAR4-DAG: st.global.b8 	[%rd{{[0-9]+}}+5], 4

# 3-lane vectors are arrays of their lanes (char3: 3 bytes, align 1; float3: 12
# bytes, align 4; longlong3: 24 bytes, align 8), not LLVM's padded vectors.
# LANES-CHAR3-LABEL: .visible .entry vector_lanes(
# LANES-CHAR3-DAG: .param .align 1 .b8 vector_lanes_param_1[3]
# LANES-CHAR3-DAG: st.global.b8 	[%rd{{[0-9]+}}+4], 3

# LANES-SHORT2-LABEL: .visible .entry vector_lanes(
# LANES-SHORT2-DAG: .param .align 4 .b8 vector_lanes_param_1[4]
# LANES-SHORT2-DAG: st.global.b16 	[%rd{{[0-9]+}}+6], 2

# LANES-INT4-LABEL: .visible .entry vector_lanes(
# LANES-INT4-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# LANES-INT4-DAG: ld.param.v4.b32 	{[[X:%r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [vector_lanes_param_1]
# LANES-INT4-DAG: st.global.b32 	[%rd{{[0-9]+}}+16], [[X]]
# LANES-INT4-DAG: st.global.b32 	[%rd{{[0-9]+}}+20], 4

# LANES-LONGLONG2-LABEL: .visible .entry vector_lanes(
# LANES-LONGLONG2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# LANES-LONGLONG2-DAG: ld.param.v2.b64 	{[[X:%rd[0-9]+]], %rd{{[0-9]+}}}, [vector_lanes_param_1]
# LANES-LONGLONG2-DAG: st.global.b64 	[%rd{{[0-9]+}}+16], [[X]]
# LANES-LONGLONG2-DAG: st.global.b64 	[%rd{{[0-9]+}}+24], 2

# LANES-LONGLONG3-LABEL: .visible .entry vector_lanes(
# LANES-LONGLONG3-DAG: .param .align 8 .b8 vector_lanes_param_1[24]
# LANES-LONGLONG3-DAG: st.global.b64 	[%rd{{[0-9]+}}+32], 3

# longlong4 is 32 bytes declared .align 8 (CUDA: 16; the size, what a launch
# copies, matches).
# LANES-LONGLONG4-LABEL: .visible .entry vector_lanes(
# LANES-LONGLONG4-DAG: .param .align 8 .b8 vector_lanes_param_1[32]
# LANES-LONGLONG4-DAG: st.global.b64 	[%rd{{[0-9]+}}+40], 4

# LANES-UCHAR2-LABEL: .visible .entry vector_lanes(
# LANES-UCHAR2-DAG: .param .align 2 .b8 vector_lanes_param_1[2]
# LANES-UCHAR2-DAG: st.global.b8 	[%rd{{[0-9]+}}+3], 2

# LANES-USHORT4-LABEL: .visible .entry vector_lanes(
# LANES-USHORT4-DAG: .param .align 8 .b8 vector_lanes_param_1[8]
# LANES-USHORT4-DAG: st.global.b16 	[%rd{{[0-9]+}}+10], 4

# LANES-UINT2-LABEL: .visible .entry vector_lanes(
# LANES-UINT2-DAG: .param .align 8 .b8 vector_lanes_param_1[8]
# LANES-UINT2-DAG: st.global.b32 	[%rd{{[0-9]+}}+12], 2

# LANES-ULONGLONG2-LABEL: .visible .entry vector_lanes(
# LANES-ULONGLONG2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# LANES-ULONGLONG2-DAG: ld.param.v2.b64 	{[[X:%rd[0-9]+]], %rd{{[0-9]+}}}, [vector_lanes_param_1]
# LANES-ULONGLONG2-DAG: st.global.b64 	[%rd{{[0-9]+}}+16], [[X]]
# LANES-ULONGLONG2-DAG: st.global.b64 	[%rd{{[0-9]+}}+24], 2

# __half2 and __nv_bfloat162: 4 bytes, align 4; v.size stored as the half 2.0.
# LANES-HALF2-LABEL: .visible .entry vector_lanes(
# LANES-HALF2-DAG: .param .align 4 .b8 vector_lanes_param_1[4]
# LANES-HALF2-DAG: st.global.b16 	[%rd{{[0-9]+}}+6], 0x4000

# LANES-BF162-LABEL: .visible .entry vector_lanes(
# LANES-BF162-DAG: .param .align 4 .b8 vector_lanes_param_1[4]
# LANES-BF162-DAG: st.global.b16 	[%rd{{[0-9]+}}+6], 0x4000

# LANES-FLOAT1-LABEL: .visible .entry vector_lanes(
# LANES-FLOAT1-DAG: .param .align 4 .b8 vector_lanes_param_1[4]
# LANES-FLOAT1-DAG: st.global.b32 	[%rd{{[0-9]+}}+8], 1065353216

# LANES-FLOAT3-LABEL: .visible .entry vector_lanes(
# LANES-FLOAT3-DAG: .param .align 4 .b8 vector_lanes_param_1[12]
# LANES-FLOAT3-DAG: ld.param.b32 	%r{{[0-9]+}}, [vector_lanes_param_1+8]
# LANES-FLOAT3-DAG: st.global.b32 	[%rd{{[0-9]+}}+16], 1077936128

# LANES-FLOAT4-LABEL: .visible .entry vector_lanes(
# LANES-FLOAT4-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# LANES-FLOAT4-DAG: ld.param.v4.b32 	{[[X:%r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [vector_lanes_param_1]
# LANES-FLOAT4-DAG: st.global.b32 	[%rd{{[0-9]+}}+16], [[X]]
# LANES-FLOAT4-DAG: st.global.b32 	[%rd{{[0-9]+}}+20], 1082130432

# LANES-DOUBLE2-LABEL: .visible .entry vector_lanes(
# LANES-DOUBLE2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# LANES-DOUBLE2-DAG: ld.param.v2.b64 	{[[X:%rd[0-9]+]], %rd{{[0-9]+}}}, [vector_lanes_param_1]
# LANES-DOUBLE2-DAG: st.global.b64 	[%rd{{[0-9]+}}+16], [[X]]
# LANES-DOUBLE2-DAG: st.global.b64 	[%rd{{[0-9]+}}+24], 4611686018427387904

# build_*: vectors of 1 to 4 lanes built in device code from array elements,
# read back by .x .y .z .w (a[3] -> v4.w -> out[9] keeps its register).
# BUILD-INT8-LABEL: .visible .entry build_int8(
# BUILD-INT8: ld.global.b8 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+3]
# BUILD-INT8: st.global.b8 	[%rd{{[0-9]+}}+9], [[W]]

# BUILD-INT16-LABEL: .visible .entry build_int16(
# BUILD-INT16: ld.global.b16 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+6]
# BUILD-INT16: st.global.b16 	[%rd{{[0-9]+}}+18], [[W]]

# BUILD-INT32-LABEL: .visible .entry build_int32(
# BUILD-INT32: ld.global.b32 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+12]
# BUILD-INT32: st.global.b32 	[%rd{{[0-9]+}}+36], [[W]]

# BUILD-INT64-LABEL: .visible .entry build_int64(
# BUILD-INT64: ld.global.b64 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+24]
# BUILD-INT64: st.global.b64 	[%rd{{[0-9]+}}+72], [[W]]

# BUILD-UINT8-LABEL: .visible .entry build_uint8(
# BUILD-UINT8: ld.global.b8 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+3]
# BUILD-UINT8: st.global.b8 	[%rd{{[0-9]+}}+9], [[W]]

# BUILD-UINT16-LABEL: .visible .entry build_uint16(
# BUILD-UINT16: ld.global.b16 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+6]
# BUILD-UINT16: st.global.b16 	[%rd{{[0-9]+}}+18], [[W]]

# BUILD-UINT32-LABEL: .visible .entry build_uint32(
# BUILD-UINT32: ld.global.b32 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+12]
# BUILD-UINT32: st.global.b32 	[%rd{{[0-9]+}}+36], [[W]]

# BUILD-UINT64-LABEL: .visible .entry build_uint64(
# BUILD-UINT64: ld.global.b64 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+24]
# BUILD-UINT64: st.global.b64 	[%rd{{[0-9]+}}+72], [[W]]

# BUILD-FLOAT16-LABEL: .visible .entry build_float16(
# BUILD-FLOAT16: ld.global.b16 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+6]
# BUILD-FLOAT16: st.global.b16 	[%rd{{[0-9]+}}+18], [[W]]

# BUILD-FLOAT64-LABEL: .visible .entry build_float64(
# BUILD-FLOAT64: ld.global.b64 	[[W:%r[sd]?[0-9]+]], [%rd{{[0-9]+}}+24]
# BUILD-FLOAT64: st.global.b64 	[%rd{{[0-9]+}}+72], [[W]]

# bfloat16xN (device code only): lanes converted from float32 and back.
# BUILD-BFLOAT16-LABEL: .visible .entry build_bfloat16(
# BUILD-BFLOAT16-DAG: cvt.rn.bf16.f32
# BUILD-BFLOAT16-DAG: cvt.f32.bf16
# BUILD-BFLOAT16-DAG: st.global.b32 	[%rd{{[0-9]+}}+36]

# A float32x4 field of a struct in an array: 16-byte vector loads and stores
# (ld.global.v4), the next field at offset 16.
# PUSH-LABEL: .visible .entry push(
# PUSH-DAG: ld.global.v4.b32
# PUSH-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+16]
# PUSH-DAG: st.global.v4.b32
