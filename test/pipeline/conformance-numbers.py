# Conformance of the fixed-format numbers, numeric promotion and bit operations
# (spec sections "Fixed-Format Numbers" and "Numeric Promotion") in PTX: the
# kernels of python/tests/conformance_kernels.py (run on the host target against
# NumPy by python/tests/test_conformance_host.py) and of frontend/numbers.py,
# compiled for sm_90 and FileChecked (one prefix per kernel and type), and
# compiled for sm_70, sm_80 and sm_90 and assembled by ptxas.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' --target sm_90 -o %t.int8.ptx
# RUN: FileCheck %s --check-prefix=INT8 --input-file=%t.int8.ptx
# RUN: ptxas -arch=sm_90 %t.int8.ptx -o %t.int8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' --target sm_70 -o %t.int8.70.ptx
# RUN: ptxas -arch=sm_70 %t.int8.70.ptx -o %t.int8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int8[:, ::1], int8[::1], int8[::1]' --target sm_80 -o %t.int8.80.ptx
# RUN: ptxas -arch=sm_80 %t.int8.80.ptx -o %t.int8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int16[:, ::1], int16[::1], int16[::1]' --target sm_90 -o %t.int16.ptx
# RUN: FileCheck %s --check-prefix=INT16 --input-file=%t.int16.ptx
# RUN: ptxas -arch=sm_90 %t.int16.ptx -o %t.int16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int16[:, ::1], int16[::1], int16[::1]' --target sm_70 -o %t.int16.70.ptx
# RUN: ptxas -arch=sm_70 %t.int16.70.ptx -o %t.int16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int16[:, ::1], int16[::1], int16[::1]' --target sm_80 -o %t.int16.80.ptx
# RUN: ptxas -arch=sm_80 %t.int16.80.ptx -o %t.int16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_90 -o %t.int32.ptx
# RUN: FileCheck %s --check-prefix=INT32 --input-file=%t.int32.ptx
# RUN: ptxas -arch=sm_90 %t.int32.ptx -o %t.int32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_70 -o %t.int32.70.ptx
# RUN: ptxas -arch=sm_70 %t.int32.70.ptx -o %t.int32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_80 -o %t.int32.80.ptx
# RUN: ptxas -arch=sm_80 %t.int32.80.ptx -o %t.int32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_90 -o %t.int64.ptx
# RUN: FileCheck %s --check-prefix=INT64 --input-file=%t.int64.ptx
# RUN: ptxas -arch=sm_90 %t.int64.ptx -o %t.int64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_70 -o %t.int64.70.ptx
# RUN: ptxas -arch=sm_70 %t.int64.70.ptx -o %t.int64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_80 -o %t.int64.80.ptx
# RUN: ptxas -arch=sm_80 %t.int64.80.ptx -o %t.int64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' --target sm_90 -o %t.uint8.ptx
# RUN: FileCheck %s --check-prefix=UINT8 --input-file=%t.uint8.ptx
# RUN: ptxas -arch=sm_90 %t.uint8.ptx -o %t.uint8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' --target sm_70 -o %t.uint8.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint8.70.ptx -o %t.uint8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint8[:, ::1], uint8[::1], uint8[::1]' --target sm_80 -o %t.uint8.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint8.80.ptx -o %t.uint8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' --target sm_90 -o %t.uint16.ptx
# RUN: FileCheck %s --check-prefix=UINT16 --input-file=%t.uint16.ptx
# RUN: ptxas -arch=sm_90 %t.uint16.ptx -o %t.uint16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' --target sm_70 -o %t.uint16.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint16.70.ptx -o %t.uint16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint16[:, ::1], uint16[::1], uint16[::1]' --target sm_80 -o %t.uint16.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint16.80.ptx -o %t.uint16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint32[:, ::1], uint32[::1], uint32[::1]' --target sm_90 -o %t.uint32.ptx
# RUN: FileCheck %s --check-prefix=UINT32 --input-file=%t.uint32.ptx
# RUN: ptxas -arch=sm_90 %t.uint32.ptx -o %t.uint32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint32[:, ::1], uint32[::1], uint32[::1]' --target sm_70 -o %t.uint32.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint32.70.ptx -o %t.uint32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint32[:, ::1], uint32[::1], uint32[::1]' --target sm_80 -o %t.uint32.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint32.80.ptx -o %t.uint32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' --target sm_90 -o %t.uint64.ptx
# RUN: FileCheck %s --check-prefix=UINT64 --input-file=%t.uint64.ptx
# RUN: ptxas -arch=sm_90 %t.uint64.ptx -o %t.uint64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' --target sm_70 -o %t.uint64.70.ptx
# RUN: ptxas -arch=sm_70 %t.uint64.70.ptx -o %t.uint64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel int_arith --signature 'uint64[:, ::1], uint64[::1], uint64[::1]' --target sm_80 -o %t.uint64.80.ptx
# RUN: ptxas -arch=sm_80 %t.uint64.80.ptx -o %t.uint64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' --target sm_90 -o %t.float16.ptx
# RUN: FileCheck %s --check-prefix=FLOAT16 --input-file=%t.float16.ptx
# RUN: ptxas -arch=sm_90 %t.float16.ptx -o %t.float16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' --target sm_70 -o %t.float16.70.ptx
# RUN: ptxas -arch=sm_70 %t.float16.70.ptx -o %t.float16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float16[:, ::1], float16[::1], float16[::1]' --target sm_80 -o %t.float16.80.ptx
# RUN: ptxas -arch=sm_80 %t.float16.80.ptx -o %t.float16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' --target sm_90 -o %t.bfloat16.ptx
# RUN: FileCheck %s --check-prefix=BFLOAT16 --input-file=%t.bfloat16.ptx
# RUN: ptxas -arch=sm_90 %t.bfloat16.ptx -o %t.bfloat16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' --target sm_70 -o %t.bfloat16.70.ptx
# RUN: ptxas -arch=sm_70 %t.bfloat16.70.ptx -o %t.bfloat16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'bfloat16[:, ::1], bfloat16[::1], bfloat16[::1]' --target sm_80 -o %t.bfloat16.80.ptx
# RUN: ptxas -arch=sm_80 %t.bfloat16.80.ptx -o %t.bfloat16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_90 -o %t.float32.ptx
# RUN: FileCheck %s --check-prefix=FLOAT32 --input-file=%t.float32.ptx
# RUN: ptxas -arch=sm_90 %t.float32.ptx -o %t.float32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_70 -o %t.float32.70.ptx
# RUN: ptxas -arch=sm_70 %t.float32.70.ptx -o %t.float32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_80 -o %t.float32.80.ptx
# RUN: ptxas -arch=sm_80 %t.float32.80.ptx -o %t.float32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float64[:, ::1], float64[::1], float64[::1]' --target sm_90 -o %t.float64.ptx
# RUN: FileCheck %s --check-prefix=FLOAT64 --input-file=%t.float64.ptx
# RUN: ptxas -arch=sm_90 %t.float64.ptx -o %t.float64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float64[:, ::1], float64[::1], float64[::1]' --target sm_70 -o %t.float64.70.ptx
# RUN: ptxas -arch=sm_70 %t.float64.70.ptx -o %t.float64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_arith --signature 'float64[:, ::1], float64[::1], float64[::1]' --target sm_80 -o %t.float64.80.ptx
# RUN: ptxas -arch=sm_80 %t.float64.80.ptx -o %t.float64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' --target sm_90 -o %t.complex128.ptx
# RUN: FileCheck %s --check-prefix=COMPLEX128 --input-file=%t.complex128.ptx
# RUN: ptxas -arch=sm_90 %t.complex128.ptx -o %t.complex128.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' --target sm_70 -o %t.complex128.70.ptx
# RUN: ptxas -arch=sm_70 %t.complex128.70.ptx -o %t.complex128.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex128[:, ::1], float64[:, ::1], complex128[::1], complex128[::1]' --target sm_80 -o %t.complex128.80.ptx
# RUN: ptxas -arch=sm_80 %t.complex128.80.ptx -o %t.complex128.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex64[:, ::1], float32[:, ::1], complex64[::1], complex64[::1]' --target sm_90 -o %t.complex64.ptx
# RUN: FileCheck %s --check-prefix=COMPLEX64 --input-file=%t.complex64.ptx
# RUN: ptxas -arch=sm_90 %t.complex64.ptx -o %t.complex64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex64[:, ::1], float32[:, ::1], complex64[::1], complex64[::1]' --target sm_70 -o %t.complex64.70.ptx
# RUN: ptxas -arch=sm_70 %t.complex64.70.ptx -o %t.complex64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel complex128_arith --signature 'complex64[:, ::1], float32[:, ::1], complex64[::1], complex64[::1]' --target sm_80 -o %t.complex64.80.ptx
# RUN: ptxas -arch=sm_80 %t.complex64.80.ptx -o %t.complex64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e4m3_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_90 -o %t.f8e4m3.ptx
# RUN: FileCheck %s --check-prefix=F8E4M3 --input-file=%t.f8e4m3.ptx
# RUN: ptxas -arch=sm_90 %t.f8e4m3.ptx -o %t.f8e4m3.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e4m3_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_70 -o %t.f8e4m3.70.ptx
# RUN: ptxas -arch=sm_70 %t.f8e4m3.70.ptx -o %t.f8e4m3.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e4m3_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_80 -o %t.f8e4m3.80.ptx
# RUN: ptxas -arch=sm_80 %t.f8e4m3.80.ptx -o %t.f8e4m3.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e4m3[:, ::1], float8e4m3[::1], float8e4m3[::1]' --target sm_90 -o %t.f8e4m3-array.ptx
# RUN: FileCheck %s --check-prefix=F8E4M3-ARRAY --input-file=%t.f8e4m3-array.ptx
# RUN: ptxas -arch=sm_90 %t.f8e4m3-array.ptx -o %t.f8e4m3-array.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e4m3[:, ::1], float8e4m3[::1], float8e4m3[::1]' --target sm_70 -o %t.f8e4m3-array.70.ptx
# RUN: ptxas -arch=sm_70 %t.f8e4m3-array.70.ptx -o %t.f8e4m3-array.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e4m3[:, ::1], float8e4m3[::1], float8e4m3[::1]' --target sm_80 -o %t.f8e4m3-array.80.ptx
# RUN: ptxas -arch=sm_80 %t.f8e4m3-array.80.ptx -o %t.f8e4m3-array.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e5m2_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_90 -o %t.f8e5m2.ptx
# RUN: FileCheck %s --check-prefix=F8E5M2 --input-file=%t.f8e5m2.ptx
# RUN: ptxas -arch=sm_90 %t.f8e5m2.ptx -o %t.f8e5m2.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e5m2_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_70 -o %t.f8e5m2.70.ptx
# RUN: ptxas -arch=sm_70 %t.f8e5m2.70.ptx -o %t.f8e5m2.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8e5m2_arith --signature 'float32[:, ::1], float32[::1], float32[::1]' --target sm_80 -o %t.f8e5m2.80.ptx
# RUN: ptxas -arch=sm_80 %t.f8e5m2.80.ptx -o %t.f8e5m2.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e5m2[:, ::1], float8e5m2[::1], float8e5m2[::1]' --target sm_90 -o %t.f8e5m2-array.ptx
# RUN: FileCheck %s --check-prefix=F8E5M2-ARRAY --input-file=%t.f8e5m2-array.ptx
# RUN: ptxas -arch=sm_90 %t.f8e5m2-array.ptx -o %t.f8e5m2-array.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e5m2[:, ::1], float8e5m2[::1], float8e5m2[::1]' --target sm_70 -o %t.f8e5m2-array.70.ptx
# RUN: ptxas -arch=sm_70 %t.f8e5m2-array.70.ptx -o %t.f8e5m2-array.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float8_arrays --signature 'float8e5m2[:, ::1], float8e5m2[::1], float8e5m2[::1]' --target sm_80 -o %t.f8e5m2-array.80.ptx
# RUN: ptxas -arch=sm_80 %t.f8e5m2-array.80.ptx -o %t.f8e5m2-array.80.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel fixed_formats --signature 'float32[:], float32, int32' --target sm_90 -o %t.convert.ptx
# RUN: FileCheck %s --check-prefix=CONVERT --input-file=%t.convert.ptx
# RUN: ptxas -arch=sm_90 %t.convert.ptx -o %t.convert.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel fixed_formats --signature 'float32[:], float32, int32' --target sm_70 -o %t.convert.70.ptx
# RUN: ptxas -arch=sm_70 %t.convert.70.ptx -o %t.convert.70.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel fixed_formats --signature 'float32[:], float32, int32' --target sm_80 -o %t.convert.80.ptx
# RUN: ptxas -arch=sm_80 %t.convert.80.ptx -o %t.convert.80.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel weak_scalars --signature 'float32[:], int8, uint16, float16, bfloat16, float64, float32, int32, uint32' --target sm_90 -o %t.promote.ptx
# RUN: FileCheck %s --check-prefix=PROMOTE --input-file=%t.promote.ptx
# RUN: ptxas -arch=sm_90 %t.promote.ptx -o %t.promote.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel weak_scalars --signature 'float32[:], int8, uint16, float16, bfloat16, float64, float32, int32, uint32' --target sm_70 -o %t.promote.70.ptx
# RUN: ptxas -arch=sm_70 %t.promote.70.ptx -o %t.promote.70.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel weak_scalars --signature 'float32[:], int8, uint16, float16, bfloat16, float64, float32, int32, uint32' --target sm_80 -o %t.promote.80.ptx
# RUN: ptxas -arch=sm_80 %t.promote.80.ptx -o %t.promote.80.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --target sm_90 -o %t.truediv.ptx
# RUN: FileCheck %s --check-prefix=TRUEDIV --input-file=%t.truediv.ptx
# RUN: ptxas -arch=sm_90 %t.truediv.ptx -o %t.truediv.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --target sm_70 -o %t.truediv.70.ptx
# RUN: ptxas -arch=sm_70 %t.truediv.70.ptx -o %t.truediv.70.cubin
# RUN: pydevc %S/../frontend/numbers.py --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --target sm_80 -o %t.truediv.80.ptx
# RUN: ptxas -arch=sm_80 %t.truediv.80.ptx -o %t.truediv.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int8[:, ::1], int8[::1], int8[::1], int8[::1]' --target sm_90 -o %t.bits-s8.ptx
# RUN: FileCheck %s --check-prefix=BITS-S8 --input-file=%t.bits-s8.ptx
# RUN: ptxas -arch=sm_90 %t.bits-s8.ptx -o %t.bits-s8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int8[:, ::1], int8[::1], int8[::1], int8[::1]' --target sm_70 -o %t.bits-s8.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-s8.70.ptx -o %t.bits-s8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int8[:, ::1], int8[::1], int8[::1], int8[::1]' --target sm_80 -o %t.bits-s8.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-s8.80.ptx -o %t.bits-s8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' --target sm_90 -o %t.bits-s32.ptx
# RUN: FileCheck %s --check-prefix=BITS-S32 --input-file=%t.bits-s32.ptx
# RUN: ptxas -arch=sm_90 %t.bits-s32.ptx -o %t.bits-s32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' --target sm_70 -o %t.bits-s32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-s32.70.ptx -o %t.bits-s32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'int32[:, ::1], int32[::1], int32[::1], int32[::1]' --target sm_80 -o %t.bits-s32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-s32.80.ptx -o %t.bits-s32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint32[:, ::1], uint32[::1], uint32[::1], uint32[::1]' --target sm_90 -o %t.bits-u32.ptx
# RUN: FileCheck %s --check-prefix=BITS-U32 --input-file=%t.bits-u32.ptx
# RUN: ptxas -arch=sm_90 %t.bits-u32.ptx -o %t.bits-u32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint32[:, ::1], uint32[::1], uint32[::1], uint32[::1]' --target sm_70 -o %t.bits-u32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-u32.70.ptx -o %t.bits-u32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint32[:, ::1], uint32[::1], uint32[::1], uint32[::1]' --target sm_80 -o %t.bits-u32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-u32.80.ptx -o %t.bits-u32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' --target sm_90 -o %t.bits-u64.ptx
# RUN: FileCheck %s --check-prefix=BITS-U64 --input-file=%t.bits-u64.ptx
# RUN: ptxas -arch=sm_90 %t.bits-u64.ptx -o %t.bits-u64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' --target sm_70 -o %t.bits-u64.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits-u64.70.ptx -o %t.bits-u64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_ops --signature 'uint64[:, ::1], uint64[::1], uint64[::1], uint64[::1]' --target sm_80 -o %t.bits-u64.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits-u64.80.ptx -o %t.bits-u64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_attributes --signature 'float64[:, ::1], float32[::1]' --target sm_90 -o %t.zero-dim.ptx
# RUN: FileCheck %s --check-prefix=ZERO-DIM --input-file=%t.zero-dim.ptx
# RUN: ptxas -arch=sm_90 %t.zero-dim.ptx -o %t.zero-dim.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_attributes --signature 'float64[:, ::1], float32[::1]' --target sm_70 -o %t.zero-dim.70.ptx
# RUN: ptxas -arch=sm_70 %t.zero-dim.70.ptx -o %t.zero-dim.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_attributes --signature 'float64[:, ::1], float32[::1]' --target sm_80 -o %t.zero-dim.80.ptx
# RUN: ptxas -arch=sm_80 %t.zero-dim.80.ptx -o %t.zero-dim.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_views --signature 'int32[:, ::1], float32[::1], float32[::1]' --target sm_90 -o %t.number-view.ptx
# RUN: FileCheck %s --check-prefix=NUMBER-VIEW --input-file=%t.number-view.ptx
# RUN: ptxas -arch=sm_90 %t.number-view.ptx -o %t.number-view.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_views --signature 'int32[:, ::1], float32[::1], float32[::1]' --target sm_70 -o %t.number-view.70.ptx
# RUN: ptxas -arch=sm_70 %t.number-view.70.ptx -o %t.number-view.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel number_views --signature 'int32[:, ::1], float32[::1], float32[::1]' --target sm_80 -o %t.number-view.80.ptx
# RUN: ptxas -arch=sm_80 %t.number-view.80.ptx -o %t.number-view.80.cubin

