//! `pydev-lower-simt-host`: SIMT constructs for the host target, where the
//! runtime (`runtime/src/host`) runs a grid of blocks of threads on the CPU.
//!
//! Expects: promoted pydev IR (`pydev-promote-types`), device code as
//! `func.func` in a `builtin.module` (not outlined), kernels marked
//! `pydev.kernel`.
//! Guarantees:
//! - every defined `func.func` takes a trailing `%ctx: !llvm.ptr`, the
//!   runtime's thread context, and carries `pydev.host_ctx`; every call
//!   between them passes the caller's `%ctx`; interoperable device functions
//!   (`pydev.interop`, not kernels) keep their C signature, so thread
//!   positioning, barriers and warp operations in them are errors;
//! - no gpu thread-positioning op, block barrier, warp op or trapping
//!   integer division remains;
//! - each kernel `@k` has a companion `@__pydev_block_k` (same arguments)
//!   that runs every thread of one block in order; the module gets
//!   `pydev.host_fibers` when any of its functions has a block barrier, a
//!   warp op or an atomic wait. Without it the runtime runs each block with
//!   `@__pydev_block_k` ("loop"). With it, `pydev-host-barrier-fission`
//!   later splits the kernels it can at their barriers and warp ops (it
//!   replaces `@__pydev_block_k` and records `pydev.host_frames`: "barrier
//!   loops"); the runtime runs any other kernel of such a module with one
//!   coroutine per thread, where the runtime calls below suspend the
//!   thread ("coroutines");
//! - `pydev.host_private` (module) maps each kernel to (parameter, element
//!   kind) pairs of arrays the kernel only adds to with relaxed atomics whose
//!   results it ignores (and whose shape it may read): the runtime may give
//!   each worker a zeroed private copy and add the copies into the array
//!   after the launch (reduction privatization), so that workers do not
//!   fight over the cache lines of a histogram's bins. Element kinds:
//!   `pydev_dialect::abi::private_kind`;
//! - `pydev.host_exited_skip` (module) lists the kernels with
//!   `pydev.exited_skip_barriers` (threads that returned do not hold up
//!   later block barriers, as on GPUs; the runtime's coroutines read it,
//!   `pydev-host-barrier-fission` reads the kernel's attribute);
//! - `pydev.host_cooperative` (module) lists the kernels that reach a
//!   `grid_sync` (in their body or a function they call, transitively):
//!   the runtime runs every block of their grid at once, as coroutines;
//! - `pydev.host_max_threads` (module) maps each kernel with launch bounds
//!   (`nvvm.maxntid`, the NVVM dialect's attribute, on its `func.func`) to
//!   the most threads a block may have, the product of the bound's
//!   dimensions: the runtime refuses a larger block, as the CUDA driver does;
//! - `pydev.host_locations` (module) lists the source locations that runtime
//!   errors name by index; `pydev.host_kernels` maps each kernel to the byte
//!   size of each parameter (the launch checks the arguments against it).
//!
//! Does not fire on a module without functions.
//!
//! The thread context's layout, the runtime's entry points, warp operation
//! and error codes and the module attributes above are the host ABI, defined
//! once in `pydev_dialect::abi` (`dialect/src/abi.rs`).
//!
//! Rewrites:
//!   gpu.thread_id|block_id|block_dim|grid_dim d  =>  load i32 [%ctx + offset(d)], index_castui
//!   gpu.lane_id                      =>  (x + bdx * (y + bdy * z)) & 31
//!   gpu.printf "f", %x..             =>  llvm.call @printf(@format, %x..) (the C library's)
//!   lanemask_lt                      =>  (1 << lane_id) - 1
//!   syncthreads[_count|_and|_or] %p  =>  call @pydev_rt_barrier(%ctx, kind, zext %p) (!= 0 for and/or)
//!   grid_sync                        =>  call @pydev_rt_barrier(%ctx, GRID, 0)
//!   shfl of an aggregate             =>  one runtime shuffle per member, rebuilt
//!   syncwarp|activemask|vote|shfl|match_any|match_all
//!                                    =>  call @pydev_rt_warp(%ctx, op, mask, bits of value as i64, lane)
//!                                        and the result's bits back (match_all: mask | pred << 32;
//!                                        activemask: lane = a number of its own, its site)
//!   divsi|floordivsi|ceildivsi|divui|remsi|remui|ceildivui %a, %d (d not a constant)
//!                                    =>  if d == 0: call @pydev_rt_error(%ctx, 1, loc, 0, 0);
//!                                        op %a, (d == 0 ? 1 : d); signed: d == -1 gives -a (rem: 0)
//!                                        without trapping on INT_MIN / -1
//!   func.call @__pydev_raise(%id)    =>  call @pydev_rt_error(%ctx, 3, loc, extsi %id, 0)
//!                                        (pydev_dialect::abi::RAISE: a Python exception, id in
//!                                        the frontend's table; the caller returns after it)
//!   func.call @__pydev_raised()      =>  call @pydev_rt_raised(%ctx) != 0 (abi::RAISED)
//!   func.call @f(%x..)               =>  func.call @f(%x.., %ctx)
//!   cast %x : i32 <-> warp_mask      =>  the same bits

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, map_members, Builder, PassId, RewriteError},
    PassInfo,
};
use melior::ir::{
    attribute::{
        ArrayAttribute, Attribute, DenseI32ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute,
        TypeAttribute,
    },
    operation::{OperationBuilder, OperationLike},
    r#type::{FunctionType, IntegerType},
    Block, BlockLike, Identifier, Location, Module, OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::{
    attrs::{AtomicRMWKindAttr, MemoryOrderAttr, ShuffleKindAttr, VoteKindAttr},
    types::is_warp_mask,
    AtomicRMWKind, MemoryOrder, ShuffleKind, VoteKind,
};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-simt-host",
    summary: "lower thread positioning, barriers, warp ops and integer division for the host runtime",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

use pydev_dialect::abi::{attr, barrier_kind, ctx as ctx_field, entry, private_kind};
/// Warp operation codes and runtime error codes: the host ABI
/// (`pydev_dialect::abi`), re-exported for the passes.
pub use pydev_dialect::abi::{error_code, warp_op};

const DIVISIONS: &[&str] = &[
    "arith.divsi",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.ceildivui",
];

/// The barriers (`syncthreads*`, `syncwarp`).
use pydev_dialect::simt::BARRIERS as SYNC_OPS;

/// What runs a kernel's threads as fibers (or split at barriers): the
/// barriers, the warp collectives and atomic waits.
fn fiber_ops() -> Vec<&'static str> {
    SYNC_OPS
        .iter()
        .chain(pydev_dialect::simt::WARP_COLLECTIVES)
        .copied()
        .chain([ops::AtomicWaitOperation::NAME])
        .collect()
}

