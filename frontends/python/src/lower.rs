//! Python functions to pydev IR: the compiler state shared by all functions
//! of one compilation, the values expressions evaluate to, and statements
//! (assignment, if/elif/else, while, for, break/continue, return).

use crate::{
    diag::Diagnostic,
    ir::{BlockKind, Const, FuncBuilder, Terminator, Typed, Val, ValueId},
    module::{FuncKind, GlobalConst, Module, StructClass},
    types::{ArrayLayout, Space, StaticObj, StructDef, Ty},
};
use pydev_dialect::{
    ops::generic::{self, TextValue},
    CmpPredicate,
};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use std::{
    collections::{HashMap, HashSet},
    rc::Rc,
};

pub use crate::target::Target;

/// The error of lowering: the problem was already recorded as a
/// diagnostic in the [`Compiler`] (a zero-size marker; the diagnostics say
/// what went wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the error was reported as a diagnostic")]
pub struct Reported;

/// A lowering result whose error was reported as a diagnostic.
pub type R<T> = Result<T, Reported>;

/// What an expression evaluates to.
#[derive(Clone, Debug)]
pub enum Item {
    Val(Val),
    /// A tuple of items (kept apart so constant elements stay constant).
    Tuple(Vec<Item>),
    /// An entity of `cuda.device` (`tid`, `float32`, `thread_idx`, ...).
    Device(String),
    DeviceModule,
    CudaPackage,
    MathModule,
    Math(String),
    /// `numpy` (`import numpy as np`): its dtypes.
    NumpyModule,
    /// A user `@device.func` or `@device.kernel`.
    Func(String),
    StructClass(Rc<StructDef>),
    /// A type object: `device.float32`, `int`, a struct class used as a dtype.
    Dtype(Ty),
    Target(Target),
    Str(String),
    NoneV,
    /// A Python builtin (`range`, `len`, `abs`, `min`, `max`, `int`, ...).
    Builtin(&'static str),
    /// `range(...)` (only for `for`).
    Range(Vec<Val>),
    /// A callable with no parameters (lambda or local def), evaluated in the
    /// caller's scope when called (Python's late binding).
    Closure(Rc<ClosureBody>),
    /// `obj.method` on a value.
    Method(Box<Item>, String),
    /// `device.sm90` and friends.
    Sm(u32),
}

#[derive(Debug)]
pub enum ClosureBody {
    Lambda(Expr),
    Def(ast::StmtFunctionDef),
}

/// What a specialization is compiled for: (qualified name, argument types,
/// the ConstExpr arguments' values as text, empty for the others).
type SpecKey = (String, Vec<Ty>, Vec<String>);

struct LoopCtx {
    continue_to: usize,
    break_to: usize,
}

/// State shared by every function of one compilation.
pub struct Compiler<'m, 'a> {
    pub m: &'m Module<'a>,
    pub diags: Vec<Diagnostic>,
    pub functions: Vec<String>,
    /// Functions compiled so far: their symbol and return type.
    specialized: HashMap<SpecKey, (String, Option<Ty>)>,
    in_progress: Vec<String>,
    /// The compile target when known (`Some(None)`: the host, else the SM
    /// number): `if target(...)` then lowers only the branch that target
    /// takes (spec: Target Specialization, like `#if __CUDA_ARCH__`).
    pub target: Option<Option<u32>>,
}

impl<'m, 'a> Compiler<'m, 'a> {
    pub fn new(m: &'m Module<'a>) -> Self {
        Self { m, diags: vec![], functions: vec![], specialized: HashMap::new(), in_progress: vec![], target: None }
    }

    /// Whether a parameter annotation is `ConstExpr` or `ConstExpr[T]`.
    pub fn is_const_expr(&self, ann: &Expr) -> bool {
        let base = match ann {
            Expr::Subscript(s) => s.value.as_ref(),
            other => other,
        };
        self.m.device_entity(base).as_deref() == Some("ConstExpr")
    }

    /// Records an error diagnostic; returns the marker that says so.
    pub fn error(&mut self, range: TextRange, message: impl Into<String>) -> Reported {
        let d = Diagnostic::new(&self.m.file, range, message);
        self.diags.push(d);
        Reported
    }

    pub fn error_help(&mut self, range: TextRange, message: impl Into<String>, help: impl Into<String>) {
        let d = Diagnostic::new(&self.m.file, range, message).with_help(help);
        self.diags.push(d);
    }

