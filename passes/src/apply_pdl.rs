//! `pydev-apply-pdl`: rewrites written as PDL patterns, applied without
//! compiling Rust (docs/research.md).
//!
//! Expects: `patterns=PATH`, an MLIR file whose module holds `pdl.pattern`
//! ops (written by hand, or by `mlir-pdll --x=mlir` from PDLL); IR of any
//! stage (pydev, upstream or LLVM dialect ops) that the patterns name.
//! Guarantees: every pattern applied wherever it matches, to a fixed point,
//! by MLIR's greedy driver (which also folds and drops dead pure ops); the
//! ops a pattern creates carry the location of the op it replaced.
//! Does not fire where no pattern matches (the IR is unchanged but for
//! folding); a file that does not exist or does not parse is an error
//! naming it, at the module's location.
//!
//! Rewrites: those of the file, e.g. (examples/pdl/mul_pow2.mlir)
//!   pydev.mul x, (pydev.constant 8 : si32)  =>  pydev.lshift x, (pydev.constant 3 : si32)

use crate::{ir::PassId, PassError, PassInfo, PassOption};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-apply-pdl",
    summary: "apply the PDL patterns of a file (rewrites without compiling Rust)",
    options: &[PassOption { name: "patterns", default: "", help: "path of an MLIR file of pdl.pattern ops" }],
    create: |options| {
        let path = options.get(&INFO, "patterns").to_owned();
        if path.is_empty() {
            return Err(PassError::InvalidOption {
                pass: INFO.argument,
                message: "patterns=PATH (an MLIR file of pdl.pattern ops) is required".to_owned(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("cannot read the patterns '{path}': {e}"),
        })?;
        Ok(crate::ir::external_pass_on_op(&ID, INFO.argument, INFO.summary, move |op| {
            crate::capi::apply_pdl_patterns(op, &text).map_err(|e| format!("pydev-apply-pdl: '{path}': {e}"))
        }))
    },
};