fn run(ir: PassIr) -> PassResult {
    let module = ir.root();
    let ctx = capi::context(module);
    let Some(body) = module.region(0).ok().and_then(|r| ir.entry_block(r)) else { return Ok(()) };
    let all_funcs: Vec<_> = ir
        .ops_named(module, &["func.func"])
        .into_iter()
        .filter(|f| f.region(0).ok().and_then(|r| ir.entry_block(r)).is_some())
        .collect();
    if all_funcs.is_empty() {
        return Ok(());
    }
    // Interoperable device functions keep their C signature: no context.
    let (interop, funcs): (Vec<_>, Vec<_>) =
        all_funcs.into_iter().partition(|f| f.has_attribute(attr::INTEROP) && !f.has_attribute(attr::KERNEL));
    let fiber_ops = fiber_ops();
    let needs_fibers = !ir.ops_named(module, &fiber_ops).is_empty();
    let ptr: Type = Type::parse(ctx, "!llvm.ptr").expect("ptr type");
    let defined: Vec<String> = funcs.iter().map(|f| capi::sym_name(*f)).collect();

    // Parameter sizes of each kernel, before the context is appended.
    let mut kernels = Vec::new();
    for f in &funcs {
        if f.has_attribute(attr::KERNEL) {
            let fn_type = function_type(*f);
            let mut sizes = Vec::new();
            for i in 0..fn_type.input_count() {
                let t = fn_type.input(i).expect("input");
                match param_size(t) {
                    Some(s) => sizes.push(s),
                    None => {
                        capi::emit_error(f.location(), &format!("kernel parameter {i} of type {t} has no host layout"));
                        return Err(Reported);
                    }
                }
            }
            kernels.push((capi::sym_name(*f), sizes, *f));
        }
    }

    let cooperative = grid_syncing(ir, &funcs, &kernels);
    let max_threads: Vec<String> =
        kernels.iter().filter_map(|(name, _, f)| Some(format!("{name} = {} : i64", max_threads(*f)?))).collect();

    // Arrays only ever added to (before the context changes the signatures).
    let private: Vec<(String, Vec<i64>)> = kernels
        .iter()
        .map(|(name, _, f)| (name.clone(), privatizable(ir, *f)))
        .filter(|(_, p)| !p.is_empty())
        .collect();

    // The context argument.
    for f in &funcs {
        let entry = f.region(0).ok().and_then(|r| ir.entry_block(r)).expect("defined");
        entry.add_argument(ptr, f.location());
        let fn_type = function_type(*f);
        let mut inputs: Vec<Type> = (0..fn_type.input_count()).map(|i| fn_type.input(i).expect("input")).collect();
        inputs.push(ptr);
        let results: Vec<Type> = (0..fn_type.result_count()).map(|i| fn_type.result(i).expect("result")).collect();
        let mut f = ir.op_mut(*f);
        f.set_attribute("function_type", TypeAttribute::new(FunctionType::new(ctx, &inputs, &results).into()).into());
        f.set_attribute(attr::HOST_CTX, Attribute::unit(ctx));
        // The context aliases no user data: LLVM may then keep its fields in
        // registers across the kernel's stores.
        let noalias = Attribute::parse(ctx, "{llvm.noalias}").expect("dict");
        let empty = Attribute::parse(ctx, "{}").expect("dict");
        let mut all: Vec<Attribute> = match f.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok())
        {
            Some(a) => (0..a.len()).map(|i| a.element(i).expect("in range")).collect(),
            None => vec![empty; inputs.len() - 1],
        };
        all.push(noalias);
        f.set_attribute("arg_attrs", ArrayAttribute::new(ctx, &all).into());
    }

    let mut ok = true;
    let mut locations: Vec<String> = Vec::new();
    let mut declare = std::collections::BTreeSet::new();
    let mut sites = 0i64;
    for op in ir.all_ops(module) {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        let handled = name.starts_with("gpu.")
            || SYNC_OPS.contains(&name.as_str())
            || pydev_dialect::simt::WARP_COLLECTIVES.contains(&name.as_str())
            || matches!(name.as_str(), ops::LaneMaskLtOperation::NAME | ops::CastOperation::NAME | "func.call")
            || DIVISIONS.contains(&name.as_str());
        if !handled {
            continue;
        }
        let Some(ctx_value) = context_arg(ir, op) else {
            let needs_context = name.starts_with("gpu.")
                || fiber_ops.contains(&name.as_str())
                || name == ops::LaneMaskLtOperation::NAME;
            if needs_context
                && interop
                    .iter()
                    .any(|f| f.to_raw().ptr == enclosing_func(ir, op).map_or(std::ptr::null_mut(), |e| e.to_raw().ptr))
            {
                capi::emit_error(op.location(), &format!("'{name}' in an interoperable (interop=True) device function is not supported on the host target: its C signature has no room for the thread context"));
                ok = false;
            }
            continue;
        };
        let b = Builder::before(ir, op);
        if let Err(message) = lower(&b, op, &name, ctx_value, &defined, &mut locations, &mut declare, &mut sites) {
            capi::emit_error(op.location(), &message.to_string());
            ok = false;
        }
    }
    if !ok {
        return Err(Reported);
    }

    // Runtime entry points, block loops and the tables the runtime reads.
    let mut text = String::from("module {\n");
    if declare.contains("barrier") {
        text += &format!("func.func private @{}(!llvm.ptr, i32, i32) -> i32\n", entry::BARRIER);
    }
    if declare.contains("warp") {
        text += &format!("func.func private @{}(!llvm.ptr, i32, i32, i64, i32) -> i64\n", entry::WARP);
    }
    if declare.contains("printf") {
        text += "llvm.func @printf(!llvm.ptr, ...) -> i32\n";
    }
    if declare.contains("raised") {
        text += &format!("func.func private @{}(!llvm.ptr) -> i32\n", entry::RAISED);
    }
    // Always declared: bounds checks (pydev-lower-arrays) call it too.
    text += &format!("func.func private @{}(!llvm.ptr, i32, i32, i64, i64)\n", entry::ERROR);
    for (name, _, f) in &kernels {
        // The kernel itself, declared so that this text verifies alone.
        let t = function_type(*f);
        let inputs: Vec<String> = (0..t.input_count()).map(|i| t.input(i).expect("input").to_string()).collect();
        text += &format!("func.func private @{name}({})\n", inputs.join(", "));
        text += &block_loop(name, function_type(*f));
    }
    text += "}\n";
    // Text (upstream func/llvm declarations and the block loops, which are
    // scf/arith/llvm only, no pydev op); names from `pydev_dialect::abi`.
    // Not converted to builder code yet.
    let Some(extra) = Module::parse(ctx, &text) else {
        capi::emit_error(module.location(), &format!("pydev-lower-simt-host built invalid IR:\n{text}"));
        return Err(Reported);
    };
    let mut next = extra.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !defined.contains(&capi::sym_name(op)) {
            body.append_operation(capi::clone_op(op));
        }
    }
    let mut m = ir.op_mut(module);
    if needs_fibers {
        m.set_attribute(attr::HOST_FIBERS, Attribute::unit(ctx));
    }
    if declare.contains("printf") {
        // The runtime flushes C's stdout after launches of such kernels.
        m.set_attribute(attr::HOST_PRINTS, Attribute::unit(ctx));
    }
    add_locations(ir, module, &locations);
    let table = |rows: Vec<(&String, &Vec<i64>)>| -> String {
        let entries: Vec<String> = rows
            .into_iter()
            .map(|(n, s)| {
                format!(
                    "{n} = array<i64{}{}>",
                    if s.is_empty() { "" } else { ": " },
                    s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        format!("{{{}}}", entries.join(", "))
    };
    m.set_attribute(
        attr::HOST_KERNELS,
        Attribute::parse(ctx, &table(kernels.iter().map(|(n, s, _)| (n, s)).collect())).expect("kernel table"),
    );
    let exited_skip: Vec<String> = kernels
        .iter()
        .filter(|(_, _, f)| f.has_attribute(attr::EXITED_SKIP_BARRIERS))
        .map(|(n, _, _)| format!("{n} = 1 : i64"))
        .collect();
    if !exited_skip.is_empty() {
        m.set_attribute(
            attr::HOST_EXITED_SKIP,
            Attribute::parse(ctx, &format!("{{{}}}", exited_skip.join(", "))).expect("exited-skip table"),
        );
    }
    if !cooperative.is_empty() {
        let rows: Vec<String> = cooperative.iter().map(|n| format!("{n} = 1 : i64")).collect();
        m.set_attribute(
            attr::HOST_COOPERATIVE,
            Attribute::parse(ctx, &format!("{{{}}}", rows.join(", "))).expect("cooperative table"),
        );
    }
    if !max_threads.is_empty() {
        m.set_attribute(
            attr::HOST_MAX_THREADS,
            Attribute::parse(ctx, &format!("{{{}}}", max_threads.join(", "))).expect("max-threads table"),
        );
    }
    if !private.is_empty() {
        m.set_attribute(
            attr::HOST_PRIVATE,
            Attribute::parse(ctx, &table(private.iter().map(|(n, p)| (n, p)).collect())).expect("private table"),
        );
    }
    Ok(())
}

/// The most threads a block of kernel `f` may have: the product of its
/// launch bounds' dimensions (`nvvm.maxntid`, which the NVVM dialect
/// verified: at most three integers), None without them.
fn max_threads(f: OperationRef) -> Option<i64> {
    let dims = DenseI32ArrayAttribute::try_from(f.attribute("nvvm.maxntid").ok()?).ok()?;
    (0..dims.len()).map(|i| dims.element(i).ok().map(i64::from)).product()
}

/// The kernels that reach a `grid_sync`, in their body or through calls.
fn grid_syncing<'c>(
    ir: PassIr<'c>,
    funcs: &[OperationRef<'c, '_>],
    kernels: &[(String, Vec<i64>, OperationRef<'c, '_>)],
) -> Vec<String> {
    let calls = |f: &OperationRef<'c, '_>| -> Vec<String> {
        ir.ops_named(*f, &["func.call"])
            .into_iter()
            .filter_map(|c| c.attribute("callee").ok())
            .map(|a| a.to_string().trim_start_matches('@').trim_matches('"').to_owned())
            .collect()
    };
    let mut syncing: std::collections::HashSet<String> = funcs
        .iter()
        .filter(|f| !ir.ops_named(**f, &[ops::GridSyncOperation::NAME]).is_empty())
        .map(|f| capi::sym_name(*f))
        .collect();
    loop {
        let before = syncing.len();
        for f in funcs {
            if calls(f).iter().any(|c| syncing.contains(c)) {
                syncing.insert(capi::sym_name(*f));
            }
        }
        if syncing.len() == before {
            break;
        }
    }
    kernels.iter().map(|(n, _, _)| n.clone()).filter(|n| syncing.contains(n)).collect()
}

/// (parameter, element kind) of each array parameter of kernel `f` that
/// is only the target of relaxed atomic adds with unused results, or has
/// its shape read.
fn privatizable<'c>(ir: PassIr<'c>, f: OperationRef<'c, '_>) -> Vec<i64> {
    let entry = f.region(0).ok().and_then(|r| ir.entry_block(r)).expect("defined");
    let ops = ir.all_ops(f);
    let mut out = Vec::new();
    for p in 0..entry.argument_count() {
        let arg: Value = ir.value(entry.argument(p).expect("argument").into());
        let Some(array) = pydev_dialect::types::ArrayType::from_type(arg.r#type()) else { continue };
        let kind = match array.element_type().to_string().as_str() {
            "i32" => private_kind::I32,
            "i64" => private_kind::I64,
            "f32" => private_kind::F32,
            "f64" => private_kind::F64,
            _ => continue,
        };
        let uses_of = |v: Value| -> Vec<OperationRef> {
            ops.iter().copied().filter(|o| o.operands().any(|x| x.to_raw().ptr == v.to_raw().ptr)).collect()
        };
        let only_adds = uses_of(arg).into_iter().all(|user| {
            let name = user.name();
            match name.as_string_ref().as_str().unwrap_or_default() {
                ops::ArraySizeOperation::NAME | ops::ArrayShapeOperation::NAME => true,
                ops::AtomicRefOperation::NAME if user.operand(0).is_ok_and(|a| a.to_raw().ptr == arg.to_raw().ptr) => {
                    let reference: Value = ir.value(user.result(0).expect("reference").into());
                    uses_of(reference).into_iter().all(|rmw| {
                        ops::AtomicRMWOperation::view(rmw).is_some_and(|r| {
                            r.kind().ok().and_then(AtomicRMWKindAttr::from_attribute).map(|k| k.value())
                                == Some(AtomicRMWKind::Add)
                                && r.memory().ok().and_then(MemoryOrderAttr::from_attribute).map(|m| m.value())
                                    == Some(MemoryOrder::Relaxed)
                        }) && rmw.operand(0).is_ok_and(|r| r.to_raw().ptr == reference.to_raw().ptr)
                            && capi::has_no_uses(rmw)
                    })
                }
                _ => false,
            }
        });
        let adds = uses_of(arg).iter().any(|u| u.name().as_string_ref().as_str() == Ok(ops::AtomicRefOperation::NAME));
        if only_adds && adds {
            out.extend([p as i64, kind]);
        }
    }
    out
}

fn function_type<'c>(f: OperationRef<'c, '_>) -> FunctionType<'c> {
    let t = f.attribute("function_type").ok().and_then(|a| TypeAttribute::try_from(a).ok()).expect("func with a type");
    FunctionType::try_from(t.value()).expect("function type")
}

/// Byte size of a kernel parameter on the host (the CUDA C++ layout).
fn param_size(t: Type) -> Option<i64> {
    if let Some(array) = pydev_dialect::types::ArrayType::from_type(t) {
        return Some(8 + 16 * i64::from(array.rank()));
    }
    // index, and the void* of a None argument of an interop kernel.
    if t.is_index() || t.to_string() == "!llvm.ptr" {
        return Some(8);
    }
    pydev_dialect::type_layout(t).map(|(size, _)| size as i64)
}

/// The `%ctx` argument of the function around `op` (its last argument).
pub fn context_arg<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>) -> Option<Value<'c, 'c>> {
    let mut cur = op.parent_operation().map(|o| ir.detach(o));
    while let Some(p) = cur {
        if p.name().as_string_ref().as_str() == Ok("func.func") {
            if !p.has_attribute(attr::HOST_CTX) {
                return None;
            }
            let entry = p.region(0).ok().and_then(|r| ir.entry_block(r))?;
            let n = entry.argument_count();
            return entry.argument(n - 1).ok().map(|a| ir.value(a.into()));
        }
        cur = p.parent_operation().map(|o| ir.detach(o));
    }
    None
}

