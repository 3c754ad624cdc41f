// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-atomics | FileCheck %s

// Orders and scopes reach PTX: LLVM's NVPTX backend drops them on atomicrmw,
// so the lowering writes the instruction itself; relaxed with device scope
// are PTX's defaults and are left out.
// CHECK-LABEL: func.func @rmw_orders_scopes
// CHECK: "atom.global.add.u32 $0, [$1], $2;", "=r,l,r,~{memory}"
// CHECK: "atom.acq_rel.sys.global.add.f32 $0, [$1], $2;", "=f,l,f,~{memory}"
// CHECK: "fence.sc.cta;\0A\09atom.acquire.cta.global.max.s64 $0, [$1], $2;", "=l,l,l,~{memory}"
// CHECK: "atom.release.gpu.global.and.b32 $0, [$1], $2;"
func.func @rmw_orders_scopes(%pi: !llvm.ptr<1>, %pf: !llvm.ptr<1>, %pl: !llvm.ptr<1>, %i: i32, %f: f32, %l: i64) -> (i32, f32, i64, i32) {
  %ri = builtin.unrealized_conversion_cast %pi : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  %rf = builtin.unrealized_conversion_cast %pf : !llvm.ptr<1> to !pydev.atomic_ref<f32>
  %rl = builtin.unrealized_conversion_cast %pl : !llvm.ptr<1> to !pydev.atomic_ref<i64>
  %0 = pydev.atomic_rmw add %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %1 = pydev.atomic_rmw add %rf, %f memory <acq_rel> scope <system> : !pydev.atomic_ref<f32>, f32
  %2 = pydev.atomic_rmw max %rl, %l memory <seq_cst> scope <block> : !pydev.atomic_ref<i64>, i64
  %3 = pydev.atomic_rmw and %ri, %i memory <release> scope <device> : !pydev.atomic_ref<i32>, i32
  return %0, %1, %2, %3 : i32, f32, i64, i32
}

// -----

// sub is an add of the negation (a red: its result is unused); exch of a
// float goes through its bits (an atom even unused: PTX has no red.exch).
// CHECK-LABEL: func.func @sub_and_exch
// CHECK: %[[N:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK: "red.relaxed.cta.shared.add.u32 [$0], $1;", "l,r,~{memory}" %{{.*}}, %[[N]]
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[O:.*]] = llvm.inline_asm {{.*}}"atom.relaxed.cta.shared.exch.b32 $0, [$1], $2;", "=r,l,r,~{memory}" %{{.*}}, %[[B]]
// CHECK: llvm.bitcast %[[O]] : i32 to f32
func.func @sub_and_exch(%p: !llvm.ptr<3>, %i: i32, %f: f32) {
  %ri = builtin.unrealized_conversion_cast %p : !llvm.ptr<3> to !pydev.atomic_ref<i32, shared>
  %rf = builtin.unrealized_conversion_cast %p : !llvm.ptr<3> to !pydev.atomic_ref<f32, shared>
  %0 = pydev.atomic_rmw sub %ri, %i memory <relaxed> scope <block> : !pydev.atomic_ref<i32, shared>, i32
  %1 = pydev.atomic_rmw exch %rf, %f memory <relaxed> scope <thread> : !pydev.atomic_ref<f32, shared>, f32
  return
}

// -----

// CAS, loads, stores and fences.
// CHECK-LABEL: func.func @cas_load_store_fence
// CHECK: "atom.acquire.gpu.global.cas.b64 $0, [$1], $2, $3;", "=l,l,l,l,~{memory}"
// CHECK: "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l,~{memory}"
// CHECK: "fence.sc.sys;\0A\09ld.acquire.sys.global.b32 $0, [$1];"
// CHECK: "st.release.cta.global.b32 [$0], $1;", "l,r,~{memory}"
// CHECK: "fence.sc.gpu;\0A\09st.relaxed.gpu.global.b32 [$0], $1;"
// CHECK: "membar.gl;", "~{memory}"
// CHECK: "fence.acq_rel.cta;", "~{memory}"
// CHECK-NOT: pydev.threadfence
func.func @cas_load_store_fence(%p: !llvm.ptr<1>, %i: i32, %l: i64) {
  %ri = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  %rl = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i64>
  %0 = pydev.atomic_cas %rl, %l, %l memory <acquire> scope <device> : !pydev.atomic_ref<i64>, i64
  %1 = pydev.atomic_load %ri memory <acquire> scope <device> : !pydev.atomic_ref<i32> -> i32
  %2 = pydev.atomic_load %ri memory <seq_cst> scope <system> : !pydev.atomic_ref<i32> -> i32
  pydev.atomic_store %i, %ri memory <release> scope <block> : i32, !pydev.atomic_ref<i32>
  pydev.atomic_store %i, %ri memory <seq_cst> scope <device> : i32, !pydev.atomic_ref<i32>
  pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <acquire> scope <block>
  pydev.threadfence memory <relaxed> scope <system>
  return
}

