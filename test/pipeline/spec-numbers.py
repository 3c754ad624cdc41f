# Fixed-format numbers, numeric promotion, vectors, tuples, structs, arrays and
# interoperable functions (spec sections of those names), compiled to PTX:
# the kernels of python/tests/conformance_kernels.py (run on the host target
# against NumPy by python/tests/test_conformance_host.py) and
# test/Inputs/host_semantics.py, FileChecked for sm_90 and assembled by ptxas
# for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' -o %t.int8.ptx
# RUN: FileCheck %s --check-prefix=INT8 --input-file=%t.int8.ptx
# RUN: ptxas -arch=sm_90 %t.int8.ptx -o %t.int8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' --target sm_70 -o %t.int8.70.ptx
# RUN: ptxas -arch=sm_70 %t.int8.70.ptx -o %t.int8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' --target sm_80 -o %t.int8.80.ptx
# RUN: ptxas -arch=sm_80 %t.int8.80.ptx -o %t.int8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' -o %t.uint8.ptx
# RUN: FileCheck %s --check-prefix=UINT8 --input-file=%t.uint8.ptx
# RUN: ptxas -arch=sm_90 %t.uint8.ptx -o %t.uint8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' --target sm_70 -o %t.uint8.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint8.70.ptx -o %t.uint8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' --target sm_80 -o %t.uint8.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint8.80.ptx -o %t.uint8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' -o %t.uint16.ptx
# RUN: FileCheck %s --check-prefix=UINT16 --input-file=%t.uint16.ptx
# RUN: ptxas -arch=sm_90 %t.uint16.ptx -o %t.uint16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' --target sm_70 -o %t.uint16.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint16.70.ptx -o %t.uint16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' --target sm_80 -o %t.uint16.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint16.80.ptx -o %t.uint16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' -o %t.uint64.ptx
# RUN: FileCheck %s --check-prefix=UINT64 --input-file=%t.uint64.ptx
# RUN: ptxas -arch=sm_90 %t.uint64.ptx -o %t.uint64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' --target sm_70 -o %t.uint64.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint64.70.ptx -o %t.uint64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' --target sm_80 -o %t.uint64.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint64.80.ptx -o %t.uint64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' -o %t.float16.ptx
# RUN: FileCheck %s --check-prefix=FLOAT16 --input-file=%t.float16.ptx
# RUN: ptxas -arch=sm_90 %t.float16.ptx -o %t.float16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' --target sm_70 -o %t.float16.70.ptx
# RUN: ptxas -arch=sm_70 %t.float16.70.ptx -o %t.float16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' --target sm_80 -o %t.float16.80.ptx
# RUN: ptxas -arch=sm_80 %t.float16.80.ptx -o %t.float16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' -o %t.bfloat16.ptx
# RUN: FileCheck %s --check-prefix=BFLOAT16 --input-file=%t.bfloat16.ptx
# RUN: ptxas -arch=sm_90 %t.bfloat16.ptx -o %t.bfloat16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' --target sm_70 -o %t.bfloat16.70.ptx
# RUN: ptxas -arch=sm_70 %t.bfloat16.70.ptx -o %t.bfloat16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' --target sm_80 -o %t.bfloat16.80.ptx
# RUN: ptxas -arch=sm_80 %t.bfloat16.80.ptx -o %t.bfloat16.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel local_sort --signature 'float64[:, ::1], readonly float64[:, ::1]' -o %t.float64.ptx
# RUN: FileCheck %s --check-prefix=FLOAT64 --input-file=%t.float64.ptx
# RUN: ptxas -arch=sm_90 %t.float64.ptx -o %t.float64.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel local_sort --signature 'float64[:, ::1], readonly float64[:, ::1]' --target sm_70 -o %t.float64.70.ptx
# RUN: ptxas -arch=sm_70 %t.float64.70.ptx -o %t.float64.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel local_sort --signature 'float64[:, ::1], readonly float64[:, ::1]' --target sm_80 -o %t.float64.80.ptx
# RUN: ptxas -arch=sm_80 %t.float64.80.ptx -o %t.float64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' -o %t.complex128.ptx
# RUN: FileCheck %s --check-prefix=COMPLEX128 --input-file=%t.complex128.ptx
# RUN: ptxas -arch=sm_90 %t.complex128.ptx -o %t.complex128.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' --target sm_70 -o %t.complex128.70.ptx
# RUN: ptxas -arch=sm_70 %t.complex128.70.ptx -o %t.complex128.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' --target sm_80 -o %t.complex128.80.ptx
# RUN: ptxas -arch=sm_80 %t.complex128.80.ptx -o %t.complex128.80.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' -o %t.truediv.ptx
# RUN: FileCheck %s --check-prefix=TRUEDIV --input-file=%t.truediv.ptx
# RUN: ptxas -arch=sm_90 %t.truediv.ptx -o %t.truediv.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --target sm_70 -o %t.truediv.70.ptx
# RUN: ptxas -arch=sm_70 %t.truediv.70.ptx -o %t.truediv.70.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --target sm_80 -o %t.truediv.80.ptx
# RUN: ptxas -arch=sm_80 %t.truediv.80.ptx -o %t.truediv.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' -o %t.bits-s32.ptx
# RUN: FileCheck %s --check-prefix=BITS-S32 --input-file=%t.bits-s32.ptx
# RUN: ptxas -arch=sm_90 %t.bits-s32.ptx -o %t.bits-s32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' --target sm_70 -o %t.bits-s32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-s32.70.ptx -o %t.bits-s32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' --target sm_80 -o %t.bits-s32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-s32.80.ptx -o %t.bits-s32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' -o %t.bits-u64.ptx
# RUN: FileCheck %s --check-prefix=BITS-U64 --input-file=%t.bits-u64.ptx
# RUN: ptxas -arch=sm_90 %t.bits-u64.ptx -o %t.bits-u64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' --target sm_70 -o %t.bits-u64.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-u64.70.ptx -o %t.bits-u64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' --target sm_80 -o %t.bits-u64.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-u64.80.ptx -o %t.bits-u64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' -o %t.vec-rebind.ptx
# RUN: FileCheck %s --check-prefix=VEC-REBIND --input-file=%t.vec-rebind.ptx
# RUN: ptxas -arch=sm_90 %t.vec-rebind.ptx -o %t.vec-rebind.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' --target sm_70 -o %t.vec-rebind.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-rebind.70.ptx -o %t.vec-rebind.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_rebind --signature 'float32[::1], float32x4, float32, int32' --target sm_80 -o %t.vec-rebind.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-rebind.80.ptx -o %t.vec-rebind.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' -o %t.vec-char4.ptx
# RUN: FileCheck %s --check-prefix=VEC-CHAR4 --input-file=%t.vec-char4.ptx
# RUN: ptxas -arch=sm_90 %t.vec-char4.ptx -o %t.vec-char4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' --target sm_70 -o %t.vec-char4.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-char4.70.ptx -o %t.vec-char4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x4' --target sm_80 -o %t.vec-char4.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-char4.80.ptx -o %t.vec-char4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' -o %t.vec-short2.ptx
# RUN: FileCheck %s --check-prefix=VEC-SHORT2 --input-file=%t.vec-short2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-short2.ptx -o %t.vec-short2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' --target sm_70 -o %t.vec-short2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-short2.70.ptx -o %t.vec-short2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int16[::1], int16x2' --target sm_80 -o %t.vec-short2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-short2.80.ptx -o %t.vec-short2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' -o %t.vec-int4.ptx
# RUN: FileCheck %s --check-prefix=VEC-INT4 --input-file=%t.vec-int4.ptx
# RUN: ptxas -arch=sm_90 %t.vec-int4.ptx -o %t.vec-int4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' --target sm_70 -o %t.vec-int4.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-int4.70.ptx -o %t.vec-int4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int32[::1], int32x4' --target sm_80 -o %t.vec-int4.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-int4.80.ptx -o %t.vec-int4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' -o %t.vec-longlong2.ptx
# RUN: FileCheck %s --check-prefix=VEC-LONGLONG2 --input-file=%t.vec-longlong2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-longlong2.ptx -o %t.vec-longlong2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' --target sm_70 -o %t.vec-longlong2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-longlong2.70.ptx -o %t.vec-longlong2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x2' --target sm_80 -o %t.vec-longlong2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-longlong2.80.ptx -o %t.vec-longlong2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' -o %t.vec-uchar2.ptx
# RUN: FileCheck %s --check-prefix=VEC-UCHAR2 --input-file=%t.vec-uchar2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-uchar2.ptx -o %t.vec-uchar2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' --target sm_70 -o %t.vec-uchar2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-uchar2.70.ptx -o %t.vec-uchar2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint8[::1], uint8x2' --target sm_80 -o %t.vec-uchar2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-uchar2.80.ptx -o %t.vec-uchar2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' -o %t.vec-ushort4.ptx
# RUN: FileCheck %s --check-prefix=VEC-USHORT4 --input-file=%t.vec-ushort4.ptx
# RUN: ptxas -arch=sm_90 %t.vec-ushort4.ptx -o %t.vec-ushort4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' --target sm_70 -o %t.vec-ushort4.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-ushort4.70.ptx -o %t.vec-ushort4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint16[::1], uint16x4' --target sm_80 -o %t.vec-ushort4.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-ushort4.80.ptx -o %t.vec-ushort4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' -o %t.vec-uint2.ptx
# RUN: FileCheck %s --check-prefix=VEC-UINT2 --input-file=%t.vec-uint2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-uint2.ptx -o %t.vec-uint2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' --target sm_70 -o %t.vec-uint2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-uint2.70.ptx -o %t.vec-uint2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint32[::1], uint32x2' --target sm_80 -o %t.vec-uint2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-uint2.80.ptx -o %t.vec-uint2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' -o %t.vec-ulonglong2.ptx
# RUN: FileCheck %s --check-prefix=VEC-ULONGLONG2 --input-file=%t.vec-ulonglong2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-ulonglong2.ptx -o %t.vec-ulonglong2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' --target sm_70 -o %t.vec-ulonglong2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-ulonglong2.70.ptx -o %t.vec-ulonglong2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'uint64[::1], uint64x2' --target sm_80 -o %t.vec-ulonglong2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-ulonglong2.80.ptx -o %t.vec-ulonglong2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' -o %t.vec-half2.ptx
# RUN: FileCheck %s --check-prefix=VEC-HALF2 --input-file=%t.vec-half2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-half2.ptx -o %t.vec-half2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' --target sm_70 -o %t.vec-half2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-half2.70.ptx -o %t.vec-half2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float16[::1], float16x2' --target sm_80 -o %t.vec-half2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-half2.80.ptx -o %t.vec-half2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' -o %t.vec-double2.ptx
# RUN: FileCheck %s --check-prefix=VEC-DOUBLE2 --input-file=%t.vec-double2.ptx
# RUN: ptxas -arch=sm_90 %t.vec-double2.ptx -o %t.vec-double2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' --target sm_70 -o %t.vec-double2.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-double2.70.ptx -o %t.vec-double2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float64[::1], float64x2' --target sm_80 -o %t.vec-double2.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-double2.80.ptx -o %t.vec-double2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' -o %t.vec-char3.ptx
# RUN: FileCheck %s --check-prefix=VEC-CHAR3 --input-file=%t.vec-char3.ptx
# RUN: ptxas -arch=sm_90 %t.vec-char3.ptx -o %t.vec-char3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' --target sm_70 -o %t.vec-char3.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-char3.70.ptx -o %t.vec-char3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int8[::1], int8x3' --target sm_80 -o %t.vec-char3.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-char3.80.ptx -o %t.vec-char3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' -o %t.vec-float3.ptx
# RUN: FileCheck %s --check-prefix=VEC-FLOAT3 --input-file=%t.vec-float3.ptx
# RUN: ptxas -arch=sm_90 %t.vec-float3.ptx -o %t.vec-float3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' --target sm_70 -o %t.vec-float3.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-float3.70.ptx -o %t.vec-float3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'float32[::1], float32x3' --target sm_80 -o %t.vec-float3.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-float3.80.ptx -o %t.vec-float3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' -o %t.vec-longlong3.ptx
# RUN: FileCheck %s --check-prefix=VEC-LONGLONG3 --input-file=%t.vec-longlong3.ptx
# RUN: ptxas -arch=sm_90 %t.vec-longlong3.ptx -o %t.vec-longlong3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' --target sm_70 -o %t.vec-longlong3.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-longlong3.70.ptx -o %t.vec-longlong3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x3' --target sm_80 -o %t.vec-longlong3.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-longlong3.80.ptx -o %t.vec-longlong3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' -o %t.vec-longlong4.ptx
# RUN: FileCheck %s --check-prefix=VEC-LONGLONG4 --input-file=%t.vec-longlong4.ptx
# RUN: ptxas -arch=sm_90 %t.vec-longlong4.ptx -o %t.vec-longlong4.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' --target sm_70 -o %t.vec-longlong4.70.ptx
# RUN: ptxas -arch=sm_70 %t.vec-longlong4.70.ptx -o %t.vec-longlong4.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel vector_lanes --signature 'int64[::1], int64x4' --target sm_80 -o %t.vec-longlong4.80.ptx
# RUN: ptxas -arch=sm_80 %t.vec-longlong4.80.ptx -o %t.vec-longlong4.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' -o %t.align16.ptx
# RUN: FileCheck %s --check-prefix=ALIGN16 --input-file=%t.align16.ptx
# RUN: ptxas -arch=sm_90 %t.align16.ptx -o %t.align16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' --target sm_70 -o %t.align16.70.ptx
# RUN: ptxas -arch=sm_70 %t.align16.70.ptx -o %t.align16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_structs --signature 'float32[::1], Complex[::1], Complex' --target sm_80 -o %t.align16.80.ptx
# RUN: ptxas -arch=sm_80 %t.align16.80.ptx -o %t.align16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' -o %t.align16-nested.ptx
# RUN: FileCheck %s --check-prefix=ALIGN16-NESTED --input-file=%t.align16-nested.ptx
# RUN: ptxas -arch=sm_90 %t.align16-nested.ptx -o %t.align16-nested.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' --target sm_70 -o %t.align16-nested.70.ptx
# RUN: ptxas -arch=sm_70 %t.align16-nested.70.ptx -o %t.align16-nested.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_nested --signature 'float32[::1], Holder[::1], Complex' --target sm_80 -o %t.align16-nested.80.ptx
# RUN: ptxas -arch=sm_80 %t.align16-nested.80.ptx -o %t.align16-nested.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' -o %t.build-int8.ptx
# RUN: FileCheck %s --check-prefix=BUILD-INT8 --input-file=%t.build-int8.ptx
# RUN: ptxas -arch=sm_90 %t.build-int8.ptx -o %t.build-int8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' --target sm_70 -o %t.build-int8.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-int8.70.ptx -o %t.build-int8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_int8 --signature 'int8[::1], int8[::1]' --target sm_80 -o %t.build-int8.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-int8.80.ptx -o %t.build-int8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' -o %t.build-float16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-FLOAT16 --input-file=%t.build-float16.ptx
# RUN: ptxas -arch=sm_90 %t.build-float16.ptx -o %t.build-float16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' --target sm_70 -o %t.build-float16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-float16.70.ptx -o %t.build-float16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float16 --signature 'float16[::1], float16[::1]' --target sm_80 -o %t.build-float16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-float16.80.ptx -o %t.build-float16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' -o %t.build-bf16.ptx
# RUN: FileCheck %s --check-prefix=BUILD-BF16 --input-file=%t.build-bf16.ptx
# RUN: ptxas -arch=sm_90 %t.build-bf16.ptx -o %t.build-bf16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.build-bf16.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-bf16.70.ptx -o %t.build-bf16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_bfloat16 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.build-bf16.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-bf16.80.ptx -o %t.build-bf16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' -o %t.build-f8e4m3.ptx
# RUN: FileCheck %s --check-prefix=BUILD-F8E4M3 --input-file=%t.build-f8e4m3.ptx
# RUN: ptxas -arch=sm_90 %t.build-f8e4m3.ptx -o %t.build-f8e4m3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.build-f8e4m3.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-f8e4m3.70.ptx -o %t.build-f8e4m3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e4m3 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.build-f8e4m3.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-f8e4m3.80.ptx -o %t.build-f8e4m3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' -o %t.build-f8e5m2.ptx
# RUN: FileCheck %s --check-prefix=BUILD-F8E5M2 --input-file=%t.build-f8e5m2.ptx
# RUN: ptxas -arch=sm_90 %t.build-f8e5m2.ptx -o %t.build-f8e5m2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.build-f8e5m2.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-f8e5m2.70.ptx -o %t.build-f8e5m2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float8e5m2 --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.build-f8e5m2.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-f8e5m2.80.ptx -o %t.build-f8e5m2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' -o %t.build-double.ptx
# RUN: FileCheck %s --check-prefix=BUILD-DOUBLE --input-file=%t.build-double.ptx
# RUN: ptxas -arch=sm_90 %t.build-double.ptx -o %t.build-double.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' --target sm_70 -o %t.build-double.70.ptx
# RUN: ptxas -arch=sm_70 %t.build-double.70.ptx -o %t.build-double.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel build_float64 --signature 'float64[::1], float64[::1]' --target sm_80 -o %t.build-double.80.ptx
# RUN: ptxas -arch=sm_80 %t.build-double.80.ptx -o %t.build-double.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' -o %t.tuple.ptx
# RUN: FileCheck %s --check-prefix=TUPLE --input-file=%t.tuple.ptx
# RUN: ptxas -arch=sm_90 %t.tuple.ptx -o %t.tuple.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' --target sm_70 -o %t.tuple.70.ptx
# RUN: ptxas -arch=sm_70 %t.tuple.70.ptx -o %t.tuple.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel tuple_arg --signature 'float64[::1], (int8, int32, int16, float32, (int8, int64))' --target sm_80 -o %t.tuple.80.ptx
# RUN: ptxas -arch=sm_80 %t.tuple.80.ptx -o %t.tuple.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' -o %t.methods.ptx
# RUN: FileCheck %s --check-prefix=METHODS --input-file=%t.methods.ptx
# RUN: ptxas -arch=sm_90 %t.methods.ptx -o %t.methods.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' --target sm_70 -o %t.methods.70.ptx
# RUN: ptxas -arch=sm_70 %t.methods.70.ptx -o %t.methods.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel struct_methods --signature 'float32[:, ::1], float32[::1], float32[::1], int32' --target sm_80 -o %t.methods.80.ptx
# RUN: ptxas -arch=sm_80 %t.methods.80.ptx -o %t.methods.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' -o %t.aligned-types.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-TYPES --input-file=%t.aligned-types.ptx
# RUN: ptxas -arch=sm_90 %t.aligned-types.ptx -o %t.aligned-types.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' --target sm_70 -o %t.aligned-types.70.ptx
# RUN: ptxas -arch=sm_70 %t.aligned-types.70.ptx -o %t.aligned-types.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_types --signature 'float32[:, ::1], Padded[::1], float32' --target sm_80 -o %t.aligned-types.80.ptx
# RUN: ptxas -arch=sm_80 %t.aligned-types.80.ptx -o %t.aligned-types.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' -o %t.aligned-shared.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-SHARED --input-file=%t.aligned-shared.ptx
# RUN: ptxas -arch=sm_90 %t.aligned-shared.ptx -o %t.aligned-shared.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.aligned-shared.70.ptx
# RUN: ptxas -arch=sm_70 %t.aligned-shared.70.ptx -o %t.aligned-shared.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_shared --signature 'float32[::1], float32[::1]' --target sm_80 -o %t.aligned-shared.80.ptx
# RUN: ptxas -arch=sm_80 %t.aligned-shared.80.ptx -o %t.aligned-shared.80.cubin
# RUN: FileCheck %s --check-prefix=ALIGNED-SHARED-SYM --input-file=%t.aligned-shared.ptx
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' -o %t.aligned-field.ptx
# RUN: FileCheck %s --check-prefix=ALIGNED-FIELD --input-file=%t.aligned-field.ptx
# RUN: ptxas -arch=sm_90 %t.aligned-field.ptx -o %t.aligned-field.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' --target sm_70 -o %t.aligned-field.70.ptx
# RUN: ptxas -arch=sm_70 %t.aligned-field.70.ptx -o %t.aligned-field.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel aligned_field_from_plain --signature 'Padded[::1]' --target sm_80 -o %t.aligned-field.80.ptx
# RUN: ptxas -arch=sm_80 %t.aligned-field.80.ptx -o %t.aligned-field.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' -o %t.strides.ptx
# RUN: FileCheck %s --check-prefix=STRIDES --input-file=%t.strides.ptx
# RUN: ptxas -arch=sm_90 %t.strides.ptx -o %t.strides.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' --target sm_70 -o %t.strides.70.ptx
# RUN: ptxas -arch=sm_70 %t.strides.70.ptx -o %t.strides.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel strides2 --signature 'int64[::1], float64[:, :]' --target sm_80 -o %t.strides.80.ptx
# RUN: ptxas -arch=sm_80 %t.strides.80.ptx -o %t.strides.80.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' -o %t.view.ptx
# RUN: FileCheck %s --check-prefix=VIEW --input-file=%t.view.ptx
# RUN: ptxas -arch=sm_90 %t.view.ptx -o %t.view.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_70 -o %t.view.70.ptx
# RUN: ptxas -arch=sm_70 %t.view.70.ptx -o %t.view.70.cubin
# RUN: pydevc %S/../Inputs/host_semantics.py --kernel dyn_reverse --signature 'float32[::1], readonly float32[::1]' --target sm_80 -o %t.view.80.ptx
# RUN: ptxas -arch=sm_80 %t.view.80.ptx -o %t.view.80.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' -o %t.structured.ptx
# RUN: FileCheck %s --check-prefix=STRUCTURED --input-file=%t.structured.ptx
# RUN: ptxas -arch=sm_90 %t.structured.ptx -o %t.structured.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_70 -o %t.structured.70.ptx
# RUN: ptxas -arch=sm_70 %t.structured.70.ptx -o %t.structured.70.cubin
# RUN: pydevc %S/../gpu/kernels.py --kernel push --signature '{pos: float32x4, mass: float32}[::1], float32' --target sm_80 -o %t.structured.80.ptx
# RUN: ptxas -arch=sm_80 %t.structured.80.ptx -o %t.structured.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' -o %t.interop.ptx
# RUN: FileCheck %s --check-prefix=INTEROP --input-file=%t.interop.ptx
# RUN: ptxas -arch=sm_90 %t.interop.ptx -o %t.interop.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.interop.70.ptx
# RUN: ptxas -arch=sm_70 %t.interop.70.ptx -o %t.interop.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_calls --signature 'float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.interop.80.ptx
# RUN: ptxas -arch=sm_80 %t.interop.80.ptx -o %t.interop.80.cubin
# RUN: FileCheck %s --check-prefix=INTEROP-SYM --input-file=%t.interop.ptx
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' -o %t.interop-kernel.ptx
# RUN: FileCheck %s --check-prefix=INTEROP-KERNEL --input-file=%t.interop-kernel.ptx
# RUN: ptxas -arch=sm_90 %t.interop-kernel.ptx -o %t.interop-kernel.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.interop-kernel.70.ptx
# RUN: ptxas -arch=sm_70 %t.interop-kernel.70.ptx -o %t.interop-kernel.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel interop_kernel --signature 'float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.interop-kernel.80.ptx
# RUN: ptxas -arch=sm_80 %t.interop-kernel.80.ptx -o %t.interop-kernel.80.cubin