fn enclosing_func<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let mut cur = op.parent_operation().map(|o| ir.detach(o));
    while let Some(p) = cur {
        if p.name().as_string_ref().as_str() == Ok("func.func") {
            return Some(p);
        }
        cur = p.parent_operation().map(|o| ir.detach(o));
    }
    None
}

/// `file:line:col` of a location (the first file location inside it).
pub fn location_text(loc: Location) -> String {
    let text = loc.to_string();
    if let Some(start) = text.find('"') {
        let rest = &text[start + 1..];
        if let Some(end) = rest.find('"') {
            let file = &rest[..end];
            let nums: String = rest[end + 1..].chars().take_while(|c| c.is_ascii_digit() || *c == ':').collect();
            return format!("{file}{}", nums.trim_end_matches(':'));
        }
    }
    "unknown location".into()
}

/// Appends `new` to the module's `pydev.host_locations` table.
pub fn add_locations<'c>(ir: PassIr<'c>, module: OperationRef<'c, '_>, new: &[String]) {
    let ctx = capi::context(module);
    let mut all: Vec<Attribute> =
        match module.attribute(attr::HOST_LOCATIONS).ok().and_then(|a| ArrayAttribute::try_from(a).ok()) {
            Some(a) => (0..a.len()).map(|i| a.element(i).expect("in range")).collect(),
            None => vec![],
        };
    all.extend(new.iter().map(|s| -> Attribute { StringAttribute::new(ctx, s).into() }));
    ir.set_attribute(module, attr::HOST_LOCATIONS, ArrayAttribute::new(ctx, &all).into());
}

