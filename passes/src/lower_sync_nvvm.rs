//! `pydev-lower-sync-nvvm`: block and warp synchronization, votes, shuffles
//! and matches to NVVM.
//!
//! Expects: pydev sync/warp ops on machine types (signless integers, floats).
//! Guarantees: none of the ops below remain; `!pydev.warp_mask` values cross
//! into `i32` through `unrealized_conversion_cast`.
//! Does not fire on code without these ops.
//!
//! Rewrites:
//!   syncthreads                 =>  nvvm.barrier
//!   syncthreads_count %p        =>  nvvm.barrier #nvvm.reduction<popc> (zext %p)
//!   syncthreads_and|or %p       =>  (nvvm.barrier #nvvm.reduction<and|or> (zext %p)) != 0
//!   grid_sync                   =>  CUDA's cooperative-groups grid barrier (inline PTX, GRID_SYNC):
//!                                   block barrier; thread 0 of each block adds its arrival to the
//!                                   barrier word of the cooperative launch's workspace (%envreg1:2)
//!                                   and waits until its top bit flips; block barrier
//!   syncwarp %m                 =>  nvvm.bar.warp.sync %m
//!   activemask                  =>  activemask.b32 (inline PTX, as CUDA's __activemask)
//!   lanemask_lt                 =>  nvvm.read.ptx.sreg.lanemask.lt
//!   vote all|any|ballot|eq      =>  nvvm.vote.sync all|any|ballot|uni
//!   shfl k %m, %v:32-bit, %l    =>  nvvm.shfl.sync k %m, %v, %l, clamp   (clamp 0 for up, 31 otherwise)
//!   shfl k %m, %v:64-bit, %l    =>  two 32-bit shuffles of the halves
//!   shfl k %m, %v:8/16-bit, %l  =>  shuffle of the value widened to 32 bits
//!   shfl k %m, %v:warp_mask, %l =>  shuffle of its 32 bits (through a cast to i32)
//!   shfl k %m, %v:aggregate, %l =>  one shuffle per member (vector lanes, struct
//!                                   fields, tuple elements, complex parts), rebuilt
//!   match_any %m, %v            =>  nvvm.match.sync any
//!   match_all %m, %v            =>  nvvm.match.sync all, unpacked to (mask, pred)
//!   cast %x : i32 to warp_mask  =>  the same bits (and back); other casts are left to promotion

use crate::capi::PassIr;
use crate::ir::PassResult;
use crate::{
    ir::{external_pass, map_members, rewrite_all, Builder, PassId, RewriteError},
    PassInfo,
};
use melior::ir::{
    attribute::DenseI64ArrayAttribute, operation::OperationLike, r#type::IntegerType, OperationRef, Type, TypeLike,
    Value, ValueLike,
};
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::{
    attrs::{ShuffleKindAttr, VoteKindAttr},
    types::is_warp_mask,
    ShuffleKind, VoteKind,
};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-sync-nvvm",
    summary: "lower block/warp synchronization, votes, shuffles and matches to NVVM",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

/// The ops this pass lowers: the barriers and warp collectives
/// (`pydev_dialect::simt`), `lanemask_lt` and warp-mask casts.
fn names() -> Vec<&'static str> {
    let simt = pydev_dialect::simt::BARRIERS.iter().chain(pydev_dialect::simt::WARP_COLLECTIVES).copied();
    simt.chain([ops::LaneMaskLtOperation::NAME, ops::CastOperation::NAME]).collect()
}

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    rewrite_all(ir, root, &names(), lower)
}

/// A warp mask or integer operand as i32.
fn as_i32<'c>(b: &Builder<'c>, v: Value<'c, 'c>) -> Result<Value<'c, 'c>, RewriteError> {
    let ty = v.r#type();
    if is_warp_mask(ty) {
        return Ok(b.cast(v, b.i32()));
    }
    let int = IntegerType::try_from(ty).map_err(|_| format!("expected an integer, got {ty}"))?;
    if !int.is_signless() {
        return Err(RewriteError::Malformed(format!(
            "operand of type {ty} must be signless here: run pydev-promote-types first"
        )));
    }
    Ok(match int.width() {
        32 => v,
        w if w < 32 => b.value("llvm.sext", &[v], b.i32(), &[]),
        _ => b.value("llvm.trunc", &[v], b.i32(), &[]),
    })
}

