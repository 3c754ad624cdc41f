# Memory Orderings, Thread Scopes, Atomics and threadfence (spec sections of
# those names) compiled to PTX: the atomics kernels of test/frontend/atomics.py
# and python/tests/conformance_kernels.py (run on the host target against NumPy
# by python/tests/test_conformance_host.py), FileChecked for sm_90 and assembled
# by ptxas for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'int32[:], int32[:, :]' --target sm_90 -o %t.orders32.ptx
# RUN: FileCheck %s --check-prefix=ORDERS32 --input-file=%t.orders32.ptx
# RUN: ptxas -arch=sm_90 %t.orders32.ptx -o %t.orders32.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'int32[:], int32[:, :]' --target sm_70 -o %t.orders32.70.ptx
# RUN: ptxas -arch=sm_70 %t.orders32.70.ptx -o %t.orders32.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'int32[:], int32[:, :]' --target sm_80 -o %t.orders32.80.ptx
# RUN: ptxas -arch=sm_80 %t.orders32.80.ptx -o %t.orders32.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'uint64[:], uint64[:, :]' --target sm_90 -o %t.orders64.ptx
# RUN: FileCheck %s --check-prefix=ORDERS64 --input-file=%t.orders64.ptx
# RUN: ptxas -arch=sm_90 %t.orders64.ptx -o %t.orders64.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'uint64[:], uint64[:, :]' --target sm_70 -o %t.orders64.70.ptx
# RUN: ptxas -arch=sm_70 %t.orders64.70.ptx -o %t.orders64.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel int_ops --signature 'uint64[:], uint64[:, :]' --target sm_80 -o %t.orders64.80.ptx
# RUN: ptxas -arch=sm_80 %t.orders64.80.ptx -o %t.orders64.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float32[:]' --target sm_90 -o %t.float32.ptx
# RUN: FileCheck %s --check-prefix=FLOAT32 --input-file=%t.float32.ptx
# RUN: ptxas -arch=sm_90 %t.float32.ptx -o %t.float32.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float32[:]' --target sm_70 -o %t.float32.70.ptx
# RUN: ptxas -arch=sm_70 %t.float32.70.ptx -o %t.float32.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float32[:]' --target sm_80 -o %t.float32.80.ptx
# RUN: ptxas -arch=sm_80 %t.float32.80.ptx -o %t.float32.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float64[:]' --target sm_90 -o %t.float64.ptx
# RUN: FileCheck %s --check-prefix=FLOAT64 --input-file=%t.float64.ptx
# RUN: ptxas -arch=sm_90 %t.float64.ptx -o %t.float64.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float64[:]' --target sm_70 -o %t.float64.70.ptx
# RUN: ptxas -arch=sm_70 %t.float64.70.ptx -o %t.float64.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel float_ops --signature 'float64[:]' --target sm_80 -o %t.float64.80.ptx
# RUN: ptxas -arch=sm_80 %t.float64.80.ptx -o %t.float64.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel indexing --signature 'int32[:], float32[:, :, :], int64[:]' --target sm_90 -o %t.indexing.ptx
# RUN: FileCheck %s --check-prefix=INDEXING --input-file=%t.indexing.ptx
# RUN: ptxas -arch=sm_90 %t.indexing.ptx -o %t.indexing.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel indexing --signature 'int32[:], float32[:, :, :], int64[:]' --target sm_70 -o %t.indexing.70.ptx
# RUN: ptxas -arch=sm_70 %t.indexing.70.ptx -o %t.indexing.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel indexing --signature 'int32[:], float32[:, :, :], int64[:]' --target sm_80 -o %t.indexing.80.ptx
# RUN: ptxas -arch=sm_80 %t.indexing.80.ptx -o %t.indexing.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel shared_counter --signature 'int32[:]' --target sm_90 -o %t.shared_counter.ptx
# RUN: FileCheck %s --check-prefix=SHARED_COUNTER --input-file=%t.shared_counter.ptx
# RUN: ptxas -arch=sm_90 %t.shared_counter.ptx -o %t.shared_counter.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel shared_counter --signature 'int32[:]' --target sm_70 -o %t.shared_counter.70.ptx
# RUN: ptxas -arch=sm_70 %t.shared_counter.70.ptx -o %t.shared_counter.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel shared_counter --signature 'int32[:]' --target sm_80 -o %t.shared_counter.80.ptx
# RUN: ptxas -arch=sm_80 %t.shared_counter.80.ptx -o %t.shared_counter.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel small_types --signature 'int8[:], float16[:], complex128[:]' --target sm_90 -o %t.small.ptx
# RUN: FileCheck %s --check-prefix=SMALL --input-file=%t.small.ptx
# RUN: ptxas -arch=sm_90 %t.small.ptx -o %t.small.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel small_types --signature 'int8[:], float16[:], complex128[:]' --target sm_70 -o %t.small.70.ptx
# RUN: ptxas -arch=sm_70 %t.small.70.ptx -o %t.small.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel small_types --signature 'int8[:], float16[:], complex128[:]' --target sm_80 -o %t.small.80.ptx
# RUN: ptxas -arch=sm_80 %t.small.80.ptx -o %t.small.80.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel fences --signature '' --target sm_90 -o %t.fences.ptx
# RUN: FileCheck %s --check-prefix=FENCES --input-file=%t.fences.ptx
# RUN: ptxas -arch=sm_90 %t.fences.ptx -o %t.fences.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel fences --signature '' --target sm_70 -o %t.fences.70.ptx
# RUN: ptxas -arch=sm_70 %t.fences.70.ptx -o %t.fences.70.cubin
# RUN: pydevc %S/../frontend/atomics.py --kernel fences --signature '' --target sm_80 -o %t.fences.80.ptx
# RUN: ptxas -arch=sm_80 %t.fences.80.ptx -o %t.fences.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_90 -o %t.consume.ptx
# RUN: FileCheck %s --check-prefix=CONSUME --input-file=%t.consume.ptx
# RUN: ptxas -arch=sm_90 %t.consume.ptx -o %t.consume.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_70 -o %t.consume.70.ptx
# RUN: ptxas -arch=sm_70 %t.consume.70.ptx -o %t.consume.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel consume_orders --signature 'int32[:, ::1], int32[::1], int32[::1]' --target sm_80 -o %t.consume.80.ptx
# RUN: ptxas -arch=sm_80 %t.consume.80.ptx -o %t.consume.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' --target sm_90 -o %t.scopes.ptx
# RUN: FileCheck %s --check-prefix=SCOPES --input-file=%t.scopes.ptx
# RUN: ptxas -arch=sm_90 %t.scopes.ptx -o %t.scopes.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' --target sm_70 -o %t.scopes.70.ptx
# RUN: ptxas -arch=sm_70 %t.scopes.70.ptx -o %t.scopes.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel block_scope --signature 'int32[:, ::1], int32[::1]' --target sm_80 -o %t.scopes.80.ptx
# RUN: ptxas -arch=sm_80 %t.scopes.80.ptx -o %t.scopes.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_90 -o %t.load.ptx
# RUN: FileCheck %s --check-prefix=LOAD --input-file=%t.load.ptx
# RUN: ptxas -arch=sm_90 %t.load.ptx -o %t.load.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_70 -o %t.load.70.ptx
# RUN: ptxas -arch=sm_70 %t.load.70.ptx -o %t.load.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel atomic_load --signature 'int64[:, ::1], int64[::1], int64[::1]' --target sm_80 -o %t.load.80.ptx
# RUN: ptxas -arch=sm_80 %t.load.80.ptx -o %t.load.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'int32[:, ::1], int32[::1], int32[:, ::1], int32[::1]' --target sm_90 -o %t.rmw32.ptx
# RUN: FileCheck %s --check-prefix=RMW32 --input-file=%t.rmw32.ptx
# RUN: ptxas -arch=sm_90 %t.rmw32.ptx -o %t.rmw32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'int32[:, ::1], int32[::1], int32[:, ::1], int32[::1]' --target sm_70 -o %t.rmw32.70.ptx
# RUN: ptxas -arch=sm_70 %t.rmw32.70.ptx -o %t.rmw32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'int32[:, ::1], int32[::1], int32[:, ::1], int32[::1]' --target sm_80 -o %t.rmw32.80.ptx
# RUN: ptxas -arch=sm_80 %t.rmw32.80.ptx -o %t.rmw32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' --target sm_90 -o %t.rmw64.ptx
# RUN: FileCheck %s --check-prefix=RMW64 --input-file=%t.rmw64.ptx
# RUN: ptxas -arch=sm_90 %t.rmw64.ptx -o %t.rmw64.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' --target sm_70 -o %t.rmw64.70.ptx
# RUN: ptxas -arch=sm_70 %t.rmw64.70.ptx -o %t.rmw64.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel rmw_ops --signature 'uint64[:, ::1], uint64[::1], uint64[:, ::1], uint64[::1]' --target sm_80 -o %t.rmw64.80.ptx
# RUN: ptxas -arch=sm_80 %t.rmw64.80.ptx -o %t.rmw64.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_sub --signature 'float64[::1], float64[::1], float64[::1], float64[::1]' --target sm_90 -o %t.float_sub.ptx
# RUN: FileCheck %s --check-prefix=FLOAT_SUB --input-file=%t.float_sub.ptx
# RUN: ptxas -arch=sm_90 %t.float_sub.ptx -o %t.float_sub.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_sub --signature 'float64[::1], float64[::1], float64[::1], float64[::1]' --target sm_70 -o %t.float_sub.70.ptx
# RUN: ptxas -arch=sm_70 %t.float_sub.70.ptx -o %t.float_sub.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel float_sub --signature 'float64[::1], float64[::1], float64[::1], float64[::1]' --target sm_80 -o %t.float_sub.80.ptx
# RUN: ptxas -arch=sm_80 %t.float_sub.80.ptx -o %t.float_sub.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' --target sm_90 -o %t.exch8.ptx
# RUN: FileCheck %s --check-prefix=EXCH8 --input-file=%t.exch8.ptx
# RUN: ptxas -arch=sm_90 %t.exch8.ptx -o %t.exch8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' --target sm_70 -o %t.exch8.70.ptx
# RUN: ptxas -arch=sm_70 %t.exch8.70.ptx -o %t.exch8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_exch --signature 'int8[::1], int8[::1], int8[::1]' --target sm_80 -o %t.exch8.80.ptx
# RUN: ptxas -arch=sm_80 %t.exch8.80.ptx -o %t.exch8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' --target sm_90 -o %t.cas16.ptx
# RUN: FileCheck %s --check-prefix=CAS16 --input-file=%t.cas16.ptx
# RUN: ptxas -arch=sm_90 %t.cas16.ptx -o %t.cas16.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' --target sm_70 -o %t.cas16.70.ptx
# RUN: ptxas -arch=sm_70 %t.cas16.70.ptx -o %t.cas16.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel small_cas --signature 'float16[::1], float16[::1], float16[::1], float16[::1]' --target sm_80 -o %t.cas16.80.ptx
# RUN: ptxas -arch=sm_80 %t.cas16.80.ptx -o %t.cas16.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int8[::1]' --target sm_90 -o %t.cas_loop8.ptx
# RUN: FileCheck %s --check-prefix=CAS_LOOP8 --input-file=%t.cas_loop8.ptx
# RUN: ptxas -arch=sm_90 %t.cas_loop8.ptx -o %t.cas_loop8.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int8[::1]' --target sm_70 -o %t.cas_loop8.70.ptx
# RUN: ptxas -arch=sm_70 %t.cas_loop8.70.ptx -o %t.cas_loop8.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int8[::1]' --target sm_80 -o %t.cas_loop8.80.ptx
# RUN: ptxas -arch=sm_80 %t.cas_loop8.80.ptx -o %t.cas_loop8.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int32[::1]' --target sm_90 -o %t.cas_loop32.ptx
# RUN: FileCheck %s --check-prefix=CAS_LOOP32 --input-file=%t.cas_loop32.ptx
# RUN: ptxas -arch=sm_90 %t.cas_loop32.ptx -o %t.cas_loop32.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int32[::1]' --target sm_70 -o %t.cas_loop32.70.ptx
# RUN: ptxas -arch=sm_70 %t.cas_loop32.70.ptx -o %t.cas_loop32.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel cas_loop --signature 'int32[::1]' --target sm_80 -o %t.cas_loop32.80.ptx
# RUN: ptxas -arch=sm_80 %t.cas_loop32.80.ptx -o %t.cas_loop32.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel exch_cas_wait --signature 'int32[::1], int32[::1], int32[::1]' --target sm_90 -o %t.exch_cas_wait.ptx
# RUN: FileCheck %s --check-prefix=EXCH_CAS_WAIT --input-file=%t.exch_cas_wait.ptx
# RUN: ptxas -arch=sm_90 %t.exch_cas_wait.ptx -o %t.exch_cas_wait.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel exch_cas_wait --signature 'int32[::1], int32[::1], int32[::1]' --target sm_70 -o %t.exch_cas_wait.70.ptx
# RUN: ptxas -arch=sm_70 %t.exch_cas_wait.70.ptx -o %t.exch_cas_wait.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel exch_cas_wait --signature 'int32[::1], int32[::1], int32[::1]' --target sm_80 -o %t.exch_cas_wait.80.ptx
# RUN: ptxas -arch=sm_80 %t.exch_cas_wait.80.ptx -o %t.exch_cas_wait.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' --target sm_90 -o %t.notify_one.ptx
# RUN: FileCheck %s --check-prefix=NOTIFY_ONE --input-file=%t.notify_one.ptx
# RUN: ptxas -arch=sm_90 %t.notify_one.ptx -o %t.notify_one.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' --target sm_70 -o %t.notify_one.70.ptx
# RUN: ptxas -arch=sm_70 %t.notify_one.70.ptx -o %t.notify_one.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel notify_one_handoff --signature 'int32[::1], int32[::1]' --target sm_80 -o %t.notify_one.80.ptx
# RUN: ptxas -arch=sm_80 %t.notify_one.80.ptx -o %t.notify_one.80.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' --target sm_90 -o %t.fence_message.ptx
# RUN: FileCheck %s --check-prefix=FENCE_MESSAGE --input-file=%t.fence_message.ptx
# RUN: ptxas -arch=sm_90 %t.fence_message.ptx -o %t.fence_message.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' --target sm_70 -o %t.fence_message.70.ptx
# RUN: ptxas -arch=sm_70 %t.fence_message.70.ptx -o %t.fence_message.70.cubin
# RUN: pydevc %S/../../python/tests/conformance_kernels.py --kernel fence_message --signature 'int32[::1], int32[::1], int32[::1]' --target sm_80 -o %t.fence_message.80.ptx
# RUN: ptxas -arch=sm_80 %t.fence_message.80.ptx -o %t.fence_message.80.cubin