/// The index `loc` will have in the location table.
pub fn location_index(module: OperationRef, pending: &mut Vec<String>, loc: Location) -> i64 {
    let existing = module
        .attribute(attr::HOST_LOCATIONS)
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map_or(0, |a| a.len());
    let text = location_text(loc);
    let i = pending.iter().position(|p| *p == text).unwrap_or_else(|| {
        pending.push(text);
        pending.len() - 1
    });
    (existing + i) as i64
}

/// `func.func @__pydev_block_k(args.., %ctx)`: every thread of the block in
/// x-fastest order.
fn block_loop(kernel: &str, fn_type: FunctionType) -> String {
    let n = fn_type.input_count();
    let params: Vec<String> = (0..n)
        .map(|i| {
            format!("%a{i}: {}{}", fn_type.input(i).expect("input"), if i + 1 == n { " {llvm.noalias}" } else { "" })
        })
        .collect();
    let args: Vec<String> = (0..n).map(|i| format!("%a{i}")).collect();
    let types: Vec<String> = (0..n).map(|i| fn_type.input(i).expect("input").to_string()).collect();
    let c = format!("%a{}", n - 1);
    format!(
        r#"func.func @__pydev_block_{kernel}({params}) attributes {{{host_ctx}}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %px = llvm.getelementptr {c}[{bdim_x}] : (!llvm.ptr) -> !llvm.ptr, i8
  %py = llvm.getelementptr {c}[{bdim_y}] : (!llvm.ptr) -> !llvm.ptr, i8
  %pz = llvm.getelementptr {c}[{bdim_z}] : (!llvm.ptr) -> !llvm.ptr, i8
  %tx = llvm.getelementptr {c}[{tid_x}] : (!llvm.ptr) -> !llvm.ptr, i8
  %ty = llvm.getelementptr {c}[{tid_y}] : (!llvm.ptr) -> !llvm.ptr, i8
  %tz = llvm.getelementptr {c}[{tid_z}] : (!llvm.ptr) -> !llvm.ptr, i8
  %bx = llvm.load %px : !llvm.ptr -> i32
  %by = llvm.load %py : !llvm.ptr -> i32
  %bz = llvm.load %pz : !llvm.ptr -> i32
  %nx = arith.index_castui %bx : i32 to index
  %ny = arith.index_castui %by : i32 to index
  %nz = arith.index_castui %bz : i32 to index
  scf.for %z = %c0 to %nz step %c1 {{
    %z32 = arith.index_castui %z : index to i32
    llvm.store %z32, %tz : i32, !llvm.ptr
    scf.for %y = %c0 to %ny step %c1 {{
      %y32 = arith.index_castui %y : index to i32
      llvm.store %y32, %ty : i32, !llvm.ptr
      scf.for %x = %c0 to %nx step %c1 {{
        %x32 = arith.index_castui %x : index to i32
        llvm.store %x32, %tx : i32, !llvm.ptr
        func.call @{kernel}({args}) : ({types}) -> ()
      }}
    }}
  }}
  return
}}
"#,
        params = params.join(", "),
        host_ctx = attr::HOST_CTX,
        args = args.join(", "),
        types = types.join(", "),
        bdim_x = ctx_field::dim(ctx_field::BDIM, 0),
        bdim_y = ctx_field::dim(ctx_field::BDIM, 1),
        bdim_z = ctx_field::dim(ctx_field::BDIM, 2),
        tid_x = ctx_field::dim(ctx_field::TID, 0),
        tid_y = ctx_field::dim(ctx_field::TID, 1),
        tid_z = ctx_field::dim(ctx_field::TID, 2),
    )
}