// -----

// Does not fire: no atomics.
// CHECK-LABEL: func.func @no_atomics
// CHECK-NOT: llvm.inline_asm
func.func @no_atomics(%x: i32) -> i32 {
  return %x : i32
}

// -----

// Float extrema are CAS loops: nanmax on PTX's max.f32 (NaN is missing),
// max on Python's order; the loop compares bits; labels are unique per copy.
// CHECK-LABEL: func.func @float_extrema
// CHECK: ld.relaxed.gpu.global.f32 $0, [$1];\0Apydev_cas_${:uid}:
// CHECK-SAME: max.f32 %new, %assumed, $2;
// CHECK-SAME: atom.relaxed.gpu.global.cas.b32 $0, [$1], %assumed, %new;
// CHECK-SAME: setp.ne.b32 %again, $0, %assumed;
// CHECK: setp.gt.f64 %take, $2, %assumed;
// CHECK-SAME: selp.f64 %new, $2, %assumed, %take;
// CHECK: "red.global.max.s32 [$0], $1;"
func.func @float_extrema(%p: !llvm.ptr<1>, %f: f32, %d: f64, %i: i32) {
  %rf = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<f32>
  %rd = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<f64>
  %ri = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  %0 = pydev.atomic_rmw nanmax %rf, %f memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  %1 = pydev.atomic_rmw max %rd, %d memory <relaxed> scope <device> : !pydev.atomic_ref<f64>, f64
  %2 = pydev.atomic_rmw nanmax %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}

// -----

// wait polls with nanosleep until the value differs; notify has nothing to do.
// CHECK-LABEL: func.func @wait_notify
// CHECK: pydev_wait_${:uid}:\0A\09ld.acquire.gpu.global.b32 %cur, [$0];
// CHECK-SAME: setp.eq.b32 %same, %cur, $1;
// CHECK-SAME: @%same nanosleep.u32 64;
// CHECK-NOT: pydev.atomic_notify
func.func @wait_notify(%p: !llvm.ptr<1>, %v: i32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  pydev.atomic_wait %r, %v memory <acquire> scope <device> : !pydev.atomic_ref<i32>, i32
  pydev.atomic_notify %r all : !pydev.atomic_ref<i32>
  return
}

// -----

// atomic_load|store (16-byte T) => the same on i128 => ld|st.b128, PTX ISA 8.3
// (8.4 with .sys) asked of the module for pydev-raise-ptx; T goes to and from
// bits through a scratch alloca in the entry block.
// CHECK-LABEL: gpu.module @wide
// CHECK-SAME: attributes {pydev.min_ptx = 84 : i64}
// CHECK-LABEL: func.func @wide_load_store
// CHECK: llvm.alloca %{{.*}} x i128 {alignment = 16 : i64}
// CHECK: llvm.inline_asm has_side_effects "{\0A\09.reg .b128 %q;\0A\09ld.relaxed.gpu.global.b128 %q, [$2];\0A\09mov.b128 {$0, $1}, %q;\0A\09}", "=l,=l,l,~{memory}"
// CHECK: llvm.shl %{{.*}}, %{{.*}} : i128
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : i128, !llvm.ptr
// CHECK: mov.b128 %q, {$1, $2};\0A\09fence.sc.sys;\0A\09st.relaxed.sys.global.b128 [$0], %q;
gpu.module @wide {
  func.func @wide_load_store(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>) {
    %r = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<!pydev.vector<2 x f64>>
    %v = pydev.atomic_load %r memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.vector<2 x f64>> -> !pydev.vector<2 x f64>
    %s = builtin.unrealized_conversion_cast %q : !llvm.ptr<1> to !pydev.atomic_ref<complex<f64>>
    %c = complex.constant [1.0, 2.0] : complex<f64>
    pydev.atomic_store %c, %s memory <seq_cst> scope <system> : complex<f64>, !pydev.atomic_ref<complex<f64>>
    return
  }
}