# Every AtomicInterface method with memory= and scope= (keywords and
# positional) on int32: the order is the atom/ld/st qualifier, the scope is
# .cta (block, thread), .gpu (device) or .sys (system); seq_cst is
# fence.sc.<scope> then the .acquire operation, as libcu++ does; a relaxed or
# release operation whose result is unused is a red; sub is an
# add of the negation; wait polls (ld + nanosleep); notify_one/notify_all
# emit nothing.
# ORDERS32-LABEL: .visible .entry int_ops(
# ORDERS32: fence.sc.sys;
# ORDERS32: atom.acquire.sys.global.add.u32 %r{{[0-9]+}}, [%rd1], %r{{[0-9]+}};
# ORDERS32: mov.b32 [[M2:%r[0-9]+]], -2;
# ORDERS32: red.relaxed.sys.global.add.u32 [%rd1], [[M2]];
# ORDERS32: fence.sc.gpu;
# ORDERS32: atom.acquire.gpu.global.and.b32
# ORDERS32: atom.acquire.cta.global.or.b32
# ORDERS32: red.release.cta.global.xor.b32
# ORDERS32: atom.acq_rel.sys.global.max.s32
# ORDERS32: fence.sc.sys;
# ORDERS32: atom.acquire.sys.global.min.s32
# ORDERS32: fence.sc.sys;
# ORDERS32: atom.acquire.sys.global.max.s32
# ORDERS32: atom.acquire.gpu.global.min.s32
# ORDERS32: atom.relaxed.sys.global.exch.b32 [[OLD:%r[0-9]+]], [%rd1], %r{{[0-9]+}};
# ORDERS32: atom.acq_rel.gpu.global.cas.b32 [[PREV:%r[0-9]+]], [%rd1], [[OLD]], %r{{[0-9]+}};
# ORDERS32: ld.acquire.gpu.global.b32
# ORDERS32: st.release.cta.global.b32 [%rd1], [[PREV]];
# ORDERS32: ld.relaxed.sys.global.b32 %cur, [%rd1];
# ORDERS32: @%same nanosleep.u32 64;
# ORDERS32-NOT: fence
# ORDERS32: fence.sc.gpu;
# ORDERS32: atom.acquire.gpu.global.add.u32
# ORDERS32-NOT: atom
# ORDERS32: ret;

