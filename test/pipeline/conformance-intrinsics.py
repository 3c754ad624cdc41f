# Numeric Intrinsics (spec section of that name) compiled to PTX: the kernels of
# test/frontend/intrinsics.py and python/tests/conformance_kernels.py (run on the
# host target against NumPy by python/tests/test_conformance_host.py),
# FileChecked for sm_90 and assembled by ptxas for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int32[:], int32[:]' --target sm_90 -o %t.bits_i32.ptx
# RUN: FileCheck %s --check-prefix=BITS_I32 --input-file=%t.bits_i32.ptx
# RUN: ptxas -arch=sm_90 %t.bits_i32.ptx -o %t.bits_i32.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int32[:], int32[:]' --target sm_70 -o %t.bits_i32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits_i32.70.ptx -o %t.bits_i32.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int32[:], int32[:]' --target sm_80 -o %t.bits_i32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits_i32.80.ptx -o %t.bits_i32.80.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int64[:], int32[:]' --target sm_90 -o %t.bits_i64.ptx
# RUN: FileCheck %s --check-prefix=BITS_I64 --input-file=%t.bits_i64.ptx
# RUN: ptxas -arch=sm_90 %t.bits_i64.ptx -o %t.bits_i64.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int64[:], int32[:]' --target sm_70 -o %t.bits_i64.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits_i64.70.ptx -o %t.bits_i64.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'int64[:], int32[:]' --target sm_80 -o %t.bits_i64.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits_i64.80.ptx -o %t.bits_i64.80.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'uint8[:], int32[:]' --target sm_90 -o %t.bits_u8.ptx
# RUN: FileCheck %s --check-prefix=BITS_U8 --input-file=%t.bits_u8.ptx
# RUN: ptxas -arch=sm_90 %t.bits_u8.ptx -o %t.bits_u8.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'uint8[:], int32[:]' --target sm_70 -o %t.bits_u8.70.ptx
# RUN: ptxas -arch=sm_70 %t.bits_u8.70.ptx -o %t.bits_u8.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel bits --signature 'uint8[:], int32[:]' --target sm_80 -o %t.bits_u8.80.ptx
# RUN: ptxas -arch=sm_80 %t.bits_u8.80.ptx -o %t.bits_u8.80.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel brev_types --signature 'int32[:], int64[:], uint32[:]' --target sm_90 -o %t.brev.ptx
# RUN: FileCheck %s --check-prefix=BREV --input-file=%t.brev.ptx
# RUN: ptxas -arch=sm_90 %t.brev.ptx -o %t.brev.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel brev_types --signature 'int32[:], int64[:], uint32[:]' --target sm_70 -o %t.brev.70.ptx
# RUN: ptxas -arch=sm_70 %t.brev.70.ptx -o %t.brev.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel brev_types --signature 'int32[:], int64[:], uint32[:]' --target sm_80 -o %t.brev.80.ptx
# RUN: ptxas -arch=sm_80 %t.brev.80.ptx -o %t.brev.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' --target sm_90 -o %t.bit_intrinsics32.ptx
# RUN: FileCheck %s --check-prefix=BIT_INTRINSICS32 --input-file=%t.bit_intrinsics32.ptx
# RUN: ptxas -arch=sm_90 %t.bit_intrinsics32.ptx -o %t.bit_intrinsics32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' --target sm_70 -o %t.bit_intrinsics32.70.ptx
# RUN: ptxas -arch=sm_70 %t.bit_intrinsics32.70.ptx -o %t.bit_intrinsics32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'int32[::1], int32[:, ::1], int32[::1]' --target sm_80 -o %t.bit_intrinsics32.80.ptx
# RUN: ptxas -arch=sm_80 %t.bit_intrinsics32.80.ptx -o %t.bit_intrinsics32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'uint64[::1], int32[:, ::1], uint64[::1]' --target sm_90 -o %t.bit_intrinsics64.ptx
# RUN: FileCheck %s --check-prefix=BIT_INTRINSICS64 --input-file=%t.bit_intrinsics64.ptx
# RUN: ptxas -arch=sm_90 %t.bit_intrinsics64.ptx -o %t.bit_intrinsics64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'uint64[::1], int32[:, ::1], uint64[::1]' --target sm_70 -o %t.bit_intrinsics64.70.ptx
# RUN: ptxas -arch=sm_70 %t.bit_intrinsics64.70.ptx -o %t.bit_intrinsics64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel bit_intrinsics --signature 'uint64[::1], int32[:, ::1], uint64[::1]' --target sm_80 -o %t.bit_intrinsics64.80.ptx
# RUN: ptxas -arch=sm_80 %t.bit_intrinsics64.80.ptx -o %t.bit_intrinsics64.80.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel floats --signature 'float32[:], float64[:]' --target sm_90 -o %t.floats.ptx
# RUN: FileCheck %s --check-prefix=FLOATS --input-file=%t.floats.ptx
# RUN: ptxas -arch=sm_90 %t.floats.ptx -o %t.floats.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel floats --signature 'float32[:], float64[:]' --target sm_70 -o %t.floats.70.ptx
# RUN: ptxas -arch=sm_70 %t.floats.70.ptx -o %t.floats.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel floats --signature 'float32[:], float64[:]' --target sm_80 -o %t.floats.80.ptx
# RUN: ptxas -arch=sm_80 %t.floats.80.ptx -o %t.floats.80.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel half --signature 'float16[:]' --target sm_90 -o %t.half.ptx
# RUN: FileCheck %s --check-prefix=HALF --input-file=%t.half.ptx
# RUN: ptxas -arch=sm_90 %t.half.ptx -o %t.half.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel half --signature 'float16[:]' --target sm_70 -o %t.half.70.ptx
# RUN: ptxas -arch=sm_70 %t.half.70.ptx -o %t.half.70.cubin
# RUN: pydevc %S/../frontend/intrinsics.py --kernel half --signature 'float16[:]' --target sm_80 -o %t.half.80.ptx
# RUN: ptxas -arch=sm_80 %t.half.80.ptx -o %t.half.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' --target sm_90 -o %t.fma_cbrt32.ptx
# RUN: FileCheck %s --check-prefix=FMA_CBRT32 --input-file=%t.fma_cbrt32.ptx
# RUN: ptxas -arch=sm_90 %t.fma_cbrt32.ptx -o %t.fma_cbrt32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' --target sm_70 -o %t.fma_cbrt32.70.ptx
# RUN: ptxas -arch=sm_70 %t.fma_cbrt32.70.ptx -o %t.fma_cbrt32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float32[:, ::1], float32[::1], float32[::1], float32[::1]' --target sm_80 -o %t.fma_cbrt32.80.ptx
# RUN: ptxas -arch=sm_80 %t.fma_cbrt32.80.ptx -o %t.fma_cbrt32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' --target sm_90 -o %t.fma_cbrt64.ptx
# RUN: FileCheck %s --check-prefix=FMA_CBRT64 --input-file=%t.fma_cbrt64.ptx
# RUN: ptxas -arch=sm_90 %t.fma_cbrt64.ptx -o %t.fma_cbrt64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' --target sm_70 -o %t.fma_cbrt64.70.ptx
# RUN: ptxas -arch=sm_70 %t.fma_cbrt64.70.ptx -o %t.fma_cbrt64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_intrinsics --signature 'float64[:, ::1], float64[::1], float64[::1], float64[::1]' --target sm_80 -o %t.fma_cbrt64.80.ptx
# RUN: ptxas -arch=sm_80 %t.fma_cbrt64.80.ptx -o %t.fma_cbrt64.80.cubin