# int_arith: + - * // % max min < and a weak Python int, in the arrays' dtype.
# Sub-32-bit integers compute in 16-bit registers (as nvcc does), with
# sign-extending (int8) or plain (uint8) byte loads; // and % are C division
# plus Python's floor fix-up.
# INT8-LABEL: .visible .entry int_arith(
# INT8-DAG: ld.global.s8
# INT8-DAG: st.global.b8
# INT8-DAG: add.s16
# INT8-DAG: sub.s16
# INT8-DAG: mul.lo.s16
# INT8-DAG: div.s16
# INT8-DAG: rem.s16
# INT8-DAG: max.s16
# INT8-DAG: min.s16
# INT8-DAG: setp.lt.s16

# INT16-LABEL: .visible .entry int_arith(
# INT16-DAG: ld.global.b16
# INT16-DAG: st.global.b16
# INT16-DAG: mul.lo.s16
# INT16-DAG: div.s16
# INT16-DAG: rem.s16
# INT16-DAG: max.s16
# INT16-DAG: min.s16
# INT16-DAG: setp.lt.s16

# INT32-LABEL: .visible .entry int_arith(
# INT32-DAG: ld.global.b32
# INT32-DAG: st.global.b32
# INT32-DAG: add.s32
# INT32-DAG: sub.s32
# INT32-DAG: mul.lo.s32
# INT32-DAG: div.s32
# INT32-DAG: rem.s32
# INT32-DAG: max.s32
# INT32-DAG: min.s32
# INT32-DAG: setp.lt.s32

