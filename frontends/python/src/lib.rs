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
pub mod interop;
pub mod ir;
mod lower;
pub mod module;
pub mod signature;
mod target;
pub mod types;

/// The facts of device code that the Python package needs too, defined
/// here once: `pydev._pydev.facts()` exports them and
/// python/tests/test_facts.py generates python/pydev/_facts.py from it.
pub mod facts {
    pub use crate::builtins::{
        rmw_method, MathFunction, MathOp, ATOMIC_METHODS, DEVICE_NAMES, DEVICE_ONLY, MATH_FUNCTIONS,
    };
    pub use crate::interop::HOST_ADAPTER_PREFIX;
}

pub use diag::{Diagnostic, Diagnostics, SourceFile};
use melior::{ir::Module as MlirModule, Context};
use ruff_python_ast::Stmt;
use ruff_text_size::{Ranged, TextRange};

/// Values of a function's free names (module globals, closure cells) that
/// the Python package hands over with the source; they shadow the file's own
/// module-level constants.
pub type FreeNames = std::collections::HashMap<String, module::GlobalConst>;

pub use module::{Binding, FuncKind};
pub use pydev_dialect::TargetKind;
pub use target::Target;

/// What a free name of a device function is bound to, as Python resolves
/// it (closure cell, then global, then builtin) when the program is
/// compiled: the values are compile-time constants of that program.
#[derive(Clone, Debug)]
pub enum Free {
    /// Numbers (Python's weak, NumPy scalars typed), strings, tuples.
    Const(module::GlobalConst),
    /// Another device function of the program: an index into [`Program::funcs`].
    Func(usize),
    /// A `@device.struct` class: its name, for a class of the file's top
    /// level, or `qualname@line` for one defined anywhere in the file (a
    /// function, a class body, a block; see `Module::resolve_struct`).
    Struct(String),
    /// A number or vector dtype (`device.float32`, `np.int64`).
    Dtype(String),
    /// An entity of `cuda.device`, by its name there.
    Device(String),
    Module(Binding),
    Target(Target),
    /// A value only the host has, which device code cannot hold (a list, a
    /// dict, an object), described for the error where device code reads
    /// it ("a list captured from 'make'").
    HostOnly(String),
}

/// A function's free names and their values.
pub type Env = std::collections::HashMap<String, Free>;

/// One device function of a [`Program`], found by identity: its code
/// object's `co_firstlineno` and `co_qualname`, whatever its decorators.
#[derive(Clone, Debug)]
pub struct FuncSpec {
    pub line: usize,
    pub qualname: String,
    pub kind: FuncKind,
    pub interop: bool,
    pub env: Env,
    /// Values of the root kernel's ConstExpr parameters at launch, by
    /// position: the kernel is compiled for them.
    pub const_args: Vec<(usize, ir::Const)>,
}

/// What the Python package compiles: the root function (`funcs[0]`) and
/// every device function it reaches through its free names, each with the
/// values of those names. Without one, functions are found by name at the
/// top level of the file (pydevc).
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub funcs: Vec<FuncSpec>,
}

/// The pydev IR text of `function` (and every function it calls) compiled
/// for `signature` (see [`signature::parse_signature`]).
pub fn compile_to_text(file_name: &str, source: &str, function: &str, signature: &str) -> Result<String, Diagnostics> {
    compile_to_text_with_free_names(file_name, source, function, signature, &FreeNames::new())
}

/// [`compile_to_text`] with the values of free names.
pub fn compile_to_text_with_free_names(
    file_name: &str,
    source: &str,
    function: &str,
    signature: &str,
    free: &FreeNames,
) -> Result<String, Diagnostics> {
    compile_to_text_for_target(file_name, source, function, signature, free, None, None)
}

/// A range covering line `line` (1-based) of `file`, for errors about a
/// whole definition that could not be found.
fn line_range(file: &SourceFile, line: usize) -> TextRange {
    let start: usize = file.text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let len =
        file.text[start.min(file.text.len())..].find('\n').unwrap_or(file.text.len() - start.min(file.text.len()));
    let start = u32::try_from(start.min(file.text.len())).unwrap_or(0);
    TextRange::at(start.into(), u32::try_from(len).unwrap_or(0).into())
}