# popc, clz and ffs on int32: popc.b32, clz.b32, and ffs as
# popc((x - 1) & ~x) + 1 (the index of the lowest set bit, from 1).
# BITS_I32-LABEL: .visible .entry bits(
# BITS_I32: popc.b32
# BITS_I32: clz.b32
# BITS_I32: setp.eq.b32 [[Z:%p[0-9]+]], [[X:%r[0-9]+]], 0;
# BITS_I32: add.s32 [[M1:%r[0-9]+]], [[X]], -1;
# BITS_I32-NEXT: not.b32 [[N:%r[0-9]+]], [[X]];
# BITS_I32-NEXT: and.b32 [[LOW:%r[0-9]+]], [[N]], [[M1]];
# BITS_I32-NEXT: popc.b32 [[C:%r[0-9]+]], [[LOW]];
# BITS_I32: add.s32 [[F:%r[0-9]+]], [[C]], 1;
# BITS_I32-NEXT: selp.b32 %r{{[0-9]+}}, 0, [[F]], [[Z]];

# ... on int64: the .b64 forms.
# BITS_I64-LABEL: .visible .entry bits(
# BITS_I64: popc.b64
# BITS_I64: clz.b64
# BITS_I64: add.s64 [[M1:%rd[0-9]+]], [[X:%rd[0-9]+]], -1;
# BITS_I64-NEXT: not.b64 [[N:%rd[0-9]+]], [[X]];
# BITS_I64-NEXT: and.b64 [[LOW:%rd[0-9]+]], [[N]], [[M1]];
# BITS_I64-NEXT: popc.b64

# ... on uint8: widened to 32 bits, clz corrected by 24 (-16 then -8).
# BITS_U8-LABEL: .visible .entry bits(
# BITS_U8: popc.b32
# BITS_U8: clz.b32 [[Z:%r[0-9]+]],
# BITS_U8-NEXT: add.s32 %r{{[0-9]+}}, [[Z]], -16;
# BITS_U8: add.s16 %rs{{[0-9]+}}, %rs{{[0-9]+}}, -8;
# BITS_U8: popc.b32

# brev on int32, int64, uint32.
# BREV-LABEL: .visible .entry brev_types(
# BREV: brev.b32
# BREV: brev.b64
# BREV: brev.b32