# int64 (LLVM adds a div.u32 fast path when both operands fit in 32 bits).
# INT64-LABEL: .visible .entry int_arith(
# INT64-DAG: ld.global.b64
# INT64-DAG: st.global.b64
# INT64-DAG: sub.s64
# INT64-DAG: mul.lo.s64
# INT64-DAG: div.s64
# INT64-DAG: rem.s64
# INT64-DAG: max.s64
# INT64-DAG: min.s64
# INT64-DAG: setp.lt.s64

# UINT8-LABEL: .visible .entry int_arith(
# UINT8-DAG: ld.global.b8
# UINT8-DAG: st.global.b8
# UINT8-DAG: mul.lo.s16
# UINT8-DAG: div.u16
# UINT8-DAG: rem.u16
# UINT8-DAG: max.u16
# UINT8-DAG: min.u16
# UINT8-DAG: setp.lt.u16

# UINT16-LABEL: .visible .entry int_arith(
# UINT16-DAG: ld.global.b16
# UINT16-DAG: st.global.b16
# UINT16-DAG: div.u16
# UINT16-DAG: rem.u16
# UINT16-DAG: max.u16
# UINT16-DAG: min.u16
# UINT16-DAG: setp.lt.u16

# UINT32-LABEL: .visible .entry int_arith(
# UINT32-DAG: ld.global.b32
# UINT32-DAG: st.global.b32
# UINT32-DAG: div.u32
# UINT32-DAG: rem.u32
# UINT32-DAG: max.u32
# UINT32-DAG: min.u32
# UINT32-DAG: setp.lt.u32