# The same on uint64: .u64 add/max/min, .b64 bit operations, exch and cas.
# ORDERS64-LABEL: .visible .entry int_ops(
# ORDERS64: fence.sc.sys;
# ORDERS64: atom.acquire.sys.global.add.u64
# ORDERS64: red.relaxed.sys.global.add.u64
# ORDERS64: fence.sc.gpu;
# ORDERS64: atom.acquire.gpu.global.and.b64
# ORDERS64: atom.acquire.cta.global.or.b64
# ORDERS64: red.release.cta.global.xor.b64
# ORDERS64: atom.acq_rel.sys.global.max.u64
# ORDERS64: fence.sc.sys;
# ORDERS64: atom.acquire.sys.global.min.u64
# ORDERS64: fence.sc.sys;
# ORDERS64: atom.acquire.sys.global.max.u64
# ORDERS64: atom.acquire.gpu.global.min.u64
# ORDERS64: atom.relaxed.sys.global.exch.b64
# ORDERS64: atom.acq_rel.gpu.global.cas.b64
# ORDERS64: ld.acquire.gpu.global.b64
# ORDERS64: st.release.cta.global.b64
# ORDERS64: ld.relaxed.sys.global.b64 %cur
# ORDERS64: nanosleep.u32

# float32: add/sub are atom .add.f32 (sub adds -2.0; red when its result is unused); max/min are a CAS loop
# choosing with setp.gt/setp.lt (the spec's max/min), nanmax/nanmin a CAS loop
# of max.f32/min.f32 (NaN-ignoring); exch/cas/load/store are .b32.
# FLOAT32-LABEL: .visible .entry float_ops(
# FLOAT32: fence.sc.sys;
# FLOAT32: atom.acquire.sys.global.add.f32
# FLOAT32: mov.b32 [[M2:%r[0-9]+]], -1073741824;
# FLOAT32: red.relaxed.cta.global.add.f32 [%rd1], [[M2]];
# FLOAT32: ld.relaxed.sys.global.f32
# FLOAT32: setp.gt.f32
# FLOAT32: atom.acq_rel.sys.global.cas.b32
# FLOAT32: fence.sc.sys;
# FLOAT32: ld.relaxed.sys.global.f32
# FLOAT32: setp.lt.f32
# FLOAT32: atom.acquire.sys.global.cas.b32
# FLOAT32: fence.sc.gpu;
# FLOAT32: ld.relaxed.gpu.global.f32
# FLOAT32: max.f32 %new, %assumed,
# FLOAT32: atom.acquire.gpu.global.cas.b32
# FLOAT32: ld.relaxed.cta.global.f32
# FLOAT32: min.f32 %new, %assumed,
# FLOAT32: atom.release.cta.global.cas.b32
# FLOAT32: fence.sc.sys;
# FLOAT32: atom.acquire.sys.global.exch.b32
# FLOAT32: fence.sc.sys;
# FLOAT32: atom.acquire.sys.global.cas.b32
# FLOAT32: fence.sc.sys;
# FLOAT32: ld.acquire.sys.global.b32 [[V:%r[0-9]+]], [%rd1];
# FLOAT32: st.relaxed.sys.global.b32 [%rd1], [[V]];