    /// Compiles function `name` for these argument types (once per type
    /// list); returns its symbol and result type.
    /// `consts` holds the argument values known at compile time; parameters
    /// annotated `ConstExpr` require one and are specialised on it.
    pub fn specialize(
        &mut self,
        name: &str,
        self_struct: Option<&StructClass<'a>>,
        args: &[Ty],
        consts: &[Option<Const>],
        call: TextRange,
    ) -> R<(String, Option<Ty>)> {
        let key_name = match self_struct {
            Some(s) => format!("{}.{name}", s.def.short_name()),
            None => name.to_owned(),
        };
        let def_for_consts = match self_struct {
            Some(s) => s.methods.get(name).copied(),
            None => self.m.funcs.get(name).map(|f| f.def),
        };
        let mut fixed: Vec<Option<Const>> = vec![None; args.len()];
        if let Some(def) = def_for_consts {
            for (i, p) in def.parameters.args.iter().enumerate() {
                if !p.parameter.annotation.as_deref().is_some_and(|a| self.is_const_expr(a)) {
                    continue;
                }
                match consts.get(i).cloned().flatten() {
                    Some(c) => fixed[i] = Some(c),
                    // A static object (target description, dtype...) is constant by
                    // nature; the argument type specialises on it.
                    None if matches!(args.get(i), Some(Ty::Static(_))) => {}
                    None if self.m.funcs.get(name).is_some_and(|f| f.kind == FuncKind::Kernel) => {}
                    None => {
                        self.error_help(call, format!("argument '{}' of '{key_name}' must be a constant expression (the parameter is ConstExpr)", p.parameter.name.id), "pass a literal, or a local or global assigned a constant");
                        return Err(Reported);
                    }
                }
            }
        }
        let const_key: Vec<String> =
            fixed.iter().map(|c| c.as_ref().map(|c| format!("{c:?}")).unwrap_or_default()).collect();
        let key = (key_name.clone(), args.to_vec(), const_key.clone());
        if let Some(done) = self.specialized.get(&key) {
            return Ok(done.clone());
        }
        if self.in_progress.contains(&key_name) {
            self.error_help(
                call,
                format!("recursive call to '{key_name}': device functions cannot be recursive"),
                "rewrite the recursion as a loop",
            );
            return Err(Reported);
        }
        let (def, kind, interop, env) = match self_struct {
            Some(s) => {
                // A method the program does not hold (its struct came as an
                // argument) resolves names at the top level, and its class's
                // own name wherever the class is defined.
                let env = s.method_envs.get(name).cloned().or_else(|| {
                    (s.def.short_name() != s.def.name).then(|| {
                        std::rc::Rc::new(crate::Env::from([(
                            s.def.short_name().to_owned(),
                            crate::Free::Struct(s.def.name.clone()),
                        )]))
                    })
                });
                (*s.methods.get(name).ok_or(Reported)?, FuncKind::Func, false, env)
            }
            None => {
                let f = self.m.funcs.get(name).ok_or(Reported)?;
                (f.def, f.kind, f.interop, f.env.clone())
            }
        };
        let params = &def.parameters;
        let plain = params.vararg.is_none()
            && params.kwarg.is_none()
            && params.kwonlyargs.is_empty()
            && params.posonlyargs.is_empty();
        if plain && params.args.len() != args.len() {
            let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            if self.in_progress.is_empty() {
                self.error(
                    call,
                    format!(
                        "'{key_name}' takes {} but the signature gives {}",
                        plural(params.args.len(), "parameter"),
                        plural(args.len(), "argument type")
                    ),
                );
            } else {
                // A method's `self` is not counted.
                let skip = usize::from(self_struct.is_some());
                self.error_help(
                    call,
                    format!(
                        "'{key_name}' takes {}, {} given",
                        plural(params.args.len() - skip.min(params.args.len()), "argument"),
                        args.len() - skip
                    ),
                    format!("call it as {}", signature_text(def, skip)),
                );
            }
            return Err(Reported);
        }
        let symbol = if interop || kind == FuncKind::Kernel {
            // The C symbol (interop) and the kernel's entry point are the Python name.
            if self_struct.is_none() {
                def.name.id.to_string()
            } else {
                key_name.replace('.', "_")
            }
        } else {
            let mut s = key_name.replace(['.', '#'], "_");
            for t in args {
                s.push('_');
                s.push_str(&mangle(t));
            }
            for c in fixed.iter().flatten() {
                s.push_str(&format!(
                    "_c{}",
                    match c {
                        Const::Int(i) => i.to_string().replace('-', "m"),
                        Const::Float(f) => f.to_bits().to_string(),
                        Const::Bool(b) => b.to_string(),
                    }
                ));
            }
            s
        };
        if interop {
            if let Some(((_, other, _), _)) = self.specialized.iter().find(|((n, _, _), _)| *n == key_name) {
                let other = other.iter().map(Ty::to_string).collect::<Vec<_>>().join(", ");
                self.error_help(
                    call,
                    format!("interoperable function '{key_name}' is already compiled for ({other})"),
                    "an interop=True function has one C symbol, so one signature",
                );
                return Err(Reported);
            }
        }
        self.in_progress.push(key_name);
        let result = Lowerer::function(self, def, kind, interop, env, &symbol, args, &fixed);
        self.in_progress.pop();
        let ret = result?;
        self.specialized.insert(key, (symbol.clone(), ret.clone()));
        Ok((symbol, ret))
    }
}

/// `name(a, b)`: how a function is called (without `self` when `skip` is 1).
fn signature_text(def: &ast::StmtFunctionDef, skip: usize) -> String {
    let params: Vec<&str> = def.parameters.args.iter().skip(skip).map(|p| p.parameter.name.id.as_str()).collect();
    format!("{}({})", def.name.id, params.join(", "))
}

/// A type's part of a specialisation's symbol: distinct types give distinct
/// names (numbers and vectors keep their Python names).
fn mangle(t: &Ty) -> String {
    let space = |s: &Space| match s {
        Space::Global => "",
        Space::Shared => "_shared",
        Space::Local => "_local",
    };
    match t {
        Ty::Array { dtype, ndim, layout, readonly, space: sp } => {
            let layout = match layout {
                ArrayLayout::Strided => "",
                ArrayLayout::C => "C",
                ArrayLayout::F => "F",
            };
            format!("{}_{ndim}d{layout}{}{}", mangle(dtype), if *readonly { "_ro" } else { "" }, space(sp))
        }
        Ty::Tuple(items) => {
            format!("tuple{}{}", items.len(), items.iter().map(|i| format!("_{}", mangle(i))).collect::<String>())
        }
        Ty::Struct(def) => {
            // Structured dtypes of a signature all have one name: add the fields.
            let fields: String = if def.name == "structured" {
                def.fields.iter().map(|(n, t)| format!("_{n}_{}", mangle(t))).collect()
            } else {
                String::new()
            };
            let align = if def.align > 0 { format!("_align{}", def.align) } else { String::new() };
            // A class defined elsewhere than the top level: its key
            // (`make.<locals>.P@12`) keeps classes of one name apart.
            let name: String = def.name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            format!("{name}{fields}{align}")
        }
        Ty::AtomicRef { dtype, space: sp } => format!("atomic_{}{}", mangle(dtype), space(sp)),
        // A readable part and a hash of the whole object (distinct objects
        // that read alike stay distinct symbols).
        Ty::Static(obj) => {
            let text = format!("{obj:?}");
            let hash =
                text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
            let text = match &**obj {
                StaticObj::Target(t) => t.text(),
                StaticObj::Dtype(t) => mangle(t),
                other => other.to_string(),
            };
            let readable: String =
                text.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).take(32).collect();
            format!("k_{readable}_{:08x}", hash as u32)
        }
        Ty::StructRef { def, space: sp } => format!("ref_{}{}", def.name, space(sp)),
        other => other.to_string(),
    }
}

/// Lowers one function body.
pub struct Lowerer<'c, 'm, 'a> {
    pub c: &'c mut Compiler<'m, 'a>,
    pub b: FuncBuilder,
    locals: HashSet<String>,
    statics: HashMap<String, Item>,
    pub tuple_items: HashMap<ValueId, Vec<Item>>,
    loops: Vec<LoopCtx>,
    /// Locals whose assignment failed with an error already reported.
    failed: HashSet<String>,
    pub kind: FuncKind,
    /// The function's name, where errors about the whole function point.
    name_range: TextRange,
    /// The `return` statement that ends each block that returns.
    return_ranges: HashMap<usize, TextRange>,
    /// Module aliases being evaluated (a cycle is an error).
    aliases: Vec<String>,
    /// Values of `target(...)` (and their negations) for the known target.
    pub target_known: HashMap<ValueId, bool>,
    /// What the function's free names are bound to in Python, when known.
    env: Option<Rc<crate::Env>>,
}

/// Every name a function body assigns (Python's local-variable rule).
fn assigned_names(body: &[Stmt], out: &mut HashSet<String>) {
    fn targets(e: &Expr, out: &mut HashSet<String>) {
        match e {
            Expr::Name(n) => {
                out.insert(n.id.to_string());
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|e| targets(e, out)),
            Expr::List(l) => l.elts.iter().for_each(|e| targets(e, out)),
            // `v[i] = x` and `s.f = x` rebind v and s (vectors and structs are values).
            Expr::Subscript(s) => targets(&s.value, out),
            Expr::Attribute(a) => targets(&a.value, out),
            _ => {}
        }
    }
    for s in body {
        match s {
            Stmt::Assign(a) => a.targets.iter().for_each(|t| targets(t, out)),
            Stmt::AugAssign(a) => targets(&a.target, out),
            Stmt::AnnAssign(a) => targets(&a.target, out),
            Stmt::For(f) => {
                targets(&f.target, out);
                assigned_names(&f.body, out);
                assigned_names(&f.orelse, out);
            }
            Stmt::While(w) => {
                assigned_names(&w.body, out);
                assigned_names(&w.orelse, out);
            }
            Stmt::If(i) => {
                assigned_names(&i.body, out);
                for c in &i.elif_else_clauses {
                    assigned_names(&c.body, out);
                }
            }
            Stmt::FunctionDef(f) => {
                out.insert(f.name.id.to_string());
            }
            _ => {}
        }
    }
}