# UINT64-LABEL: .visible .entry int_arith(
# UINT64-DAG: ld.global.b64
# UINT64-DAG: st.global.b64
# UINT64-DAG: div.u64
# UINT64-DAG: rem.u64
# UINT64-DAG: max.u64
# UINT64-DAG: min.u64
# UINT64-DAG: setp.lt.u64

# float_arith: + - * / unary - max and a weak Python float, in the arrays' dtype.
# float16: native half arithmetic (sm_53+), / through float32 (as __hdiv).
# FLOAT16-LABEL: .visible .entry float_arith(
# FLOAT16-DAG: ld.global.b16
# FLOAT16-DAG: st.global.b16
# FLOAT16-DAG: add.f16
# FLOAT16-DAG: sub.f16
# FLOAT16-DAG: mul.f16
# FLOAT16-DAG: neg.f16
# FLOAT16-DAG: setp.gt.f16
# FLOAT16-DAG: cvt.f32.f16
# FLOAT16-DAG: div.rn.f32
# FLOAT16-DAG: cvt.rn.f16.f32

# bfloat16: native bf16 arithmetic for sm_90 (the sm_70/80 builds assemble too).
# BFLOAT16-LABEL: .visible .entry float_arith(
# BFLOAT16-DAG: ld.global.b16
# BFLOAT16-DAG: st.global.b16
# BFLOAT16-DAG: add.bf16
# BFLOAT16-DAG: sub.bf16
# BFLOAT16-DAG: mul.bf16
# BFLOAT16-DAG: neg.bf16
# BFLOAT16-DAG: setp.gt.bf16
# BFLOAT16-DAG: cvt.f32.bf16
# BFLOAT16-DAG: div.rn.f32
# BFLOAT16-DAG: cvt.rn.bf16.f32

