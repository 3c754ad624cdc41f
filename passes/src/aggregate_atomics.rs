//! `pydev-aggregate-atomics`: warp-aggregated atomics, one atomic per group
//! of lanes that update the same object instead of one per lane.
//!
//! Expects: promoted pydev IR (`pydev-promote-types`: signless integers,
//! `pydev.unsigned` on unsigned atomics), before `pydev-lower-arrays`,
//! `pydev-lower-atomics` and, on the host, `pydev-lower-simt-host` (which
//! lower the warp ops this pass makes). Both targets.
//! Guarantees: the final value of every object is the one the original
//! atomics give, bit for bit (integers; floats only with `floats=1`, which
//! reassociates their sums: results then need a declared tolerance).
//!
//! An `atomic_rmw k %r, %v` is aggregated when all of:
//! - k is add, sub, and, or, xor, max or min (not exch, nanmax, nanmin);
//! - its order is relaxed (a relaxed RMW orders nothing, so one RMW of the
//!   combined operand is an execution of the lanes' RMWs done back to back)
//!   and its scope is block, device or system (not thread);
//! - its old value is unused (no lane needs its own old value);
//! - the element is a 32- or 64-bit integer (f32/f64 add and sub with
//!   `floats=1`);
//! - `%r` is `atomic_ref %a[%i..]` of a global or shared array (a local
//!   array is the thread's own: its lanes update different objects), `%a`
//!   is thread-uniform.
//!
//! Thread-uniform (the same in every thread of the grid, or of the block for
//! shared arrays): constants, a kernel's arguments, block ids and
//! dimensions, grid dimensions, shared arrays, and the results of pure ops
//! (`arith`, array views and shapes, tuples, casts) of thread-uniform values.
//! Anything else (thread ids, loads, a device function's arguments, block
//! arguments of loops and branches) is not.
//!
//! Convergence: no assumption. The lanes are those of `activemask()` at the
//! atomic, so the rewrite is correct under divergent control flow (the
//! `if i < n:` around a histogram's atomic) and on the host's warps.
//!
//! Rewrites (g: the lanes that update the same object; leader: g's lowest
//! lane, `(g & lanemask_lt()) == 0`; n = popc(g)):
//!   the address:  %i.. thread-uniform     =>  g = activemask()
//!                 some %i_k not uniform   =>  g = activemask() & Π_k match_any_sync(activemask(), %i_k)
//!                                             (k: the indices that are not uniform; sm_70+)
//!   %v thread-uniform:
//!     atomic_rmw add|sub %r, %v  =>  if leader: atomic_rmw add|sub %r, %v * n
//!     atomic_rmw xor %r, %v      =>  if leader: atomic_rmw xor %r, %v * (n & 1)
//!     atomic_rmw and|or|max|min %r, %v
//!                                =>  if leader: atomic_rmw and|or|max|min %r, %v   (idempotent)
//!   %v not uniform, the address uniform:
//!     atomic_rmw k %r, %v        =>  if g == 0xffffffff:
//!                                      s = %v; s = s ∘ shfl_xor(g, s, d) for d = 16, 8, 4, 2, 1
//!                                      if leader: atomic_rmw k %r, s
//!                                    else: atomic_rmw k %r, %v
//!                                    (∘: + for add and sub, and|or|xor, max|min signed or
//!                                    unsigned as the atomic; floats: addf)
//! The new atomics keep the original's attributes (order, scope, `pydev.unsigned`).
//! Does not fire on: other kinds, orders or scopes; atomics whose result is
//! used; local arrays; references that are not an `atomic_ref` of a
//! thread-uniform array; floats without `floats=1`; a value that is not
//! thread-uniform at an address that is not (a partial group would need a
//! segmented reduction).