impl<'c, 'm, 'a> Lowerer<'c, 'm, 'a> {
    /// Compiles a function definition with the given argument types and
    /// appends its `func.func` to the compiler's output.
    #[allow(clippy::too_many_arguments)]
    pub fn function(
        c: &'c mut Compiler<'m, 'a>,
        def: &'a ast::StmtFunctionDef,
        kind: FuncKind,
        interop: bool,
        env: Option<Rc<crate::Env>>,
        symbol: &str,
        args: &[Ty],
        consts: &[Option<Const>],
    ) -> R<Option<Ty>> {
        let mut l = Lowerer {
            c,
            b: FuncBuilder::new(),
            locals: HashSet::new(),
            statics: HashMap::new(),
            tuple_items: HashMap::new(),
            loops: vec![],
            failed: HashSet::new(),
            kind,
            name_range: def.name.range(),
            return_ranges: HashMap::new(),
            aliases: vec![],
            target_known: HashMap::new(),
            env,
        };
        let params = &def.parameters;
        if params.vararg.is_some()
            || params.kwarg.is_some()
            || !params.kwonlyargs.is_empty()
            || !params.posonlyargs.is_empty()
        {
            l.c.error_help(
                params.range(),
                format!("'{}' may only have plain positional parameters", def.name.id),
                "*args, **kwargs and keyword-only parameters are not supported in device code",
            );
            return Err(Reported);
        }
        assigned_names(&def.body, &mut l.locals);
        l.b.loc = l.c.m.file.mlir_loc(def.name.range());
        for ((p, ty), konst) in params.args.iter().zip(args).zip(consts) {
            let name = p.parameter.name.id.to_string();
            if let Some(ann) = &p.parameter.annotation {
                l.check_param_annotation(&name, ann, ty);
            }
            if let Ty::Static(obj) = ty {
                // A compile-time object (a ConstExpr target description,
                // dtype, shape tuple, ...): the name is that object.
                let item = l.static_item(obj);
                l.statics.insert(name, item);
                continue;
            }
            if *ty == Ty::None {
                // A None argument is no MLIR argument (interop: a void* that
                // is null, spec: None): the name is the constant None.
                if interop {
                    l.b.add_argument(Ty::Raw("!llvm.ptr"));
                }
                if !l.locals.contains(&name) {
                    l.statics.insert(name, Item::NoneV);
                    continue;
                }
                if interop {
                    l.c.error_help(
                        p.range(),
                        format!(
                            "parameter '{name}' of the interoperable function '{}' is None and is assigned in its body",
                            def.name.id
                        ),
                        "use another local name",
                    );
                    return Err(Reported);
                }
            }
            l.locals.insert(name.clone());
            let id = l.b.add_argument(ty.clone());
            let entry = 0;
            // A ConstExpr parameter is its constant inside the body.
            let value = match konst {
                Some(k) => l.typed_const(k, ty),
                None => Val { id, ty: ty.clone(), weak: false, konst: None },
            };
            l.b.write(&name, entry, value);
        }
        let before = l.c.diags.len();
        l.suite(&def.body);
        if l.b.cur.is_some() {
            let loc = l.c.m.file.mlir_loc(def.range());
            l.b.terminate(Terminator::Return(vec![], loc));
        }
        let name_range = l.name_range;
        l.report_join_errors(name_range);
        // A failed statement may leave a path without its return.
        if l.c.diags.len() > before {
            return Err(Reported);
        }
        let ret = l.join_returns()?;
        if l.c.diags.len() > before {
            return Err(Reported);
        }
        if kind == FuncKind::Kernel && ret.is_some() {
            // Reported by the return statement.
            return Err(Reported);
        }
        let mut attrs = Vec::new();
        if kind == FuncKind::Kernel {
            attrs.push(pydev_dialect::abi::attr::KERNEL);
        }
        if interop {
            attrs.push(pydev_dialect::abi::attr::INTEROP);
        }
        let attrs = if attrs.is_empty() { String::new() } else { format!(" attributes {{{}}}", attrs.join(", ")) };
        let results: Vec<Ty> = ret.iter().cloned().collect();
        let text = l.b.print(symbol, &results, &attrs, &l.c.m.file.mlir_loc(def.range()));
        l.c.functions.push(text);
        Ok(ret)
    }

    fn check_param_annotation(&mut self, name: &str, ann: &Expr, ty: &Ty) {
        // Exposition-only entities are not part of the interface (spec:
        // General Requirements), type hints included.
        let hint = match ann {
            Expr::Subscript(s) if self.c.is_const_expr(ann) => &*s.slice,
            _ => ann,
        };
        if self.c.m.device_entity(hint).as_deref() == Some("Dim3Like") {
            self.c.error_help(hint.range(), format!("parameter '{name}' is annotated Dim3Like, which is exposition only in the spec: cuda.device has no such entity"), "annotate it with the type it takes (e.g. device.uint32x3 or int), or leave it unannotated");
            return;
        }
        // `ConstExpr` parameters are checked to be constant at the call;
        // `ConstExpr[T]` also names the type, which must match like any hint.
        if self.c.is_const_expr(ann) {
            if let Expr::Subscript(s) = ann {
                if let Some(hint) = self.c.m.annotation_type(&s.slice) {
                    if &hint != ty {
                        self.c.error_help(
                            ann.range(),
                            format!("parameter '{name}' is annotated ConstExpr[{hint}] but is called with {ty}"),
                            format!("pass a constant {hint}"),
                        );
                    }
                }
            }
            return;
        }
        // `None` as a hint is NoneType (spec: None).
        if matches!(ann, Expr::NoneLiteral(_)) {
            if *ty != Ty::None {
                self.c.error_help(
                    ann.range(),
                    format!("parameter '{name}' is annotated None but is called with {ty}"),
                    "pass None",
                );
            }
            return;
        }
        if let Some(hint) = self.c.m.annotation_type(ann) {
            if &hint != ty {
                self.c.error_help(
                    ann.range(),
                    format!("parameter '{name}' is annotated {hint} but is called with {ty}"),
                    if hint.is_number() {
                        format!("convert the argument, e.g. device.{hint}(x)")
                    } else {
                        format!("pass a {hint}")
                    },
                );
            }
        }
    }

    /// Reports the type clashes found while joining locals, at `range` (the
    /// loop or the use where they were found).
    fn report_join_errors(&mut self, range: TextRange) {
        for e in std::mem::take(&mut self.b.errors) {
            let help = if e.in_loop {
                format!("give '{}' its final type before the loop, e.g. by converting its first value", e.var)
            } else {
                format!("convert '{}' to one type on every path", e.var)
            };
            let msg = if e.in_loop {
                format!("local '{}' is {} before the loop and {} inside it", e.var, e.first, e.second)
            } else {
                format!("local '{}' is {} on one path and {} on another", e.var, e.first, e.second)
            };
            self.c.error_help(range, msg, help);
        }
    }

    /// The common type of all `return` values, converting where they differ.
    fn join_returns(&mut self) -> R<Option<Ty>> {
        let mut returns: Vec<(usize, Vec<Val>)> =
            self.b.returns_mut().into_iter().map(|(b, v)| (b, v.clone())).collect();
        // In source order (falling off the end last), so that errors name
        // the later return.
        returns.sort_by_key(|(b, _)| self.return_ranges.get(b).map_or(u32::MAX, |r| r.start().to_u32()));
        let mut ty: Option<Ty> = None;
        let mut none_at: Option<TextRange> = None;
        for (block, vals) in &returns {
            // A block without a `return` statement falls off the end.
            let at = self.return_ranges.get(block).copied().unwrap_or(self.name_range);
            match vals.first() {
                None => {
                    none_at.get_or_insert(at);
                }
                Some(v) => {
                    ty = Some(match ty {
                        None => v.ty.clone(),
                        Some(t) if t == v.ty => t,
                        // A WarpMask is an int32 (spec: WarpMask).
                        Some(t)
                            if (t.is_number() || t == Ty::WarpMask) && (v.ty.is_number() || v.ty == Ty::WarpMask) =>
                        {
                            match crate::types::promote(&mask_as_int(&t), false, &mask_as_int(&v.ty), false) {
                                Ok(joined) => joined,
                                Err(e) => {
                                    return self.err_help(
                                        at,
                                        format!("this function returns {t} on one path and {} on another: {e}", v.ty),
                                        "return one type on every path",
                                    )
                                }
                            }
                        }
                        Some(t) => {
                            return self.err_help(
                                at,
                                format!("this function returns {t} on one path and {} on another", v.ty),
                                "return one type on every path",
                            )
                        }
                    })
                }
            }
        }
        let Some(ty) = ty else { return Ok(None) };
        if let Some(at) = none_at {
            let what = if at == self.name_range { "reaches its end without a return" } else { "returns nothing here" };
            return self.err_help(
                at,
                format!("this function returns {ty} on some paths but {what}"),
                "return a value on every path",
            );
        }
        for (block, vals) in returns {
            if vals[0].ty != ty {
                let cast = self.b.cast_return(block, &vals[0], &ty);
                for (b, slot) in self.b.returns_mut() {
                    if b == block {
                        slot[0] = cast.clone();
                    }
                }
            }
        }
        Ok(Some(ty))
    }