// -----

// exch of an 8-byte struct => atom.exch.b64 on its bits.
// CHECK-LABEL: func.func @struct_exch
// CHECK: llvm.alloca %{{.*}} x i64 {alignment = 8 : i64}
// CHECK: atom.global.exch.b64
func.func @struct_exch(%p: !llvm.ptr<1>, %v: !pydev.struct<"P", {a: f32, b: i32}>) -> !pydev.struct<"P", {a: f32, b: i32}> {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<!pydev.struct<"P", {a: f32, b: i32}>>
  %o = pydev.atomic_rmw exch %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.struct<"P", {a: f32, b: i32}>>, !pydev.struct<"P", {a: f32, b: i32}>
  return %o : !pydev.struct<"P", {a: f32, b: i32}>
}

// -----

// No atomic of 12 bytes: a clear error at the op, not a wrong instruction.
func.func @twelve_bytes(%p: !llvm.ptr<1>) -> !pydev.vector<3 x f32> {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<!pydev.vector<3 x f32>>
  // expected-error @+1 {{atomics on !pydev.vector<3 x f32> (12 bytes) need an object of 1, 2, 4, 8 or 16 bytes}}
  %v = pydev.atomic_load %r memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.vector<3 x f32>> -> !pydev.vector<3 x f32>
  return %v : !pydev.vector<3 x f32>
}

// -----

func.func @signed_needs_promotion(%p: !llvm.ptr<1>, %v: si32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<si32>
  // expected-error @+1 {{atomic on si32 needs signless integers: run pydev-promote-types first}}
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<si32>, si32
  return
}

// -----

// 1- and 2-byte objects: load/store as .u8/.u16; exch and cas as a CAS loop
// on the aligned 32-bit word that holds them.
// CHECK-LABEL: func.func @small_objects
// CHECK: ld.acquire.gpu.global.u16 $0, [$1];
// CHECK: st.relaxed.cta.shared.u8 [$0], $1;
// CHECK: and.b64 %word, $1, -4;
// CHECK: shl.b32 %mask, 0xFF, %sh;
// CHECK: atom.relaxed.gpu.global.cas.b32 %prev, [%word], %old, %new;
// CHECK: shl.b32 %mask, 0xFFFF, %sh;
// CHECK-SAME: setp.ne.b32 %miss, %cur, $3;
// CHECK-SAME: atom.acquire.sys.global.cas.b32
func.func @small_objects(%p: !llvm.ptr<1>, %s: !llvm.ptr<3>, %h: !llvm.ptr<1>, %v: i8, %e: f16, %d: f16) -> (i16, i8, f16) {
  %r16 = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i16>
  %x = pydev.atomic_load %r16 memory <acquire> scope <device> : !pydev.atomic_ref<i16> -> i16
  %rs = builtin.unrealized_conversion_cast %s : !llvm.ptr<3> to !pydev.atomic_ref<i8, shared>
  pydev.atomic_store %v, %rs memory <relaxed> scope <block> : i8, !pydev.atomic_ref<i8, shared>
  %r8 = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !pydev.atomic_ref<i8>
  %o = pydev.atomic_rmw exch %r8, %v memory <relaxed> scope <device> : !pydev.atomic_ref<i8>, i8
  %rh = builtin.unrealized_conversion_cast %h : !llvm.ptr<1> to !pydev.atomic_ref<f16>
  %c = pydev.atomic_cas %rh, %e, %d memory <seq_cst> scope <system> : !pydev.atomic_ref<f16>, f16
  return %x, %o, %c : i16, i8, f16
}

// -----

