//! Every `unsafe` and raw mlir-sys call of pydev-opt.
//!
//! # Safety
//!
//! Each function takes melior handles (context, location, pass manager)
//! that are alive for the call, so the raw handles passed to the C API are
//! valid; strings handed to it outlive the call; owned results (a parsed
//! operation) are wrapped in melior's owning types at once.

use melior::{
    ir::{operation::OperationLike, BlockLike, Location, Module, Operation},
    pass::PassManager,
    Context, StringRef,
};
use mlir_sys::{
    mlirIdentifierStr, mlirLocationCallSiteGetCallee, mlirLocationFileLineColRangeGetFilename,
    mlirLocationFileLineColRangeGetStartColumn, mlirLocationFileLineColRangeGetStartLine,
    mlirLocationFusedGetLocations, mlirLocationFusedGetNumLocations, mlirLocationIsACallSite,
    mlirLocationIsAFileLineColRange, mlirLocationIsAFused, mlirLocationIsAName, mlirLocationNameGetChildLoc,
    mlirOperationCreateParse, mlirPassManagerEnableStatistics, mlirPassManagerEnableTiming, MlirLocation,
    MlirPassDisplayMode_MLIR_PASS_DISPLAY_MODE_LIST, MlirPassDisplayMode_MLIR_PASS_DISPLAY_MODE_PIPELINE,
};

/// The file, line and column a location points at, looking through names,
/// call sites (the callee) and fused locations (the first).
pub fn file_line_col(location: Location) -> Option<(String, u32, u32)> {
    /// # Safety
    /// `raw` is a live location.
    unsafe fn go(raw: MlirLocation) -> Option<(String, u32, u32)> {
        // SAFETY: `raw` is a live location of the context (the caller's
        // promise); each accessor is called only after its kind test, and
        // child locations of a live location are live.
        unsafe {
            if mlirLocationIsAFileLineColRange(raw) {
                let file = StringRef::from_raw(mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(raw)));
                return Some((
                    file.as_str().unwrap_or("").to_owned(),
                    mlirLocationFileLineColRangeGetStartLine(raw) as u32,
                    mlirLocationFileLineColRangeGetStartColumn(raw) as u32,
                ));
            }
            if mlirLocationIsAName(raw) {
                return go(mlirLocationNameGetChildLoc(raw));
            }
            if mlirLocationIsACallSite(raw) {
                return go(mlirLocationCallSiteGetCallee(raw));
            }
            if mlirLocationIsAFused(raw) {
                let n = mlirLocationFusedGetNumLocations(raw);
                let mut all = vec![MlirLocation { ptr: std::ptr::null() }; n as usize];
                mlirLocationFusedGetLocations(raw, all.as_mut_ptr());
                return all.into_iter().find_map(|l| go(l));
            }
            None
        }
    }
    // SAFETY: `location` is a live location.
    unsafe { go(location.to_raw()) }
}

/// Parses `source` (named `name` in locations) into a module; a source whose
/// top level is not a single `builtin.module` is wrapped in one.
/// Whether a source's top level holds several ops (then it is parsed inside a
/// `module {` written on its first line, so line numbers stay those of the
/// file).
pub fn wrap_in_module(source: &str) -> String {
    format!("module {{{source}\n}}")
}

pub fn parse<'c>(context: &'c Context, source: &str, name: &str) -> Option<Module<'c>> {
    // Safety: the strings outlive the call; the returned op is owned (or null).
    let raw = unsafe {
        mlirOperationCreateParse(context.to_raw(), StringRef::new(source).to_raw(), StringRef::new(name).to_raw())
    };
    if raw.ptr.is_null() {
        return None;
    }
    // Safety: a non-null result of the parser is an owned operation.
    let op = unsafe { Operation::from_raw(raw) };
    if op.name().as_string_ref().as_str() == Ok("builtin.module") {
        return Module::from_operation(op);
    }
    let module = Module::new(op.location());
    module.body().append_operation(op);
    Some(module)
}

/// Reports every pass's time on standard error when `pm` is dropped
/// (mlir-opt's `--mlir-timing`; melior has no wrapper).
pub fn enable_timing(pm: &PassManager) {
    // Safety: `pm` is a live pass manager; the timing manager it creates is
    // owned by it and prints its report when the pass manager is destroyed.
    unsafe { mlirPassManagerEnableTiming(pm.to_raw()) }
}

/// Reports the statistics of every pass on standard error after each run
/// (mlir-opt's `--mlir-pass-statistics`), as a list or per pipeline.
pub fn enable_statistics(pm: &PassManager, list: bool) {
    let mode = if list {
        MlirPassDisplayMode_MLIR_PASS_DISPLAY_MODE_LIST
    } else {
        MlirPassDisplayMode_MLIR_PASS_DISPLAY_MODE_PIPELINE
    };
    // Safety: `pm` is a live pass manager and `mode` one of the C enum's values.
    unsafe { mlirPassManagerEnableStatistics(pm.to_raw(), mode) }
}