    pub fn at(&mut self, range: TextRange) {
        self.b.loc = self.c.m.file.mlir_loc(range);
    }

    pub fn err<T>(&mut self, range: TextRange, message: impl Into<String>) -> R<T> {
        self.c.error(range, message);
        Err(Reported)
    }

    pub fn err_help<T>(&mut self, range: TextRange, message: impl Into<String>, help: impl Into<String>) -> R<T> {
        self.c.error_help(range, message, help);
        Err(Reported)
    }

    // ---------------------------------------------------------------- locals

    /// Whether `name` is a local of this function (or a local closure/type).
    pub fn is_local(&self, name: &str) -> bool {
        self.locals.contains(name) || self.statics.contains_key(name)
    }

    pub fn read_name(&mut self, name: &str, range: TextRange) -> R<Item> {
        if let Some(item) = self.statics.get(name) {
            return Ok(item.clone());
        }
        if self.locals.contains(name) {
            let read = self.b.read(name);
            if !self.b.errors.is_empty() {
                self.report_join_errors(range);
                return Err(Reported);
            }
            return match read {
                Some(v) => Ok(self.tuple_items.get(&v.id).cloned().map(Item::Tuple).unwrap_or(Item::Val(v))),
                None if self.failed.contains(name) => Err(Reported),
                None => self.err_help(
                    range,
                    format!("local '{name}' may be used before it is assigned"),
                    format!("assign '{name}' on every path before this use"),
                ),
            };
        }
        self.global(name, range)
    }

    fn global(&mut self, name: &str, range: TextRange) -> R<Item> {
        if let Some(v) = self.env.as_ref().and_then(|env| env.get(name)).cloned() {
            return self.free_value(name, &v, range);
        }
        let m = self.c.m;
        if let Some(b) = m.bindings.get(name) {
            return Ok(match b {
                crate::module::Binding::DeviceModule => Item::DeviceModule,
                crate::module::Binding::CudaPackage => Item::CudaPackage,
                crate::module::Binding::MathModule => Item::MathModule,
                crate::module::Binding::NumpyModule => Item::NumpyModule,
                // `from cuda.device import x`: the same entity as `device.x`.
                crate::module::Binding::DeviceName(n) => return self.device_attr(n, range),
            });
        }
        if m.funcs.contains_key(name) {
            return Ok(Item::Func(name.to_owned()));
        }
        if let Some(s) = m.structs.get(name) {
            return Ok(Item::StructClass(s.def.clone()));
        }
        if let Some(g) = m.globals.get(name) {
            let g = g.clone();
            return self.global_value(&g, range);
        }
        if let Some(e) = m.aliases.get(name).copied() {
            if self.aliases.iter().any(|a| a == name) {
                return self.err(range, format!("module-level name '{name}' is defined in terms of itself"));
            }
            self.aliases.push(name.to_owned());
            // The alias's names are the module's, not the function's closure.
            let env = self.env.take();
            let item = self.expr(e);
            self.env = env;
            self.aliases.pop();
            return item;
        }
        Ok(match name {
            "range" | "len" | "abs" | "min" | "max" | "int" | "float" | "bool" | "complex" | "print" | "round" => {
                if matches!(name, "int" | "float" | "bool" | "complex") {
                    Item::Dtype(Ty::from_dtype_name(name).expect("builtin number"))
                } else {
                    Item::Builtin(match name {
                        "range" => "range",
                        "len" => "len",
                        "abs" => "abs",
                        "min" => "min",
                        "max" => "max",
                        "print" => "print",
                        _ => "round",
                    })
                }
            }
            "None" => Item::NoneV,
            "True" | "False" => Item::Val(self.bool_const(name == "True")),
            _ if m.undecorated.get(name) == Some(&false) => {
                return self.err_help(range, format!("function '{name}' is not decorated with @device.func"), "decorate it with @device.func to call it from device code")
            }
            _ if m.undecorated.get(name) == Some(&true) => {
                return self.err_help(range, format!("class '{name}' is not decorated with @device.struct"), "decorate it with @device.struct to use it in device code")
            }
            _ => {
                return self.err_help(
                    range,
                    format!("name '{name}' is not defined in device code"),
                    "device code sees its parameters and locals, module constants, @device.func/@device.struct definitions and cuda.device",
                )
            }
        })
    }

    /// The constant a free name holds, from Python's binding when known,
    /// else the module's.
    pub fn const_global(&self, name: &str) -> Option<GlobalConst> {
        match self.env.as_ref().and_then(|env| env.get(name)) {
            Some(crate::Free::Const(g)) => Some(g.clone()),
            Some(_) => None,
            None => self.c.m.globals.get(name).cloned(),
        }
    }

    /// What a free name bound in Python (a closure cell or a global the
    /// package resolved) is in device code: a compile-time constant.
    fn free_value(&mut self, name: &str, v: &crate::Free, range: TextRange) -> R<Item> {
        use crate::{Binding, Free};
        let m = self.c.m;
        Ok(match v {
            Free::Const(g) => return self.global_value(g, range),
            Free::Func(i) => Item::Func(m.func_keys[*i].clone()),
            Free::Struct(s) => match m.struct_named(s) {
                Some(class) => Item::StructClass(class.def.clone()),
                None => {
                    let s = s.rsplit_once('@').map_or(s.as_str(), |(q, _)| q);
                    return self.err_help(range, format!("struct '{s}' (the value of '{name}') is not defined in {}", m.file.name), "device code uses the @device.struct classes of its own file")
                }
            },
            Free::Dtype(d) => match Ty::from_dtype_name(d).or_else(|| Ty::from_vector_name(d)) {
                Some(t) => Item::Dtype(t),
                None => return self.err(range, format!("'{name}' is the dtype {d}, which device code does not support")),
            },
            Free::Device(d) => return self.device_attr(d, range),
            Free::Module(Binding::DeviceModule) => Item::DeviceModule,
            Free::Module(Binding::CudaPackage) => Item::CudaPackage,
            Free::Module(Binding::MathModule) => Item::MathModule,
            Free::Module(Binding::NumpyModule) => Item::NumpyModule,
            Free::Module(Binding::DeviceName(d)) => return self.device_attr(d, range),
            Free::Target(t) => Item::Target(t.clone()),
            Free::HostOnly(what) => {
                return self.err_help(
                    range,
                    format!("'{name}' is {what}, which device code cannot hold"),
                    "device code can use numbers, NumPy scalars, strings and tuples of them, dtypes, device functions, structs and target descriptions from its enclosing scopes; pass anything else as a kernel argument",
                )
            }
        })
    }