# float64: the same with .f64 and 64-bit CAS loops.
# FLOAT64-LABEL: .visible .entry float_ops(
# FLOAT64: atom.acquire.sys.global.add.f64
# FLOAT64: red.relaxed.cta.global.add.f64
# FLOAT64: atom.acq_rel.sys.global.cas.b64
# FLOAT64: atom.acquire.sys.global.cas.b64
# FLOAT64: max.f64 %new, %assumed,
# FLOAT64: atom.acquire.gpu.global.cas.b64
# FLOAT64: min.f64 %new, %assumed,
# FLOAT64: atom.release.cta.global.cas.b64
# FLOAT64: atom.acquire.sys.global.exch.b64
# FLOAT64: atom.acquire.sys.global.cas.b64
# FLOAT64: ld.acquire.sys.global.b64
# FLOAT64: st.relaxed.sys.global.b64

# atomic_ref on 1-d, 3-d (constant, tid(3)) and negative indices.
# INDEXING-LABEL: .visible .entry indexing(
# INDEXING: atom.acquire.sys.global.add.u32
# INDEXING: atom.acquire.sys.global.add.f32
# INDEXING: atom.acquire.sys.global.cas.b32
# INDEXING: atom.acquire.sys.global.max.s64

# An atomic_ref to a shared array uses the .shared space; scope block is .cta.
# SHARED_COUNTER-LABEL: .visible .entry shared_counter(
# SHARED_COUNTER: .shared .align 4 .b8 [[S:__pydev_shared_[0-9]+]][4];
# SHARED_COUNTER: mov.b64 [[P:%rd[0-9]+]], [[S]];
# SHARED_COUNTER: red.relaxed.cta.shared.add.u32 [[[P]]], %r{{[0-9]+}};
# SHARED_COUNTER: bar.sync 0;
# SHARED_COUNTER: ld.acquire.cta.shared.b32 %r{{[0-9]+}}, [[[P]]];

