//! Passes from outside pydev: pass plugins, both sides.
//!
//! A pass plugin is a shared library built with [`export_plugin!`] (see
//! examples/pass-template). It links the shared libMLIR.so of LLVM 22, so:
//! - upstream `mlir-opt-22 --load-dialect-plugin=P --load-pass-plugin=P`
//!   uses it directly (the standard entry points, `mlirGetPassPluginInfo`,
//!   register its passes, every pydev pass and the pydev dialect);
//! - pydev-opt, pydevc and the Python JIT link MLIR statically, so their
//!   MLIR is not the plugin's: they load it with [`load`] and run its passes
//!   through [`plugin_pass`], which prints the module with its locations,
//!   hands the text and the pipeline to the plugin's `pydevPluginRun` (the
//!   plugin parses it in a context of its own, runs the pipeline and prints
//!   the result) and parses the result back in place of the module's body.
//!
//! A plugin's passes are [`crate::PassInfo`] entries like pydev's own; a
//! plugin stays loaded for the life of the process, as MLIR's do.

use crate::{capi, PassInfo};
use melior::ir::{operation::OperationLike, operation::OperationPrintingFlags, Module};
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::Mutex;

/// Passes registered by a plugin (its [`export_plugin!`] list), found by
/// [`crate::lookup`] after pydev's own.
pub(crate) static EXTRA: Mutex<Vec<&'static PassInfo>> = Mutex::new(Vec::new());

/// Names every pydev pass in MLIR's textual pass registry (once), so that
/// textual pipelines (`passes=`, `--pass-pipeline`) resolve them.
pub fn register_textual() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for pass in crate::PASSES {
            capi::register_pass_by_name(pass.argument, pass.summary);
        }
    });
}

/// Adds a plugin's passes to the registry (by [`crate::lookup`] and by
/// name); a name pydev already has is refused.
pub fn register(passes: &'static [&'static PassInfo]) -> Result<(), String> {
    register_textual();
    let mut extra = EXTRA.lock().unwrap_or_else(|p| p.into_inner());
    for pass in passes {
        if crate::PASSES.iter().any(|p| p.argument == pass.argument) {
            return Err(format!("a plugin pass is named '{}', as a pydev pass is", pass.argument));
        }
        if !extra.iter().any(|p| p.argument == pass.argument) {
            extra.push(pass);
            capi::register_pass_by_name(pass.argument, pass.summary);
        }
    }
    Ok(())
}

/// Errors of loading a pass plugin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PluginError {
    #[error("cannot load pass plugin '{path}': {message}")]
    Load { path: String, message: String },
    #[error(
        "'{path}' is not a pydev pass plugin (it has no pydevPluginRun: build it with pydev_passes::export_plugin!)"
    )]
    NotPydev { path: String },
}

/// `pydevPluginPasses`: the plugin's pass names, comma-separated, through `out`.
pub(crate) type PassesFn =
    unsafe extern "C" fn(out: extern "C" fn(*const c_char, usize, *mut c_void), data: *mut c_void);
/// `pydevPluginRun`: runs `pipeline` on module text `ir`; the result (or,
/// on failure, the diagnostics) through `out`; whether it succeeded.
pub(crate) type RunFn = unsafe extern "C" fn(
    pipeline: *const c_char,
    pipeline_len: usize,
    ir: *const c_char,
    ir_len: usize,
    out: extern "C" fn(*const c_char, usize, *mut c_void),
    data: *mut c_void,
) -> bool;

/// A loaded pass plugin.
pub struct Plugin {
    pub path: String,
    /// The names of the passes it adds.
    pub passes: Vec<String>,
    run: RunFn,
}

extern "C" fn append(text: *const c_char, len: usize, data: *mut c_void) {
    // SAFETY: `data` is the `String` the caller passed; `text` has `len`
    // bytes for the call (the plugin's contract, kept by `export_plugin!`).
    unsafe {
        let out = &mut *(data as *mut String);
        if !text.is_null() && len > 0 {
            out.push_str(&String::from_utf8_lossy(std::slice::from_raw_parts(text.cast::<u8>(), len)));
        }
    }
}