# int8: byte loads and stores, arithmetic in 16-bit registers, Python // and %.
# INT8-LABEL: .visible .entry int_arith(
# INT8-DAG: ld.global.b8
# INT8-DAG: st.global.b8
# INT8-DAG: div.s16
# INT8-DAG: rem.s16
# INT8-DAG: max.s16

# uint8: unsigned division, remainder and max.
# UINT8-LABEL: .visible .entry int_arith(
# UINT8-DAG: ld.global.b8
# UINT8-DAG: st.global.b8
# UINT8-DAG: div.u16
# UINT8-DAG: rem.u16
# UINT8-DAG: max.u16

# uint16.
# UINT16-LABEL: .visible .entry int_arith(
# UINT16-DAG: ld.global.b16
# UINT16-DAG: st.global.b16
# UINT16-DAG: div.u16
# UINT16-DAG: rem.u16
# UINT16-DAG: min.u16

# uint64: 64-bit accesses (natural alignment: not split in two), unsigned compare and division.
# UINT64-LABEL: .visible .entry int_arith(
# UINT64-DAG: ld.global.b64
# UINT64-DAG: st.global.b64
# UINT64-DAG: div.u64
# UINT64-DAG: rem.u64
# UINT64-DAG: max.u64
# UINT64-DAG: setp.lt.u64