# exch on int8 and cas on float16: a CAS loop on the aligned 32-bit word that
# holds the object (PTX has no 8-bit atom nor 16-bit exch); load/store of a
# 16-byte complex128 is ld/st .b128.
# SMALL-LABEL: .visible .entry small_types(
# SMALL: and.b64 %word, %rd{{[0-9]+}}, -4;
# SMALL: shl.b32 %mask, 0xFF, %sh;
# SMALL: fence.sc.sys;
# SMALL: ld.acquire.sys.global.b32 %old, [%word];
# SMALL: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new;
# SMALL: shl.b32 %mask, 0xFFFF, %sh;
# SMALL: setp.ne.b32 %miss, %cur,
# SMALL: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new;
# SMALL: ld.relaxed.sys.global.b128
# SMALL: st.relaxed.sys.global.b128

# threadfence(memory, scope): seq_cst is membar (fence.sc's synonym on sm_70
# and later: membar.cta, .gl, .sys), acquire/release/acq_rel and consume are
# fence.acq_rel, relaxed is no fence; thread scope is .cta.
# FENCES-LABEL: .visible .entry fences()
# FENCES: membar.sys;
# FENCES: fence.acq_rel.sys;
# FENCES: fence.acq_rel.sys;
# FENCES: fence.acq_rel.gpu;
# FENCES: fence.acq_rel.cta;
# FENCES: membar.cta;
# FENCES: membar.gl;
# FENCES: ret;

