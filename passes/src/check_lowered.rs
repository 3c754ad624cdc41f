//! `pydev-check-lowered`: the last pydev pass of a pipeline.
//!
//! Expects: the pydev lowering passes have run.
//! Guarantees: no pydev op remains, or the pass fails with one error per
//! remaining op, at its location, naming it; so a construct the lowering
//! does not handle yet is a clear compile error rather than a failure deep
//! in LLVM translation.
//! Does not fire (reports nothing) on IR free of pydev ops.

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo,
};
use melior::ir::operation::OperationLike;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-check-lowered",
    summary: "report every pydev op the lowering left behind",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    let mut ok = true;
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        if pydev_dialect::ops::mnemonic(&name).is_some() {
            capi::emit_error(op.location(), &format!("'{name}' is not lowered to this target yet"));
            ok = false;
        }
        melior::ir::operation::WalkResult::Advance
    });
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}