# float16: native half arithmetic; / through float32.
# FLOAT16-LABEL: .visible .entry float_arith(
# FLOAT16-DAG: ld.global.b16
# FLOAT16-DAG: add.f16
# FLOAT16-DAG: sub.f16
# FLOAT16-DAG: mul.f16
# FLOAT16-DAG: neg.f16
# FLOAT16-DAG: cvt.rn.f16.f32

# bfloat16: native bf16 arithmetic on sm_90 (sm_70/80 builds assemble too).
# BFLOAT16-LABEL: .visible .entry float_arith(
# BFLOAT16-DAG: add.bf16
# BFLOAT16-DAG: sub.bf16
# BFLOAT16-DAG: mul.bf16
# BFLOAT16-DAG: cvt.rn.bf16.f32

# float64: double compares and selects (an insertion sort in a local array).
# FLOAT64-LABEL: .visible .entry local_sort(
# FLOAT64-DAG: ld.global.b64
# FLOAT64-DAG: setp.gt.f64
# FLOAT64-DAG: selp.f64
# FLOAT64-DAG: st.global.b64

# complex128: {re, im} doubles; abs is a correctly rounded hypot.
# COMPLEX128-LABEL: .visible .entry complex128_arith(
# COMPLEX128-DAG: add.rn.f64
# COMPLEX128-DAG: sub.rn.f64
# COMPLEX128-DAG: mul.rn.f64
# COMPLEX128-DAG: div.rn.f64
# COMPLEX128-DAG: sqrt.rn.f64