fn barrier<'c>(b: &Builder<'c>, reduction: Option<(&str, Value<'c, 'c>)>) -> Option<Value<'c, 'c>> {
    match reduction {
        None => {
            b.op("nvvm.barrier", &[], &[], &[b.named("operandSegmentSizes", b.attr("array<i32: 0, 0, 0>"))]);
            None
        }
        Some((kind, predicate)) => {
            let p = b.value("llvm.zext", &[predicate], b.i32(), &[]);
            Some(b.value(
                "nvvm.barrier",
                &[p],
                b.i32(),
                &[
                    b.named("operandSegmentSizes", b.attr("array<i32: 0, 0, 1>")),
                    b.named("reductionOp", b.attr(&format!("#nvvm.reduction<{kind}>"))),
                ],
            ))
        }
    }
}

/// The grid barrier of CUDA's cooperative groups (`grid.sync()`, as CCCL
/// spells it out): a cooperative launch (`cuLaunchCooperativeKernel`) puts
/// the address of its workspace `{u32 size; u32 barrier}` in `%envreg2`
/// (low half) and `%envreg1` (high half). One thread per block arrives on
/// the barrier word: block 0 adds 0x80000000 - (blocks - 1), the others 1,
/// so one barrier's arrivals flip the top bit exactly once; each waits
/// until the bit differs from the value it saw on arrival. The arrival is a
/// release and the polling an acquire at GPU scope, so writes before the
/// barrier by any thread (ordered before thread 0's by the block barrier)
/// are visible everywhere after it. The runtime launches a kernel whose
/// PTX reads `%envreg1` cooperatively (`pydev_runtime::cuda`).
pub const GRID_SYNC: &str = "{
.reg .pred %pg<3>;
.reg .b32 %rg<8>;
.reg .b64 %rdg<2>;
bar.sync 0;
mov.u32 %rg0, %tid.x;
mov.u32 %rg1, %tid.y;
or.b32 %rg0, %rg0, %rg1;
mov.u32 %rg1, %tid.z;
or.b32 %rg0, %rg0, %rg1;
setp.ne.u32 %pg0, %rg0, 0;
@%pg0 bra pydev_grid_sync_done_${:uid};
mov.u32 %rg1, %ctaid.x;
mov.u32 %rg2, %ctaid.y;
or.b32 %rg1, %rg1, %rg2;
mov.u32 %rg2, %ctaid.z;
or.b32 %rg1, %rg1, %rg2;
mov.u32 %rg3, %nctaid.x;
mov.u32 %rg4, %nctaid.y;
mul.lo.u32 %rg3, %rg3, %rg4;
mov.u32 %rg4, %nctaid.z;
mul.lo.u32 %rg3, %rg3, %rg4;
mov.u32 %rg4, 0x80000001;
sub.u32 %rg4, %rg4, %rg3;
setp.eq.u32 %pg1, %rg1, 0;
selp.u32 %rg5, %rg4, 1, %pg1;
mov.b64 %rdg0, {%envreg2, %envreg1};
add.u64 %rdg1, %rdg0, 4;
atom.add.release.gpu.u32 %rg6, [%rdg1], %rg5;
pydev_grid_sync_wait_${:uid}:
ld.acquire.gpu.u32 %rg7, [%rdg1];
xor.b32 %rg7, %rg7, %rg6;
setp.lt.s32 %pg2, %rg7, 0;
@!%pg2 bra pydev_grid_sync_wait_${:uid};
pydev_grid_sync_done_${:uid}:
bar.sync 0;
}";

/// What a kernel's PTX reads when it synchronizes its grid ([`GRID_SYNC`]):
/// the runtime launches such a kernel cooperatively.
pub const GRID_WORKSPACE_REGISTER: &str = "%envreg1";

fn nonzero<'c>(b: &Builder<'c>, v: Value<'c, 'c>) -> Value<'c, 'c> {
    let zero = b.const_int(b.i32(), 0);
    let i1: Type = IntegerType::new(b.ctx, 1).into();
    b.value("llvm.icmp", &[v, zero], i1, &[b.named("predicate", b.attr("1 : i64"))])
}

