//! `pydev-select-kernel{kernel=NAME}`: device functions internal, and with
//! `kernel=` one kernel's module.
//!
//! Expects: a module whose top-level `func.func`s are kernels
//! (`pydev.kernel`), device functions, interop functions (`pydev.interop`:
//! called from C and C++ by name) and declarations (no body).
//! Guarantees: with at least one kernel in the module, every device
//! function is private: PTX declares it `.func`, not `.visible .func`, and
//! LLVM may inline and drop it (internal linkage, `llvm.linkage`). With `kernel=NAME` every other kernel is
//! private too. Followed by upstream `symbol-dce` (both pipelines), a
//! private function that no public one reaches is then dropped: a
//! `kernel=` compile compiles only what that kernel reaches. An unknown
//! `NAME` is an error naming the module's kernels.
//! Does not fire on a module without kernels (a device function compiled
//! alone keeps its symbol), nor on kernels, interop functions and
//! declarations (without `kernel=`), nor on ops other than top-level
//! `func.func`s.
//!
//! Rewrites:
//!   func.func @f {body}                       =>  func.func private @f {llvm.linkage = internal}
//!                                                 (f: no pydev.kernel, no pydev.interop)
//!   func.func @k2 {pydev.kernel}, kernel=k1   =>  func.func private @k2

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo, PassOption,
};
use melior::ir::{attribute::StringAttribute, operation::OperationLike, Attribute, BlockLike, RegionLike};
use pydev_dialect::abi::attr;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-select-kernel",
    summary: "make device functions (and, with kernel=, the other kernels) private",
    options: &[PassOption { name: "kernel", default: "", help: "the one kernel to keep public (empty: every kernel)" }],
    create: |o| Ok(pass(o.get(&INFO, "kernel").to_owned())),
};

/// The pass, keeping kernel `kernel` public ("": every kernel).
pub fn pass(kernel: String) -> melior::pass::Pass {
    external_pass(&ID, INFO.argument, INFO.summary, move |ir| run(ir, &kernel))
}

fn run(ir: PassIr, keep: &str) -> PassResult {
    let root = ir.root();
    let Ok(region) = root.region(0) else { return Ok(()) };
    let Some(block) = region.first_block() else { return Ok(()) };
    // Top-level functions: (op, name, is kernel, is interop, has a body).
    let mut functions = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str() == Ok("func.func") {
            let has_body = o.region(0).ok().is_some_and(|r| r.first_block().is_some());
            functions.push((
                ir.detach(o),
                capi::sym_name(o),
                o.has_attribute(attr::KERNEL),
                o.has_attribute(attr::INTEROP),
                has_body,
            ));
        }
        op = o.next_in_block();
    }
    let kernels: Vec<&str> = functions.iter().filter(|f| f.2).map(|f| f.1.as_str()).collect();
    if kernels.is_empty() {
        return Ok(());
    }
    if !keep.is_empty() && !kernels.contains(&keep) {
        capi::emit_error(
            root.location(),
            &format!("the module has no kernel '{keep}' (its kernels: {})", kernels.join(", ")),
        );
        return Err(Reported);
    }
    let ctx = capi::context(root);
    let private = StringAttribute::new(ctx, "private").into();
    // func-to-llvm turns `llvm.linkage` into the function's linkage (a
    // private func.func alone stays external in the LLVM dialect).
    let internal_linkage = Attribute::parse(ctx, "#llvm.linkage<internal>").ok_or(Reported)?;
    for (op, name, is_kernel, is_interop, has_body) in &functions {
        let internal = if *is_kernel { !keep.is_empty() && name != keep } else { *has_body && !*is_interop };
        if internal {
            ir.set_attribute(*op, "sym_visibility", private);
            if *has_body {
                ir.set_discardable_attribute(*op, "llvm.linkage", internal_linkage);
            }
        }
    }
    Ok(())
}