// atomic_<k>(local) => load; k; store: a local array is the thread's own and
// PTX defines atom only on .global and .shared. Fetch ops return the old
// value; seq_cst and scope system order nothing here (no other thread).
// CHECK-LABEL: func.func @local_rmw
// CHECK-NOT: llvm.inline_asm
// CHECK: %[[P0:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !pydev.atomic_ref<i32, local> to !llvm.ptr
// CHECK-NEXT: %[[O0:.*]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[N0:.*]] = llvm.add %[[O0]], %[[V:[^ ]*]] : i32
// CHECK-NEXT: llvm.store %[[N0]], %[[P0]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[O1:.*]] = llvm.load
// CHECK-NEXT: %[[N1:.*]] = llvm.sub %[[O1]], %[[V]] : i32
// CHECK-NEXT: llvm.store %[[N1]]
// CHECK: llvm.and
// CHECK: llvm.or
// CHECK: llvm.xor
// CHECK: llvm.intr.smax
// CHECK: llvm.intr.umin
// CHECK: llvm.intr.smax
// CHECK: %[[P8:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT: %[[O8:.*]] = llvm.load %[[P8]]
// CHECK-NEXT: llvm.store %[[V]], %[[P8]]
// CHECK-NOT: llvm.inline_asm
// CHECK: return %[[O0]], %[[O1]], %[[O8]] : i32, i32, i32
func.func @local_rmw(%p: !llvm.ptr, %v: i32) -> (i32, i32, i32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i32, local>
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  %1 = pydev.atomic_rmw sub %r, %v memory <seq_cst> scope <system> : !pydev.atomic_ref<i32, local>, i32
  %2 = pydev.atomic_rmw and %r, %v memory <acq_rel> scope <block> : !pydev.atomic_ref<i32, local>, i32
  %3 = pydev.atomic_rmw or %r, %v memory <acquire> scope <device> : !pydev.atomic_ref<i32, local>, i32
  %4 = pydev.atomic_rmw xor %r, %v memory <release> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  %5 = pydev.atomic_rmw max %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  %6 = pydev.atomic_rmw min %r, %v memory <relaxed> scope <thread> {pydev.unsigned} : !pydev.atomic_ref<i32, local>, i32
  %7 = pydev.atomic_rmw nanmax %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  %8 = pydev.atomic_rmw exch %r, %v memory <seq_cst> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  return %0, %1, %8 : i32, i32, i32
}

// -----

// Floats in local memory: add/sub are fadd/fsub, nanmax/nanmin maxnum/minnum
// (NaN is missing), max/min Python's order (%v only if greater/less); cas
// compares bits and returns the old value; load and store are plain.
// CHECK-LABEL: func.func @local_float_cas_load_store
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : f64
// CHECK: llvm.fsub
// CHECK: llvm.intr.maxnum
// CHECK: llvm.intr.minnum
// CHECK: %[[OM:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
// CHECK: %[[T:.*]] = llvm.fcmp "ogt" %[[V:[^ ,]*]], %[[OM]] : f64
// CHECK: %[[NM:.*]] = llvm.select %[[T]], %[[V]], %[[OM]] : i1, f64
// CHECK: llvm.store %[[NM]]
// CHECK: llvm.fcmp "olt"
// CHECK: %[[OC:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK: %[[BO:.*]] = llvm.bitcast %[[OC]] : f64 to i64
// CHECK: %[[BE:.*]] = llvm.bitcast %[[E:[^ ]*]] : f64 to i64
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[BO]], %[[BE]] : i64
// CHECK: %[[NC:.*]] = llvm.select %[[EQ]], %[[D:[^ ,]*]], %[[OC]] : i1, f64
// CHECK: llvm.store %[[NC]]
// CHECK: %[[L:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
// CHECK: llvm.store %[[D]], %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr
// CHECK: return %[[OC]], %[[L]] : f64, f64
func.func @local_float_cas_load_store(%p: !llvm.ptr, %v: f64, %e: f64, %d: f64) -> (f64, f64) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<f64, local>
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %1 = pydev.atomic_rmw sub %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %2 = pydev.atomic_rmw nanmax %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %3 = pydev.atomic_rmw nanmin %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %4 = pydev.atomic_rmw max %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %5 = pydev.atomic_rmw min %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<f64, local>, f64
  %6 = pydev.atomic_cas %r, %e, %d memory <seq_cst> scope <system> : !pydev.atomic_ref<f64, local>, f64
  %7 = pydev.atomic_load %r memory <acquire> scope <device> : !pydev.atomic_ref<f64, local> -> f64
  pydev.atomic_store %d, %r memory <release> scope <block> : f64, !pydev.atomic_ref<f64, local>
  return %6, %7 : f64, f64
}

// -----