fn shuffle32<'c>(
    b: &Builder<'c>,
    kind: ShuffleKind,
    mask: Value<'c, 'c>,
    v: Value<'c, 'c>,
    lane: Value<'c, 'c>,
) -> Value<'c, 'c> {
    let clamp = b.const_int(b.i32(), if kind == ShuffleKind::Up { 0 } else { 31 });
    let nvvm_kind = match kind {
        ShuffleKind::Idx => "idx",
        ShuffleKind::Up => "up",
        ShuffleKind::Down => "down",
        ShuffleKind::Xor => "bfly",
    };
    b.value(
        "nvvm.shfl.sync",
        &[mask, v, lane, clamp],
        v.r#type(),
        &[b.named("kind", b.attr(&format!("#nvvm<shfl_kind {nvvm_kind}>")))],
    )
}

fn shuffle<'c>(
    b: &Builder<'c>,
    kind: ShuffleKind,
    mask: Value<'c, 'c>,
    v: Value<'c, 'c>,
    lane: Value<'c, 'c>,
) -> Result<Value<'c, 'c>, RewriteError> {
    let ty = v.r#type();
    if is_warp_mask(ty) {
        // A mask moves as its 32 bits.
        let moved = shuffle32(b, kind, mask, b.cast(v, b.i32()), lane);
        return Ok(b.cast(moved, ty));
    }
    let bits = if ty.is_f32() || ty.is_f64() || ty.is_f16() || ty.is_bf16() {
        if ty.is_f32() {
            32
        } else if ty.is_f64() {
            64
        } else {
            16
        }
    } else {
        match IntegerType::try_from(ty) {
            Ok(i) if i.is_signless() => i.width(),
            _ => {
                return Err(RewriteError::Unsupported(format!(
                    "shuffles of {ty} are not lowered yet (signless integers and floats are)"
                )))
            }
        }
    };
    if ty.is_f32() || (bits == 32 && !ty.is_float()) {
        return Ok(shuffle32(b, kind, mask, v, lane));
    }
    let int_ty: Type = IntegerType::new(b.ctx, bits).into();
    let as_int = if ty.is_float() { b.value("llvm.bitcast", &[v], int_ty, &[]) } else { v };
    let result = if bits == 64 {
        let lo = b.value("llvm.trunc", &[as_int], b.i32(), &[]);
        let shift = b.const_int(b.i64(), 32);
        let hi64 = b.value("llvm.lshr", &[as_int, shift], b.i64(), &[]);
        let hi = b.value("llvm.trunc", &[hi64], b.i32(), &[]);
        let lo = shuffle32(b, kind, mask, lo, lane);
        let hi = shuffle32(b, kind, mask, hi, lane);
        let lo = b.value("llvm.zext", &[lo], b.i64(), &[]);
        let hi = b.value("llvm.zext", &[hi], b.i64(), &[]);
        let hi = b.value("llvm.shl", &[hi, shift], b.i64(), &[]);
        b.value("llvm.or", &[hi, lo], b.i64(), &[])
    } else {
        let wide = b.value("llvm.zext", &[as_int], b.i32(), &[]);
        let moved = shuffle32(b, kind, mask, wide, lane);
        b.value("llvm.trunc", &[moved], int_ty, &[])
    };
    Ok(if ty.is_float() { b.value("llvm.bitcast", &[result], ty, &[]) } else { result })
}