/// Loads the plugin at `path` (once per process and canonical path).
pub fn load(path: &str) -> Result<&'static Plugin, PluginError> {
    static LOADED: Mutex<Option<HashMap<std::path::PathBuf, &'static Plugin>>> = Mutex::new(None);
    let load_error = |message: String| PluginError::Load { path: path.to_owned(), message };
    let canonical = std::fs::canonicalize(path).map_err(|e| load_error(e.to_string()))?;
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(plugin) = loaded.get_or_insert_with(HashMap::new).get(&canonical) {
        return Ok(plugin);
    }
    let (passes, run) = capi::open_plugin(&canonical).map_err(|e| match e {
        None => PluginError::NotPydev { path: path.to_owned() },
        Some(message) => load_error(message),
    })?;
    let mut names = String::new();
    // SAFETY: `passes` is the plugin's pydevPluginPasses (export_plugin!'s
    // signature); `append` and `names` are valid for the call.
    unsafe { passes(append, &mut names as *mut String as *mut c_void) };
    let plugin: &'static Plugin = Box::leak(Box::new(Plugin {
        path: path.to_owned(),
        passes: names.split(',').filter(|n| !n.is_empty()).map(str::to_owned).collect(),
        run,
    }));
    loaded.get_or_insert_with(HashMap::new).insert(canonical, plugin);
    Ok(plugin)
}

impl Plugin {
    /// Runs `pipeline` on module text `ir` in the plugin's own MLIR: the
    /// resulting module's text, or the plugin's diagnostics.
    pub fn run(&self, pipeline: &str, ir: &str) -> Result<String, String> {
        let mut out = String::new();
        // SAFETY: `run` is the plugin's pydevPluginRun (export_plugin!'s
        // signature); the strings and `out` are valid for the call.
        let ok = unsafe {
            (self.run)(
                pipeline.as_ptr().cast(),
                pipeline.len(),
                ir.as_ptr().cast(),
                ir.len(),
                append,
                &mut out as *mut String as *mut c_void,
            )
        };
        if ok {
            Ok(out)
        } else {
            Err(out)
        }
    }
}