pub fn load_u32<'c>(b: &Builder<'c>, ctx: Value<'c, 'c>, offset: i64) -> Value<'c, 'c> {
    let p = gep(b, ctx, offset);
    b.value("llvm.load", &[p], b.i32(), &[])
}

pub fn gep<'c>(b: &Builder<'c>, base: Value<'c, 'c>, offset: i64) -> Value<'c, 'c> {
    b.value(
        "llvm.getelementptr",
        &[base],
        b.ty("!llvm.ptr"),
        &[
            b.named("rawConstantIndices", b.attr(&format!("array<i32: {offset}>"))),
            b.named("elem_type", TypeAttribute::new(IntegerType::new(b.ctx, 8).into()).into()),
        ],
    )
}

/// The thread's linear index in its block, `x + bdx * (y + bdy * z)` (i32).
pub fn linear_tid<'c>(b: &Builder<'c>, ctx: Value<'c, 'c>) -> Value<'c, 'c> {
    let (x, y, z) = (
        load_u32(b, ctx, ctx_field::dim(ctx_field::TID, 0)),
        load_u32(b, ctx, ctx_field::dim(ctx_field::TID, 1)),
        load_u32(b, ctx, ctx_field::dim(ctx_field::TID, 2)),
    );
    let (bx, by) =
        (load_u32(b, ctx, ctx_field::dim(ctx_field::BDIM, 0)), load_u32(b, ctx, ctx_field::dim(ctx_field::BDIM, 1)));
    let i32t = b.i32();
    let yz = b.value("llvm.mul", &[by, z], i32t, &[]);
    let yz = b.value("llvm.add", &[yz, y], i32t, &[]);
    let lin = b.value("llvm.mul", &[bx, yz], i32t, &[]);
    b.value("llvm.add", &[lin, x], i32t, &[])
}

fn lane_id<'c>(b: &Builder<'c>, ctx: Value<'c, 'c>) -> Value<'c, 'c> {
    let m = b.const_int(b.i32(), 31);
    b.value("llvm.and", &[linear_tid(b, ctx), m], b.i32(), &[])
}

fn call<'c>(b: &Builder<'c>, callee: &str, args: &[Value<'c, 'c>], result: Option<Type<'c>>) -> Option<Value<'c, 'c>> {
    let ir = b.ir;
    let results: Vec<Type> = result.into_iter().collect();
    let op = b.op("func.call", args, &results, &[b.named("callee", FlatSymbolRefAttribute::new(b.ctx, callee).into())]);
    op.result(0).ok().map(|r| ir.value(r.into()))
}

/// An integer value's bits as i64 (floats bitcast first).
fn to_bits<'c>(b: &Builder<'c>, v: Value<'c, 'c>) -> Result<Value<'c, 'c>, RewriteError> {
    let ty = v.r#type();
    if is_warp_mask(ty) {
        let i = b.cast(v, b.i32());
        return Ok(b.value("llvm.zext", &[i], b.i64(), &[]));
    }
    let (int, width) = if ty.is_float() {
        let w = if ty.is_f64() {
            64
        } else if ty.is_f32() {
            32
        } else {
            16
        };
        let it: Type = IntegerType::new(b.ctx, w).into();
        (b.value("llvm.bitcast", &[v], it, &[]), w)
    } else {
        match IntegerType::try_from(ty) {
            Ok(i) if i.is_signless() => (v, i.width()),
            _ => {
                return Err(RewriteError::Unsupported(format!(
                    "warp operations on {ty} are not lowered for the host (numbers are)"
                )))
            }
        }
    };
    Ok(match width {
        64 => int,
        _ => b.value("llvm.zext", &[int], b.i64(), &[]),
    })
}