# float32: / is correctly rounded (div.rn, not div.approx).
# FLOAT32-LABEL: .visible .entry float_arith(
# FLOAT32-DAG: ld.global.b32
# FLOAT32-DAG: st.global.b32
# FLOAT32-DAG: add.f32
# FLOAT32-DAG: sub.f32
# FLOAT32-DAG: mul.f32
# FLOAT32-DAG: div.rn.f32
# FLOAT32-DAG: neg.f32
# FLOAT32-DAG: setp.gt.f32
# FLOAT32-NOT: div.approx

# FLOAT64-LABEL: .visible .entry float_arith(
# FLOAT64-DAG: ld.global.b64
# FLOAT64-DAG: st.global.b64
# FLOAT64-DAG: add.f64
# FLOAT64-DAG: sub.f64
# FLOAT64-DAG: mul.f64
# FLOAT64-DAG: div.rn.f64
# FLOAT64-DAG: neg.f64
# FLOAT64-DAG: setp.gt.f64
# FLOAT64-DAG: selp.f64

# complex128: {real, imag} doubles at offsets 0 and 8; abs is a hypot (sqrt.rn.f64).
# COMPLEX128-LABEL: .visible .entry complex128_arith(
# COMPLEX128-DAG: ld.global.b64 	%rd{{[0-9]+}}, [%rd{{[0-9]+}}+8]
# COMPLEX128-DAG: st.global.b64 	[%rd{{[0-9]+}}+8]
# COMPLEX128-DAG: add.rn.f64
# COMPLEX128-DAG: sub.rn.f64
# COMPLEX128-DAG: mul.rn.f64
# COMPLEX128-DAG: div.rn.f64
# COMPLEX128-DAG: sqrt.rn.f64