/// Appends the textual pipeline `text` to `pm`: runs of `plugins`' passes
/// become one [`plugin_pass`] each, the rest (pydev's and upstream passes,
/// by name) are parsed by MLIR's textual pipeline parser, whose error
/// (naming an unknown pass) is returned.
pub fn add_passes(pm: &melior::pass::PassManager, text: &str, plugins: &[&'static Plugin]) -> Result<(), String> {
    register_textual();
    let owner = |element: &str| {
        let name = element.split(['{', '(']).next().unwrap_or(element).trim();
        plugins.iter().copied().find(|p| p.passes.iter().any(|n| n == name))
    };
    let mut run: Option<(&'static Plugin, Vec<String>)> = None;
    let flush = |run: &mut Option<(&'static Plugin, Vec<String>)>| {
        if let Some((plugin, elements)) = run.take() {
            pm.add_pass(plugin_pass(plugin, elements.join(",")));
        }
    };
    for element in crate::pipeline::split_top_level(text) {
        match owner(&element) {
            Some(plugin) => match &mut run {
                Some((p, elements)) if std::ptr::eq(*p, plugin) => elements.push(element),
                _ => {
                    flush(&mut run);
                    run = Some((plugin, vec![element]));
                }
            },
            None => {
                flush(&mut run);
                crate::add_pipeline(pm.as_operation_pass_manager(), &element)
                    .map_err(|e| parser_message(&e.to_string()))?;
            }
        }
    }
    flush(&mut run);
    Ok(())
}

/// The first line of MLIR's pipeline-parser error, without its
/// "MLIR Textual PassPipeline Parser:1:1: error: " prefix (the rest repeats
/// the text with a caret).
fn parser_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or(message);
    first.split_once("error: ").map_or(first, |(_, m)| m).to_owned()
}

static RUN_ID: crate::ir::PassId = crate::ir::PassId;

/// The pass that runs `pipeline` (passes of `plugin`) on the module it runs
/// on, through the plugin's own MLIR (see the module's doc). Errors of the
/// plugin are reported at the module's location.
pub fn plugin_pass(plugin: &'static Plugin, pipeline: String) -> melior::pass::Pass {
    crate::ir::external_pass_on_op(&RUN_ID, "pydev-plugin-run", "run passes of a pass plugin", move |op| {
        let flags = OperationPrintingFlags::new().enable_debug_info(true, false);
        let text = op.to_string_with_flags(flags).map_err(|e| e.to_string())?;
        let result = plugin
            .run(&pipeline, &text)
            .map_err(|d| format!("pass plugin '{}' failed on '{pipeline}':\n{d}", plugin.path))?;
        let context = capi::context(op);
        let module = Module::parse(context, &result)
            .ok_or_else(|| format!("pass plugin '{}' returned a module that does not parse", plugin.path))?;
        capi::replace_module_body(op, module);
        Ok(())
    })
}

/// The plugin side: what [`export_plugin!`]'s entry points call.
#[doc(hidden)]
pub mod export {
    use super::*;

    /// `pydevPluginPasses`.
    ///
    /// # Safety
    /// `out` is called with `data` and a string valid for the call.
    pub unsafe fn passes(
        passes: &'static [&'static PassInfo],
        out: extern "C" fn(*const c_char, usize, *mut c_void),
        data: *mut c_void,
    ) {
        let names: Vec<&str> = passes.iter().map(|p| p.argument).collect();
        let names = names.join(",");
        out(names.as_ptr().cast(), names.len(), data);
    }

    /// `pydevPluginRun`: parses `ir` in a fresh context with every dialect
    /// (the pydev dialect among them), runs `pipeline` (any registered pass:
    /// upstream's, pydev's, the plugin's) and prints the result with its
    /// locations.
    ///
    /// # Safety
    /// `pipeline` and `ir` point at that many bytes; `out` is called with
    /// `data` and a string valid for the call.
    pub unsafe fn run(
        passes: &'static [&'static PassInfo],
        pipeline: (*const c_char, usize),
        ir: (*const c_char, usize),
        out: extern "C" fn(*const c_char, usize, *mut c_void),
        data: *mut c_void,
    ) -> bool {
        // SAFETY: the caller's contract.
        let (pipeline, ir) = unsafe {
            (
                String::from_utf8_lossy(std::slice::from_raw_parts(pipeline.0.cast::<u8>(), pipeline.1)).into_owned(),
                String::from_utf8_lossy(std::slice::from_raw_parts(ir.0.cast::<u8>(), ir.1)).into_owned(),
            )
        };
        let result = run_text(passes, &pipeline, &ir);
        let (ok, text) = match result {
            Ok(text) => (true, text),
            Err(text) => (false, text),
        };
        out(text.as_ptr().cast(), text.len(), data);
        ok
    }

    fn run_text(passes: &'static [&'static PassInfo], pipeline: &str, ir: &str) -> Result<String, String> {
        use melior::pass::PassManager;
        register_everything(passes)?;
        let context = pydev_dialect::new_context();
        let diagnostics = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
        let sink = diagnostics.clone();
        let handler = context.attach_diagnostic_handler(move |d| {
            sink.borrow_mut().push(format!("{}: error: {}", crate::location_text(d.location()), d));
            true
        });
        let result = (|| {
            let mut module = Module::parse(&context, ir).ok_or("the module does not parse")?;
            let pm = PassManager::new(&context);
            crate::add_pipeline(pm.as_operation_pass_manager(), pipeline).map_err(|e| e.to_string())?;
            if pm.run(&mut module).is_err() {
                return Err("the pipeline failed".to_owned());
            }
            let flags = OperationPrintingFlags::new().enable_debug_info(true, false);
            module.as_operation().to_string_with_flags(flags).map_err(|e| e.to_string())
        })();
        context.detach_diagnostic_handler(handler);
        result.map_err(|e| {
            let d = diagnostics.borrow();
            if d.is_empty() {
                e
            } else {
                d.join("\n")
            }
        })
    }

    /// Every upstream pass, every pydev pass and the plugin's, by name.
    pub fn register_everything(passes: &'static [&'static PassInfo]) -> Result<(), String> {
        crate::register_upstream_passes();
        register(passes)
    }
}