    /// The value of a module constant (or a constant default value).
    pub fn global_value(&mut self, g: &GlobalConst, range: TextRange) -> R<Item> {
        Ok(match g {
            GlobalConst::Num(c) => Item::Val(self.constant(c.clone(), range)?),
            GlobalConst::Typed(dtype, c) => match Ty::from_dtype_name(dtype) {
                Some(ty) => Item::Val(self.typed_const(c, &ty)),
                None => return self.err(range, format!("a {dtype} constant cannot be used in device code")),
            },
            GlobalConst::Str(s) => Item::Str(s.clone()),
            GlobalConst::Tuple(items) => {
                Item::Tuple(items.iter().map(|i| self.global_value(i, range)).collect::<R<_>>()?)
            }
        })
    }

    /// A Python literal: int is int32, float is float32, bool is bool (weak).
    pub fn constant(&mut self, c: Const, range: TextRange) -> R<Val> {
        match c {
            Const::Int(i) => {
                if i < i128::from(i32::MIN) || i > i128::from(i32::MAX) {
                    return self.err_help(
                        range,
                        format!("integer {i} does not fit in int32, the type of Python ints in device code"),
                        "convert it explicitly, e.g. device.int64(...)",
                    );
                }
                let mut v = self.typed_const(&Const::Int(i), &crate::types::INT32);
                v.weak = true;
                Ok(v)
            }
            Const::Float(f) => {
                let mut v = self.typed_const(&Const::Float(f), &crate::types::FLOAT32);
                // A Python float keeps its exact value: it adopts the type
                // of a fixed-format operand (float64(x) + 0.1).
                v.weak = true;
                v.konst = Some(Const::Float(f));
                Ok(v)
            }
            Const::Bool(b) => Ok(self.bool_const(b)),
        }
    }

    /// The item a compile-time object stands for in the function it was
    /// passed to.
    pub fn static_item(&mut self, obj: &StaticObj) -> Item {
        match obj {
            StaticObj::Target(t) => Item::Target(t.clone()),
            StaticObj::Dtype(t) => Item::Dtype(t.clone()),
            StaticObj::Str(s) => Item::Str(s.clone()),
            StaticObj::Sm(sm) => Item::Sm(*sm),
            StaticObj::Int(ty, weak, i) => Item::Val(Val { weak: *weak, ..self.typed_const(&Const::Int(*i), ty) }),
            StaticObj::Float(ty, weak, bits) => {
                let f = f64::from_bits(*bits);
                let v = self.typed_const(&Const::Float(f), ty);
                // A Python float keeps its exact value (see `constant`).
                Item::Val(if *weak { Val { weak: true, konst: Some(Const::Float(f)), ..v } } else { v })
            }
            StaticObj::Bool(b) => Item::Val(self.bool_const(*b)),
            StaticObj::Tuple(items) => Item::Tuple(items.iter().map(|i| self.static_item(i)).collect()),
        }
    }

    pub fn bool_const(&mut self, b: bool) -> Val {
        let mut v = self.b.op1(&generic::constant(&format!("{} : i1", u8::from(b)), "i1"), Ty::Bool);
        v.weak = true;
        v.konst = Some(Const::Bool(b));
        v
    }

    /// A constant of a given numeric type (not weak).
    pub fn typed_const(&mut self, c: &Const, ty: &Ty) -> Val {
        let t = ty.mlir();
        let value = match (c, ty) {
            (_, Ty::Bool) => format!(
                "{} : i1",
                u8::from(
                    !matches!(c, Const::Int(0) | Const::Bool(false)) && !matches!(c, Const::Float(f) if *f == 0.0)
                )
            ),
            (Const::Float(f), Ty::Float(_)) => format!("{} : {t}", float_attr(*f, ty)),
            (Const::Int(i), Ty::Float(_)) => format!("{} : {t}", float_attr(*i as f64, ty)),
            (Const::Bool(b), Ty::Float(_)) => format!("{} : {t}", float_attr(f64::from(u8::from(*b)), ty)),
            (Const::Int(i), _) => format!("{i} : {t}"),
            (Const::Bool(b), _) => format!("{} : {t}", u8::from(*b)),
            (Const::Float(f), _) => format!("{} : {t}", *f as i64),
        };
        let text = generic::constant(&value, &t);
        // The value the constant has in its type (floats round).
        let konst = match (c, ty) {
            (Const::Float(f), Ty::Int { .. }) => Const::Int(*f as i128),
            (Const::Int(i), Ty::Float(k)) => Const::Float(crate::consts::round_float(*i as f64, *k).1),
            (Const::Float(f), Ty::Float(k)) => Const::Float(crate::consts::round_float(*f, *k).1),
            _ => c.clone(),
        };
        let mut v = self.b.op1(&text, ty.clone());
        v.konst = Some(konst);
        v
    }

    pub fn assign_name(&mut self, name: &str, item: Item, range: TextRange) -> R<()> {
        match item {
            Item::Val(v) => {
                if self.statics.contains_key(name) {
                    return self.err(
                        range,
                        format!("local '{name}' holds a function or type elsewhere; use another name for this value"),
                    );
                }
                let Some(b) = self.b.cur else { return Ok(()) };
                self.b.write(name, b, v);
                Ok(())
            }
            Item::Tuple(items) if items.iter().all(|i| matches!(i, Item::Val(_) | Item::Tuple(_))) => {
                let v = self.materialize(&Item::Tuple(items.clone()), range)?;
                self.tuple_items.insert(v.id, items);
                let Some(b) = self.b.cur else { return Ok(()) };
                self.b.write(name, b, v);
                Ok(())
            }
            other => {
                self.statics.insert(name.to_owned(), other);
                Ok(())
            }
        }
    }

    /// An item as an SSA value (tuples of values become `pydev.tuple_create`).
    pub fn materialize(&mut self, item: &Item, range: TextRange) -> R<Val> {
        match item {
            Item::Val(v) => Ok(v.clone()),
            Item::Tuple(items) => {
                let vals = items.iter().map(|i| self.materialize(i, range)).collect::<R<Vec<_>>>()?;
                let ty = Ty::Tuple(vals.iter().map(|v| v.ty.clone()).collect());
                let elements: Vec<&dyn TextValue> = vals.iter().map(|v| v as &dyn TextValue).collect();
                self.at(range);
                let v = self.b.op1(&generic::tuple_create(&elements, &ty.mlir()), ty);
                self.tuple_items.insert(v.id, items.clone());
                Ok(v)
            }
            Item::Device(name) if matches!(name.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                self.dim3_value(name, range)
            }
            other => self.err_help(
                range,
                format!("{} is not a value that device code can store or pass", describe(other)),
                "device code stores and passes numbers, vectors, structs, tuples and arrays",
            ),
        }
    }

    // ------------------------------------------------------------ statements