# int / int is float32 (correctly rounded div.rn); // floors (div.s32 and a sign fix-up; floats cvt.rmi).
# TRUEDIV-LABEL: .visible .entry arithmetic(
# TRUEDIV-DAG: cvt.rn.f32.s32
# TRUEDIV-DAG: div.rn.f32
# TRUEDIV-DAG: div.s32
# TRUEDIV-DAG: cvt.rmi.f32.f32

# Bit operations and shifts: arithmetic >> for signed.
# BITS-S32-LABEL: .visible .entry bit_ops(
# BITS-S32-DAG: and.b32
# BITS-S32-DAG: or.b32
# BITS-S32-DAG: xor.b32
# BITS-S32-DAG: not.b32
# BITS-S32-DAG: shl.b32
# BITS-S32-DAG: shr.s32

# ... and logical >> for unsigned, on 64 bits.
# BITS-U64-LABEL: .visible .entry bit_ops(
# BITS-U64-DAG: and.b64
# BITS-U64-DAG: or.b64
# BITS-U64-DAG: xor.b64
# BITS-U64-DAG: not.b64
# BITS-U64-DAG: shr.u64

# A float32x4 by value is a float4 (.align 16 [16]); v[i] = x rebinds a copy.
# VEC-REBIND-LABEL: .visible .entry vector_rebind(
# VEC-REBIND-DAG: .param .align 16 .b8 vector_rebind_param_1[16]
# VEC-REBIND-DAG: ld.param.v4.b32