fn from_bits<'c>(b: &Builder<'c>, bits: Value<'c, 'c>, ty: Type<'c>) -> Value<'c, 'c> {
    if is_warp_mask(ty) {
        let i = b.value("llvm.trunc", &[bits], b.i32(), &[]);
        return b.cast(i, ty);
    }
    let width = if ty.is_float() {
        if ty.is_f64() {
            64
        } else if ty.is_f32() {
            32
        } else {
            16
        }
    } else {
        IntegerType::try_from(ty).map(|i| i.width()).unwrap_or(64)
    };
    let it: Type = IntegerType::new(b.ctx, width).into();
    let int = if width == 64 { bits } else { b.value("llvm.trunc", &[bits], it, &[]) };
    if ty.is_float() {
        b.value("llvm.bitcast", &[int], ty, &[])
    } else {
        int
    }
}

fn mask_i32<'c>(b: &Builder<'c>, v: Value<'c, 'c>) -> Result<Value<'c, 'c>, RewriteError> {
    let ty = v.r#type();
    if is_warp_mask(ty) {
        return Ok(b.cast(v, b.i32()));
    }
    match IntegerType::try_from(ty) {
        Ok(i) if i.is_signless() && i.width() == 32 => Ok(v),
        _ => Err(RewriteError::Malformed(format!("a warp mask of type {ty} must be i32 or !pydev.warp_mask"))),
    }
}