thread_local! {
    /// The last source this thread parsed, with its syntax tree: a program's
    /// kernels and specializations usually come from one file, which is
    /// otherwise parsed again for each (about 1 ms for 1,350 lines).
    static PARSED: std::cell::RefCell<Option<(String, std::rc::Rc<ruff_python_parser::Parsed<ruff_python_ast::ModModule>>)>> = const { std::cell::RefCell::new(None) };
}

/// `source` parsed as a module, the last one again if it is the same text.
fn parse_cached(
    source: &str,
) -> Result<std::rc::Rc<ruff_python_parser::Parsed<ruff_python_ast::ModModule>>, ruff_python_parser::ParseError> {
    if let Some(parsed) =
        PARSED.with_borrow(|last| last.as_ref().filter(|(text, _)| text == source).map(|(_, p)| p.clone()))
    {
        return Ok(parsed);
    }
    let parsed = std::rc::Rc::new(ruff_python_parser::parse_module(source)?);
    PARSED.set(Some((source.to_owned(), parsed.clone())));
    Ok(parsed)
}

/// [`compile_to_text_with_free_names`] for a known compile target
/// (`"host"` or `"sm_XX"`): `if target(...)` lowers only the branch that
/// target takes. With a `program`, `function` is its root's name and every
/// function is found by identity ([`Program`]).
#[allow(clippy::too_many_arguments)]
pub fn compile_to_text_for_target(
    file_name: &str,
    source: &str,
    function: &str,
    signature: &str,
    free: &FreeNames,
    target: Option<&str>,
    program: Option<&Program>,
) -> Result<String, Diagnostics> {
    let file = SourceFile::new(file_name, source);
    let parsed = match parse_cached(source) {
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
    // Structs the signature names by `qualname@line` (defined anywhere).
    for token in signature.split(|c: char| ",()[]{}:".contains(c) || c.is_whitespace()) {
        if token.contains('@') {
            // One that is not found: the signature's error names it.
            let _ = m.resolve_struct(token);
        }
    }
    let mut root = function.to_owned();
    if let Some(p) = program {
        root = add_program(&mut m, body, p)?;
    }
    if !m.diags.is_empty() {
        return Err(Diagnostics(std::mem::take(&mut m.diags)));
    }
    let Some(f) = m.funcs.get(&root) else {
        let mut known: Vec<&str> = m.funcs.keys().map(String::as_str).collect();
        known.sort_unstable();
        let mut nested = None;
        module::walk_defs(body, "", &mut |qual, d| {
            if d.name.id.as_str() == function && qual.contains('.') && nested.is_none() {
                nested = Some((qual.to_owned(), d.name.range()));
            }
        });
        let message = if body.iter().any(|s| matches!(s, Stmt::FunctionDef(d) if d.name.id.as_str() == function)) {
            format!("function '{function}' is not decorated with @device.kernel or @device.func")
        } else if let Some((qual, range)) = nested {
            let d = Diagnostic::new(&file, range, format!("'{qual}' is not at the top level of {file_name}: compile it from Python (pydev.compile or a launch), which finds nested definitions"));
            return Err(Diagnostics(vec![d]));
        } else {
            format!(
                "no function '{function}' in {file_name} (device functions here: {})",
                if known.is_empty() { "none".into() } else { known.join(", ") }
            )
        };
        return Err(Diagnostics(vec![Diagnostic::new(&file, TextRange::default(), message)]));
    };
    let types = signature::parse_signature(&m, signature).map_err(|e| {
        Diagnostics(vec![Diagnostic::new(&file, f.def.name.range(), format!("bad signature for '{function}': {e}"))])
    })?;
    let mut c = lower::Compiler::new(&m);
    c.target = target.map(|t| {
        t.strip_prefix("sm_").and_then(|n| n.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok())
    });
    let mut consts = vec![None; types.len()];
    for (i, v) in program.and_then(|p| p.funcs.first()).map(|f| f.const_args.as_slice()).unwrap_or_default() {
        if let Some(slot) = consts.get_mut(*i) {
            *slot = Some(v.clone());
        }
    }
    let result = c.specialize(&root, None, &types, &consts, f.def.name.range());
    if result.is_err() || !c.diags.is_empty() {
        let mut diags = c.diags;
        diags.sort_by_key(|d| (d.line, d.col));
        diags.dedup_by(|a, b| a.line == b.line && a.col == b.col && a.message == b.message);
        return Err(Diagnostics(diags));
    }
    // Callees are emitted before their callers; any order is valid MLIR.
    Ok(c.functions.join("\n"))
}

/// Finds every function of `program` in the file and registers it with its
/// environment; returns the root's key. The root keeps its name (the
/// kernel's symbol); another function keeps its name unless a different
/// definition or environment holds it (`helper#2`).
fn add_program<'a>(m: &mut module::Module<'a>, body: &'a [Stmt], program: &Program) -> Result<String, Diagnostics> {
    let mut diags = Vec::new();
    let mut defs = Vec::new();
    for spec in &program.funcs {
        match module::Module::locate(body, &m.file, &spec.qualname, spec.line) {
            Ok(d) => defs.push(d),
            Err(e) => diags.push(Diagnostic::new(&m.file, line_range(&m.file, spec.line), e.to_string())),
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    let mut keys: Vec<String> = Vec::new();
    for (i, d) in defs.iter().enumerate() {
        let name = d.name.id.to_string();
        let taken = keys.contains(&name) || (i > 0 && m.funcs.get(&name).is_some_and(|f| !std::ptr::eq(f.def, *d)));
        keys.push(if taken { format!("{name}#{i}") } else { name });
    }
    for ((spec, def), key) in program.funcs.iter().zip(defs).zip(&keys) {
        m.funcs.insert(
            key.clone(),
            module::FuncDef {
                def,
                kind: spec.kind,
                interop: spec.interop,
                env: Some(std::rc::Rc::new(spec.env.clone())),
            },
        );
    }
    m.func_keys = keys;
    // Structs of the environments, found anywhere in the file: one that is
    // not found is an error where device code reads it (`free_value`).
    for spec in &program.funcs {
        for v in spec.env.values() {
            if let Free::Struct(token) = v {
                let _ = m.resolve_struct(token);
            }
        }
    }
    // Methods the program holds resolve their names as Python binds them.
    let funcs = &m.funcs;
    for class in m.structs.values_mut() {
        for (name, def) in &class.methods {
            if let Some(env) = funcs.values().find(|f| std::ptr::eq(f.def, *def)).and_then(|f| f.env.clone()) {
                class.method_envs.insert(name.clone(), env);
            }
        }
    }
    Ok(m.func_keys[0].clone())
}

/// Parses the frontend's text into `context` and verifies it.
pub fn compile<'c>(
    context: &'c Context,
    file_name: &str,
    source: &str,
    function: &str,
    signature: &str,
) -> Result<MlirModule<'c>, Diagnostics> {
    compile_with(context, file_name, source, function, signature, &FreeNames::new())
}