# Vector layouts by value: char4 is 4 bytes aligned to 4.
# VEC-CHAR4-LABEL: .visible .entry vector_lanes(
# VEC-CHAR4-DAG: .param .align 4 .b8 vector_lanes_param_1[4]

# short2: 4 bytes, align 4.
# VEC-SHORT2-LABEL: .visible .entry vector_lanes(
# VEC-SHORT2-DAG: .param .align 4 .b8 vector_lanes_param_1[4]

# int4: 16 bytes, align 16.
# VEC-INT4-LABEL: .visible .entry vector_lanes(
# VEC-INT4-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# VEC-INT4-DAG: ld.param.v4.b32

# longlong2: 16 bytes, align 16.
# VEC-LONGLONG2-LABEL: .visible .entry vector_lanes(
# VEC-LONGLONG2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]
# VEC-LONGLONG2-DAG: ld.param.v2.b64

# uchar2: 2 bytes, align 2.
# VEC-UCHAR2-LABEL: .visible .entry vector_lanes(
# VEC-UCHAR2-DAG: .param .align 2 .b8 vector_lanes_param_1[2]

# ushort4: 8 bytes, align 8.
# VEC-USHORT4-LABEL: .visible .entry vector_lanes(
# VEC-USHORT4-DAG: .param .align 8 .b8 vector_lanes_param_1[8]

