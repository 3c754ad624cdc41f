//! The Python frontend: the source of `@device.kernel` / `@device.func`
//! functions to pydev IR, specialised for argument types.
//!
//! ruff's parser reads the file; [`module::Module`] resolves its top level;
//! [`lower`] (statements), [`expr`] (expressions) and [`builtins`]
//! (cuda.device) emit each function as MLIR text through [`ir::FuncBuilder`],
//! which builds SSA form for Python locals. Every error is a [`Diagnostic`]
//! with the file, line and column, the source line and a caret; all errors
//! of a compilation are reported together. [`compile`] parses the text into
//! an MLIR module and verifies it: the frontend never hands on unverified IR.

mod builtins;
mod consts;
pub mod diag;
mod expr;
pub mod ir;
mod lower;
pub mod module;
pub mod signature;
pub mod types;

pub use diag::{Diagnostic, Diagnostics, SourceFile};
use melior::{ir::Module as MlirModule, Context};
use ruff_python_ast::Stmt;
use ruff_text_size::{Ranged, TextRange};

/// Values of a function's free names (module globals, closure cells) that
/// the Python package hands over with the source; they shadow the file's own
/// module-level constants.
pub type FreeNames = std::collections::HashMap<String, module::GlobalConst>;

/// The pydev IR text of `function` (and every function it calls) compiled
/// for `signature` (see [`signature::parse_signature`]).
pub fn compile_to_text(file_name: &str, source: &str, function: &str, signature: &str) -> Result<String, Diagnostics> {
    compile_to_text_with(file_name, source, function, signature, &FreeNames::new())
}

/// [`compile_to_text`] with the values of free names.
pub fn compile_to_text_with(file_name: &str, source: &str, function: &str, signature: &str, free: &FreeNames) -> Result<String, Diagnostics> {
    compile_to_text_for(file_name, source, function, signature, free, None)
}

/// [`compile_to_text_with`] for a known compile target (`"host"` or
/// `"sm_XX"`): `if target(...)` lowers only the branch that target takes.
pub fn compile_to_text_for(file_name: &str, source: &str, function: &str, signature: &str, free: &FreeNames, target: Option<&str>) -> Result<String, Diagnostics> {
    let file = SourceFile::new(file_name, source);
    let parsed = match ruff_python_parser::parse_module(source) {
        Ok(p) => p,
        Err(e) => {
            let d = Diagnostic::new(&file, e.location, format!("syntax error: {}", e.error));
            return Err(Diagnostics(vec![d]));
        }
    };
    let body: &[Stmt] = &parsed.syntax().body;
    let mut m = module::Module::scan(file.clone(), body);
    m.globals.extend(free.iter().map(|(k, v)| (k.clone(), v.clone())));
    if !m.diags.is_empty() {
        return Err(Diagnostics(m.diags));
    }
    let Some(f) = m.funcs.get(function) else {
        let mut known: Vec<&str> = m.funcs.keys().map(String::as_str).collect();
        known.sort_unstable();
        let message = if body.iter().any(|s| matches!(s, Stmt::FunctionDef(d) if d.name.id.as_str() == function)) {
            format!("function '{function}' is not decorated with @device.kernel or @device.func")
        } else {
            format!("no function '{function}' in {file_name} (device functions here: {})", if known.is_empty() { "none".into() } else { known.join(", ") })
        };
        return Err(Diagnostics(vec![Diagnostic::new(&file, TextRange::default(), message)]));
    };
    let types = signature::parse_signature(&m, signature).map_err(|e| Diagnostics(vec![Diagnostic::new(&file, f.def.name.range(), format!("bad signature for '{function}': {e}"))]))?;
    let mut c = lower::Compiler::new(&m);
    c.target = target.map(|t| t.strip_prefix("sm_").and_then(|n| n.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()));
    let result = c.specialize(function, None, &types, &vec![None; types.len()], f.def.name.range());
    if result.is_err() || !c.diags.is_empty() {
        let mut diags = c.diags;
        diags.sort_by_key(|d| (d.line, d.col));
        diags.dedup_by(|a, b| a.line == b.line && a.col == b.col && a.message == b.message);
        return Err(Diagnostics(diags));
    }
    // Callees are emitted before their callers; any order is valid MLIR.
    Ok(c.functions.join("\n"))
}

/// Parses the frontend's text into `context` and verifies it.
pub fn compile<'c>(context: &'c Context, file_name: &str, source: &str, function: &str, signature: &str) -> Result<MlirModule<'c>, Diagnostics> {
    compile_with(context, file_name, source, function, signature, &FreeNames::new())
}

/// [`compile`] with the values of free names.
pub fn compile_with<'c>(context: &'c Context, file_name: &str, source: &str, function: &str, signature: &str, free: &FreeNames) -> Result<MlirModule<'c>, Diagnostics> {
    compile_for(context, file_name, source, function, signature, free, None)
}

/// [`compile_with`] for a known compile target (see [`compile_to_text_for`]).
pub fn compile_for<'c>(context: &'c Context, file_name: &str, source: &str, function: &str, signature: &str, free: &FreeNames, target: Option<&str>) -> Result<MlirModule<'c>, Diagnostics> {
    let text = compile_to_text_for(file_name, source, function, signature, free, target)?;
    // MLIR's own message, kept for the internal-error report.
    let first = std::rc::Rc::new(std::cell::RefCell::new(None::<String>));
    let sink = first.clone();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().get_or_insert_with(|| format!("{}: {d}", d.location()));
        true
    });
    let module = MlirModule::parse(context, &text).filter(|m| melior::ir::operation::OperationLike::verify(&m.as_operation()));
    context.detach_diagnostic_handler(handler);
    module.ok_or_else(|| {
        let file = SourceFile::new(file_name, source);
        let why = first.borrow().clone().unwrap_or_default();
        Diagnostics(vec![Diagnostic::new(&file, TextRange::default(), format!("internal error: the frontend emitted invalid IR for '{function}' ({why}); please report it"))])
    })
}

#[cfg(test)]
mod tests;
