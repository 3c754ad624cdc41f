//! `pydev-lower-atomics`: atomics and fences to PTX with their memory order
//! and scope.
//!
//! Expects: `pydev.atomic_ref` already lowered (`pydev-lower-arrays`), so
//! references are casts of `!llvm.ptr<AS>`; element types are machine types
//! (signless 32/64-bit integers, f32, f64).
//! Guarantees: every `atomic_rmw`, `atomic_cas`, `atomic_load`,
//! `atomic_store` and `threadfence` is PTX with the requested semantics. LLVM's
//! NVPTX backend drops `syncscope` and orderings on `atomicrmw`, so the
//! instructions are emitted as inline PTX, as libcu++ does.
//! Does not fire on code without pydev atomics.
//!
//! Orders: relaxed => .relaxed; consume, acquire => .acquire; release =>
//! .release; acq_rel => .acq_rel; seq_cst => fence.sc.<scope> then .acquire
//! (loads, RMW) or .relaxed (stores). Scopes: system => .sys, device => .gpu,
//! block and thread => .cta. Spaces: global => .global, shared => .shared;
//! local memory gets no atomic instruction at all (below). A relaxed `atom`
//! or `red` with device scope carries neither qualifier: PTX's defaults are
//! .relaxed and .gpu, so `atom.global.add.f32` is the same instruction (what
//! NVVM emits, and it assembles for targets before sm_70 too).
//!
//! Local memory (both targets, before everything else but aggregates_as_bits):
//! a `local_array` (and a `device.Atomic` made in device code) belongs to one
//! thread, so an atomic on it has no other thread to be indivisible from or
//! ordered with, whatever its order and scope; and PTX defines `atom` only on
//! .global and .shared (on a generic address into local memory its result is
//! undefined: an H100 returned 0). So
//!   atomic_load %r (local)            =>  llvm.load %p
//!   atomic_store %v, %r (local)       =>  llvm.store %v, %p
//!   atomic_rmw k %r, %v (local)       =>  %old = llvm.load %p; llvm.store (%old k %v), %p; result %old
//!   atomic_cas %r, %e, %d (local)     =>  %old = llvm.load %p;
//!                                         llvm.store (bits(%old) == bits(%e) ? %d : %old), %p; result %old
//! with k: add|sub (int) => llvm.add|sub; add|sub (fp) => llvm.fadd|fsub;
//! and|or|xor => llvm.and|or|xor; max|min and nanmax|nanmin (int) =>
//! llvm.intr.smax|smin (umax|umin with pydev.unsigned); nanmax|nanmin (fp)
//! => llvm.intr.maxnum|minnum (NaN is missing, as PTX's max.f32); max|min
//! (fp) => Python's order, %v > %old ? %v : %old (min: <); exch => %v.
//! Structs, tuples, vectors and complex numbers come as the integer of their
//! size (aggregates_as_bits) and keep their own alignment (`pydev.align`).
//!   atomic_wait %r, %old (local)      =>  cuda: the polling loop with a weak
//!                                         generic `ld` (defined on local
//!                                         addresses, unlike `atom`); host:
//!                                         unchanged (the runtime reports the
//!                                         deadlock no other thread can end)
//! The space is static: every `!pydev.atomic_ref` carries its array's space,
//! and the frontend specializes device functions per argument space, so a
//! reference typed global or shared never points into local memory and no
//! run-time `isspacep.local` test is needed.
//!
//! Rewrites:
//!   atomic_rmw add %r, %v (i32)        =>  atom<sem><scope><space>.add.u32
//!   atomic_rmw k %r, %v, result unused, relaxed or release, k not exch
//!                                      =>  red<sem><scope><space>.k... [%r], %v (no destination
//!                                          register: nvcc's choice for an atomicAdd whose result
//!                                          is ignored; float max|min keep their CAS loop)
//!   atomic_rmw sub %r, %v              =>  atom...add of -%v
//!   atomic_rmw and|or|xor (i32/i64)    =>  atom....and|or|xor.b32|b64
//!   atomic_rmw max|min (int)          =>  atom....max|min.s32|s64 (.u32|.u64 with pydev.unsigned)
//!   atomic_rmw nanmax|nanmin (int)    =>  the same as max|min (integers have no NaN)
//!   atomic_rmw nanmax|nanmin (fp)     =>  CAS loop on max|min.f32|f64 (PTX's max/min return the
//!                                         non-NaN operand: NaN is a missing value)
//!   atomic_rmw max|min (fp)           =>  CAS loop on Python's order: new = val > old ? val : old
//!   atomic_rmw exch                    =>  atom....exch.b32|b64
//!   atomic_cas %r, %e, %d              =>  atom....cas.b32|b64
//!   atomic_load %r                     =>  ld<.relaxed|.acquire><scope><space>.b32|b64
//!   atomic_store %v, %r                =>  st<.relaxed|.release><scope><space>.b32|b64
//!   threadfence seq_cst                =>  membar.cta|gl|sys (block, device, system scope;
//!                                          PTX: the same as fence.sc.<scope> on sm_70 and later,
//!                                          and nvcc's __threadfence*; defined on every target)
//!   threadfence (other orders)         =>  fence.acq_rel.<scope> (relaxed: erased)
//!   atomic_wait %r, %old               =>  loop { ld<sem> cur; if cur != old: done; nanosleep }
//!   atomic_notify %r                   =>  nothing: waiters poll (the GPU has no futex)
//! Floats travel through `llvm.bitcast` where PTX wants bits (exch, cas, ld, st, wait).
//!   atomic_<op> on a struct, tuple, vector or complex T of 1..16 bytes
//!                                      =>  the same on the integer of its size (aggregates_as_bits)
//!   atomic_load|store (i8, i16, f16)   =>  ld|st<sem><scope><space>.u8|u16
//!   atomic_rmw exch | atomic_cas (i8, i16, f16)
//!                                      =>  CAS loop on the aligned 32-bit word holding the object
//!   atomic_load|store (i128)           =>  ld|st<sem><scope><space>.b128 (PTX ISA 8.3, 8.4 with .sys:
//!                                          the module is marked pydev.min_ptx for pydev-raise-ptx)
//!
//! `target=host` (LLVM atomics of the host, also on 8- and 16-bit integers
//! and 16-bit floats; every scope widens to the
//! system, which is what one process's threads share; needs `%ctx` from
//! `pydev-lower-simt-host` for waits):
//!   atomic_rmw k %r, %v                =>  llvm.atomicrmw k %r, %v <order>
//!                                          (max|min: umax|umin with pydev.unsigned; fp
//!                                          nanmax|nanmin: fmax|fmin; sub of fp: fsub)
//!   atomic_rmw max|min (fp)            =>  call @pydev_rt_atomic_fmax|fmin_f32|f64(%r, %v)
//!                                          (Python's order, a compare-and-swap loop in the runtime)
//!   atomic_cas %r, %e, %d              =>  llvm.cmpxchg (bits), extractvalue 0
//!   atomic_load|store                  =>  llvm.load|store atomic <order>
//!   threadfence o                      =>  llvm.fence o (relaxed: erased)
//!   atomic_wait %r, %old               =>  call @pydev_rt_wait(%ctx, %r, bits of %old, bytes)
//!                                          (yields to the block's other threads while equal)
//!   atomic_notify %r                   =>  nothing: waiters poll

