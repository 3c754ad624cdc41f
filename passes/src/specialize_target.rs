//! `pydev-specialize-target`: fold `target(...)` conditions for the target
//! being compiled for (spec: Target Specialization).
//!
//! Expects: `pydev.target` ops anywhere.
//! Guarantees: none remain; each is an `arith.constant` i1 at its location.
//! With `canonicalize` after it (as the pipelines run it) the branch a false
//! condition guards is erased, so device-only constructs in host-only
//! branches are never required.
//! Does not fire on IR without `pydev.target`.
//!
//! Rewrites, for `target=sm_XX` (on `target=host` every description is false
//! except is_host, any_target and the combinations that make them true):
//!   target is_host         =>  false            target is_device  =>  true
//!   target is_exactly(sm)  =>  sm == XX         target provides(sm) => XX >= sm
//!   target and(a, b, ...)  =>  a && b && ...    target or(...)    =>  a || b || ...
//!   target not(a)          =>  !a
//!   target any_target      =>  true             target no_target  =>  false

use crate::capi::PassIr;
use crate::ir::PassResult;
use crate::{
    ir::{external_pass, rewrite_all, Builder, PassId, RewriteError},
    PassError, PassInfo, PassOption,
};
use melior::ir::{attribute::IntegerAttribute, r#type::IntegerType, Attribute};
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::{attrs::TargetAttr, SM_ARCHS};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-specialize-target",
    summary: "fold target(...) conditions for the compile target",
    options: &[PassOption { name: "target", default: "sm_90", help: "host or sm_XX (sm_50 .. sm_121)" }],
    create: |options| {
        let target = options.get(&INFO, "target").to_owned();
        let sm = match target.as_str() {
            "host" => None,
            t => Some(
                t.strip_prefix("sm_").and_then(|n| n.parse::<u32>().ok()).filter(|n| SM_ARCHS.contains(n)).ok_or_else(
                    || PassError::InvalidOption {
                        pass: INFO.argument,
                        message: format!("unknown target '{t}', expected host or sm_XX"),
                    },
                )?,
            ),
        };
        Ok(external_pass(&ID, INFO.argument, INFO.summary, move |ir| run(ir, sm)))
    },
};

/// Whether a description matches the target (`None`: the host).
pub fn matches(desc: Attribute, sm: Option<u32>) -> Result<bool, RewriteError> {
    let desc = TargetAttr::from_attribute(desc).ok_or("not a target description")?;
    let operands = desc.operands().into_iter().map(|o| matches(o, sm)).collect::<Result<Vec<_>, _>>()?;
    Ok(desc.kind().holds(desc.sm(), operands, sm))
}

fn run(ir: PassIr, sm: Option<u32>) -> PassResult {
    let root = ir.root();
    rewrite_all(ir, root, &[ops::TargetOperation::NAME], |b: &Builder, op| {
        let target = ops::TargetOperation::view(op).expect("rewrite_all gives only this op");
        let value = matches(target.desc().map_err(|_| format!("{} without desc", ops::TargetOperation::NAME))?, sm)?;
        let i1 = IntegerType::new(b.ctx, 1).into();
        let c =
            b.value("arith.constant", &[], i1, &[b.named("value", IntegerAttribute::new(i1, i64::from(value)).into())]);
        b.replace(op, &[c]);
        Ok(())
    })
}