# uint2: 8 bytes, align 8.
# VEC-UINT2-LABEL: .visible .entry vector_lanes(
# VEC-UINT2-DAG: .param .align 8 .b8 vector_lanes_param_1[8]

# ulonglong2: 16 bytes, align 16.
# VEC-ULONGLONG2-LABEL: .visible .entry vector_lanes(
# VEC-ULONGLONG2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]

# __half2: 4 bytes, align 4.
# VEC-HALF2-LABEL: .visible .entry vector_lanes(
# VEC-HALF2-DAG: .param .align 4 .b8 vector_lanes_param_1[4]

# double2: 16 bytes, align 16.
# VEC-DOUBLE2-LABEL: .visible .entry vector_lanes(
# VEC-DOUBLE2-DAG: .param .align 16 .b8 vector_lanes_param_1[16]

# 3-lane vectors have their CUDA layout, not LLVM's: char3 is 3 bytes aligned to 1,
# VEC-CHAR3-LABEL: .visible .entry vector_lanes(
# VEC-CHAR3-DAG: .param .align 1 .b8 vector_lanes_param_1[3]

# float3 12 bytes aligned to 4,
# VEC-FLOAT3-LABEL: .visible .entry vector_lanes(
# VEC-FLOAT3-DAG: .param .align 4 .b8 vector_lanes_param_1[12]
# VEC-FLOAT3-DAG: ld.param.b32 	%r{{[0-9]+}}, [vector_lanes_param_1+8]