use crate::capi::PassIr;
use crate::ir::PassResult;
use crate::{
    capi,
    ir::{external_pass, rewrite_all, Builder, PassId, RewriteError},
    lower_arrays::address_space,
    PassError, PassInfo, PassOption,
};
use melior::ir::{
    operation::OperationLike, r#type::IntegerType, Attribute, OperationRef, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops;
use pydev_dialect::{
    abi::{attr, entry},
    enum_value,
    types::atomic_ref_parts,
    AtomicRMWKind, MemoryOrder, MemorySpace, Scope,
};

static ID: PassId = PassId;
static ID_HOST: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-atomics",
    summary: "lower atomics and fences to PTX (or host LLVM atomics) with their memory order and scope",
    options: &[PassOption { name: "target", default: "cuda", help: "cuda (inline PTX) or host (LLVM atomics)" }],
    create: |options| match options.get(&INFO, "target") {
        "cuda" => Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
        "host" => Ok(external_pass(&ID_HOST, INFO.argument, INFO.summary, run_host)),
        other => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("unknown target '{other}', expected cuda or host"),
        }),
    },
};

const NAMES: &[&str] = &[
    ops::AtomicRMWOperation::NAME,
    ops::AtomicCASOperation::NAME,
    ops::AtomicLoadOperation::NAME,
    ops::AtomicStoreOperation::NAME,
    ops::ThreadFenceOperation::NAME,
    ops::AtomicWaitOperation::NAME,
    ops::AtomicNotifyOperation::NAME,
];

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    aggregates_as_bits(ir, root)?;
    local_as_plain(ir, root, true)?;
    rewrite_all(ir, root, NAMES, lower)
}

/// Atomics on local memory become plain memory operations (see the
/// contract): the object is the thread's own, and `atom` on local memory is
/// undefined in PTX.
///   atomic_load %r (local)         =>  llvm.load %p
///   atomic_store %v, %r (local)    =>  llvm.store %v, %p
///   atomic_rmw k %r, %v (local)    =>  %old = llvm.load %p; llvm.store (%old k %v), %p; result %old
///   atomic_cas %r, %e, %d (local)  =>  %old = llvm.load %p; llvm.store (bits(%old) == bits(%e) ? %d : %old), %p; result %old
/// Runs after aggregates_as_bits, so elements are integers or floats.
fn local_as_plain<'c>(ir: PassIr<'c>, root: OperationRef<'c, '_>, cuda: bool) -> PassResult {
    const MEMORY: &[&str] = &[
        ops::AtomicRMWOperation::NAME,
        ops::AtomicCASOperation::NAME,
        ops::AtomicLoadOperation::NAME,
        ops::AtomicStoreOperation::NAME,
    ];
    rewrite_all(ir, root, MEMORY, |b, op| plain_local(b, op, cuda))
}

fn plain_local<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>, cuda: bool) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
    let ref_index = if name == ops::AtomicStoreOperation::NAME { 1 } else { 0 };
    let reference = ir.value(op.operand(ref_index).expect("reference"));
    let (element, space) = atomic_ref_parts(reference.r#type()).expect("verified atomic_ref");
    if space != MemorySpace::Local {
        return Ok(());
    }
    let ptr = b.cast(reference, b.ty(&format!("!llvm.ptr<{}>", address_space(space, cuda))));
    let bytes = match IntegerType::try_from(element) {
        Ok(i) => i.width().div_ceil(8),
        Err(_) if element.is_f64() => 8,
        Err(_) if element.is_f32() => 4,
        Err(_) if element.is_f16() || element.is_bf16() => 2,
        Err(_) => {
            return Err(RewriteError::Unsupported(format!("atomics on {element} in local memory are not lowered yet")))
        }
    };
    // A number's own alignment; an aggregate's (made iN by aggregates_as_bits) as it recorded.
    let align_bytes = op.attribute(attr::ALIGN).ok().and_then(capi::integer_attr_value).unwrap_or(i64::from(bytes));
    let align = b.named("alignment", b.attr(&format!("{align_bytes} : i64")));
    let load = || b.value("llvm.load", &[ptr], element, &[align]);
    let store = |v: Value<'c, 'c>| {
        b.op("llvm.store", &[v, ptr], &[], &[align]);
    };
    match name.as_str() {
        ops::AtomicLoadOperation::NAME => {
            let v = load();
            b.replace(op, &[v]);
        }
        ops::AtomicStoreOperation::NAME => {
            store(ir.value(op.operand(0).expect("value")));
            b.erase(op);
        }
        ops::AtomicCASOperation::NAME => {
            // Compare bits, as atom.cas and cmpxchg do (a NaN can match).
            let old = load();
            let int: Type = IntegerType::new(b.ctx, bytes * 8).into();
            let bits =
                |v: Value<'c, 'c>| if element.is_integer() { v } else { b.value("llvm.bitcast", &[v], int, &[]) };
            let expected = ir.value(op.operand(1).expect("expected"));
            let desired = ir.value(op.operand(2).expect("desired"));
            let eq = b.value(
                "llvm.icmp",
                &[bits(old), bits(expected)],
                b.ty("i1"),
                &[b.named("predicate", b.attr("0 : i64"))],
            );
            let new = b.value("llvm.select", &[eq, desired, old], element, &[]);
            store(new);
            b.replace(op, &[old]);
        }
        _ => {
            let kind = enum_attr(op, "kind", AtomicRMWKind::from_value);
            let value = ir.value(op.operand(1).expect("value"));
            let float = !element.is_integer();
            let unsigned = op.has_attribute(attr::UNSIGNED);
            let old = load();
            let combine = |name: &str| b.value(name, &[old, value], element, &[]);
            // Python's max/min: %v only if it compares greater (less), so a NaN stays.
            let python_order = |predicate: i64| {
                let take = b.value(
                    "llvm.fcmp",
                    &[value, old],
                    b.ty("i1"),
                    &[b.named("predicate", b.attr(&format!("{predicate} : i64")))],
                );
                b.value("llvm.select", &[take, value, old], element, &[])
            };
            let new = match (kind, float) {
                (AtomicRMWKind::Add, false) => combine("llvm.add"),
                (AtomicRMWKind::Add, true) => combine("llvm.fadd"),
                (AtomicRMWKind::Sub, false) => combine("llvm.sub"),
                (AtomicRMWKind::Sub, true) => combine("llvm.fsub"),
                (AtomicRMWKind::And, false) => combine("llvm.and"),
                (AtomicRMWKind::Or, false) => combine("llvm.or"),
                (AtomicRMWKind::Xor, false) => combine("llvm.xor"),
                (AtomicRMWKind::Max | AtomicRMWKind::Nanmax, false) => {
                    combine(if unsigned { "llvm.intr.umax" } else { "llvm.intr.smax" })
                }
                (AtomicRMWKind::Min | AtomicRMWKind::Nanmin, false) => {
                    combine(if unsigned { "llvm.intr.umin" } else { "llvm.intr.smin" })
                }
                (AtomicRMWKind::Nanmax, true) => combine("llvm.intr.maxnum"),
                (AtomicRMWKind::Nanmin, true) => combine("llvm.intr.minnum"),
                (AtomicRMWKind::Max, true) => python_order(2), // ogt
                (AtomicRMWKind::Min, true) => python_order(4), // olt
                (AtomicRMWKind::Exch, _) => value,
                (kind, _) => {
                    return Err(RewriteError::Unsupported(format!(
                        "atomic '{kind}' on {element} in local memory is not lowered yet"
                    )))
                }
            };
            store(new);
            b.replace(op, &[old]);
        }
    }
    Ok(())
}

