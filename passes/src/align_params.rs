//! `pydev-align-params`: kernel parameters aligned as CUDA C++ aligns them.
//!
//! Expects: `convert-gpu-to-nvvm` and `pydev-drop-c-wrappers` have run, so
//! kernels are `llvm.func`s (and no C wrapper carries a copy of the mark);
//! `pydev-lower-aggregates` marked each kernel (and each interop function
//! of a gpu.module) with a by-value struct or
//! tuple parameter that CUDA aligns beyond its members (`@struct(align=N)`,
//! a `device.align(t, N)` field) `pydev.param_aligns = array<i64: ...>`, one
//! entry per parameter, 0 for "LLVM's alignment is CUDA's". (The mark is a
//! function attribute because the gpu.func lowering keeps those but drops
//! `llvm.alignstack` argument attributes.)
//! Guarantees: each parameter with a nonzero entry has the argument
//! attribute `llvm.alignstack = N : i64`, which NVPTX declares as
//! `.param .align N .b8 name[size]` (what nvcc writes); the mark is gone.
//! Does not fire on functions without the mark.
//!
//! Rewrites:
//!   llvm.func @k(%s: T) attributes {pydev.param_aligns = array<i64: 16>}
//!     =>  llvm.func @k(%s: T {llvm.alignstack = 16 : i64})

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo,
};
use melior::ir::{
    attribute::{ArrayAttribute, DenseI64ArrayAttribute},
    operation::OperationLike,
    Attribute,
};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-align-params",
    summary: "give kernel parameters marked pydev.param_aligns their CUDA C++ .param alignment",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

/// The name of the mark `pydev-lower-aggregates` leaves on kernels.
pub const MARK: &str = pydev_dialect::abi::attr::PARAM_ALIGNS;

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    let mut ok = true;
    for f in ir.ops_named(root, &["llvm.func", "gpu.func"]) {
        let Ok(mark) = f.attribute(MARK) else { continue };
        let Ok(aligns) = DenseI64ArrayAttribute::try_from(mark) else {
            capi::emit_error(f.location(), &format!("{MARK} is not an i64 array"));
            ok = false;
            continue;
        };
        let aligns: Vec<i64> = (0..aligns.len()).map(|k| aligns.element(k).unwrap_or(0)).collect();
        let ctx = capi::context(f);
        let mut dicts: Vec<String> = match f.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok())
        {
            Some(a) => {
                (0..a.len()).map(|k| a.element(k).map(|e| e.to_string()).unwrap_or_else(|_| "{}".to_owned())).collect()
            }
            None => Vec::new(),
        };
        dicts.resize(dicts.len().max(aligns.len()), "{}".to_owned());
        for (i, &n) in aligns.iter().enumerate() {
            if n <= 0 {
                continue;
            }
            let entry = format!("llvm.alignstack = {n} : i64");
            let d = dicts[i].trim().to_owned();
            dicts[i] = if d == "{}" { format!("{{{entry}}}") } else { format!("{{{entry}, {}", &d[1..]) };
        }
        let mut all = Vec::new();
        for d in &dicts {
            let Some(a) = Attribute::parse(ctx, d) else {
                capi::emit_error(f.location(), &format!("cannot rebuild the argument attributes '{d}'"));
                return Err(Reported);
            };
            all.push(a);
        }
        let mut m = ir.op_mut(f);
        m.set_attribute("arg_attrs", ArrayAttribute::new(ctx, &all).into());
        let _ = m.remove_attribute(MARK);
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}
