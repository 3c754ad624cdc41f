//! `pydev-host-adapters`: on the host target, calls of external functions
//! go through their C-ABI adapters (docs/interop.md).
//!
//! Expects: a module whose top level declares the external functions
//! named by `functions=f,g,...` (`func.func private @f(...)` without a
//! body: C functions that a `pydev.Program`'s link files define), before
//! the host pipeline. The compile driver runs it on a Program's module on
//! the host target with the Program's declarations (`compile_ir(...,
//! host_adapters=[names])`); the Python frontend calls the adapters
//! directly and needs no renaming.
//! Guarantees: each such declaration is `@__pydev_cabi_f`
//! ([`pydev_dialect::abi::HOST_ADAPTER_PREFIX`]), and every use of `@f` in
//! the module (calls, symbol references; nested symbol tables not entered)
//! names it: the adapter that `pydev._interop.host_adapters` builds around
//! the C function `f`, as a `@device.func(interop=True)` declaration lowers.
//! Does not fire on a listed name that the module does not declare at its
//! top level, nor on one that it defines (a function with a body), nor on
//! declarations that are not listed.
//!
//! Rewrites, for `functions=f`:
//!   func.func private @f(i32) -> i32                 =>  func.func private @__pydev_cabi_f(i32) -> i32
//!   func.call @f(%x) : (i32) -> i32                  =>  func.call @__pydev_cabi_f(%x) : (i32) -> i32

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo, PassOption,
};
use melior::{
    ir::{attribute::StringAttribute, operation::OperationLike, BlockLike, RegionLike},
    pass::Pass,
};
use pydev_dialect::abi::HOST_ADAPTER_PREFIX;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-host-adapters",
    summary: "call the host's C-ABI adapters of declared external functions",
    options: &[PassOption {
        name: "functions",
        default: "",
        help: "the external functions to rename, comma-separated (f,g: @f becomes @__pydev_cabi_f)",
    }],
    create: |options| {
        let functions: Vec<String> = options
            .get(&INFO, "functions")
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect();
        Ok(pass(functions))
    },
};

/// The pass for the external functions `functions` (what the compile
/// driver runs: names need no quoting here).
pub fn pass(functions: Vec<String>) -> Pass {
    external_pass(&ID, INFO.argument, INFO.summary, move |ir| run(ir, &functions))
}

fn run(ir: PassIr, functions: &[String]) -> PassResult {
    if functions.is_empty() {
        return Ok(());
    }
    let root = ir.root();
    let Some(body) = root.region(0).ok().and_then(|r| ir.entry_block(r)) else { return Ok(()) };
    // The declarations first, then the renaming: a rename never meets a
    // symbol it made.
    let mut declared = Vec::new();
    let mut op = body.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str() == Ok("func.func") {
            let name = capi::sym_name(o);
            let no_body = o.region(0).ok().is_none_or(|r| r.first_block().is_none());
            if no_body && functions.contains(&name) {
                declared.push((ir.detach(o), name));
            }
        }
        op = o.next_in_block();
    }
    let ctx = ir.context();
    for (decl, name) in declared {
        let adapter = format!("{HOST_ADAPTER_PREFIX}{name}");
        if !ir.replace_symbol_uses(&name, &adapter, root) {
            capi::emit_error(decl.location(), &format!("cannot rename the uses of external function '@{name}'"));
            return Err(Reported);
        }
        ir.set_attribute(decl, "sym_name", StringAttribute::new(ctx, &adapter).into());
    }
    Ok(())
}