/// Structs, tuples, vectors and complex numbers of 1, 2, 4, 8 or 16 bytes
/// travel through atomics as the integer of their size (both targets):
///   atomic_load %r : T                =>  from_bits(atomic_load (%r as atomic_ref<iN>))
///   atomic_store %v, %r : T           =>  atomic_store to_bits(%v), (%r as atomic_ref<iN>)
///   atomic_rmw exch | atomic_cas : T  =>  the same on iN, operands to_bits, result from_bits
///   atomic_wait %r, %old : T          =>  atomic_wait on iN
/// to_bits/from_bits go through a scratch alloca (one per atomic, in the
/// entry block), which LLVM's SROA turns into register moves.
fn aggregates_as_bits<'c>(ir: PassIr<'c>, root: OperationRef<'c, '_>) -> PassResult {
    const ATOMICS: &[&str] = &[
        ops::AtomicRMWOperation::NAME,
        ops::AtomicCASOperation::NAME,
        ops::AtomicLoadOperation::NAME,
        ops::AtomicStoreOperation::NAME,
        ops::AtomicWaitOperation::NAME,
    ];
    rewrite_all(ir, root, ATOMICS, |b, op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        let ref_index = if name == ops::AtomicStoreOperation::NAME { 1 } else { 0 };
        let reference = ir.value(op.operand(ref_index).expect("reference"));
        let (element, space) = atomic_ref_parts(reference.r#type()).expect("verified atomic_ref");
        let aggregate = element.is_complex()
            || pydev_dialect::types::vector_parts(element).is_some()
            || pydev_dialect::types::struct_parts(element).is_some()
            || pydev_dialect::types::tuple_parts(element).is_some();
        if !aggregate {
            return Ok(());
        }
        let (size, element_align) =
            pydev_dialect::type_layout(element).ok_or_else(|| format!("{element} has no device layout"))?;
        if ![1, 2, 4, 8, 16].contains(&size) {
            return Err(RewriteError::Unsupported(format!(
                "atomics on {element} ({size} bytes) need an object of 1, 2, 4, 8 or 16 bytes"
            )));
        }
        let int: Type = IntegerType::new(b.ctx, (size * 8) as u32).into();
        let func = crate::lower_arrays::enclosing(ir, op, &["func.func", "gpu.func", "llvm.func"])
            .ok_or("atomic outside a function")?;
        let fb = crate::lower_arrays::at_start(ir, func).ok_or("function without a body")?;
        let one = fb.const_int(fb.i64(), 1);
        let align = b.named("alignment", b.attr(&format!("{size} : i64")));
        let scratch = fb.value(
            "llvm.alloca",
            &[one],
            b.ty("!llvm.ptr"),
            &[fb.named("elem_type", melior::ir::attribute::TypeAttribute::new(int).into()), align],
        );
        let to_bits = |v: Value<'_, '_>| -> Result<Value<'_, '_>, RewriteError> {
            let v = b.cast(v, crate::lower_aggregates::register_type(b.ctx, element));
            crate::lower_arrays::store_at(b, scratch, 0, element, v)?;
            Ok(b.value("llvm.load", &[scratch], int, &[align]))
        };
        let from_bits = |bits: Value<'_, '_>| -> Result<Value<'_, '_>, RewriteError> {
            b.op("llvm.store", &[bits, scratch], &[], &[align]);
            let v = crate::lower_arrays::load_at(b, scratch, 0, element)?;
            Ok(b.cast(v, element))
        };
        let int_ref = pydev_dialect::types::atomic_ref_type(b.ctx, int, space);
        let r = b.cast(reference, int_ref);
        let mut attrs: Vec<_> =
            ["kind", "memory", "scope"].iter().filter_map(|n| op.attribute(n).ok().map(|a| b.named(n, a))).collect();
        if space == MemorySpace::Local {
            // local_as_plain's loads and stores keep T's alignment (a local
            // complex128 is 8-aligned), which iN's would overstate.
            attrs.push(b.named(attr::ALIGN, b.attr(&format!("{element_align} : i64"))));
        }
        let mut operands: Vec<Value> = op.operands().map(|v| ir.value(v)).collect();
        operands[ref_index] = r;
        for (k, v) in operands.clone().into_iter().enumerate() {
            if k != ref_index {
                operands[k] = to_bits(v)?;
            }
        }
        let results: Vec<Type> = if op.result_count() > 0 { vec![int] } else { vec![] };
        let new = b.op(&name, &operands, &results, &attrs);
        if op.result_count() > 0 {
            let old = from_bits(ir.value(new.result(0).expect("result").into()))?;
            b.replace(op, &[old]);
        } else {
            b.erase(op);
        }
        Ok(())
    })
}