use crate::capi::{self, PassIr};
use crate::ir::{external_pass, rewrite_all, Builder, PassId, PassResult, RewriteError};
use crate::{PassError, PassInfo, PassOption};
use melior::ir::{
    block::BlockArgument,
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Block, BlockLike, Location, OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops;
use pydev_dialect::{enum_value, types::atomic_ref_parts, AtomicRMWKind, MemoryOrder, MemorySpace, Scope};

static ID: PassId = PassId;
static ID_FLOATS: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-aggregate-atomics",
    summary: "aggregate relaxed atomics whose results are unused into one atomic per group of warp lanes",
    options: &[PassOption {
        name: "floats",
        default: "0",
        help: "1: also f32/f64 add and sub, whose sums are then reassociated (results need a tolerance)",
    }],
    create: |options| match options.get(&INFO, "floats") {
        "0" => Ok(external_pass(&ID, INFO.argument, INFO.summary, |ir| run(ir, false))),
        "1" => Ok(external_pass(&ID_FLOATS, INFO.argument, INFO.summary, |ir| run(ir, true))),
        other => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("floats must be 0 or 1, got '{other}'"),
        }),
    },
};

fn run(ir: PassIr, floats: bool) -> PassResult {
    rewrite_all(ir, ir.root(), &[ops::AtomicRMWOperation::NAME], |b, op| aggregate(b, op, floats))
}

/// Ops whose result is thread-uniform when their operands are: pure ops.
const UNIFORM_OPS: &[&str] = &[
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    ops::ConstantOperation::NAME,
    ops::CastOperation::NAME,
    ops::ArrayShapeOperation::NAME,
    ops::ArrayStridesOperation::NAME,
    ops::ArraySizeOperation::NAME,
    ops::ArrayIndexOperation::NAME,
    ops::ArraySliceOperation::NAME,
    ops::ArrayViewOperation::NAME,
    ops::ArrayReshapeOperation::NAME,
    ops::TupleCreateOperation::NAME,
    ops::TupleExtractOperation::NAME,
    ops::SharedArrayOperation::NAME,
    ops::DynamicSharedArrayOperation::NAME,
];

/// Whether `v` is the same in every thread that computes it (see the
/// contract); `depth` bounds the walk up the use-def chains.
fn uniform<'c>(ir: PassIr<'c>, v: Value<'c, '_>, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    if let Ok(arg) = BlockArgument::try_from(v) {
        // A kernel's own arguments only: a device function's differ per
        // call, and other blocks' arguments carry loop and branch values.
        let block = arg.owner();
        let entry = block.parent_region().and_then(|r| r.first_block()).map(|b| b.to_raw().ptr);
        return entry == Some(block.to_raw().ptr) && block.parent_operation().is_some_and(is_kernel);
    }
    let Some(def) = ir.defining_op(v) else { return false };
    let name = def.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    (name.starts_with("arith.") || UNIFORM_OPS.contains(&name))
        && def.region_count() == 0
        && def.operands().all(|o| uniform(ir, o, depth - 1))
}

fn is_kernel(f: OperationRef) -> bool {
    let name = f.name();
    match name.as_string_ref().as_str() {
        Ok("func.func") => f.has_attribute("pydev.kernel"),
        Ok("gpu.func") => f.has_attribute("gpu.kernel"),
        _ => false,
    }
}

const DEPTH: u32 = 64;