/// [`compile`] with the values of free names.
pub fn compile_with<'c>(
    context: &'c Context,
    file_name: &str,
    source: &str,
    function: &str,
    signature: &str,
    free: &FreeNames,
) -> Result<MlirModule<'c>, Diagnostics> {
    compile_for(context, file_name, source, function, signature, free, None, None)
}

/// [`compile_with`] for a known compile target (see [`compile_to_text_for_target`]).
#[allow(clippy::too_many_arguments)]
pub fn compile_for<'c>(
    context: &'c Context,
    file_name: &str,
    source: &str,
    function: &str,
    signature: &str,
    free: &FreeNames,
    target: Option<&str>,
    program: Option<&Program>,
) -> Result<MlirModule<'c>, Diagnostics> {
    let text = compile_to_text_for_target(file_name, source, function, signature, free, target, program)?;
    // MLIR's own message, kept for the internal-error report.
    let first = std::rc::Rc::new(std::cell::RefCell::new(None::<String>));
    let sink = first.clone();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().get_or_insert_with(|| format!("{}: {d}", d.location()));
        true
    });
    let module =
        MlirModule::parse(context, &text).filter(|m| melior::ir::operation::OperationLike::verify(&m.as_operation()));
    context.detach_diagnostic_handler(handler);
    module.ok_or_else(|| {
        let file = SourceFile::new(file_name, source);
        let why = first.borrow().clone().unwrap_or_default();
        Diagnostics(vec![Diagnostic::new(
            &file,
            TextRange::default(),
            format!("internal error: the frontend emitted invalid IR for '{function}' ({why}); please report it"),
        )])
    })
}

#[cfg(test)]
mod tests;
