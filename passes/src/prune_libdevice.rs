//! `pydev-prune-libdevice`: links libdevice only into the gpu.modules that
//! call it.
//!
//! Expects: the gpu.modules are in the LLVM dialect (after
//! `convert-gpu-to-nvvm`, which declares `llvm.func @__nv_<f>` for each
//! CUDA math function a module uses); their `targets` are `#nvvm.target`
//! attributes, whose `link` lists name libdevice when the pipeline was given
//! one (`nvvm-attach-target{l=...}`).
//! Guarantees: a gpu.module that declares no `__nv_*` function has no
//! libdevice file in its targets' `link` lists, so `gpu-module-to-binary`
//! neither loads nor links libdevice's 500 KB of bitcode for it (a few ms of
//! every compile of a kernel without math functions). The PTX is the same:
//! linking internalizes libdevice and drops what nothing calls.
//! Does not fire on a module that declares a `__nv_` function, nor on link
//! files other than libdevice (kept in order), nor outside gpu.modules.
//!
//! Rewrites:
//!   gpu.module [#nvvm.target<..., link = [".../libdevice.10.bc", "x.bc"]>] { no @__nv_* }
//!     =>  gpu.module [#nvvm.target<..., link = ["x.bc"]>]
//!   gpu.module [#nvvm.target<..., link = [".../libdevice.10.bc"]>] { no @__nv_* }
//!     =>  gpu.module [#nvvm.target<...>]

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, PassId},
    PassInfo,
};
use melior::ir::{attribute::ArrayAttribute, operation::OperationLike, Attribute};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-prune-libdevice",
    summary: "drop libdevice from the link lists of gpu.modules that call no CUDA math function",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    for module in ir.ops_named(root, &["gpu.module"]) {
        if ir.ops_named(module, &["llvm.func"]).into_iter().any(|f| capi::sym_name(f).starts_with("__nv_")) {
            continue;
        }
        let Ok(targets) = module.attribute("targets").and_then(|a| ArrayAttribute::try_from(a).map_err(Into::into))
        else {
            continue;
        };
        let ctx = capi::context(module);
        let mut changed = false;
        let mut pruned = Vec::with_capacity(targets.len());
        for i in 0..targets.len() {
            let Ok(target) = targets.element(i) else { return Err(Reported) };
            let text = target.to_string();
            match without_libdevice(&text) {
                Some(new) => {
                    changed = true;
                    pruned.push(Attribute::parse(ctx, &new).ok_or(Reported)?);
                }
                None => pruned.push(target),
            }
        }
        if changed {
            ir.set_attribute(module, "targets", ArrayAttribute::new(ctx, &pruned).into());
        }
    }
    Ok(())
}

/// `#nvvm.target<...>` text without libdevice in its `link = [...]` list
/// (the list gone when nothing else is in it); None when there is none.
fn without_libdevice(target: &str) -> Option<String> {
    if !target.starts_with("#nvvm.target<") {
        return None;
    }
    let start = target.find(", link = [")?;
    let list_start = start + ", link = [".len();
    // The list is quoted strings separated by ", "; a string may hold an
    // escaped quote but no unescaped one.
    let mut items = Vec::new();
    let bytes = target.as_bytes();
    let mut i = list_start;
    loop {
        match bytes.get(i)? {
            b']' => break,
            b',' | b' ' => i += 1,
            b'"' => {
                let mut j = i + 1;
                while *bytes.get(j)? != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                items.push(&target[i..=j]);
                i = j + 1;
            }
            _ => return None,
        }
    }
    let is_libdevice =
        |s: &&str| s.trim_matches('"').rsplit(['/', '\\']).next().is_some_and(|f| f.starts_with("libdevice"));
    if !items.iter().any(is_libdevice) {
        return None;
    }
    let kept: Vec<&str> = items.into_iter().filter(|s| !is_libdevice(s)).collect();
    let list = if kept.is_empty() { String::new() } else { format!(", link = [{}]", kept.join(", ")) };
    Some(format!("{}{}{}", &target[..start], list, &target[i + 1..]))
}

#[cfg(test)]
mod tests {
    use super::without_libdevice;

    #[test]
    fn link_lists_lose_only_libdevice() {
        let t = r#"#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", link = ["/x/libdevice.10.bc"]>"#;
        assert_eq!(
            without_libdevice(t).as_deref(),
            Some(r#"#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">"#)
        );
        let t = r#"#nvvm.target<chip = "sm_80", link = ["/a/libdevice.10.bc", "/b/my \"x\".bc"], flags = {}>"#;
        assert_eq!(
            without_libdevice(t).as_deref(),
            Some(r#"#nvvm.target<chip = "sm_80", link = ["/b/my \"x\".bc"], flags = {}>"#)
        );
        assert_eq!(without_libdevice(r#"#nvvm.target<chip = "sm_80", link = ["/b/x.bc"]>"#), None);
        assert_eq!(without_libdevice(r#"#nvvm.target<chip = "sm_80">"#), None);
        assert_eq!(without_libdevice(r#"#rocdl.target<link = ["libdevice.bc"]>"#), None);
    }
}