fn enum_attr<T>(op: OperationRef, name: &str, from: fn(i64) -> Option<T>) -> T {
    op.attribute(name).ok().and_then(|a: Attribute| enum_value(a)).and_then(from).expect("verified enum attribute")
}

fn scope_suffix(scope: Scope) -> &'static str {
    match scope {
        Scope::System => ".sys",
        Scope::Device => ".gpu",
        Scope::Block | Scope::Thread => ".cta",
    }
}

/// (fence prefix, semantics suffix) for a read-modify-write or load.
fn acquire_sem(order: MemoryOrder, scope: Scope) -> (String, &'static str) {
    match order {
        MemoryOrder::Relaxed => (String::new(), ".relaxed"),
        MemoryOrder::Consume | MemoryOrder::Acquire => (String::new(), ".acquire"),
        MemoryOrder::Release => (String::new(), ".release"),
        MemoryOrder::AcqRel => (String::new(), ".acq_rel"),
        MemoryOrder::SeqCst => (format!("fence.sc{};\n\t", scope_suffix(scope)), ".acquire"),
    }
}

/// (fence prefix, semantics suffix) for a store.
fn release_sem(order: MemoryOrder, scope: Scope) -> (String, &'static str) {
    match order {
        MemoryOrder::SeqCst => (format!("fence.sc{};\n\t", scope_suffix(scope)), ".relaxed"),
        MemoryOrder::Release => (String::new(), ".release"),
        _ => (String::new(), ".relaxed"),
    }
}

/// `membar`'s level for a scope (PTX spells device scope `gl` there).
fn membar_level(scope: Scope) -> &'static str {
    match scope {
        Scope::System => ".sys",
        Scope::Device => ".gl",
        Scope::Block | Scope::Thread => ".cta",
    }
}

/// What every PTX atomic of an op needs: the address and its qualifiers.
struct Access<'c> {
    ptr: Value<'c, 'c>,
    order: MemoryOrder,
    scope: Scope,
    scope_s: &'static str,
    space_s: &'static str,
}

fn space_suffix(space: MemorySpace) -> &'static str {
    match space {
        MemorySpace::Global => ".global",
        MemorySpace::Shared => ".shared",
        // Constant memory has no atomics (AtomicRefType's verifier refuses it).
        MemorySpace::Local | MemorySpace::Constant => "",
    }
}

/// The machine form of an atomic's element: (bits, is float).
fn machine(ty: Type) -> Result<(u32, bool), RewriteError> {
    if let Ok(i) = IntegerType::try_from(ty) {
        if !i.is_signless() {
            return Err(RewriteError::Malformed(format!(
                "atomic on {ty} needs signless integers: run pydev-promote-types first"
            )));
        }
        if i.width() == 32 || i.width() == 64 {
            return Ok((i.width(), false));
        }
    } else if ty.is_f32() {
        return Ok((32, true));
    } else if ty.is_f64() {
        return Ok((64, true));
    }
    Err(RewriteError::Unsupported(format!(
        "atomics on {ty} are not lowered yet (32- and 64-bit integers and floats are)"
    )))
}

/// The host's machine form: also 8- and 16-bit integers and 16-bit floats
/// (exch, cas, load and store of objects up to 8 bytes, as the spec allows;
/// x86 has byte and word atomics).
fn machine_host(ty: Type) -> Result<(u32, bool), RewriteError> {
    if let Ok(i) = IntegerType::try_from(ty) {
        if i.is_signless() && (i.width() == 8 || i.width() == 16) {
            return Ok((i.width(), false));
        }
    } else if ty.is_f16() || ty.is_bf16() {
        return Ok((16, true));
    }
    // 16-byte loads and stores (aggregates_as_bits makes them i128).
    if IntegerType::try_from(ty).is_ok_and(|i| i.is_signless() && i.width() == 128) {
        return Ok((128, false));
    }
    machine(ty)
}

fn constraint(bits: u32, float: bool) -> &'static str {
    match (bits, float) {
        (32, false) => "r",
        (64, false) => "l",
        (32, true) => "f",
        _ => "d",
    }
}