# complex64: {real, imag} floats at offsets 0 and 4, f32 arithmetic.
# COMPLEX64-LABEL: .visible .entry complex128_arith(
# COMPLEX64-DAG: ld.global.b32 	%r{{[0-9]+}}, [%rd{{[0-9]+}}+4]
# COMPLEX64-DAG: st.global.b32 	[%rd{{[0-9]+}}+4]
# COMPLEX64-DAG: add.rn.f32
# COMPLEX64-DAG: sub.rn.f32
# COMPLEX64-DAG: mul.rn.f32
# COMPLEX64-DAG: div.rn.f32
# COMPLEX64-DAG: sqrt.rn.f32

# float8e4m3 (bits in a byte): software round-to-nearest-even conversions from
# float32 (cvt.rzi.u32 of the scaled value, saturating min), arithmetic in float32.
# F8E4M3-LABEL: .visible .entry float8e4m3_arith(
# F8E4M3-DAG: cvt.rzi.u32.f32
# F8E4M3-DAG: min.u32
# F8E4M3-DAG: add.f32
# F8E4M3-DAG: sub.f32
# F8E4M3-DAG: mul.f32
# F8E4M3-DAG: setp.lt.f32

# Arrays of float8e4m3: byte loads and stores.
# F8E4M3-ARRAY-LABEL: .visible .entry float8_arrays(
# F8E4M3-ARRAY-DAG: ld.global.s8
# F8E4M3-ARRAY-DAG: st.global.b8
# F8E4M3-ARRAY-DAG: cvt.rzi.u32.f32
# F8E4M3-ARRAY-DAG: add.f32
# F8E4M3-ARRAY-DAG: mul.f32