fn lower<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    let operand = |i: usize| ir.value(op.operand(i).expect("verified operand"));
    let result_type = || op.result(0).expect("verified result").r#type();
    // Results typed `!pydev.warp_mask` or `si32` come back through a cast.
    let typed = |v: Value<'c, 'c>, ty: Type<'c>| if v.r#type() == ty { v } else { b.cast(v, ty) };
    match name {
        ops::SyncThreadsOperation::NAME => {
            barrier(b, None);
            b.erase(op);
        }
        ops::SyncThreadsCountOperation::NAME => {
            let count = barrier(b, Some(("popc", operand(0)))).expect("result");
            b.replace(op, &[typed(count, result_type())]);
        }
        ops::SyncThreadsAndOperation::NAME | ops::SyncThreadsOrOperation::NAME => {
            let kind = if name == ops::SyncThreadsAndOperation::NAME { "and" } else { "or" };
            let r = barrier(b, Some((kind, operand(0)))).expect("result");
            b.replace(op, &[nonzero(b, r)]);
        }
        ops::GridSyncOperation::NAME => {
            b.inline_asm(GRID_SYNC, "~{memory}", &[], None);
            b.erase(op);
        }
        ops::SyncWarpOperation::NAME => {
            let mask = as_i32(b, operand(0))?;
            b.op("nvvm.bar.warp.sync", &[mask], &[], &[]);
            b.erase(op);
        }
        ops::ActiveMaskOperation::NAME => {
            let m = b.inline_asm("activemask.b32 $0;", "=r", &[], Some(b.i32())).expect("result");
            b.replace(op, &[typed(m, result_type())]);
        }
        ops::LaneMaskLtOperation::NAME => {
            let m = b.value("nvvm.read.ptx.sreg.lanemask.lt", &[], b.i32(), &[]);
            b.replace(op, &[typed(m, result_type())]);
        }
        ops::VoteOperation::NAME => {
            let kind = ops::VoteOperation::view(op)
                .and_then(|v| v.kind().ok())
                .and_then(VoteKindAttr::from_attribute)
                .expect("verified kind")
                .value();
            let mask = as_i32(b, operand(0))?;
            let (nvvm_kind, ty) = match kind {
                VoteKind::All => ("all", IntegerType::new(b.ctx, 1).into()),
                VoteKind::Any => ("any", IntegerType::new(b.ctx, 1).into()),
                VoteKind::Eq => ("uni", IntegerType::new(b.ctx, 1).into()),
                VoteKind::Ballot => ("ballot", b.i32()),
            };
            let v = b.value(
                "nvvm.vote.sync",
                &[mask, operand(1)],
                ty,
                &[b.named("kind", b.attr(&format!("#nvvm<vote_sync_kind {nvvm_kind}>")))],
            );
            b.replace(op, &[typed(v, result_type())]);
        }
        ops::ShuffleOperation::NAME => {
            let kind = ops::ShuffleOperation::view(op)
                .and_then(|s| s.kind().ok())
                .and_then(ShuffleKindAttr::from_attribute)
                .expect("verified kind")
                .value();
            let mask = as_i32(b, operand(0))?;
            let lane = as_i32(b, operand(2))?;
            // Small aggregates move member by member from the same lane.
            let v = map_members(b, operand(1), &mut |b, x| shuffle(b, kind, mask, x, lane))?;
            b.replace(op, &[v]);
        }
        ops::MatchAnyOperation::NAME | ops::MatchAllOperation::NAME => {
            let mask = as_i32(b, operand(0))?;
            let mut value = operand(1);
            let ty = value.r#type();
            if ty.is_float() {
                let bits = if ty.is_f32() { 32 } else { 64 };
                value = b.value("llvm.bitcast", &[value], IntegerType::new(b.ctx, bits).into(), &[]);
            }
            if name == ops::MatchAnyOperation::NAME {
                let m = b.value(
                    "nvvm.match.sync",
                    &[mask, value],
                    b.i32(),
                    &[b.named("kind", b.attr("#nvvm<match_sync_kind any>"))],
                );
                b.replace(op, &[typed(m, result_type())]);
            } else {
                let pair_ty = b.ty("!llvm.struct<(i32, i1)>");
                let pair = b.value(
                    "nvvm.match.sync",
                    &[mask, value],
                    pair_ty,
                    &[b.named("kind", b.attr("#nvvm<match_sync_kind all>"))],
                );
                let at = |i: i64, ty| {
                    b.value(
                        "llvm.extractvalue",
                        &[pair],
                        ty,
                        &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[i]).into())],
                    )
                };
                let m = at(0, b.i32());
                let p = at(1, IntegerType::new(b.ctx, 1).into());
                b.replace(op, &[typed(m, result_type()), p]);
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
        _ => unreachable!("op list and match arms agree"),
    }
    Ok(())
}