/// Makes a crate (`crate-type = ["cdylib"]`, linked to the shared
/// libMLIR.so as examples/pass-template's build.rs does) a pass plugin of
/// the passes listed, for upstream mlir-opt (`--load-dialect-plugin`,
/// `--load-pass-plugin`: the pydev dialect, every pydev pass and these),
/// for `pydev-opt --load-pass-plugin` and for the JIT (`plugins=`).
///
/// ```ignore
/// pydev_passes::export_plugin!("my-passes", [my_pass::INFO]);
/// ```
#[macro_export]
macro_rules! export_plugin {
    ($name:literal, [$($info:expr),* $(,)?]) => {
        static __PYDEV_PLUGIN_PASSES: &[&$crate::PassInfo] = &[$(&$info),*];

        extern "C" fn __pydev_plugin_register() {
            if let Err(message) = $crate::plugin::export::register_everything(__PYDEV_PLUGIN_PASSES) {
                eprintln!("{}: {message}", $name);
            }
        }

        /// The pass plugin entry point (`--load-pass-plugin`).
        #[no_mangle]
        pub extern "C" fn mlirGetPassPluginInfo() -> $crate::plugin::PassPluginLibraryInfo {
            $crate::plugin::PassPluginLibraryInfo::new(concat!($name, "\0"), __pydev_plugin_register)
        }

        /// The dialect plugin entry point (`--load-dialect-plugin`): the pydev dialect.
        #[no_mangle]
        pub extern "C" fn mlirGetDialectPluginInfo() -> $crate::plugin::DialectPluginLibraryInfo {
            $crate::plugin::DialectPluginLibraryInfo::new(concat!($name, "\0"))
        }

        /// The plugin's pass names (pydev's loader).
        ///
        /// # Safety
        /// `out` is called with `data`.
        #[no_mangle]
        pub unsafe extern "C" fn pydevPluginPasses(
            out: extern "C" fn(*const ::std::ffi::c_char, usize, *mut ::std::ffi::c_void),
            data: *mut ::std::ffi::c_void,
        ) {
            // SAFETY: the caller's contract.
            unsafe { $crate::plugin::export::passes(__PYDEV_PLUGIN_PASSES, out, data) }
        }

        /// Runs a pipeline on module text in this plugin's MLIR (pydev's loader).
        ///
        /// # Safety
        /// The strings point at that many bytes; `out` is called with `data`.
        #[no_mangle]
        pub unsafe extern "C" fn pydevPluginRun(
            pipeline: *const ::std::ffi::c_char,
            pipeline_len: usize,
            ir: *const ::std::ffi::c_char,
            ir_len: usize,
            out: extern "C" fn(*const ::std::ffi::c_char, usize, *mut ::std::ffi::c_void),
            data: *mut ::std::ffi::c_void,
        ) -> bool {
            // SAFETY: the caller's contract.
            unsafe {
                $crate::plugin::export::run(__PYDEV_PLUGIN_PASSES, (pipeline, pipeline_len), (ir, ir_len), out, data)
            }
        }
    };
}

/// `MLIR_PLUGIN_API_VERSION` (mlir/Tools/Plugins/PassPlugin.h).
const PLUGIN_API_VERSION: u32 = 1;
const VERSION: &[u8] = concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes();

/// `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_registry_callbacks: extern "C" fn(),
}

impl PassPluginLibraryInfo {
    /// `name`: NUL-terminated.
    pub fn new(name: &'static str, register: extern "C" fn()) -> Self {
        Self {
            api_version: PLUGIN_API_VERSION,
            plugin_name: name.as_ptr().cast(),
            plugin_version: VERSION.as_ptr().cast(),
            register_pass_registry_callbacks: register,
        }
    }
}

/// `mlir::DialectPluginLibraryInfo`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_dialect_registry_callbacks: unsafe extern "C" fn(*mut c_void),
}

impl DialectPluginLibraryInfo {
    /// `name`: NUL-terminated.
    pub fn new(name: &'static str) -> Self {
        Self {
            api_version: PLUGIN_API_VERSION,
            plugin_name: name.as_ptr().cast(),
            plugin_version: VERSION.as_ptr().cast(),
            register_dialect_registry_callbacks: capi::insert_pydev_dialect,
        }
    }
}