#[allow(clippy::too_many_arguments)]
fn lower<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    name: &str,
    ctx: Value<'c, 'c>,
    defined: &[String],
    locations: &mut Vec<String>,
    declare: &mut std::collections::BTreeSet<&'static str>,
    sites: &mut i64,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let operand = |i: usize| ir.value(op.operand(i).expect("verified operand"));
    let result_type = || op.result(0).expect("verified result").r#type();
    let typed = |v: Value<'c, 'c>, ty: Type<'c>| if v.r#type() == ty { v } else { b.cast(v, ty) };
    let i32t = b.i32();
    let warp = |declare: &mut std::collections::BTreeSet<&'static str>,
                code: i64,
                mask: Value<'c, 'c>,
                value: Value<'c, 'c>,
                lane: Value<'c, 'c>| {
        declare.insert("warp");
        let code = b.const_int(i32t, code);
        call(b, entry::WARP, &[ctx, code, mask, value, lane], Some(b.i64())).expect("result")
    };
    match name {
        "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" => {
            let dim = op.attribute("dimension").map(|a| a.to_string()).unwrap_or_default();
            let k = if dim.contains('y') {
                1
            } else if dim.contains('z') {
                2
            } else {
                0
            };
            let base = match name {
                "gpu.thread_id" => ctx_field::TID,
                "gpu.block_id" => ctx_field::BID,
                "gpu.block_dim" => ctx_field::BDIM,
                _ => ctx_field::GDIM,
            };
            let v = load_u32(b, ctx, ctx_field::dim(base, k));
            let idx = b.value("arith.index_castui", &[v], result_type(), &[]);
            b.replace(op, &[idx]);
        }
        "gpu.printf" => {
            // The C library's printf (vprintf on the GPU): the format becomes
            // a private string constant of the module.
            let format = op
                .attribute("format")
                .ok()
                .and_then(|a| StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_owned())
                .unwrap_or_default();
            let module = ir.module_of(op);
            let n = ir.ops_named(module, &["llvm.mlir.global"]).len();
            let symbol = format!("__pydev_printf_{n}");
            let escaped: String = format
                .bytes()
                .chain(std::iter::once(0))
                .map(|c| {
                    if c.is_ascii_graphic() && c != b'"' && c != b'\\' || c == b' ' {
                        (c as char).to_string()
                    } else {
                        format!("\\{c:02X}")
                    }
                })
                .collect();
            // Text (an upstream op, no pydev op): the parser derives the
            // global's `!llvm.array<N x i8>` type from the escaped string;
            // builder code would compute both here. Still to convert.
            let text = format!(
                "module {{ llvm.mlir.global internal constant @{symbol}(\"{escaped}\") {{addr_space = 0 : i32}} }}"
            );
            let parsed = Module::parse(b.ctx, &text).ok_or("cannot build the printf format")?;
            let body = module.region(0).ok().and_then(|r| ir.entry_block(r)).ok_or("no module body")?;
            body.append_operation(capi::clone_op(parsed.body().first_operation().ok_or("no global")?));
            declare.insert("printf");
            let ptr = b.ty("!llvm.ptr");
            let fmt = b.value(
                "llvm.mlir.addressof",
                &[],
                ptr,
                &[b.named("global_name", FlatSymbolRefAttribute::new(b.ctx, &symbol).into())],
            );
            let mut args: Vec<Value> = vec![fmt];
            args.extend(op.operands().map(|v| ir.value(v)));
            b.op(
                "llvm.call",
                &args,
                &[b.i32()],
                &[
                    b.named("callee", FlatSymbolRefAttribute::new(b.ctx, "printf").into()),
                    b.named("var_callee_type", b.attr("!llvm.func<i32 (ptr, ...)>")),
                    b.named("operandSegmentSizes", b.attr(&format!("array<i32: {}, 0>", args.len()))),
                    b.named("op_bundle_sizes", b.attr("array<i32>")),
                ],
            );
            b.erase(op);
        }
        "gpu.lane_id" => {
            let lane = lane_id(b, ctx);
            let idx = b.value("arith.index_castui", &[lane], result_type(), &[]);
            b.replace(op, &[idx]);
        }
        ops::LaneMaskLtOperation::NAME => {
            let lane = lane_id(b, ctx);
            let one = b.const_int(i32t, 1);
            let shifted = b.value("llvm.shl", &[one, lane], i32t, &[]);
            let m = b.value("llvm.sub", &[shifted, one], i32t, &[]);
            b.replace(op, &[typed(m, result_type())]);
        }
        ops::GridSyncOperation::NAME => {
            declare.insert("barrier");
            let (k, zero) = (b.const_int(i32t, barrier_kind::GRID), b.const_int(i32t, 0));
            call(b, entry::BARRIER, &[ctx, k, zero], Some(i32t));
            b.erase(op);
        }
        ops::SyncThreadsOperation::NAME
        | ops::SyncThreadsCountOperation::NAME
        | ops::SyncThreadsAndOperation::NAME
        | ops::SyncThreadsOrOperation::NAME => {
            declare.insert("barrier");
            let kind = match name {
                ops::SyncThreadsOperation::NAME => barrier_kind::PLAIN,
                ops::SyncThreadsCountOperation::NAME => barrier_kind::COUNT,
                ops::SyncThreadsAndOperation::NAME => barrier_kind::AND,
                _ => barrier_kind::OR,
            };
            let pred = if kind == barrier_kind::PLAIN {
                b.const_int(i32t, 0)
            } else {
                b.value("llvm.zext", &[operand(0)], i32t, &[])
            };
            let k = b.const_int(i32t, kind);
            let r = call(b, entry::BARRIER, &[ctx, k, pred], Some(i32t)).expect("result");
            match kind {
                barrier_kind::PLAIN => b.erase(op),
                barrier_kind::COUNT => b.replace(op, &[typed(r, result_type())]),
                _ => {
                    let zero = b.const_int(i32t, 0);
                    let i1: Type = IntegerType::new(b.ctx, 1).into();
                    let nz = b.value("llvm.icmp", &[r, zero], i1, &[b.named("predicate", b.attr("1 : i64"))]);
                    b.replace(op, &[nz]);
                }
            }
        }
        ops::SyncWarpOperation::NAME => {
            let mask = mask_i32(b, operand(0))?;
            let (zero64, zero) = (b.const_int(b.i64(), 0), b.const_int(i32t, 0));
            warp(declare, warp_op::SYNCWARP, mask, zero64, zero);
            b.erase(op);
        }
        ops::ActiveMaskOperation::NAME => {
            // Its site: the lanes waiting at the same activemask are the
            // converged ones (runtime/src/host/warp.rs).
            *sites += 1;
            let (zero64, site, full) = (b.const_int(b.i64(), 0), b.const_int(i32t, *sites), b.const_int(i32t, -1));
            let r = warp(declare, warp_op::ACTIVEMASK, full, zero64, site);
            b.replace(op, &[from_bits(b, r, result_type())]);
        }
        ops::VoteOperation::NAME => {
            let kind = ops::VoteOperation::view(op)
                .and_then(|v| v.kind().ok())
                .and_then(VoteKindAttr::from_attribute)
                .expect("verified kind")
                .value();
            let mask = mask_i32(b, operand(0))?;
            let p = b.value("llvm.zext", &[operand(1)], b.i64(), &[]);
            let code = match kind {
                VoteKind::All => warp_op::ALL,
                VoteKind::Any => warp_op::ANY,
                VoteKind::Eq => warp_op::UNI,
                VoteKind::Ballot => warp_op::BALLOT,
            };
            let zero = b.const_int(i32t, 0);
            let r = warp(declare, code, mask, p, zero);
            b.replace(op, &[from_bits(b, r, result_type())]);
        }
        ops::ShuffleOperation::NAME => {
            let kind = ops::ShuffleOperation::view(op)
                .and_then(|s| s.kind().ok())
                .and_then(ShuffleKindAttr::from_attribute)
                .expect("verified kind")
                .value();
            let mask = mask_i32(b, operand(0))?;
            let value = operand(1);
            let lane = operand(2);
            let lane = match IntegerType::try_from(lane.r#type()) {
                Ok(i) if i.width() == 32 => lane,
                Ok(i) if i.width() < 32 => b.value("llvm.sext", &[lane], i32t, &[]),
                Ok(_) => b.value("llvm.trunc", &[lane], i32t, &[]),
                Err(_) => {
                    return Err(RewriteError::Malformed(format!(
                        "shuffle lane of type {} must be an integer",
                        lane.r#type()
                    )))
                }
            };
            let code = match kind {
                ShuffleKind::Idx => warp_op::SHFL_IDX,
                ShuffleKind::Up => warp_op::SHFL_UP,
                ShuffleKind::Down => warp_op::SHFL_DOWN,
                ShuffleKind::Xor => warp_op::SHFL_XOR,
            };
            // Small aggregates move member by member from the same lane.
            let moved = map_members(b, value, &mut |b, x| {
                let bits = to_bits(b, x)?;
                let r = warp(declare, code, mask, bits, lane);
                Ok(from_bits(b, r, x.r#type()))
            })?;
            b.replace(op, &[moved]);
        }
        ops::MatchAnyOperation::NAME | ops::MatchAllOperation::NAME => {
            let mask = mask_i32(b, operand(0))?;
            let bits = to_bits(b, operand(1))?;
            let zero = b.const_int(i32t, 0);
            if name == ops::MatchAnyOperation::NAME {
                let r = warp(declare, warp_op::MATCH_ANY, mask, bits, zero);
                b.replace(op, &[from_bits(b, r, result_type())]);
            } else {
                let r = warp(declare, warp_op::MATCH_ALL, mask, bits, zero);
                let m = from_bits(b, r, result_type());
                let shift = b.const_int(b.i64(), 32);
                let hi = b.value("llvm.lshr", &[r, shift], b.i64(), &[]);
                let i1: Type = IntegerType::new(b.ctx, 1).into();
                let p = b.value("llvm.trunc", &[hi], i1, &[]);
                b.replace(op, &[m, p]);
            }
        }
        ops::CastOperation::NAME => {
            let input = operand(0);
            let is_i32 = |t: Type| IntegerType::try_from(t).is_ok_and(|i| i.is_signless() && i.width() == 32);
            let (from, to) = (input.r#type(), result_type());
            if (is_warp_mask(from) && is_i32(to)) || (is_i32(from) && is_warp_mask(to)) {
                let v = b.cast(input, to);
                b.replace(op, &[v]);
            }
        }
        "func.call" => {
            let callee = op.attribute("callee").map(|a| a.to_string()).unwrap_or_default();
            let callee = callee.trim_start_matches('@').trim_matches('"').to_owned();
            if callee == pydev_dialect::abi::RAISE {
                // The exception id, widened as pydev_rt_error's `a`.
                let id = b.value("arith.extsi", &[operand(0)], b.i64(), &[]);
                let module = ir.module_of(op);
                let loc = location_index(module, locations, op.location());
                let (code, loc) = (b.const_int(i32t, error_code::EXCEPTION), b.const_int(i32t, loc));
                let zero = b.const_int(b.i64(), 0);
                call(b, entry::ERROR, &[ctx, code, loc, id, zero], None);
                b.erase(op);
                return Ok(());
            }
            if callee == pydev_dialect::abi::RAISED {
                declare.insert("raised");
                let raised = call(b, entry::RAISED, &[ctx], Some(i32t)).expect("result");
                let zero = b.const_int(i32t, 0);
                let i1 = IntegerType::new(b.ctx, 1).into();
                let yes = b.value("arith.cmpi", &[raised, zero], i1, &[b.named("predicate", b.attr("1 : i64"))]); // ne
                b.replace(op, &[yes]);
                return Ok(());
            }
            if !defined.contains(&callee) {
                return Ok(());
            }
            let mut args: Vec<Value> = op.operands().map(|v| ir.value(v)).collect();
            args.push(ctx);
            let results: Vec<Type> = op.results().map(|r| r.r#type()).collect();
            let new = b.op(
                "func.call",
                &args,
                &results,
                &[b.named("callee", FlatSymbolRefAttribute::new(b.ctx, &callee).into())],
            );
            let values: Vec<Value> = new.results().map(|r| ir.value(r.into())).collect();
            b.replace(op, &values);
        }
        _ if DIVISIONS.contains(&name) => guard_division(b, op, name, ctx, locations, declare)?,
        _ => {}
    }
    Ok(())
}

/// `if cond { pydev_rt_error(ctx, code, loc, a, b) }` at the builder's
/// position: a runtime error the launch reports (the caller then goes on
/// with a safe operand).
pub fn report_if<'c>(
    b: &Builder<'c>,
    cond: Value<'c, 'c>,
    ctx: Value<'c, 'c>,
    code: i64,
    loc: i64,
    a: Value<'c, 'c>,
    bv: Value<'c, 'c>,
) {
    let (code, loc) = (b.const_int(b.i32(), code), b.const_int(b.i32(), loc));
    let then_block = Block::new(&[]);
    then_block.append_operation(
        OperationBuilder::new("func.call", b.loc)
            .add_operands(&[ctx, code, loc, a, bv])
            .add_attributes(&[(
                Identifier::new(b.ctx, "callee"),
                FlatSymbolRefAttribute::new(b.ctx, entry::ERROR).into(),
            )])
            .build()
            .expect("call"),
    );
    then_block.append_operation(OperationBuilder::new("scf.yield", b.loc).build().expect("yield"));
    let then_region = Region::new();
    then_region.append_block(then_block);
    b.insert_op(
        OperationBuilder::new("scf.if", b.loc)
            .add_operands(&[cond])
            .add_regions([then_region, Region::new()])
            .build()
            .expect("scf.if"),
    );
}

/// The constant value of `v`, if it is an `arith.constant` integer.
fn constant_of<'c>(ir: PassIr<'c>, v: Value<'c, '_>) -> Option<i64> {
    let def = ir.defining_op(v)?;
    if def.name().as_string_ref().as_str() != Ok("arith.constant") {
        return None;
    }
    def.attribute("value").ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|i| i.value())
}