# memory='consume' is acquire (PTX has no consume): loads, an RMW and a fence.
# CONSUME-LABEL: .visible .entry consume_orders(
# CONSUME: ld.acquire.sys.global.b32
# CONSUME: ld.acquire.cta.global.b32
# CONSUME: atom.acquire.gpu.global.add.u32
# CONSUME: fence.acq_rel.sys;
# CONSUME: ld.acquire.cta.global.b32
# CONSUME: atom.acquire.sys.global.add.u32
# CONSUME-NOT: consume

# scope='block' and scope='thread' are .cta on a shared counter and a global
# one; a thread's own local array gets no atom at all (PTX defines atom only
# on .global and .shared; an H100 returned 0 for it: issue 14): its add,
# seq_cst exch and load are plain, and with constant indices it lives in
# registers (no local depot). The two membar.cta are the threadfences.
# SCOPES-LABEL: .visible .entry block_scope(
# SCOPES-NOT: __local_depot
# SCOPES: st.relaxed.cta.shared.b32
# SCOPES: red.relaxed.cta.shared.add.u32
# SCOPES: atom.acq_rel.cta.global.add.u32
# SCOPES-NOT: atom.
# SCOPES-NOT: fence
# SCOPES: ld.acquire.cta.shared.b32
# SCOPES-NOT: atom.
# SCOPES-NOT: fence
# SCOPES: st.release.cta.global.b32
# SCOPES-NOT: atom.
# SCOPES: membar.cta;
# SCOPES: membar.cta;
# SCOPES-NOT: atom.
# SCOPES: ret;