fn lower<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    if name == ops::ThreadFenceOperation::NAME {
        let order = enum_attr(op, "memory", MemoryOrder::from_value);
        let scope = enum_attr(op, "scope", Scope::from_value);
        let asm = match order {
            MemoryOrder::Relaxed => None,
            MemoryOrder::SeqCst => Some(format!("membar{};", membar_level(scope))),
            _ => Some(format!("fence.acq_rel{};", scope_suffix(scope))),
        };
        if let Some(asm) = asm {
            b.inline_asm(&asm, "~{memory}", &[], None);
        }
        b.erase(op);
        return Ok(());
    }
    if name == ops::AtomicNotifyOperation::NAME {
        b.erase(op);
        return Ok(());
    }
    let ref_index = if name == ops::AtomicStoreOperation::NAME { 1 } else { 0 };
    let reference = ir.value(op.operand(ref_index).expect("reference"));
    let (element, space) = atomic_ref_parts(reference.r#type()).expect("verified atomic_ref");
    let ptr = b.cast(reference, b.ty(&format!("!llvm.ptr<{}>", address_space(space, true))));
    let order = enum_attr(op, "memory", MemoryOrder::from_value);
    let scope = enum_attr(op, "scope", Scope::from_value);
    let (scope_s, space_s) = (scope_suffix(scope), space_suffix(space));
    let access = Access { ptr, order, scope, scope_s, space_s };
    if IntegerType::try_from(element).is_ok_and(|i| i.width() == 128) {
        return wide_load_store(b, op, name, &access);
    }
    if let Some(bits) = small_bits(element) {
        return small_atomic(b, op, name, &access, element, bits);
    }
    let (bits, float) = machine(element)?;
    let int_type: Type = IntegerType::new(b.ctx, bits).into();
    let bits_of = |v: Value<'c, 'c>| if float { b.value("llvm.bitcast", &[v], int_type, &[]) } else { v };
    let from_bits = |v: Value<'c, 'c>| if float { b.value("llvm.bitcast", &[v], element, &[]) } else { v };
    let bc = constraint(bits, false);

    match name {
        ops::AtomicRMWOperation::NAME => {
            let kind = enum_attr(op, "kind", AtomicRMWKind::from_value);
            let mut value = ir.value(op.operand(1).expect("value"));
            // pydev-promote-types records unsigned elements before erasing signedness.
            let sign = if op.has_attribute(attr::UNSIGNED) { "u" } else { "s" };
            let (fence, sem) = acquire_sem(order, scope);
            let (mnemonic, ty_suffix, as_bits) = match (kind, float) {
                (AtomicRMWKind::Add, false) | (AtomicRMWKind::Sub, false) => ("add", format!(".u{bits}"), false),
                (AtomicRMWKind::Add, true) | (AtomicRMWKind::Sub, true) => ("add", format!(".f{bits}"), false),
                (AtomicRMWKind::And, false) => ("and", format!(".b{bits}"), false),
                (AtomicRMWKind::Or, false) => ("or", format!(".b{bits}"), false),
                (AtomicRMWKind::Xor, false) => ("xor", format!(".b{bits}"), false),
                (AtomicRMWKind::Max, false) => ("max", format!(".{sign}{bits}"), false),
                (AtomicRMWKind::Min, false) => ("min", format!(".{sign}{bits}"), false),
                (AtomicRMWKind::Nanmax, false) => ("max", format!(".{sign}{bits}"), false),
                (AtomicRMWKind::Nanmin, false) => ("min", format!(".{sign}{bits}"), false),
                (AtomicRMWKind::Exch, _) => ("exch", format!(".b{bits}"), true),
                (
                    kind @ (AtomicRMWKind::Max | AtomicRMWKind::Min | AtomicRMWKind::Nanmax | AtomicRMWKind::Nanmin),
                    true,
                ) => {
                    let old = float_cas_loop(b, kind, bits, &fence, sem, scope_s, space_s, ptr, value, element);
                    b.replace(op, &[old]);
                    return Ok(());
                }
                (kind, _) => {
                    return Err(RewriteError::Unsupported(format!(
                        "atomic '{kind}' on {element} is not lowered to PTX yet"
                    )));
                }
            };
            if kind == AtomicRMWKind::Sub {
                value = if float {
                    b.value("llvm.fneg", &[value], element, &[])
                } else {
                    let zero = b.const_int(element, 0);
                    b.value("llvm.sub", &[zero, value], element, &[])
                };
            }
            let c = if as_bits { bc } else { constraint(bits, float) };
            // PTX's defaults: no qualifiers for relaxed order with device scope.
            let (sem, scope_q) =
                if (order, scope) == (MemoryOrder::Relaxed, Scope::Device) { ("", "") } else { (sem, scope_s) };
            let unused = capi::has_no_uses(op) && matches!(order, MemoryOrder::Relaxed | MemoryOrder::Release);
            if unused && kind != AtomicRMWKind::Exch {
                let asm = format!("{fence}red{sem}{scope_q}{space_s}.{mnemonic}{ty_suffix} [$0], $1;");
                b.inline_asm(&asm, &format!("l,{c},~{{memory}}"), &[ptr, value], None);
                b.erase(op);
                return Ok(());
            }
            let asm = format!("{fence}atom{sem}{scope_q}{space_s}.{mnemonic}{ty_suffix} $0, [$1], $2;");
            let operand = if as_bits { bits_of(value) } else { value };
            let result_type = if as_bits { int_type } else { element };
            let old = b
                .inline_asm(&asm, &format!("={c},l,{c},~{{memory}}"), &[ptr, operand], Some(result_type))
                .expect("result");
            let old = if as_bits { from_bits(old) } else { old };
            b.replace(op, &[old]);
        }
        ops::AtomicCASOperation::NAME => {
            let (fence, sem) = acquire_sem(order, scope);
            let expected = bits_of(ir.value(op.operand(1).expect("expected")));
            let desired = bits_of(ir.value(op.operand(2).expect("desired")));
            let asm = format!("{fence}atom{sem}{scope_s}{space_s}.cas.b{bits} $0, [$1], $2, $3;");
            let old = b
                .inline_asm(&asm, &format!("={bc},l,{bc},{bc},~{{memory}}"), &[ptr, expected, desired], Some(int_type))
                .expect("result");
            b.replace(op, &[from_bits(old)]);
        }
        ops::AtomicWaitOperation::NAME => {
            // Local memory: a weak generic ld (the object is the thread's own).
            let (fence, sem, scope_s) = match space {
                MemorySpace::Local => (String::new(), "", ""),
                _ => {
                    let (fence, sem) = acquire_sem(order, scope);
                    (fence, sem, scope_s)
                }
            };
            let old = bits_of(ir.value(op.operand(1).expect("old")));
            let asm = format!(
                "{{\n\t.reg .pred %same;\n\t.reg .b{bits} %cur;\n\
                 pydev_wait_${{:uid}}:\n\t{fence}ld{sem}{scope_s}{space_s}.b{bits} %cur, [$0];\n\t\
                 setp.eq.b{bits} %same, %cur, $1;\n\t@%same nanosleep.u32 64;\n\t@%same bra pydev_wait_${{:uid}};\n\t}}"
            );
            b.inline_asm(&asm, &format!("l,{bc},~{{memory}}"), &[ptr, old], None);
            b.erase(op);
        }
        ops::AtomicLoadOperation::NAME => {
            let (fence, sem) = acquire_sem(order, scope);
            let asm = format!("{fence}ld{sem}{scope_s}{space_s}.b{bits} $0, [$1];");
            let v = b.inline_asm(&asm, &format!("={bc},l,~{{memory}}"), &[ptr], Some(int_type)).expect("result");
            b.replace(op, &[from_bits(v)]);
        }
        _ => {
            let (fence, sem) = release_sem(order, scope);
            let value = bits_of(ir.value(op.operand(0).expect("value")));
            let asm = format!("{fence}st{sem}{scope_s}{space_s}.b{bits} [$0], $1;");
            b.inline_asm(&asm, &format!("l,{bc},~{{memory}}"), &[ptr, value], None);
            b.erase(op);
        }
    }
    Ok(())
}

/// The width of 1- and 2-byte atomics' objects (int8/16, float16, bfloat16).
fn small_bits(ty: Type) -> Option<u32> {
    match IntegerType::try_from(ty) {
        Ok(i) if i.is_signless() && (i.width() == 8 || i.width() == 16) => Some(i.width()),
        _ if ty.is_f16() || ty.is_bf16() => Some(16),
        _ => None,
    }
}