fn aggregate<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>, floats: bool) -> Result<(), RewriteError> {
    let ir = b.ir;
    let enum_of = |name: &str| op.attribute(name).ok().and_then(enum_value);
    let (Some(kind), Some(order), Some(scope)) = (
        enum_of("kind").and_then(AtomicRMWKind::from_value),
        enum_of("memory").and_then(MemoryOrder::from_value),
        enum_of("scope").and_then(Scope::from_value),
    ) else {
        return Ok(());
    };
    use AtomicRMWKind as K;
    if !matches!(kind, K::Add | K::Sub | K::And | K::Or | K::Xor | K::Max | K::Min)
        || order != MemoryOrder::Relaxed
        || scope == Scope::Thread
        || !capi::has_no_uses(op)
    {
        return Ok(());
    }
    let reference = ir.value(op.operand(0).expect("reference"));
    let value = ir.value(op.operand(1).expect("value"));
    let ty = value.r#type();
    let int_width = IntegerType::try_from(ty).ok().map(|i| i.width());
    let float = ty.is_f32() || ty.is_f64();
    let typed = matches!(int_width, Some(32 | 64)) || (floats && float && matches!(kind, K::Add | K::Sub));
    if !typed {
        return Ok(());
    }
    let Some((_, space)) = atomic_ref_parts(reference.r#type()) else { return Ok(()) };
    let Some(def) = ir.defining_op(reference) else { return Ok(()) };
    if space == MemorySpace::Local || def.name().as_string_ref().as_str() != Ok(ops::AtomicRefOperation::NAME) {
        return Ok(());
    }
    let array = def.operand(0).expect("array");
    if !uniform(ir, array, DEPTH) {
        return Ok(());
    }
    let varying: Vec<Value> = def.operands().skip(1).filter(|i| !uniform(ir, *i, DEPTH)).map(|i| ir.value(i)).collect();
    let value_uniform = uniform(ir, value, DEPTH);
    if !value_uniform && !varying.is_empty() {
        return Ok(());
    }

    let i32t = b.i32();
    let mask_t = b.ty("!pydev.warp_mask");
    let active = b.value(ops::ActiveMaskOperation::NAME, &[], mask_t, &[]);
    let mut group = b.value(ops::CastOperation::NAME, &[active], i32t, &[]);
    for index in varying {
        let key = if index.r#type().is_index() {
            b.value("arith.index_cast", &[index], b.i64(), &[])
        } else if matches!(IntegerType::try_from(index.r#type()).map(|i| i.width()), Ok(32 | 64)) {
            index
        } else {
            // An i8/i16/i1 index: match_any takes 32- and 64-bit values.
            b.value("arith.extui", &[index], b.i64(), &[])
        };
        let same = b.value(ops::MatchAnyOperation::NAME, &[active, key], mask_t, &[]);
        let same = b.value(ops::CastOperation::NAME, &[same], i32t, &[]);
        group = b.value("arith.andi", &[group, same], i32t, &[]);
    }
    let below = b.value(ops::LaneMaskLtOperation::NAME, &[], mask_t, &[]);
    let below = b.value(ops::CastOperation::NAME, &[below], i32t, &[]);
    let below = b.value("arith.andi", &[group, below], i32t, &[]);
    let zero = constant(b, i32t, "0");
    let leader = cmp_eq(b, below, zero);

    if value_uniform {
        let operand = match kind {
            K::Add | K::Sub | K::Xor => {
                let mut n = b.value("math.ctpop", &[group], i32t, &[]);
                if kind == K::Xor {
                    let one = constant(b, i32t, "1");
                    n = b.value("arith.andi", &[n, one], i32t, &[]);
                }
                let n = match int_width {
                    Some(64) => b.value("arith.extui", &[n], ty, &[]),
                    Some(_) => n,
                    None => b.value("arith.uitofp", &[n], ty, &[]),
                };
                b.value(if float { "arith.mulf" } else { "arith.muli" }, &[value, n], ty, &[])
            }
            _ => value,
        };
        let then = scf_if(b, leader, false)?;
        clone_atomic(ir, op, reference, operand, then.0);
        finish(ir, then.0, b.loc)?;
    } else {
        let all = constant(b, i32t, "-1");
        let full = cmp_eq(b, group, all);
        let (then, otherwise) = scf_if(b, full, true)?;
        let inner = Builder::at_end(ir, then, b.loc);
        let mut sum = value;
        let combine = match (kind, float) {
            (K::Add | K::Sub, true) => "arith.addf",
            (K::Add | K::Sub, false) => "arith.addi",
            (K::And, _) => "arith.andi",
            (K::Or, _) => "arith.ori",
            (K::Xor, _) => "arith.xori",
            (K::Max, _) if op.has_attribute(pydev_dialect::abi::attr::UNSIGNED) => "arith.maxui",
            (K::Max, _) => "arith.maxsi",
            (K::Min, _) if op.has_attribute(pydev_dialect::abi::attr::UNSIGNED) => "arith.minui",
            _ => "arith.minsi",
        };
        let xor = inner.named("kind", inner.attr("#pydev<shuffle_kind xor>"));
        for distance in [16, 8, 4, 2, 1] {
            let d = constant(&inner, i32t, &distance.to_string());
            let other = inner.value(ops::ShuffleOperation::NAME, &[active, sum, d], ty, std::slice::from_ref(&xor));
            sum = inner.value(combine, &[sum, other], ty, &[]);
        }
        let (lead, _) = scf_if(&inner, leader, false)?;
        clone_atomic(ir, op, reference, sum, lead);
        finish(ir, lead, b.loc)?;
        finish(ir, then, b.loc)?;
        let otherwise = otherwise.expect("an else block");
        clone_atomic(ir, op, reference, value, otherwise);
        finish(ir, otherwise, b.loc)?;
    }
    b.erase(op);
    Ok(())
}

fn constant<'c>(b: &Builder<'c>, ty: Type<'c>, value: &str) -> Value<'c, 'c> {
    b.value("arith.constant", &[], ty, &[b.named("value", b.attr(&format!("{value} : {ty}")))])
}

