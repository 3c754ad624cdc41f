//! `pydev-raise-ptx`: raises the PTX ISA version of gpu.modules whose code
//! needs a newer one than their target asks for.
//!
//! Expects: `nvvm-attach-target` has run, so each gpu.module has `targets =
//! [#nvvm.target<..., features = "+ptxNN">]`; lowering passes that emit an
//! instruction of a newer ISA mark its gpu.module `pydev.min_ptx = MM`
//! (pydev-lower-atomics: 16-byte `ld`/`st .b128` need PTX ISA 8.3, 8.4 with
//! `.sys`).
//! Guarantees: every nvvm target of a marked module asks for at least
//! `+ptxMM`; the mark is gone. The default ISA stays the lowest one that
//! knows the chip, so only kernels that need more require a newer driver.
//! Does not fire on modules without the mark, nor lowers a version.
//!
//! Rewrites:
//!   gpu.module @m attributes {pydev.min_ptx = 83} [#nvvm.target<features = "+ptx80">]
//!     =>  gpu.module @m [#nvvm.target<features = "+ptx83">]

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo,
};
use melior::ir::{attribute::IntegerAttribute, operation::OperationLike, Attribute};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-raise-ptx",
    summary: "raise the PTX ISA of gpu.modules marked pydev.min_ptx by the lowering",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    let mut ok = true;
    for module in ir.ops_named(root, &["gpu.module"]) {
        let Some(min) = module
            .attribute(pydev_dialect::abi::attr::MIN_PTX)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
        else {
            continue;
        };
        let Ok(targets) = module.attribute("targets") else {
            capi::emit_error(
                module.location(),
                &format!(
                    "gpu.module needs PTX ISA {}.{} but has no nvvm target: run nvvm-attach-target first",
                    min / 10,
                    min % 10
                ),
            );
            ok = false;
            continue;
        };
        let raised = raise(&targets.to_string(), min);
        let ctx = capi::context(module);
        let Some(attr) = Attribute::parse(ctx, &raised) else {
            capi::emit_error(module.location(), &format!("cannot rebuild the nvvm targets '{raised}'"));
            ok = false;
            continue;
        };
        let mut m = ir.op_mut(module);
        m.set_attribute("targets", attr);
        let _ = m.remove_attribute(pydev_dialect::abi::attr::MIN_PTX);
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// `+ptxNN` raised to `min` in the printed targets (other features kept).
fn raise(targets: &str, min: i64) -> String {
    let mut out = String::new();
    let mut rest = targets;
    while let Some(at) = rest.find("+ptx") {
        let (head, tail) = rest.split_at(at + 4);
        out.push_str(head);
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        let version = digits.parse::<i64>().unwrap_or(0).max(min);
        out.push_str(&version.to_string());
        rest = &tail[digits.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn raises_only_lower_versions() {
        assert_eq!(
            super::raise(r#"[#nvvm.target<chip = "sm_90", features = "+ptx80">]"#, 83),
            r#"[#nvvm.target<chip = "sm_90", features = "+ptx83">]"#
        );
        assert_eq!(
            super::raise(r#"[#nvvm.target<features = "+ptx86">]"#, 83),
            r#"[#nvvm.target<features = "+ptx86">]"#
        );
    }
}