/// 1- and 2-byte atomics (the spec allows load, store, exch and cas on
/// them; PTX has no 8-bit atom and no 16-bit exch):
///   atomic_load|store (i8/i16)   =>  ld|st<sem><scope><space>.u8|u16 (32-bit register)
///   atomic_rmw exch | atomic_cas =>  CAS loop on the aligned 32-bit word holding the object,
///                                    replacing its byte lanes (as libcu++ does)
#[allow(clippy::too_many_arguments)]
fn small_atomic<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    name: &str,
    access: &Access<'c>,
    element: Type<'c>,
    bits: u32,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let &Access { ptr, order, scope, scope_s, space_s } = access;
    let narrow: Type = IntegerType::new(b.ctx, bits).into();
    let float = !element.is_integer();
    // Object <-> the low bits of a 32-bit register.
    let widen = |v: Value<'c, 'c>| {
        let v = if float { b.value("llvm.bitcast", &[v], narrow, &[]) } else { v };
        b.value("llvm.zext", &[v], b.i32(), &[])
    };
    let shrink = |v: Value<'c, 'c>| {
        let v = b.value("llvm.trunc", &[v], narrow, &[]);
        if float {
            b.value("llvm.bitcast", &[v], element, &[])
        } else {
            v
        }
    };
    let mask = if bits == 8 { "0xFF" } else { "0xFFFF" };
    let result = match name {
        ops::AtomicLoadOperation::NAME => {
            let (fence, sem) = acquire_sem(order, scope);
            let asm = format!("{fence}ld{sem}{scope_s}{space_s}.u{bits} $0, [$1];");
            Some(b.inline_asm(&asm, "=r,l,~{memory}", &[ptr], Some(b.i32())).expect("result"))
        }
        ops::AtomicStoreOperation::NAME => {
            let (fence, sem) = release_sem(order, scope);
            let v = widen(ir.value(op.operand(0).expect("value")));
            b.inline_asm(
                &format!("{fence}st{sem}{scope_s}{space_s}.u{bits} [$0], $1;"),
                "l,r,~{memory}",
                &[ptr, v],
                None,
            );
            None
        }
        ops::AtomicRMWOperation::NAME | ops::AtomicCASOperation::NAME => {
            let cas = name == ops::AtomicCASOperation::NAME;
            if !cas && enum_attr(op, "kind", AtomicRMWKind::from_value) != AtomicRMWKind::Exch {
                return Err(RewriteError::Unsupported(format!(
                    "atomic read-modify-write on {element}: only exch and cas take 1- and 2-byte objects"
                )));
            }
            let (fence, sem) = acquire_sem(order, scope);
            let load_sem =
                if matches!(order, MemoryOrder::Relaxed | MemoryOrder::Release) { ".relaxed" } else { ".acquire" };
            let desired = widen(ir.value(op.operand(if cas { 2 } else { 1 }).expect("value")));
            let expected =
                if cas { widen(ir.value(op.operand(1).expect("expected"))) } else { b.const_int(b.i32(), 0) };
            let miss = if cas { "\n\tsetp.ne.b32 %miss, %cur, $3;\n\t@%miss bra pydev_sub_end_${:uid};" } else { "" };
            let asm = format!(
                "{{\n\t.reg .pred %miss;\n\t.reg .b64 %word;\n\t.reg .b32 %sh, %mask, %keep, %old, %cur, %new, %prev;\n\t\
                 and.b64 %word, $1, -4;\n\tcvt.u32.u64 %sh, $1;\n\tand.b32 %sh, %sh, 3;\n\tshl.b32 %sh, %sh, 3;\n\t\
                 shl.b32 %mask, {mask}, %sh;\n\tnot.b32 %keep, %mask;\n\t\
                 {fence}ld{load_sem}{scope_s}{space_s}.b32 %old, [%word];\n\
                 pydev_sub_${{:uid}}:\n\tshr.b32 %cur, %old, %sh;\n\tand.b32 %cur, %cur, {mask};{miss}\n\t\
                 shl.b32 %new, $2, %sh;\n\tand.b32 %prev, %old, %keep;\n\tor.b32 %new, %new, %prev;\n\t\
                 atom{sem}{scope_s}{space_s}.cas.b32 %prev, [%word], %old, %new;\n\t\
                 setp.ne.b32 %miss, %prev, %old;\n\tmov.b32 %old, %prev;\n\t@%miss bra pydev_sub_${{:uid}};\n\
                 pydev_sub_end_${{:uid}}:\n\tmov.b32 $0, %cur;\n\t}}"
            );
            Some(b.inline_asm(&asm, "=r,l,r,r,~{memory}", &[ptr, desired, expected], Some(b.i32())).expect("result"))
        }
        other => {
            return Err(RewriteError::Unsupported(format!(
            "'{other}' on {element} is not lowered to PTX yet (1- and 2-byte objects take load, store, exch and cas)"
        )))
        }
    };
    match result {
        Some(v) => b.replace(op, &[shrink(v)]),
        None => b.erase(op),
    }
    Ok(())
}