fn cmp_eq<'c>(b: &Builder<'c>, x: Value<'c, 'c>, y: Value<'c, 'c>) -> Value<'c, 'c> {
    let i1 = IntegerType::new(b.ctx, 1).into();
    b.value("arith.cmpi", &[x, y], i1, &[b.named("predicate", b.attr("0 : i64"))])
}

/// Inserts `scf.if %cond` with empty blocks (no terminators yet: see
/// [`finish`]) and returns them.
#[allow(clippy::type_complexity)]
fn scf_if<'c>(
    b: &Builder<'c>,
    cond: Value<'c, 'c>,
    with_else: bool,
) -> Result<(melior::ir::BlockRef<'c, 'c>, Option<melior::ir::BlockRef<'c, 'c>>), RewriteError> {
    let region = |used: bool| {
        let r = Region::new();
        if used {
            r.append_block(Block::new(&[]));
        }
        r
    };
    let op = b.insert_op(
        OperationBuilder::new("scf.if", b.loc)
            .add_operands(&[cond])
            .add_regions([region(true), region(with_else)])
            .build()
            .map_err(|e| format!("cannot build scf.if: {e}"))?,
    );
    let block = |i: usize| op.region(i).ok().and_then(|r| b.ir.entry_block(r));
    Ok((block(0).expect("a then block"), block(1)))
}

/// Ends a block of an `scf.if` with its `scf.yield`.
fn finish<'c>(ir: PassIr<'c>, block: melior::ir::BlockRef<'c, 'c>, loc: Location<'c>) -> Result<(), RewriteError> {
    let b = Builder::at_end(ir, block, loc);
    b.op("scf.yield", &[], &[], &[]);
    Ok(())
}

/// `atomic_rmw` like `op` (its attributes: kind, order, scope,
/// `pydev.unsigned`) on `operand`, at the end of `block`.
fn clone_atomic<'c>(
    ir: PassIr<'c>,
    op: OperationRef<'c, 'c>,
    reference: Value<'c, 'c>,
    operand: Value<'c, 'c>,
    block: melior::ir::BlockRef<'c, 'c>,
) {
    let b = Builder::at_end(ir, block, op.location());
    let attrs: Vec<_> = op.attributes().collect();
    b.op(ops::AtomicRMWOperation::NAME, &[reference, operand], &[operand.r#type()], &attrs);
}