    pub fn suite(&mut self, body: &[Stmt]) {
        for stmt in body {
            if self.b.cur.is_none() {
                return; // dead code after return/break/continue
            }
            if self.stmt(stmt).is_err() {
                // Names the failed statement would have bound are not
                // reported again where they are read.
                assigned_names(std::slice::from_ref(stmt), &mut self.failed);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        self.at(s.range());
        match s {
            Stmt::Expr(e) => {
                if matches!(e.value.as_ref(), Expr::StringLiteral(_)) {
                    return Ok(()); // docstring
                }
                self.expr(&e.value).map(|_| ())
            }
            Stmt::Pass(_) => Ok(()),
            Stmt::Assign(a) => {
                let value = self.expr(&a.value)?;
                for t in &a.targets {
                    self.assign(t, value.clone())?;
                }
                Ok(())
            }
            Stmt::AnnAssign(a) => {
                let Some(value) = &a.value else { return Ok(()) };
                let mut item = self.expr(value)?;
                if let Some(ty) = self.c.m.annotation_type(&a.annotation) {
                    let v = self.materialize(&item, value.range())?;
                    let ty = ty.aligned_value().unwrap_or(&ty);
                    item = Item::Val(self.convert(&v, ty, value.range())?);
                }
                self.assign(&a.target, item)
            }
            Stmt::AugAssign(a) => {
                if let Expr::Subscript(sub) = a.target.as_ref() {
                    // A name or attribute base has no side effects, so
                    // evaluating it again below (not an array) is harmless.
                    let pure_base = matches!(sub.value.as_ref(), Expr::Name(_) | Expr::Attribute(_));
                    if pure_base && self.aug_store_subscript(sub, a.op, &a.value, a.range())?.is_some() {
                        return Ok(());
                    }
                }
                let current = self.expr(&a.target)?;
                let rhs = self.expr(&a.value)?;
                let result =
                    self.binary_at(a.op, current, rhs, a.range(), Some((a.target.range(), a.value.range())))?;
                self.assign(&a.target, result)
            }
            Stmt::If(i) => self.if_stmt(i),
            Stmt::While(w) => self.while_stmt(w),
            Stmt::For(f) => self.for_stmt(f),
            Stmt::Break(b) => match self.loops.last() {
                Some(l) => {
                    let to = l.break_to;
                    self.b.br(to);
                    Ok(())
                }
                None => self.err(b.range(), "'break' outside a loop"),
            },
            Stmt::Continue(c) => match self.loops.last() {
                Some(l) => {
                    let to = l.continue_to;
                    self.b.br(to);
                    Ok(())
                }
                None => self.err(c.range(), "'continue' outside a loop"),
            },
            Stmt::Return(r) => self.return_stmt(r),
            Stmt::FunctionDef(f) => {
                let has_params = !f.parameters.args.is_empty()
                    || !f.parameters.posonlyargs.is_empty()
                    || f.parameters.vararg.is_some()
                    || !f.parameters.kwonlyargs.is_empty()
                    || f.parameters.kwarg.is_some();
                if has_params || !f.decorator_list.is_empty() {
                    return self.err_help(f.range(), format!("local function '{}' must take no parameters and have no decorators", f.name.id), "device code allows local closures without parameters (predicates); define other functions at module level with @device.func");
                }
                self.statics.insert(f.name.id.to_string(), Item::Closure(Rc::new(ClosureBody::Def(f.clone()))));
                Ok(())
            }
            Stmt::Assert(a) => self.err_help(
                a.range(),
                "assert is not supported in device code",
                "check the condition and return early instead",
            ),
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                self.err(s.range(), "imports are not allowed inside device code; import at module level")
            }
            Stmt::ClassDef(c) => self.err(
                c.range(),
                "classes cannot be defined inside device code; define @device.struct classes at module level",
            ),
            Stmt::Try(_) => self.err_help(
                s.range(),
                "try/except is not supported in device code",
                "device code has no exceptions; check conditions explicitly",
            ),
            Stmt::With(_) => self.err(s.range(), "'with' is not supported in device code"),
            Stmt::Raise(_) => {
                self.err_help(s.range(), "raise is not supported in device code", "device code has no exceptions")
            }
            Stmt::Global(_) | Stmt::Nonlocal(_) => self.err_help(
                s.range(),
                "global and nonlocal are not supported in device code",
                "device code cannot rebind module names; pass values as parameters",
            ),
            Stmt::Delete(_) => self.err(s.range(), "del is not supported in device code"),
            Stmt::Match(_) => {
                self.err_help(s.range(), "match statements are not supported in device code", "use if/elif/else")
            }
            Stmt::TypeAlias(_) | Stmt::IpyEscapeCommand(_) => {
                self.err(s.range(), "this statement is not supported in device code")
            }
        }
    }

    fn assign(&mut self, target: &Expr, value: Item) -> R<()> {
        self.at(target.range());
        match target {
            Expr::Name(n) => self.assign_name(n.id.as_str(), value, n.range()),
            Expr::Tuple(t) => self.unpack(&t.elts, value, t.range()),
            Expr::List(l) => self.unpack(&l.elts, value, l.range()),
            Expr::Subscript(s) => self.store_subscript(s, value),
            Expr::Attribute(a) => self.store_attribute(a, value),
            Expr::Starred(s) => self.err(s.range(), "starred assignment is not supported in device code"),
            other => self.err(other.range(), "cannot assign to this expression"),
        }
    }

    fn unpack(&mut self, targets: &[Expr], value: Item, range: TextRange) -> R<()> {
        if let Some(s) = targets.iter().find(|t| matches!(t, Expr::Starred(_))) {
            return self.err_help(
                s.range(),
                "starred assignment is not supported in device code",
                "unpack into one name per element",
            );
        }
        let items = self.tuple_elements(&value, range)?;
        if items.len() != targets.len() {
            return self.err(range, format!("cannot unpack {} values into {} names", items.len(), targets.len()));
        }
        for (t, i) in targets.iter().zip(items) {
            self.assign(t, i)?;
        }
        Ok(())
    }

    /// The elements of a tuple, vector (lanes) or tuple value.
    pub fn tuple_elements(&mut self, value: &Item, range: TextRange) -> R<Vec<Item>> {
        match value {
            Item::Tuple(items) => Ok(items.clone()),
            Item::Val(v) => match &v.ty {
                Ty::Tuple(types) => {
                    if let Some(items) = self.tuple_items.get(&v.id) {
                        return Ok(items.clone());
                    }
                    let types = types.clone();
                    let mut out = Vec::new();
                    for (i, t) in types.iter().enumerate() {
                        let e = self.b.op1(&generic::tuple_extract(v, i as i64, &t.mlir()), t.clone());
                        out.push(Item::Val(e));
                    }
                    Ok(out)
                }
                Ty::Vector { lanes, .. } => {
                    let lanes = *lanes;
                    (0..lanes).map(|i| self.vector_lane(v, i, range).map(Item::Val)).collect()
                }
                other => self.err(range, format!("cannot unpack a {other}")),
            },
            Item::Device(n) if matches!(n.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                let x = self.dim3_value(n, range)?;
                self.tuple_elements(&Item::Val(x), range)
            }
            other => self.err(range, format!("cannot unpack {}", describe(other))),
        }
    }

    fn return_stmt(&mut self, r: &ast::StmtReturn) -> R<()> {
        let loc = self.c.m.file.mlir_loc(r.range());
        let value = match &r.value {
            None => None,
            Some(e) => match self.expr(e)? {
                Item::NoneV => None,
                item => Some(self.materialize(&item, e.range())?),
            },
        };
        if self.kind == FuncKind::Kernel && value.is_some() {
            return self.err_help(r.range(), "a kernel cannot return a value", "write results to an array argument");
        }
        if let Some(b) = self.b.cur {
            self.return_ranges.insert(b, r.range());
        }
        self.b.terminate(Terminator::Return(value.into_iter().collect(), loc));
        Ok(())
    }

    /// A condition as an i1 value (Python truthiness).
    pub fn truth(&mut self, item: Item, range: TextRange) -> R<Val> {
        let v = match item {
            Item::Val(v) => v,
            Item::NoneV => return Ok(self.bool_const(false)),
            other => return self.err(range, format!("{} has no truth value in device code", describe(&other))),
        };
        match &v.ty {
            Ty::Bool => Ok(v),
            Ty::Int { .. } | Ty::Float(_) | Ty::Complex(_) => {
                let zero = self.typed_const(
                    &Const::Int(0),
                    &if matches!(v.ty, Ty::Complex(_)) { crate::types::INT32 } else { v.ty.clone() },
                );
                let konst = v.konst.as_ref().map(|c| {
                    Const::Bool(
                        !matches!(c, Const::Int(0) | Const::Bool(false)) && !matches!(c, Const::Float(f) if *f == 0.0),
                    )
                });
                let mut r = self.b.op1(&generic::cmp(CmpPredicate::Ne, &v, &zero, &Ty::Bool.mlir()), Ty::Bool);
                r.konst = konst;
                Ok(r)
            }
            Ty::WarpMask => {
                let i = self.b.op1(&generic::cast(&v, &crate::types::INT32.mlir()), crate::types::INT32);
                self.truth(Item::Val(i), range)
            }
            other => self.err(range, format!("a {other} has no truth value"))?,
        }
    }

    fn if_stmt(&mut self, s: &ast::StmtIf) -> R<()> {
        let mut clauses: Vec<(Option<&Expr>, &[Stmt])> = vec![(Some(&s.test), &s.body)];
        for c in &s.elif_else_clauses {
            clauses.push((c.test.as_ref(), &c.body));
        }
        let merge = self.b.new_block(BlockKind::Merge);
        for (test, body) in clauses {
            if self.b.cur.is_none() {
                break;
            }
            match test {
                Some(test) => {
                    let cond = self.expr(test)?;
                    let cond = self.truth(cond, test.range())?;
                    // A constant condition selects its branch now; so does a
                    // target(...) condition when the target is known (the
                    // op stays for the IR; the dead branch is never lowered,
                    // so it may hold constructs of another target).
                    let known = match cond.konst {
                        Some(Const::Bool(k)) => Some(k),
                        _ => self.target_known.get(&cond.id).copied(),
                    };
                    if let Some(k) = known {
                        if k {
                            self.suite(body);
                            if self.b.cur.is_some() {
                                self.b.br(merge);
                            }
                            self.b.cur = None;
                            break;
                        }
                        continue;
                    }
                    let then = self.b.new_block(BlockKind::Plain);
                    let otherwise = self.b.new_block(BlockKind::Plain);
                    self.at(test.range());
                    self.b.cond_br(cond.id, then, otherwise);
                    self.b.seal(then);
                    self.b.seal(otherwise);
                    self.b.switch_to(then);
                    self.suite(body);
                    if self.b.cur.is_some() {
                        self.b.br(merge);
                    }
                    self.b.switch_to(otherwise);
                }
                None => {
                    self.suite(body);
                    if self.b.cur.is_some() {
                        self.b.br(merge);
                    }
                    self.b.cur = None;
                }
            }
        }
        if self.b.cur.is_some() {
            self.b.br(merge);
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        Ok(())
    }

    fn while_stmt(&mut self, w: &ast::StmtWhile) -> R<()> {
        let header = self.b.new_block(BlockKind::LoopHeader);
        let body = self.b.new_block(BlockKind::Plain);
        let orelse = self.b.new_block(BlockKind::Plain);
        let exit = self.b.new_block(BlockKind::Merge);
        self.b.br(header);
        self.b.cur = Some(header);
        let cond = self.expr(&w.test).and_then(|c| self.truth(c, w.test.range()));
        let cond = match cond {
            Ok(c) => c,
            Err(Reported) => {
                self.b.seal(header);
                return Err(Reported);
            }
        };
        self.at(w.test.range());
        self.b.cond_br(cond.id, body, orelse);
        self.b.seal(body);
        self.b.seal(orelse);
        self.b.switch_to(body);
        self.loops.push(LoopCtx { continue_to: header, break_to: exit });
        self.suite(&w.body);
        self.loops.pop();
        if self.b.cur.is_some() {
            self.b.br(header);
        }
        self.b.seal(header);
        self.report_join_errors(w.range());
        self.b.switch_to(orelse);
        self.suite(&w.orelse);
        if self.b.cur.is_some() {
            self.b.br(exit);
        }
        self.b.seal(exit);
        self.b.switch_to(exit);
        Ok(())
    }

    fn for_stmt(&mut self, f: &ast::StmtFor) -> R<()> {
        if f.is_async {
            return self.err(f.range(), "async for is not supported in device code");
        }
        let iter = self.expr(&f.iter)?;
        let iter = self.dim3_as_vector(iter, f.iter.range())?;
        match iter {
            Item::Range(args) => self.for_range(f, args),
            Item::Tuple(_) | Item::Val(Val { ty: Ty::Tuple(_) | Ty::Vector { .. }, .. }) => {
                // Unrolled: tuples are heterogeneous, vectors have 1 to 4 lanes.
                let items = self.tuple_elements(&iter, f.iter.range())?;
                let exit = self.b.new_block(BlockKind::Merge);
                for item in items {
                    if self.b.cur.is_none() {
                        break;
                    }
                    let next = self.b.new_block(BlockKind::Merge);
                    self.assign(&f.target, item)?;
                    self.loops.push(LoopCtx { continue_to: next, break_to: exit });
                    self.suite(&f.body);
                    self.loops.pop();
                    if self.b.cur.is_some() {
                        self.b.br(next);
                    }
                    self.b.seal(next);
                    self.b.switch_to(next);
                }
                self.suite(&f.orelse);
                if self.b.cur.is_some() {
                    self.b.br(exit);
                }
                self.b.seal(exit);
                self.b.switch_to(exit);
                Ok(())
            }
            other => self.err_help(
                f.iter.range(),
                format!("cannot iterate over {} in device code", describe(&other)),
                "loop over range(...), a tuple or a vector",
            ),
        }
    }

    /// `for i in range(start, stop, step)`: a counted loop; the target is
    /// assigned the counter each iteration (so it keeps its last value).
    fn for_range(&mut self, f: &ast::StmtFor, args: Vec<Val>) -> R<()> {
        let r = f.iter.range();
        let (start, stop, step) = match args.len() {
            1 => (self.typed_const(&Const::Int(0), &args[0].ty), args[0].clone(), None),
            2 => (args[0].clone(), args[1].clone(), None),
            _ => (args[0].clone(), args[1].clone(), Some(args[2].clone())),
        };
        // The counter type: the promoted type of the bounds.
        let mut ty = start.ty.clone();
        let mut weak = start.weak;
        for v in std::iter::once(&stop).chain(step.iter()) {
            ty = crate::types::promote(&ty, weak, &v.ty, v.weak).map_err(|e| self.c.error(r, e.to_string()))?;
            weak &= v.weak;
        }
        // The counter is a run-time value of that type (int32 for Python
        // ints), never a weak literal: range(0, 7, 2) counts as range(7)
        // does, and `uint16 % -(j + 1)` is not a uint16 of a wrapped -1.
        let weak = false;
        if !ty.is_integer() {
            return self.err(r, format!("range() needs integers, got {ty}"));
        }
        let start = self.convert(&start, &ty, r)?;
        let stop = self.convert(&stop, &ty, r)?;
        let step = match step {
            Some(s) => self.convert(&s, &ty, r)?,
            None => self.typed_const(&Const::Int(1), &ty),
        };
        if step.konst == Some(Const::Int(0)) {
            return self.err(r, "range() step must not be zero");
        }
        let counter = format!(".for{}", f.range().start().to_u32());
        self.locals.insert(counter.clone());
        let cur = self.b.cur.ok_or(Reported)?;
        self.b.write(&counter, cur, Val { weak, ..start.clone() });
        let header = self.b.new_block(BlockKind::LoopHeader);
        let body = self.b.new_block(BlockKind::Plain);
        let latch = self.b.new_block(BlockKind::Merge);
        let orelse = self.b.new_block(BlockKind::Plain);
        let exit = self.b.new_block(BlockKind::Merge);
        self.b.br(header);
        self.b.cur = Some(header);
        self.at(r);
        let i = self.b.read(&counter).ok_or(Reported)?;
        // The counter, bound and step all at the loop's type.
        let t = ty.mlir();
        let (vi, vs, vstep) = (Typed(i.id, t.clone()), Typed(stop.id, t.clone()), Typed(step.id, t.clone()));
        let i1 = Ty::Bool.mlir();
        let cond = match &step.konst {
            Some(Const::Int(k)) if *k > 0 => self.b.op1(&generic::cmp(CmpPredicate::Lt, &vi, &vs, &i1), Ty::Bool),
            Some(Const::Int(_)) => self.b.op1(&generic::cmp(CmpPredicate::Gt, &vi, &vs, &i1), Ty::Bool),
            _ => {
                // Run-time step: compare by its sign.
                let zero = self.typed_const(&Const::Int(0), &ty);
                let pos =
                    self.b.op1(&generic::cmp(CmpPredicate::Gt, &vstep, &Typed(zero.id, t.clone()), &i1), Ty::Bool);
                let lt = self.b.op1(&generic::cmp(CmpPredicate::Lt, &vi, &vs, &i1), Ty::Bool);
                let gt = self.b.op1(&generic::cmp(CmpPredicate::Gt, &vi, &vs, &i1), Ty::Bool);
                self.b.op1(
                    &format!(
                        "arith.select {}, {}, {} : i1",
                        crate::ir::v(pos.id),
                        crate::ir::v(lt.id),
                        crate::ir::v(gt.id)
                    ),
                    Ty::Bool,
                )
            }
        };
        self.b.cond_br(cond.id, body, orelse);
        self.b.seal(body);
        self.b.seal(orelse);
        self.b.switch_to(body);
        self.assign(&f.target, Item::Val(Val { weak, ..i.clone() }))?;
        self.loops.push(LoopCtx { continue_to: latch, break_to: exit });
        self.suite(&f.body);
        self.loops.pop();
        if self.b.cur.is_some() {
            self.b.br(latch);
        }
        self.b.seal(latch);
        self.b.switch_to(latch);
        if self.b.cur.is_some() {
            self.at(r);
            let i = self.b.read(&counter).ok_or(Reported)?;
            let next = self.b.op1(&generic::add(&Typed(i.id, t.clone()), &vstep, &t), ty.clone());
            let latch_block = self.b.cur.ok_or(Reported)?;
            self.b.write(&counter, latch_block, Val { weak, ..next });
            self.b.br(header);
        }
        self.b.seal(header);
        self.report_join_errors(f.range());
        self.b.switch_to(orelse);
        self.suite(&f.orelse);
        if self.b.cur.is_some() {
            self.b.br(exit);
        }
        self.b.seal(exit);
        self.b.switch_to(exit);
        Ok(())
    }

    /// Calls a parameterless closure in the current scope.
    pub fn call_closure(&mut self, body: &ClosureBody, range: TextRange) -> R<Item> {
        match body {
            ClosureBody::Lambda(e) => self.expr(e),
            ClosureBody::Def(f) => {
                // Inline the body: it must end in `return expr` (predicates).
                match f.body.as_slice() {
                    [.., Stmt::Return(ast::StmtReturn { value: Some(e), .. })] => {
                        let (init, _) = f.body.split_at(f.body.len() - 1);
                        if let Some(r) = early_return(init) {
                            return self.err_help(
                                r,
                                format!("local function '{}' may only return at its end", f.name.id),
                                "compute the result in a local and end with `return <expression>`",
                            );
                        }
                        // The body's locals are its own (Python scopes): the
                        // caller's locals of the same names keep their values.
                        let mut own = HashSet::new();
                        assigned_names(init, &mut own);
                        let saved: Vec<(String, bool, Option<Val>)> = own
                            .into_iter()
                            .map(|n| {
                                let local = self.locals.contains(&n);
                                let v = if local { self.b.read(&n) } else { None };
                                (n, local, v)
                            })
                            .collect();
                        self.locals.extend(saved.iter().map(|(n, _, _)| n.clone()));
                        self.suite(init);
                        let result = self.expr(e);
                        for (name, local, value) in saved {
                            match (local, value, self.b.cur) {
                                (false, _, _) => {
                                    self.locals.remove(&name);
                                }
                                (true, Some(v), Some(cur)) => self.b.write(&name, cur, v),
                                _ => {}
                            }
                        }
                        result
                    }
                    _ => self.err_help(
                        range,
                        format!("local function '{}' must end with `return <expression>`", f.name.id),
                        "predicates return a bool",
                    ),
                }
            }
        }
    }
}

/// The first `return` among statements (not in nested functions).
fn early_return(body: &[Stmt]) -> Option<TextRange> {
    body.iter().find_map(|s| match s {
        Stmt::Return(r) => Some(r.range()),
        Stmt::If(i) => early_return(&i.body).or_else(|| i.elif_else_clauses.iter().find_map(|c| early_return(&c.body))),
        Stmt::While(w) => early_return(&w.body).or_else(|| early_return(&w.orelse)),
        Stmt::For(f) => early_return(&f.body).or_else(|| early_return(&f.orelse)),
        _ => None,
    })
}

/// The compile-time object an item is, when it can be passed as one (see
/// [`Ty::Static`]): target descriptions, dtypes, strings, SM selectors, and
/// tuples of those and of constant numbers.
pub fn static_obj(item: &Item) -> Option<StaticObj> {
    Some(match item {
        Item::Target(t) => StaticObj::Target(t.clone()),
        Item::Dtype(t) => StaticObj::Dtype(t.clone()),
        Item::StructClass(def) => StaticObj::Dtype(Ty::Struct(def.clone())),
        Item::Str(s) => StaticObj::Str(s.clone()),
        Item::Sm(sm) => StaticObj::Sm(*sm),
        Item::Val(Val { ty, weak, konst: Some(k), .. }) if ty.is_number() => match k {
            Const::Int(i) => StaticObj::Int(ty.clone(), *weak, *i),
            Const::Float(f) => StaticObj::Float(ty.clone(), *weak, f.to_bits()),
            Const::Bool(b) => StaticObj::Bool(*b),
        },
        Item::Tuple(items) => StaticObj::Tuple(items.iter().map(static_obj).collect::<Option<_>>()?),
        _ => return None,
    })
}

/// A WarpMask as the int32 it is (spec: WarpMask), other types as they are.
pub fn mask_as_int(t: &Ty) -> Ty {
    if *t == Ty::WarpMask {
        crate::types::INT32
    } else {
        t.clone()
    }
}

/// How an item is described in messages.
pub fn describe(item: &Item) -> String {
    match item {
        Item::Val(v) => format!("a value of type {}", v.ty),
        Item::Tuple(_) => "a tuple".into(),
        Item::Device(n) => format!("device.{n}"),
        Item::DeviceModule => "the cuda.device module".into(),
        Item::CudaPackage => "the cuda package".into(),
        Item::MathModule => "the math module".into(),
        Item::NumpyModule => "the numpy module".into(),
        Item::Math(n) => format!("math.{n}"),
        Item::Func(n) => format!("function '{n}'"),
        Item::StructClass(s) => format!("struct class '{}'", s.short_name()),
        Item::Dtype(t) => format!("the type {t}"),
        Item::Target(_) => "a target description".into(),
        Item::Str(_) => "a string".into(),
        Item::NoneV => "None".into(),
        Item::Builtin(b) => format!("builtin '{b}'"),
        Item::Range(_) => "a range".into(),
        Item::Closure(_) => "a function".into(),
        Item::Method(_, m) => format!("method '{m}'"),
        Item::Sm(sm) => format!("sm{sm}"),
    }
}

/// An MLIR float attribute with the exact bits of `f` rounded to type `ty`.
pub fn float_attr(f: f64, ty: &Ty) -> String {
    let Ty::Float(kind) = ty else { unreachable!("float_attr of a {ty}") };
    let digits = kind.bits() as usize / 4;
    format!("0x{:0digits$X}", crate::consts::round_float(f, *kind).0)
}