/// 16-byte loads and stores (the spec allows `load`/`store` of objects up
/// to 16 bytes; exch and cas stop at 8):
///   atomic_load %r : i128        =>  ld<sem><scope><space>.b128 %q; mov.b128 {lo, hi}, %q
///   atomic_store %v, %r : i128   =>  mov.b128 %q, {lo, hi}; st<sem><scope><space>.b128 %q
/// `.b128` needs PTX ISA 8.3 (8.4 with `.sys`): the gpu.module is marked
/// `pydev.min_ptx = 83|84` for `pydev-raise-ptx`.
fn wide_load_store<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    name: &str,
    access: &Access<'c>,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let &Access { ptr, order, scope, scope_s, space_s } = access;
    let module =
        crate::lower_arrays::enclosing(ir, op, &["gpu.module"]).ok_or("a 16-byte atomic outside a gpu.module")?;
    // `.b128` needs PTX ISA 8.3, and 8.4 with `.sys`.
    let needed: i64 = if scope == Scope::System { 84 } else { 83 };
    let marked = module
        .attribute(attr::MIN_PTX)
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value());
    if needed > marked {
        ir.set_attribute(module, attr::MIN_PTX, b.attr(&format!("{needed} : i64")));
    }
    let i128t: Type = IntegerType::new(b.ctx, 128).into();
    let sixty_four = b.const_int(i128t, 64);
    match name {
        ops::AtomicLoadOperation::NAME => {
            let (fence, sem) = acquire_sem(order, scope);
            let asm = format!("{{\n\t.reg .b128 %q;\n\t{fence}ld{sem}{scope_s}{space_s}.b128 %q, [$2];\n\tmov.b128 {{$0, $1}}, %q;\n\t}}");
            let pair = b.ty("!llvm.struct<(i64, i64)>");
            let r = b.inline_asm(&asm, "=l,=l,l,~{memory}", &[ptr], Some(pair)).expect("result");
            let part = |k: i64| {
                let p = b.value(
                    "llvm.extractvalue",
                    &[r],
                    b.i64(),
                    &[b.named("position", b.attr(&format!("array<i64: {k}>")))],
                );
                b.value("llvm.zext", &[p], i128t, &[])
            };
            let (lo, hi) = (part(0), part(1));
            let hi = b.value("llvm.shl", &[hi, sixty_four], i128t, &[]);
            let v = b.value("llvm.or", &[lo, hi], i128t, &[]);
            b.replace(op, &[v]);
        }
        ops::AtomicStoreOperation::NAME => {
            let (fence, sem) = release_sem(order, scope);
            let v = ir.value(op.operand(0).expect("value"));
            let lo = b.value("llvm.trunc", &[v], b.i64(), &[]);
            let hi = b.value("llvm.lshr", &[v, sixty_four], i128t, &[]);
            let hi = b.value("llvm.trunc", &[hi], b.i64(), &[]);
            let asm = format!("{{\n\t.reg .b128 %q;\n\tmov.b128 %q, {{$1, $2}};\n\t{fence}st{sem}{scope_s}{space_s}.b128 [$0], %q;\n\t}}");
            b.inline_asm(&asm, "l,l,l,~{memory}", &[ptr, lo, hi], None);
            b.erase(op);
        }
        other => {
            return Err(RewriteError::Unsupported(format!(
                "'{other}' on a 16-byte object: only load and store take 16 bytes"
            )))
        }
    }
    Ok(())
}

/// A float max/min as a compare-and-swap loop in PTX; `${:uid}` keeps the
/// label unique per inlined copy. The loop compares bits, so a NaN already
/// stored does not loop forever.
#[allow(clippy::too_many_arguments)]
fn float_cas_loop<'c>(
    b: &Builder<'c>,
    kind: AtomicRMWKind,
    bits: u32,
    fence: &str,
    sem: &str,
    scope_s: &str,
    space_s: &str,
    ptr: Value<'c, 'c>,
    value: Value<'c, 'c>,
    element: Type<'c>,
) -> Value<'c, 'c> {
    let f = format!("f{bits}");
    let combine = match kind {
        AtomicRMWKind::Nanmax => format!("max.{f} %new, %assumed, $2;"),
        AtomicRMWKind::Nanmin => format!("min.{f} %new, %assumed, $2;"),
        // Python's max(old, val): val only if it is greater (a NaN stays).
        AtomicRMWKind::Max => format!("setp.gt.{f} %take, $2, %assumed;\n\tselp.{f} %new, $2, %assumed, %take;"),
        _ => format!("setp.lt.{f} %take, $2, %assumed;\n\tselp.{f} %new, $2, %assumed, %take;"),
    };
    let asm = format!(
        "{{\n\t.reg .pred %again, %take;\n\t.reg .{f} %assumed, %new;\n\t{fence}ld.relaxed{scope_s}{space_s}.{f} $0, [$1];\n\
         pydev_cas_${{:uid}}:\n\tmov.{f} %assumed, $0;\n\t{combine}\n\t\
         atom{sem}{scope_s}{space_s}.cas.b{bits} $0, [$1], %assumed, %new;\n\t\
         setp.ne.b{bits} %again, $0, %assumed;\n\t@%again bra pydev_cas_${{:uid}};\n\t}}"
    );
    let c = constraint(bits, true);
    b.inline_asm(&asm, &format!("={c},l,{c},~{{memory}}"), &[ptr, value], Some(element)).expect("result")
}

/// Runtime entry points to declare: symbol -> (input types, result types).
type Declarations<'c> = std::collections::BTreeMap<String, (Vec<Type<'c>>, Vec<Type<'c>>)>;

fn run_host(ir: PassIr) -> PassResult {
    let root = ir.root();
    aggregates_as_bits(ir, root)?;
    local_as_plain(ir, root, false)?;
    // The runtime entry points that the lowered ops call: name -> (inputs, results).
    let mut declare = std::collections::BTreeMap::new();
    rewrite_all(ir, root, NAMES, |b, op| lower_host(b, op, &mut declare))?;
    let module = ir.module_of(root);
    let Some(body) = module.region(0).ok().and_then(|r| ir.entry_block(r)) else { return Ok(()) };
    let ctx = capi::context(module);
    for (name, (inputs, results)) in declare {
        // `func.func private @name(inputs) -> results`, a runtime entry point.
        use melior::ir::{
            attribute::{StringAttribute, TypeAttribute},
            r#type::FunctionType,
            BlockLike, Identifier, Location, Region,
        };
        let decl = melior::dialect::func::func(
            ctx,
            StringAttribute::new(ctx, &name),
            TypeAttribute::new(FunctionType::new(ctx, &inputs, &results).into()),
            Region::new(),
            &[(Identifier::new(ctx, "sym_visibility"), StringAttribute::new(ctx, "private").into())],
            Location::unknown(ctx),
        );
        body.append_operation(decl);
    }
    Ok(())
}

fn llvm_order(order: MemoryOrder) -> &'static str {
    match order {
        MemoryOrder::Relaxed => "monotonic",
        MemoryOrder::Consume | MemoryOrder::Acquire => "acquire",
        MemoryOrder::Release => "release",
        MemoryOrder::AcqRel => "acq_rel",
        MemoryOrder::SeqCst => "seq_cst",
    }
}

/// LLVM dialect's `AtomicOrdering` enum (stored as an integer attribute).
fn ordering_code(o: &str) -> i64 {
    match o {
        "monotonic" => 2,
        "acquire" => 4,
        "release" => 5,
        "acq_rel" => 6,
        _ => 7, // seq_cst
    }
}

/// LLVM dialect's `AtomicBinOp` enum.
fn bin_op_code(op: &str) -> i64 {
    ["xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin", "fadd", "fsub", "fmax", "fmin"]
        .iter()
        .position(|k| *k == op)
        .expect("known atomic bin op") as i64
}