# float8e5m2: widened exactly as the high byte of a half (<< 8, cvt.f32.f16).
# F8E5M2-LABEL: .visible .entry float8e5m2_arith(
# F8E5M2-DAG: shl.b16 	%rs{{[0-9]+}}, %rs{{[0-9]+}}, 8
# F8E5M2-DAG: cvt.f32.f16
# F8E5M2-DAG: cvt.rzi.u32.f32
# F8E5M2-DAG: add.f32
# F8E5M2-DAG: mul.f32

# F8E5M2-ARRAY-LABEL: .visible .entry float8_arrays(
# F8E5M2-ARRAY-DAG: ld.global.b8
# F8E5M2-ARRAY-DAG: st.global.b8
# F8E5M2-ARRAY-DAG: shl.b16 	%rs{{[0-9]+}}, %rs{{[0-9]+}}, 8
# F8E5M2-ARRAY-DAG: cvt.f32.f16

# Conversions device.int8(x) ... device.complex128(x), int(), float(), bool():
# float to integer truncates (cvt.rzi), integer to float rounds (cvt.rn),
# narrowing floats round (cvt.rn), widening is exact.
# CONVERT-LABEL: .visible .entry fixed_formats(
# CONVERT-DAG: cvt.rzi.s16.f32
# CONVERT-DAG: cvt.rzi.s32.f32
# CONVERT-DAG: cvt.rzi.s64.f32
# CONVERT-DAG: cvt.rn.f16.f32
# CONVERT-DAG: cvt.rn.bf16.f32
# CONVERT-DAG: cvt.f64.f32
# CONVERT-DAG: cvt.rn.f32.s32
# CONVERT-DAG: cvt.rn.f32.u64
# CONVERT-DAG: cvt.rn.f32.f64