# load with each order and scope (seq_cst: fence.sc then ld.acquire).
# LOAD-LABEL: .visible .entry atomic_load(
# LOAD: fence.sc.sys;
# LOAD: ld.acquire.sys.global.b64
# LOAD: ld.relaxed.sys.global.b64
# LOAD: ld.acquire.gpu.global.b64
# LOAD: fence.sc.sys;
# LOAD: ld.acquire.sys.global.b64
# LOAD: red.relaxed.sys.global.add.u64
# LOAD: ld.acquire.cta.global.b64

# sub (add of neg.s32), and_, or_, xor on int32 with their orders and scopes.
# RMW32-LABEL: .visible .entry rmw_ops(
# RMW32: neg.s32 [[N:%r[0-9]+]],
# RMW32: fence.sc.sys;
# RMW32: atom.acquire.sys.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], [[N]];
# RMW32: atom.acquire.sys.global.and.b32
# RMW32: atom.release.gpu.global.or.b32
# RMW32: atom.acq_rel.cta.global.xor.b32
# RMW32: neg.s32 [[N2:%r[0-9]+]],
# RMW32: red.relaxed.sys.global.add.u32 [%rd{{[0-9]+}}], [[N2]];
# RMW32: fence.sc.sys;
# RMW32: atom.acquire.sys.global.and.b32
# RMW32: fence.sc.sys;
# RMW32: atom.acquire.sys.global.or.b32
# RMW32: fence.sc.sys;
# RMW32: atom.acquire.sys.global.xor.b32

# ... and on uint64.
# RMW64-LABEL: .visible .entry rmw_ops(
# RMW64: neg.s64
# RMW64: atom.acquire.sys.global.add.u64
# RMW64: atom.acquire.sys.global.and.b64
# RMW64: atom.release.gpu.global.or.b64
# RMW64: atom.acq_rel.cta.global.xor.b64
# RMW64: neg.s64
# RMW64: red.relaxed.sys.global.add.u64
# RMW64: atom.acquire.sys.global.and.b64
# RMW64: atom.acquire.sys.global.or.b64
# RMW64: atom.acquire.sys.global.xor.b64

# sub on float64: atom .add.f64 of the value with its sign bit flipped.
# FLOAT_SUB-LABEL: .visible .entry float_sub(
# FLOAT_SUB: xor.b64 [[N:%rd[0-9]+]], %rd{{[0-9]+}}, -9223372036854775808;
# FLOAT_SUB: fence.sc.sys;
# FLOAT_SUB: atom.acquire.sys.global.add.f64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], [[N]];
# FLOAT_SUB: xor.b64 [[N2:%rd[0-9]+]], %rd{{[0-9]+}}, -9223372036854775808;
# FLOAT_SUB: red.global.add.f64 [%rd{{[0-9]+}}], [[N2]];