fn lower_host<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    declare: &mut Declarations<'c>,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    let order = || enum_attr(op, "memory", MemoryOrder::from_value);
    let ordering = |o: &str| b.named("ordering", b.attr(&format!("{} : i64", ordering_code(o))));
    if name == ops::ThreadFenceOperation::NAME {
        if order() != MemoryOrder::Relaxed {
            b.op("llvm.fence", &[], &[], &[ordering(llvm_order(order()))]);
        }
        b.erase(op);
        return Ok(());
    }
    if name == ops::AtomicNotifyOperation::NAME {
        b.erase(op);
        return Ok(());
    }
    let ref_index = if name == ops::AtomicStoreOperation::NAME { 1 } else { 0 };
    let reference = ir.value(op.operand(ref_index).expect("reference"));
    let (element, _space) = atomic_ref_parts(reference.r#type()).expect("verified atomic_ref");
    let (bits, float) = machine_host(element)?;
    let ptr = b.cast(reference, b.ty("!llvm.ptr"));
    let int_type: Type = IntegerType::new(b.ctx, bits).into();
    let bits_of = |v: Value<'c, 'c>| if float { b.value("llvm.bitcast", &[v], int_type, &[]) } else { v };
    let from_bits = |v: Value<'c, 'c>| if float { b.value("llvm.bitcast", &[v], element, &[]) } else { v };
    let align = b.named("alignment", b.attr(&format!("{} : i64", bits / 8)));
    let o = llvm_order(order());
    match name {
        ops::AtomicRMWOperation::NAME => {
            let kind = enum_attr(op, "kind", AtomicRMWKind::from_value);
            let value = ir.value(op.operand(1).expect("value"));
            let unsigned = op.has_attribute(attr::UNSIGNED);
            let bin = match (kind, float) {
                (AtomicRMWKind::Add, false) => "add",
                (AtomicRMWKind::Add, true) => "fadd",
                (AtomicRMWKind::Sub, false) => "sub",
                (AtomicRMWKind::Sub, true) => "fsub",
                (AtomicRMWKind::And, false) => "_and",
                (AtomicRMWKind::Or, false) => "_or",
                (AtomicRMWKind::Xor, false) => "_xor",
                (AtomicRMWKind::Max | AtomicRMWKind::Nanmax, false) => {
                    if unsigned {
                        "umax"
                    } else {
                        "max"
                    }
                }
                (AtomicRMWKind::Min | AtomicRMWKind::Nanmin, false) => {
                    if unsigned {
                        "umin"
                    } else {
                        "min"
                    }
                }
                (AtomicRMWKind::Nanmax, true) => "fmax",
                (AtomicRMWKind::Nanmin, true) => "fmin",
                (AtomicRMWKind::Exch, _) => "xchg",
                (k @ (AtomicRMWKind::Max | AtomicRMWKind::Min), true) => {
                    let f = entry::atomic_fminmax(k == AtomicRMWKind::Max, bits)
                        .ok_or_else(|| format!("atomic '{k}' on {element} is not lowered for the host yet"))?;
                    declare.insert(f.to_string(), (vec![b.ty("!llvm.ptr"), element], vec![element]));
                    let old = b.value(
                        "func.call",
                        &[ptr, value],
                        element,
                        &[b.named("callee", melior::ir::attribute::FlatSymbolRefAttribute::new(b.ctx, f).into())],
                    );
                    b.replace(op, &[old]);
                    return Ok(());
                }
                (kind, _) => {
                    return Err(RewriteError::Unsupported(format!(
                        "atomic '{kind}' on {element} is not lowered for the host yet"
                    )))
                }
            };
            let old = b.value(
                "llvm.atomicrmw",
                &[ptr, value],
                element,
                &[b.named("bin_op", b.attr(&format!("{} : i64", bin_op_code(bin)))), ordering(o), align],
            );
            b.replace(op, &[old]);
        }
        ops::AtomicCASOperation::NAME => {
            let failure = match order() {
                MemoryOrder::Release | MemoryOrder::Relaxed => "monotonic",
                MemoryOrder::SeqCst => "seq_cst",
                _ => "acquire",
            };
            let expected = bits_of(ir.value(op.operand(1).expect("expected")));
            let desired = bits_of(ir.value(op.operand(2).expect("desired")));
            let pair = b.ty(&format!("!llvm.struct<({int_type}, i1)>"));
            let r = b.value(
                "llvm.cmpxchg",
                &[ptr, expected, desired],
                pair,
                &[
                    b.named("success_ordering", b.attr(&format!("{} : i64", ordering_code(o)))),
                    b.named("failure_ordering", b.attr(&format!("{} : i64", ordering_code(failure)))),
                    align,
                ],
            );
            let old = b.value("llvm.extractvalue", &[r], int_type, &[b.named("position", b.attr("array<i64: 0>"))]);
            b.replace(op, &[from_bits(old)]);
        }
        ops::AtomicLoadOperation::NAME => {
            let o = match order() {
                MemoryOrder::Release => "monotonic",
                MemoryOrder::AcqRel => "acquire",
                _ => o,
            };
            let v = b.value("llvm.load", &[ptr], element, &[ordering(o), align]);
            b.replace(op, &[v]);
        }
        ops::AtomicStoreOperation::NAME => {
            let o = match order() {
                MemoryOrder::Consume | MemoryOrder::Acquire => "monotonic",
                MemoryOrder::AcqRel => "release",
                _ => o,
            };
            let value = ir.value(op.operand(0).expect("value"));
            b.op("llvm.store", &[value, ptr], &[], &[ordering(o), align]);
            b.erase(op);
        }
        _ => {
            // atomic_wait
            let ctx = crate::lower_simt_host::context_arg(ir, op)
                .ok_or("atomic waits on the host need pydev-lower-simt-host first")?;
            declare.insert(
                entry::WAIT.to_string(),
                (vec![b.ty("!llvm.ptr"), b.ty("!llvm.ptr"), b.i64(), b.i32()], vec![]),
            );
            let old = bits_of(ir.value(op.operand(1).expect("old")));
            let old = if bits == 64 { old } else { b.value("llvm.zext", &[old], b.i64(), &[]) };
            let bytes = b.const_int(b.i32(), i64::from(bits / 8));
            b.op(
                "func.call",
                &[ctx, ptr, old, bytes],
                &[],
                &[b.named("callee", melior::ir::attribute::FlatSymbolRefAttribute::new(b.ctx, entry::WAIT).into())],
            );
            b.erase(op);
        }
    }
    Ok(())
}