# longlong3 24 bytes aligned to 8,
# VEC-LONGLONG3-LABEL: .visible .entry vector_lanes(
# VEC-LONGLONG3-DAG: .param .align 8 .b8 vector_lanes_param_1[24]

# and longlong4 32 bytes (LLVM would align it to 32).
# VEC-LONGLONG4-LABEL: .visible .entry vector_lanes(
# VEC-LONGLONG4-DAG: .param .align 8 .b8 vector_lanes_param_1[32]

# An @struct(align=16) of two floats by value is 16 bytes aligned to 16 (CUDA's alignas(16) layout).
# ALIGN16-LABEL: .visible .entry aligned_structs(
# ALIGN16-DAG: .param .align 16 .b8 aligned_structs_param_2[16]

# A struct holding an align=16 struct, in arrays: 32-byte elements, the inner struct at offset 16.
# ALIGN16-NESTED-LABEL: .visible .entry aligned_nested(
# ALIGN16-NESTED-DAG: shl.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 5
# ALIGN16-NESTED-DAG: ld.global.s8 	%rs{{[0-9]+}}, [%rd{{[0-9]+}}]
# ALIGN16-NESTED-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+16]
# ALIGN16-NESTED-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+20]
# ALIGN16-NESTED-DAG: st.global.b32 	[%rd{{[0-9]+}}+16]

# int8xN built in device code, lanes read and written back.
# BUILD-INT8-LABEL: .visible .entry build_int8(
# BUILD-INT8-DAG: ld.global.b8
# BUILD-INT8-DAG: st.global.b8

# float16xN.
# BUILD-FLOAT16-LABEL: .visible .entry build_float16(
# BUILD-FLOAT16-DAG: ld.global.b16
# BUILD-FLOAT16-DAG: st.global.b16