fn guard_division<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    name: &str,
    ctx: Value<'c, 'c>,
    locations: &mut Vec<String>,
    declare: &mut std::collections::BTreeSet<&'static str>,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let a = ir.value(op.operand(0).expect("dividend"));
    let d = ir.value(op.operand(1).expect("divisor"));
    let ty = d.r#type();
    if IntegerType::try_from(ty).is_err() {
        return Ok(()); // vectors of integers keep LLVM's semantics
    }
    let signed = name.ends_with("si");
    let known = constant_of(ir, d);
    if known.is_some_and(|k| k != 0 && (!signed || k != -1)) {
        return Ok(());
    }
    let i1: Type = IntegerType::new(b.ctx, 1).into();
    let cmp = |x: Value<'c, 'c>, y: Value<'c, 'c>| {
        b.value("arith.cmpi", &[x, y], i1, &[b.named("predicate", b.attr("0 : i64"))])
    };
    let zero = b.const_int(ty, 0);
    let one = b.const_int(ty, 1);
    let is_zero = cmp(d, zero);

    // if d == 0: report
    declare.insert("error");
    let module = ir.module_of(op);
    let loc = location_index(module, locations, op.location());
    let z64 = b.const_int(b.i64(), 0);
    report_if(b, is_zero, ctx, error_code::ZERO_DIVISION, loc, z64, z64);

    let safe = b.value("arith.select", &[is_zero, one, d], ty, &[]);
    let (divisor, minus_one) = if signed {
        let m1 = b.const_int(ty, -1);
        let is_m1 = cmp(safe, m1);
        (b.value("arith.select", &[is_m1, one, safe], ty, &[]), Some(is_m1))
    } else {
        (safe, None)
    };
    let results = [ty];
    let new = b.value(name, &[a, divisor], results[0], &[]);
    let result = match minus_one {
        Some(is_m1) => {
            let alt = if name == "arith.remsi" { zero } else { b.value("arith.subi", &[zero, a], ty, &[]) };
            b.value("arith.select", &[is_m1, alt, new], ty, &[])
        }
        None => new,
    };
    b.replace(op, &[result]);
    Ok(())
}
