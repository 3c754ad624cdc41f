//! The pydev passes and pipelines.
//!
//! One pass per file, each opening with its contract. [`PASSES`] is the one
//! registry every tool reads: `pydev-opt` (flags and `--help`), `pydevc` and
//! the JIT resolve pass names through it, and [`pipeline`] assembles the
//! `cuda` (and later `host`) pipelines from the same entries.

mod aggregate_atomics;
mod align_params;
mod apply_pdl;
mod capi;
mod check_lowered;
mod cuda_boundscheck;
mod drop_c_wrappers;
mod expand_fp_class;
pub mod host_adapters;
mod ir;
pub mod pipeline;
pub mod plugin;
mod prune_libdevice;
mod raise_ptx;
pub mod select_kernel;

mod host_barrier_fission;
mod lower_aggregates;
mod lower_arrays;
mod lower_atomics;
mod lower_float8;
mod lower_math_libm;
mod lower_simt_host;
mod lower_sync_nvvm;
mod outline_kernels;
mod promote_types;
mod specialize_target;
mod vectorize_access;

use melior::pass::Pass;

pub use capi::{add_pipeline, gpu_objects, llvm_ir, module_llvm_ir, AddPipelineError};
pub use cuda_boundscheck::error_record;
pub use lower_simt_host::{error_code, location_text, warp_op};
pub use lower_sync_nvvm::GRID_WORKSPACE_REGISTER;

/// One option of a pass: `--pydev-x{name=value}`.
pub struct PassOption {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

/// A registry entry.
pub struct PassInfo {
    /// The name on the command line and in pipelines (`pydev-...`).
    pub argument: &'static str,
    pub summary: &'static str,
    pub options: &'static [PassOption],
    /// Builds the pass from its options (already checked against `options`).
    pub create: fn(&Options) -> Result<Pass, PassError>,
}

/// Errors of naming a pydev pass and its options (`name{k=v ...}`,
/// [`parse_pass`], [`create_pass`]), and of building it from them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PassError {
    #[error("unknown pydev pass '{name}'")]
    UnknownPass { name: String },
    #[error("pass options of '{pass}' must be written {{key=value ...}}")]
    OptionsSyntax { pass: String },
    #[error("option '{item}' of '{pass}' must be key=value")]
    OptionNotKeyValue { pass: String, item: String },
    /// `known`: the pass's options, comma-separated (`none` without any).
    #[error("unknown option '{option}' of pass '{pass}' (known: {known})")]
    UnknownOption { pass: String, option: String, known: String },
    /// An option value the pass does not accept (its `create` refused it).
    #[error("{pass}: {message}")]
    InvalidOption { pass: &'static str, message: String },
}

/// Parsed `key=value` options of a pass.
#[derive(Debug, Default, Clone)]
pub struct Options(Vec<(String, String)>);

impl Options {
    pub fn get<'a>(&'a self, info: &'a PassInfo, name: &str) -> &'a str {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .or_else(|| info.options.iter().find(|o| o.name == name).map(|o| o.default))
            .unwrap_or("")
    }
}

/// Every pydev pass, in pipeline order.
pub static PASSES: &[PassInfo] = &[
    host_adapters::INFO,
    select_kernel::INFO,
    specialize_target::INFO,
    promote_types::INFO,
    lower_float8::INFO,
    expand_fp_class::INFO,
    outline_kernels::INFO,
    aggregate_atomics::INFO,
    vectorize_access::INFO,
    cuda_boundscheck::INFO,
    lower_simt_host::INFO,
    lower_arrays::INFO,
    lower_atomics::INFO,
    lower_sync_nvvm::INFO,
    lower_aggregates::INFO,
    check_lowered::INFO,
    align_params::INFO,
    drop_c_wrappers::INFO,
    raise_ptx::INFO,
    prune_libdevice::INFO,
    host_barrier_fission::INFO,
    lower_math_libm::INFO,
    apply_pdl::INFO,
];

/// The pass named `argument`: pydev's, else a loaded plugin's.
pub fn lookup(argument: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.argument == argument).or_else(|| {
        plugin::EXTRA.lock().unwrap_or_else(|p| p.into_inner()).iter().find(|p| p.argument == argument).copied()
    })
}

/// What a pass written outside pydev uses (examples/pass-template): the
/// run's token, pass creation, the rewrite helpers, the generated op views
/// and the registry entry types. Passes inside pydev use the same items.
pub mod api {
    pub use crate::capi::{integer_attr_value, PassIr};
    pub use crate::ir::{external_pass, rewrite_all, Builder, PassId, PassResult, Reported, RewriteError};
    pub use crate::{Options, PassError, PassInfo, PassOption};
    pub use pydev_dialect::{attrs, ops, types};
}

/// Parses `name` or `name{k=v k2=v2}` into a registered pass and its options.
pub fn parse_pass(text: &str) -> Result<(&'static PassInfo, Options), PassError> {
    let (name, rest) = match text.find('{') {
        Some(i) => (&text[..i], Some(&text[i..])),
        None => (text, None),
    };
    let info = lookup(name).ok_or_else(|| PassError::UnknownPass { name: name.to_owned() })?;
    let mut options = Options::default();
    if let Some(rest) = rest {
        let body = rest
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .ok_or_else(|| PassError::OptionsSyntax { pass: name.to_owned() })?;
        for item in body.split_whitespace() {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| PassError::OptionNotKeyValue { pass: name.to_owned(), item: item.to_owned() })?;
            if !info.options.iter().any(|o| o.name == k) {
                let known: Vec<_> = info.options.iter().map(|o| o.name).collect();
                return Err(PassError::UnknownOption {
                    pass: name.to_owned(),
                    option: k.to_owned(),
                    known: if known.is_empty() { "none".to_owned() } else { known.join(", ") },
                });
            }
            options.0.push((k.to_owned(), v.to_owned()));
        }
    }
    Ok((info, options))
}

/// Builds a registered pass from its textual form.
pub fn create_pass(text: &str) -> Result<Pass, PassError> {
    let (info, options) = parse_pass(text)?;
    (info.create)(&options)
}

/// Registers the upstream MLIR passes in the global textual registry (once).
/// pydev-opt needs all of them; the wheel will register only what the
/// pipelines use (docs/ARCHITECTURE.md, "Invariants").
pub fn register_upstream_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(melior::utility::register_all_passes);
}

/// Registers only the upstream passes the pipelines use (the JIT and the
/// wheel: docs/ARCHITECTURE.md, "Invariants").
pub fn register_pipeline_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(pydev_dialect::register_pipeline_passes);
}

#[cfg(test)]
mod tests;