# exch on int8: the CAS loop on the 32-bit word, byte lane masked with 0xFF.
# EXCH8-LABEL: .visible .entry small_exch(
# EXCH8: and.b64 %word, %rd{{[0-9]+}}, -4;
# EXCH8: shl.b32 %mask, 0xFF, %sh;
# EXCH8: fence.sc.sys;
# EXCH8: ld.acquire.sys.global.b32 %old, [%word];
# EXCH8: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new;
# EXCH8: setp.ne.b32 %miss, %prev, %old;
# EXCH8: st.global.b8

# cas on float16: the same loop on 16-bit lanes; a mismatch returns the current value.
# CAS16-LABEL: .visible .entry small_cas(
# CAS16: and.b64 %word, %rd{{[0-9]+}}, -4;
# CAS16: shl.b32 %mask, 0xFFFF, %sh;
# CAS16: setp.ne.b32 %miss, %cur,
# CAS16: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new;
# CAS16: st.global.b16

# A user cas loop on int8 (a seq_cst load is fence.sc + ld.acquire .u8) and on int32.
# CAS_LOOP8-LABEL: .visible .entry cas_loop(
# CAS_LOOP8: fence.sc.sys;
# CAS_LOOP8: ld.acquire.sys.global.u8
# CAS_LOOP8: atom.acquire.sys.global.cas.b32 %prev, [%word], %old, %new;
# CAS_LOOP32-LABEL: .visible .entry cas_loop(
# CAS_LOOP32: fence.sc.sys;
# CAS_LOOP32: ld.acquire.sys.global.b32 [[CUR:%r[0-9]+]], [[[P:%rd[0-9]+]]];
# CAS_LOOP32: fence.sc.sys;
# CAS_LOOP32: atom.acquire.sys.global.cas.b32 %r{{[0-9]+}}, [[[P]]], %r{{[0-9]+}}, %r{{[0-9]+}};

# exch and cas (acq_rel), then wait (acquire, device and system): polled
# loads with nanosleep; notify_all emits nothing.
# EXCH_CAS_WAIT-LABEL: .visible .entry exch_cas_wait(
# EXCH_CAS_WAIT: ld.acquire.gpu.global.b32 %cur
# EXCH_CAS_WAIT: @%same nanosleep.u32 64;
# EXCH_CAS_WAIT: ld.acquire.sys.global.b32 %cur
# EXCH_CAS_WAIT: @%same nanosleep.u32 64;
# EXCH_CAS_WAIT: atom.acq_rel.sys.global.exch.b32
# EXCH_CAS_WAIT: atom.acq_rel.gpu.global.cas.b32
# EXCH_CAS_WAIT-NOT: atom
# EXCH_CAS_WAIT: ret;

# store (release, device) then notify_one: nothing after the store (waits poll).
# NOTIFY_ONE-LABEL: .visible .entry notify_one_handoff(
# NOTIFY_ONE: ld.acquire.gpu.global.b32 %cur
# NOTIFY_ONE: nanosleep.u32
# NOTIFY_ONE: st.release.gpu.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
# NOTIFY_ONE-NOT: {{atom|fence|st\.|ld\.}}
# NOTIFY_ONE: ret;

# Message passing ordered by threadfence (default seq_cst system, acquire
# device, acq_rel system, release block, relaxed thread = none, seq_cst device).
# FENCE_MESSAGE-LABEL: .visible .entry fence_message(
# FENCE_MESSAGE: ld.relaxed.sys.global.b32 %cur
# FENCE_MESSAGE: fence.acq_rel.gpu;
# FENCE_MESSAGE: fence.acq_rel.sys;
# FENCE_MESSAGE: st.global.b32 [%rd{{[0-9]+}}+4], 22;
# FENCE_MESSAGE: membar.sys;
# FENCE_MESSAGE: st.relaxed.sys.global.b32
# FENCE_MESSAGE: fence.acq_rel.cta;
# FENCE_MESSAGE: membar.gl;
# FENCE_MESSAGE: ret;