# brev, clz, ffs, popc of the kernels run on the host against NumPy.
# BIT_INTRINSICS32-LABEL: .visible .entry bit_intrinsics(
# BIT_INTRINSICS32: brev.b32
# BIT_INTRINSICS32: clz.b32
# BIT_INTRINSICS32: not.b32
# BIT_INTRINSICS32: popc.b32
# BIT_INTRINSICS32: popc.b32
# BIT_INTRINSICS64-LABEL: .visible .entry bit_intrinsics(
# BIT_INTRINSICS64: brev.b64
# BIT_INTRINSICS64: clz.b64
# BIT_INTRINSICS64: not.b64
# BIT_INTRINSICS64: popc.b64
# BIT_INTRINSICS64: popc.b64

# cbrt is libdevice's __nv_cbrtf / __nv_cbrt, inlined (no call is left);
# fma is one fma.rn.f32 / fma.rn.f64 of the three operands (rounded once):
# fma(a, b, -(a * b)) keeps the product's rounding error (mul.rn, then fma.rn).
# FMA_CBRT32-LABEL: .visible .entry float_intrinsics(
# FMA_CBRT32-NOT: call
# FMA_CBRT32: lg2.approx.f32
# FMA_CBRT32: ex2.approx.ftz.f32
# FMA_CBRT32: ld.global.b32 [[A:%r[0-9]+]],
# FMA_CBRT32: ld.global.b32 [[B:%r[0-9]+]],
# FMA_CBRT32: ld.global.b32 [[C:%r[0-9]+]],
# FMA_CBRT32-NEXT: fma.rn.f32 %r{{[0-9]+}}, [[A]], [[B]], [[C]];
# FMA_CBRT32: ld.global.b32 [[A2:%r[0-9]+]],
# FMA_CBRT32-NEXT: ld.global.b32 [[B2:%r[0-9]+]],
# FMA_CBRT32-NEXT: neg.f32 [[NB:%r[0-9]+]], [[B2]];
# FMA_CBRT32-NEXT: mul.rn.f32 [[NAB:%r[0-9]+]], [[A2]], [[NB]];
# FMA_CBRT32-NEXT: fma.rn.f32 %r{{[0-9]+}}, [[A2]], [[B2]], [[NAB]];
# FMA_CBRT32-NOT: call
# FMA_CBRT64-LABEL: .visible .entry float_intrinsics(
# FMA_CBRT64-NOT: call
# FMA_CBRT64: fma.rn.f64
# FMA_CBRT64: rcp.approx.ftz.f64
# FMA_CBRT64: st.global.b64
# FMA_CBRT64-NEXT: ld.global.b64 [[A:%rd[0-9]+]],
# FMA_CBRT64-NEXT: add.s64
# FMA_CBRT64-NEXT: ld.global.b64 [[B:%rd[0-9]+]],
# FMA_CBRT64-NEXT: add.s64
# FMA_CBRT64-NEXT: ld.global.b64 [[C:%rd[0-9]+]],
# FMA_CBRT64-NEXT: fma.rn.f64 %rd{{[0-9]+}}, [[A]], [[B]], [[C]];
# FMA_CBRT64: ld.global.b64 [[A2:%rd[0-9]+]],
# FMA_CBRT64-NEXT: ld.global.b64 [[B2:%rd[0-9]+]],
# FMA_CBRT64-NEXT: neg.f64 [[NB:%rd[0-9]+]], [[B2]];
# FMA_CBRT64-NEXT: mul.rn.f64 [[NAB:%rd[0-9]+]], [[A2]], [[NB]];
# FMA_CBRT64-NEXT: fma.rn.f64 %rd{{[0-9]+}}, [[A2]], [[B2]], [[NAB]];
# FMA_CBRT64-NOT: call

# Mixed float32/float64 operands: float32 fma and cbrt, float64 fma with a
# float32 operand widened; no call is left.
# FLOATS-LABEL: .visible .entry floats(
# FLOATS-NOT: call
# FLOATS: fma.rn.f32 %r{{[0-9]+}}, [[X:%r[0-9]+]], [[X]], 0f3F800000;
# FLOATS: fma.rn.f64 %rd{{[0-9]+}}, [[Y:%rd[0-9]+]], [[Y]], [[Y]];
# FLOATS: cvt.f64.f32 [[W:%rd[0-9]+]],
# FLOATS-NEXT: fma.rn.f64 %rd{{[0-9]+}}, [[W]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
# FLOATS-NOT: call

# float16 fma is rounded once: an exact f64 product and sum, rounded to odd
# at float32 (the last bit set when inexact), then to float16. float16 cbrt
# goes through float32 and is rounded back; no call is left.
# HALF-LABEL: .visible .entry half(
# HALF-NOT: call
# HALF: cvt.f64.f16
# HALF: mul.rn.f64
# HALF: add.rn.f64
# HALF: cvt.rn.f32.f64
# HALF: or.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 1;
# HALF: cvt.rn.f16.f32
# HALF: lg2.approx.f32
# HALF: cvt.rn.f16.f32
# HALF-NOT: call