# bfloat16xN: conversions to and from float32.
# BUILD-BF16-LABEL: .visible .entry build_bfloat16(
# BUILD-BF16-DAG: cvt.rn.bf16.f32
# BUILD-BF16-DAG: cvt.f32.bf16

# float8e4m3xN: software round-to-nearest-even conversions (pydev-lower-float8).
# BUILD-F8E4M3-LABEL: .visible .entry build_float8e4m3(
# BUILD-F8E4M3-DAG: cvt.rzi.u32.f32
# BUILD-F8E4M3-DAG: min.u32

# float8e5m2xN.
# BUILD-F8E5M2-LABEL: .visible .entry build_float8e5m2(
# BUILD-F8E5M2-DAG: ld.global.b32
# BUILD-F8E5M2-DAG: st.global.b32

# float64xN.
# BUILD-DOUBLE-LABEL: .visible .entry build_float64(
# BUILD-DOUBLE-DAG: ld.global.b64
# BUILD-DOUBLE-DAG: st.global.b64

# A tuple by value is a C struct: int8@0, int32@4, int16@8, float32@12, (int8@16, int64@24), 32 bytes.
# TUPLE-LABEL: .visible .entry tuple_arg(
# TUPLE-DAG: .param .align 8 .b8 tuple_arg_param_1[32]
# TUPLE-DAG: ld.param.b64 	%rd{{[0-9]+}}, [tuple_arg_param_1+24]
# TUPLE-DAG: ld.param.s8 	%rs{{[0-9]+}}, [tuple_arg_param_1+16]
# TUPLE-DAG: ld.param.b32 	%r{{[0-9]+}}, [tuple_arg_param_1+12]
# TUPLE-DAG: ld.param.b16 	%rs{{[0-9]+}}, [tuple_arg_param_1+8]
# TUPLE-DAG: ld.param.b32 	%r{{[0-9]+}}, [tuple_arg_param_1+4]

# Struct methods: inlined @device.func calls.
# METHODS-LABEL: .visible .entry struct_methods(
# METHODS-DAG: fma.rn.f32
# METHODS-DAG: mul.f32

# align(t, n) fields read and written at their offsets.
# ALIGNED-TYPES-LABEL: .visible .entry aligned_types(
# ALIGNED-TYPES-DAG: ld.global.s8
# ALIGNED-TYPES-DAG: st.global.b8
# ALIGNED-TYPES-DAG: fma.rn.f32

# A shared array of align(float32, 16): 64 elements of 16 bytes.
# ALIGNED-SHARED-SYM-DAG: .shared .align 16 .b8 __pydev_shared_1[1024]
# ALIGNED-SHARED-LABEL: .visible .entry aligned_shared(
# ALIGNED-SHARED-DAG: bar.sync

# A plain Complex stored into its align(Complex, 32) field (at offset 32).
# ALIGNED-FIELD-LABEL: .visible .entry aligned_field_from_plain(
# ALIGNED-FIELD-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+32]
# ALIGNED-FIELD-DAG: st.global.b32 	[%rd{{[0-9]+}}+36]

# .strides: element strides of the descriptor times 8 bytes; views negate them.
# STRIDES-LABEL: .visible .entry strides2(
# STRIDES-DAG: ld.param.b64 	%rd{{[0-9]+}}, [strides2_param_1+32]
# STRIDES-DAG: shl.b64
# STRIDES-DAG: neg.s64
# STRIDES-DAG: st.global.b64

# view(float32) of the dynamic uint8 shared array: extent / 4, 4-byte accesses.
# VIEW-LABEL: .visible .entry dyn_reverse(
# VIEW-DAG: shr.u32
# VIEW-DAG: st.shared.b32
# VIEW-DAG: ld.shared.b32

# A NumPy structured dtype {pos: float32x4, mass: float32}: float4 fields as vector loads and stores.
# STRUCTURED-LABEL: .visible .entry push(
# STRUCTURED-DAG: ld.global.v4.b32
# STRUCTURED-DAG: st.global.v4.b32

# Interoperable functions: a plain C symbol `diff` with the C signature float(float, float).
# INTEROP-SYM-DAG: .visible .func  (.param .b32 func_retval0) diff(
# INTEROP-SYM-DAG: .param .b32 diff_param_0
# INTEROP-LABEL: .visible .entry interop_calls(
# INTEROP-DAG: sub.f32
# INTEROP-DAG: abs.f32

# An interop=True kernel keeps its plain name.
# INTEROP-KERNEL-LABEL: .visible .entry interop_kernel(
# INTEROP-KERNEL-DAG: ld.global.b32
# INTEROP-KERNEL-DAG: add.f32
