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
//! Functions that linked code defines (interop declarations,
//! frontends/python/src/interop.rs) are external again, called by their C
//! symbol with the by-value ABI: upstream made each such declaration a
//! private function that calls a declared `@_mlir_ciface_f` with the
//! result through a pointer, a symbol nothing defines.
//! Does not fire outside gpu.modules (the host JIT keeps its wrappers) nor
//! on wrappers that are called.
//!
//! Rewrites:
//!   gpu.module { llvm.func @_mlir_ciface_f(...) { call @f } }  =>  gpu.module { }
//!   gpu.module { llvm.func private @f(..) { call @_mlir_ciface_f(..) }; llvm.func @_mlir_ciface_f(..) }
//!     =>  gpu.module { llvm.func @f(..) }   (an external declaration of the same type, keeping
//!                                            `pydev.param_aligns`)

use crate::capi::PassIr;
use crate::ir::PassResult;
use crate::{
    capi,
    ir::{external_pass, Builder, PassId},
    PassInfo,
};
use melior::ir::{attribute::FlatSymbolRefAttribute, operation::OperationLike};
use std::collections::HashSet;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-drop-c-wrappers",
    summary: "remove the unused _mlir_ciface_ wrappers of device functions in gpu.modules",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

const PREFIX: &str = "_mlir_ciface_";

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    for module in ir.ops_named(root, &["gpu.module"]) {
        // Declared functions: `@f` wraps a declaration `@_mlir_ciface_f`.
        let funcs = ir.ops_named(module, &["llvm.func"]);
        for wrapper in &funcs {
            let name = capi::sym_name(*wrapper);
            let Some(target) = name.strip_prefix(PREFIX) else { continue };
            if wrapper.region(0).ok().and_then(|r| ir.entry_block(r)).is_some() {
                continue;
            }
            let Some(f) = funcs
                .iter()
                .find(|f| capi::sym_name(**f) == target && f.region(0).ok().and_then(|r| ir.entry_block(r)).is_some())
            else {
                continue;
            };
            let b = Builder::before(ir, *f);
            let Ok(fn_type) = f.attribute("function_type") else { continue };
            // The declaration's own location: `f`'s carries the DISubprogram
            // that lineinfo gives definitions, which LLVM rejects on a declaration.
            let mut attrs = vec![
                b.named("sym_name", b.string(target)),
                b.named("function_type", fn_type),
                b.named("linkage", b.attr("#llvm.linkage<external>")),
            ];
            // The CUDA alignment of its parameters (pydev-lower-aggregates' mark).
            if let Ok(aligns) = f.attribute(crate::align_params::MARK) {
                attrs.push(b.named(crate::align_params::MARK, aligns));
            }
            let decl = melior::ir::operation::OperationBuilder::new("llvm.func", wrapper.location())
                .add_attributes(&attrs)
                .add_regions([melior::ir::Region::new()])
                .build()
                .unwrap_or_else(|e| panic!("pydev built an invalid llvm.func declaration: {e}"));
            b.insert_op(decl);
            b.erase(*f);
            Builder::before(ir, *wrapper).erase(*wrapper);
        }
        let called: HashSet<String> = ir
            .ops_named(module, &["llvm.call"])
            .into_iter()
            .filter_map(|c| {
                c.attribute("callee")
                    .ok()
                    .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
                    .map(|s| s.value().to_owned())
            })
            .collect();
        for f in ir.ops_named(module, &["llvm.func"]) {
            let name = capi::sym_name(f);
            if name.starts_with(PREFIX) && !called.contains(&name) {
                Builder::before(ir, f).erase(f);
            }
        }
    }
    Ok(())
}