# Promotion: a weak Python int/float keeps the other operand's type (int8 + 1
# in 16-bit registers, float16 + 1.5 is add.f16, bfloat16 * 2.0 is add.bf16 of
# itself, float64 + 0.1 is add.f64); int8 + float16 is float16; float16 +
# float32 and float16 + bfloat16 are float32; int8 + uint16 is int32; int32 +
# uint32 is int64.
# PROMOTE-LABEL: .visible .entry weak_scalars(
# PROMOTE-DAG: add.s16
# PROMOTE-DAG: ld.param.b16 	[[HP:%rs[0-9]+]], [weak_scalars_param_3]
# PROMOTE-DAG: ld.param.b16 	[[BP:%rs[0-9]+]], [weak_scalars_param_4]
# PROMOTE: add.f16 	%rs{{[0-9]+}}, [[HP]],
# PROMOTE: add.bf16 	%rs{{[0-9]+}}, [[BP]], [[BP]]
# PROMOTE: add.f64
# PROMOTE: cvt.rn.f16.s16 	[[I8H:%rs[0-9]+]]
# PROMOTE-NEXT: add.f16 	%rs{{[0-9]+}}, [[HP]], [[I8H]]
# PROMOTE: cvt.f32.f16 	[[H:%r[0-9]+]], [[HP]]
# PROMOTE-NEXT: add.f32 	%r{{[0-9]+}}, %r{{[0-9]+}}, [[H]]
# PROMOTE: cvt.f32.bf16 	[[BF:%r[0-9]+]], [[BP]]
# PROMOTE-NEXT: add.f32 	%r{{[0-9]+}}, [[H]], [[BF]]
# PROMOTE: cvt.s32.s16
# PROMOTE-NEXT: cvt.u32.u16
# PROMOTE-NEXT: add.s32
# PROMOTE: cvt.s64.s32 	[[I:%rd[0-9]+]]
# PROMOTE-NEXT: add.s64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I]]
# PROMOTE-NEXT: cvt.rn.f32.s64

# int / int is float32 (cvt.rn and a correctly rounded div.rn); // floors
# (div.s32 and a sign fix-up; floats cvt.rmi).
# TRUEDIV-LABEL: .visible .entry arithmetic(
# TRUEDIV-DAG: cvt.rn.f32.s32
# TRUEDIV-DAG: div.rn.f32
# TRUEDIV-DAG: div.s32
# TRUEDIV-DAG: cvt.rmi.f32.f32

# bit_ops: & | ^ ~ << >> and the augmented forms; >> is arithmetic for signed
# types and logical for unsigned ones; int8 in 16-bit registers.
# BITS-S8-LABEL: .visible .entry bit_ops(
# BITS-S8-DAG: ld.global.s8
# BITS-S8-DAG: st.global.b8
# BITS-S8-DAG: and.b16
# BITS-S8-DAG: or.b16
# BITS-S8-DAG: xor.b16
# BITS-S8-DAG: not.b16
# BITS-S8-DAG: shl.b16
# BITS-S8-DAG: shr.s16

# BITS-S32-LABEL: .visible .entry bit_ops(
# BITS-S32-DAG: and.b32
# BITS-S32-DAG: or.b32
# BITS-S32-DAG: xor.b32
# BITS-S32-DAG: not.b32
# BITS-S32-DAG: shl.b32
# BITS-S32-DAG: shr.s32
# BITS-S32-NOT: shr.u32

# BITS-U32-LABEL: .visible .entry bit_ops(
# BITS-U32-DAG: and.b32
# BITS-U32-DAG: or.b32
# BITS-U32-DAG: xor.b32
# BITS-U32-DAG: not.b32
# BITS-U32-DAG: shl.b32
# BITS-U32-DAG: shr.u32
# BITS-U32-NOT: shr.s32

# BITS-U64-LABEL: .visible .entry bit_ops(
# BITS-U64-DAG: and.b64
# BITS-U64-DAG: or.b64
# BITS-U64-DAG: xor.b64
# BITS-U64-DAG: not.b64
# BITS-U64-DAG: shl.b64
# BITS-U64-DAG: shr.u64
# BITS-U64-NOT: shr.s64

# Numbers as zero-dimensional arrays: ndim + size + len(shape) + len(strides)
# folds to 1.0; astype(float64) is cvt.f64.f32; dtype(x) converts back.
# ZERO-DIM-LABEL: .visible .entry number_attributes(
# ZERO-DIM: st.global.b64 	[%rd{{[0-9]+}}], 4607182418800017408
# ZERO-DIM: cvt.f64.f32
# ZERO-DIM: cvt.rn.f32.f64

# view(int32) stores the float's bits unchanged; float16(v).view(uint16) widens the half's bits.
# NUMBER-VIEW-LABEL: .visible .entry number_views(
# NUMBER-VIEW: ld.global.b32 	[[V:%r[0-9]+]]
# NUMBER-VIEW: st.global.b32 	[%rd{{[0-9]+}}], [[V]]
# NUMBER-VIEW-NEXT: cvt.rn.f16.f32 	[[HV:%rs[0-9]+]], [[V]]
# NUMBER-VIEW-NEXT: cvt.u32.u16 	%r{{[0-9]+}}, [[HV]]
