//! `pydev-drop-c-wrappers`: removes the C-interface wrappers the upstream
//! GPU-to-NVVM lowering asks for.
//!
//! Expects: `convert-gpu-to-nvvm` has run; it marks every function of a
//! gpu.module `llvm.emit_c_interface`, so each device function `@f` also
//! has a wrapper `@_mlir_ciface_f` with the same signature (pydev passes no
//! memrefs, so the wrapper adds nothing).
//! Guarantees: no `llvm.func @_mlir_ciface_*` that nothing calls remains in a
//! gpu.module, so PTX exports only the kernels and the functions device
//! code defines (interop functions keep their plain C symbol).
//! Does not fire outside gpu.modules (the host JIT keeps its wrappers) nor
//! on wrappers that are called.
//!
//! Rewrites:
//!   gpu.module { llvm.func @_mlir_ciface_f(...) { call @f } }  =>  gpu.module { }

use crate::{
    capi,
    ir::{external_pass, Builder, PassId},
    PassInfo,
};
use melior::ir::{attribute::FlatSymbolRefAttribute, operation::OperationLike, OperationRef};
use std::collections::HashSet;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-drop-c-wrappers",
    summary: "remove the unused _mlir_ciface_ wrappers of device functions in gpu.modules",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

const PREFIX: &str = "_mlir_ciface_";

fn run(root: OperationRef) -> Result<(), ()> {
    for module in capi::ops_named(root, &["gpu.module"]) {
        let called: HashSet<String> = capi::ops_named(module, &["llvm.call"])
            .into_iter()
            .filter_map(|c| c.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok()).map(|s| s.value().to_owned()))
            .collect();
        for f in capi::ops_named(module, &["llvm.func"]) {
            let name = capi::sym_name(f);
            if name.starts_with(PREFIX) && !called.contains(&name) {
                Builder::before(f).erase(f);
            }
        }
    }
    Ok(())
}