// Local 1-, 2- and 16-byte objects (an int8 exch, a complex128 load) are
// plain too, with the object's alignment (complex128: 8, not i128's 16);
// a wait on local memory polls with a weak generic ld (no .sem,
// no .scope).
// CHECK-LABEL: func.func @local_small_wide_wait
// CHECK: %[[O:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> i128
// CHECK-NOT: b128
// CHECK: pydev_wait_${:uid}:\0A\09ld.b32 %cur, [$0];
func.func @local_small_wide_wait(%p: !llvm.ptr, %v: i8, %w: i32) -> (i8, complex<f64>) {
  %r8 = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i8, local>
  %0 = pydev.atomic_rmw exch %r8, %v memory <seq_cst> scope <thread> : !pydev.atomic_ref<i8, local>, i8
  %rz = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<complex<f64>, local>
  %1 = pydev.atomic_load %rz memory <relaxed> scope <thread> : !pydev.atomic_ref<complex<f64>, local> -> complex<f64>
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i32, local>
  pydev.atomic_wait %r, %w memory <acquire> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  return %0, %1 : i8, complex<f64>
}

// -----

// Does not fire on global or shared memory, scope thread included: another
// thread can reach those, so they stay atom/ld/st with their order and scope.
// CHECK-LABEL: func.func @global_shared_stay_atomic
// CHECK: "red.relaxed.cta.global.add.u32 [$0], $1;"
// CHECK: "fence.sc.cta;\0A\09atom.acquire.cta.shared.exch.b32 $0, [$1], $2;"
// CHECK: "st.release.cta.global.b32 [$0], $1;"
// CHECK-NOT: llvm.load
// CHECK-NOT: llvm.store
func.func @global_shared_stay_atomic(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %v: i32) {
  %rg = builtin.unrealized_conversion_cast %g : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  %rs = builtin.unrealized_conversion_cast %s : !llvm.ptr<3> to !pydev.atomic_ref<i32, shared>
  %0 = pydev.atomic_rmw add %rg, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32>, i32
  %1 = pydev.atomic_rmw exch %rs, %v memory <seq_cst> scope <thread> : !pydev.atomic_ref<i32, shared>, i32
  pydev.atomic_store %v, %rg memory <release> scope <thread> : i32, !pydev.atomic_ref<i32>
  return
}

// -----

// An RMW whose result is unused, relaxed or release: red (no destination
// register), as nvcc emits for an ignored atomicAdd. Does not fire on a
// used result, on acquire orders (red has no acquire) or on exch.
// CHECK-LABEL: func.func @red_when_unused
// CHECK: "red.shared.add.f64 [$0], $1;", "l,d,~{memory}"
// CHECK: "red.release.sys.global.or.b64 [$0], $1;", "l,l,~{memory}"
// CHECK: "atom.acquire.gpu.global.add.u32 $0, [$1], $2;"
// CHECK: "atom.global.add.u32 $0, [$1], $2;"
// CHECK: "atom.global.exch.b32 $0, [$1], $2;"
// CHECK-NOT: pydev.atomic_rmw
func.func @red_when_unused(%s: !llvm.ptr<3>, %g: !llvm.ptr<1>, %d: f64, %l: i64, %i: i32) -> i32 {
  %rs = builtin.unrealized_conversion_cast %s : !llvm.ptr<3> to !pydev.atomic_ref<f64, shared>
  %rl = builtin.unrealized_conversion_cast %g : !llvm.ptr<1> to !pydev.atomic_ref<i64>
  %ri = builtin.unrealized_conversion_cast %g : !llvm.ptr<1> to !pydev.atomic_ref<i32>
  %0 = pydev.atomic_rmw add %rs, %d memory <relaxed> scope <device> : !pydev.atomic_ref<f64, shared>, f64
  %1 = pydev.atomic_rmw or %rl, %l memory <release> scope <system> : !pydev.atomic_ref<i64>, i64
  %2 = pydev.atomic_rmw add %ri, %i memory <acquire> scope <device> : !pydev.atomic_ref<i32>, i32
  %3 = pydev.atomic_rmw add %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %4 = pydev.atomic_rmw exch %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return %3 : i32
}

// -----

// A sequentially consistent fence is membar at its scope (fence.sc's synonym
// on sm_70 and later, and what nvcc emits for __threadfence*).
// CHECK-LABEL: func.func @membar_fences
// CHECK: "membar.cta;", "~{memory}"
// CHECK: "membar.cta;", "~{memory}"
// CHECK: "membar.gl;", "~{memory}"
// CHECK: "membar.sys;", "~{memory}"
// CHECK-NOT: pydev.threadfence
func.func @membar_fences() {
  pydev.threadfence memory <seq_cst> scope <thread>
  pydev.threadfence memory <seq_cst> scope <block>
  pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <seq_cst> scope <system>
  return
}
