//! Module-level name resolution: what the top level of a Python file binds.
//! Imports of `cuda.device` (as `import cuda.device as device`, `from cuda
//! import device`, `from cuda.device import x`, `import cuda`), `import math`,
//! `@device.kernel` / `@device.func` functions, `@device.struct` classes and
//! global constants.

use crate::{
    diag::{Diagnostic, SourceFile},
    ir::Const,
    types::{StructDef, Ty},
};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::{collections::HashMap, rc::Rc};

/// How a function is decorated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Kernel,
    Func,
}

pub struct FuncDef<'a> {
    pub def: &'a ast::StmtFunctionDef,
    pub kind: FuncKind,
    pub interop: bool,
    /// What its free names are bound to in Python (closure cells, then
    /// globals), when the Python package told; `None`: resolved from the
    /// file's top level alone (pydevc, struct methods).
    pub env: Option<Rc<crate::Env>>,
}

pub struct StructClass<'a> {
    pub def: Rc<StructDef>,
    pub methods: HashMap<String, &'a ast::StmtFunctionDef>,
    /// Default values of fields (`x: int = 0`), used when a construction
    /// leaves the field out.
    pub defaults: HashMap<String, &'a Expr>,
    /// What the free names of each method are bound to in Python, when the
    /// program holds the method (the package adds the methods of the
    /// structs it describes); else the file's top level resolves them.
    pub method_envs: HashMap<String, Rc<crate::Env>>,
}

/// A global constant (constant expression).
#[derive(Clone, Debug)]
pub enum GlobalConst {
    /// A Python number: weak in promotion.
    Num(Const),
    /// A NumPy scalar: its own dtype, by name (`np.float64(0.5)` is a float64).
    Typed(String, Const),
    Str(String),
    Tuple(Vec<GlobalConst>),
}

/// Why the struct that a `qualname@line` token names could not be found or
/// scanned ([`Module::resolve_struct`]).
#[derive(Debug, thiserror::Error)]
pub enum StructError {
    #[error("struct '{token}' is not defined in {file}")]
    NotDefined { token: String, file: String },
    #[error("no class '{qualname}' in {file} (was the file changed after it was imported?)")]
    NoClass { qualname: String, file: String },
    #[error("no class '{qualname}' of {file} is defined at line {line}")]
    NotAtLine { qualname: String, file: String, line: usize },
    #[error("struct '{name}' contains itself")]
    ContainsItself { name: String },
    #[error("class '{qualname}' is not decorated with @device.struct")]
    NotDecorated { qualname: String },
}

/// Why the `def` that a Python code object names is not in the file
/// ([`Module::locate`]).
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error("'{qualname}' is a lambda: a kernel or device function must be defined with def")]
    Lambda { qualname: String },
    #[error(
        "no definition of '{qualname}' in {file} (the source does not match the loaded code: was the file changed after it was imported?)"
    )]
    NotFound { qualname: String, file: String },
    #[error(
        "'{qualname}' is defined at line {lines} of {file}, not at line {line} where Python loaded it from (was the file changed after it was imported?)"
    )]
    OtherLine { qualname: String, lines: String, file: String, line: usize },
}

/// What a module-level name is bound to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The `cuda.device` namespace.
    DeviceModule,
    /// The `cuda` package (then `cuda.device`).
    CudaPackage,
    MathModule,
    /// `import numpy` (as np): its dtypes in device code.
    NumpyModule,
    /// A name imported from `cuda.device`.
    DeviceName(String),
}

pub struct Module<'a> {
    pub file: SourceFile,
    /// The file's statements (structs are found anywhere in them).
    pub body: &'a [Stmt],
    pub bindings: HashMap<String, Binding>,
    pub funcs: HashMap<String, FuncDef<'a>>,
    /// By key ([`StructDef::name`]): the name for a class of the top level,
    /// `qualname@line` for one found elsewhere ([`Module::resolve_struct`]).
    pub structs: HashMap<String, StructClass<'a>>,
    /// Other spellings of struct keys (`qualname@line` as Python gave it,
    /// with any line of the definition) and the key each resolved to.
    pub struct_alias: HashMap<String, String>,
    /// The key of each scanned class, by the address of its `ClassDef`.
    struct_keys: HashMap<usize, String>,
    /// Names of structs visible to the annotations of the struct being
    /// scanned (classes of its enclosing functions and classes), by key.
    lexical: Vec<HashMap<String, String>>,
    /// The classes being scanned (a struct cannot contain itself).
    scanning: Vec<usize>,
    pub globals: HashMap<String, GlobalConst>,
    /// Module-level names bound to other expressions (`DT = device.float32`,
    /// `NEW = device.sm_80 | device.sm_90`): device code that reads one
    /// evaluates the expression there.
    pub aliases: HashMap<String, &'a Expr>,
    /// Functions and classes of the module that are not device code
    /// (`true` for a class), for the error where device code uses one.
    pub undecorated: HashMap<String, bool>,
    pub diags: Vec<Diagnostic>,
    /// The key in `funcs` of each function of the compiled [`crate::Program`].
    pub func_keys: Vec<String>,
}

impl<'a> Module<'a> {
    pub fn scan(file: SourceFile, body: &'a [Stmt]) -> Self {
        let mut m = Module {
            file,
            body,
            bindings: HashMap::new(),
            funcs: HashMap::new(),
            structs: HashMap::new(),
            struct_alias: HashMap::new(),
            struct_keys: HashMap::new(),
            lexical: vec![],
            scanning: vec![],
            globals: HashMap::new(),
            aliases: HashMap::new(),
            undecorated: HashMap::new(),
            diags: vec![],
            func_keys: vec![],
        };
        for stmt in body {
            match stmt {
                Stmt::Import(imp) => {
                    for alias in &imp.names {
                        let name = alias.name.id.as_str();
                        let bound = alias.asname.as_ref().map(|a| a.id.as_str());
                        match (name, bound) {
                            ("cuda.device", Some(b)) => m.bind(b, Binding::DeviceModule),
                            ("cuda.device", None) | ("cuda", None) => m.bind("cuda", Binding::CudaPackage),
                            ("math", b) => m.bind(b.unwrap_or("math"), Binding::MathModule),
                            ("numpy", b) => m.bind(b.unwrap_or("numpy"), Binding::NumpyModule),
                            _ => {}
                        }
                    }
                }
                Stmt::ImportFrom(imp) => {
                    let module = imp.module.as_ref().map(|i| i.id.as_str()).unwrap_or("");
                    for alias in &imp.names {
                        let name = alias.name.id.as_str();
                        let bound = alias.asname.as_ref().map(|a| a.id.as_str()).unwrap_or(name);
                        match module {
                            "cuda" if name == "device" => m.bind(bound, Binding::DeviceModule),
                            "cuda.device" => m.bind(bound, Binding::DeviceName(name.to_owned())),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        for stmt in body {
            match stmt {
                Stmt::FunctionDef(f) => match m.function_kind(&f.decorator_list) {
                    Some((kind, interop)) => {
                        m.funcs.insert(f.name.id.to_string(), FuncDef { def: f, kind, interop, env: None });
                    }
                    None => {
                        m.undecorated.insert(f.name.id.to_string(), false);
                    }
                },
                Stmt::ClassDef(c) => {
                    if !m.scan_struct(c, c.name.id.to_string()) {
                        m.undecorated.insert(c.name.id.to_string(), true);
                    }
                }
                Stmt::Assign(a) => {
                    if let [Expr::Name(target)] = a.targets.as_slice() {
                        match m.const_expr(&a.value) {
                            Some(value) => m.globals.insert(target.id.to_string(), value).map(|_| ()),
                            None => m.aliases.insert(target.id.to_string(), &a.value).map(|_| ()),
                        };
                    }
                }
                Stmt::AnnAssign(a) => {
                    if let (Expr::Name(target), Some(value)) = (a.target.as_ref(), a.value.as_ref()) {
                        match m.const_expr(value) {
                            Some(c) => m.globals.insert(target.id.to_string(), c).map(|_| ()),
                            None => m.aliases.insert(target.id.to_string(), value).map(|_| ()),
                        };
                    }
                }
                _ => {}
            }
        }
        // Structs of the module's scope inside blocks (`if`, `try`, `with`,
        // loops): the last of a name that the top level does not define
        // takes the name, as Python's last binding does; others are
        // `name@line`.
        let mut blocks: Vec<&'a ast::StmtClassDef> = Vec::new();
        walk(body, "", &mut |qual, stmt| {
            if let Stmt::ClassDef(c) = stmt {
                if !qual.contains('.') && !body.iter().any(|s| std::ptr::eq(s, stmt)) {
                    blocks.push(c);
                }
            }
        });
        for (i, c) in blocks.iter().enumerate() {
            let name = c.name.id.as_str();
            let top = body.iter().any(|s| matches!(s, Stmt::ClassDef(d) if d.name.id.as_str() == name));
            let last = !blocks[i + 1..].iter().any(|d| d.name.id.as_str() == name);
            let key = if top || !last { format!("{name}@{}", m.first_line(c)) } else { name.to_owned() };
            m.scan_struct(c, key);
        }
        m
    }

    /// The struct that a key, a name of the top level, or a
    /// `qualname@line` that Python gave names.
    pub fn struct_named(&self, token: &str) -> Option<&StructClass<'a>> {
        self.structs.get(token).or_else(|| self.struct_alias.get(token).and_then(|k| self.structs.get(k)))
    }

    /// The key of the struct `token` names (see [`Module::struct_named`]),
    /// scanning a class defined anywhere in the file (in a function, a class
    /// body, a block) the first time: `qualname@line` names the class of
    /// that `__qualname__` whose definition holds `line` (its first line
    /// with decorators, or the line `@device.struct` ran at).
    pub fn resolve_struct(&mut self, token: &str) -> Result<String, StructError> {
        if self.structs.contains_key(token) {
            return Ok(token.to_owned());
        }
        if let Some(k) = self.struct_alias.get(token) {
            return Ok(k.clone());
        }
        let Some((qualname, line)) = token.rsplit_once('@').and_then(|(q, l)| Some((q, l.parse::<usize>().ok()?)))
        else {
            return Err(StructError::NotDefined { token: token.to_owned(), file: self.file.name.to_string() });
        };
        let c = self.locate_class(qualname, line)?;
        let key = self.struct_at(c, qualname)?;
        self.struct_alias.insert(token.to_owned(), key.clone());
        Ok(key)
    }

    /// The first line of a class, decorators included (Python's `co_firstlineno`).
    fn first_line(&self, c: &ast::StmtClassDef) -> usize {
        let start =
            c.decorator_list.iter().map(|x| x.range().start()).chain([c.range().start()]).min().unwrap_or_default();
        self.file.line_col(start).0
    }

    /// Every class of the file of `__qualname__` `qualname`, in source order.
    fn classes(&self, qualname: &str) -> Vec<&'a ast::StmtClassDef> {
        let mut found = Vec::new();
        walk(self.body, "", &mut |qual, stmt| {
            if let Stmt::ClassDef(c) = stmt {
                if qual == qualname {
                    found.push(c);
                }
            }
        });
        found
    }

    fn locate_class(&self, qualname: &str, line: usize) -> Result<&'a ast::StmtClassDef, StructError> {
        let found = self.classes(qualname);
        let span = |c: &ast::StmtClassDef| (self.first_line(c), self.file.line_col(c.range().end()).0);
        if let Some(c) = found.iter().find(|c| span(c).0 == line) {
            return Ok(c);
        }
        if let Some(c) = found.iter().find(|c| (span(c).0..=span(c).1).contains(&line)) {
            return Ok(c);
        }
        // `P = device.struct(P)` after the class: the nearest class above.
        if let Some(c) = found.iter().rev().find(|c| span(c).0 <= line) {
            return Ok(c);
        }
        match found.as_slice() {
            [c] => Ok(c),
            [] => Err(StructError::NoClass { qualname: qualname.to_owned(), file: self.file.name.to_string() }),
            _ => Err(StructError::NotAtLine { qualname: qualname.to_owned(), file: self.file.name.to_string(), line }),
        }
    }

    /// The key of struct class `c` (of `__qualname__` `qualname`), scanning
    /// it the first time: `qualname@line`, its field types resolved in the
    /// scopes that enclose it.
    fn struct_at(&mut self, c: &'a ast::StmtClassDef, qualname: &str) -> Result<String, StructError> {
        let addr = c as *const ast::StmtClassDef as usize;
        if let Some(k) = self.struct_keys.get(&addr) {
            return Ok(k.clone());
        }
        if self.scanning.contains(&addr) {
            return Err(StructError::ContainsItself { name: c.name.id.to_string() });
        }
        let line = self.first_line(c);
        let mut names = Vec::new();
        for stmt in &c.body {
            if let Stmt::AnnAssign(a) = stmt {
                expr_names(&a.annotation, &mut names);
            }
        }
        self.scanning.push(addr);
        let mut scope = HashMap::new();
        for n in names {
            if let Some((d, q)) = self.lexical_class(qualname, &n, line) {
                if let Ok(k) = self.struct_at(d, &q) {
                    scope.insert(n, k);
                }
            }
        }
        self.lexical.push(scope);
        let key = format!("{qualname}@{line}");
        let is_struct = self.scan_struct(c, key.clone());
        self.lexical.pop();
        self.scanning.pop();
        if !is_struct {
            return Err(StructError::NotDecorated { qualname: qualname.to_owned() });
        }
        Ok(key)
    }

    /// The class `name` that an annotation of class `qualname` (at `line`)
    /// sees in the functions and classes around it, innermost first (the
    /// last one defined above `line`, else the last); `None` at the module's
    /// scope, which the top-level names hold.
    fn lexical_class(&self, qualname: &str, name: &str, line: usize) -> Option<(&'a ast::StmtClassDef, String)> {
        let parts: Vec<&str> = qualname.split('.').collect();
        for k in (1..parts.len()).rev() {
            let q = format!("{}.{name}", parts[..k].join("."));
            let found = self.classes(&q);
            let pick = found.iter().rev().find(|c| self.first_line(c) < line).or(found.last());
            if let Some(c) = pick {
                return Some((c, q));
            }
        }
        None
    }

    fn bind(&mut self, name: &str, b: Binding) {
        self.bindings.insert(name.to_owned(), b);
    }

    /// The `cuda.device` entity an expression names (`device.kernel`,
    /// `cuda.device.kernel`, or `kernel` imported from cuda.device).
    pub fn device_entity(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::Name(n) => match self.bindings.get(n.id.as_str())? {
                Binding::DeviceName(x) => Some(x.clone()),
                _ => None,
            },
            Expr::Attribute(a) => {
                let base_is_device = match a.value.as_ref() {
                    Expr::Name(n) => self.bindings.get(n.id.as_str()) == Some(&Binding::DeviceModule),
                    Expr::Attribute(inner) => {
                        inner.attr.id.as_str() == "device"
                            && matches!(inner.value.as_ref(), Expr::Name(n) if self.bindings.get(n.id.as_str()) == Some(&Binding::CudaPackage))
                    }
                    _ => false,
                };
                base_is_device.then(|| a.attr.id.to_string())
            }
            _ => None,
        }
    }

    fn error(&mut self, range: ruff_text_size::TextRange, message: impl Into<String>, help: Option<&str>) {
        let mut d = Diagnostic::new(&self.file, range, message);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.diags.push(d);
    }

    /// (kind, interop) of a decorated function, reporting bad decorators.
    fn function_kind(&mut self, decorators: &[ast::Decorator]) -> Option<(FuncKind, bool)> {
        let mut found: Option<(FuncKind, bool, ruff_text_size::TextRange)> = None;
        for d in decorators {
            let (callee, call) = match &d.expression {
                Expr::Call(c) => (c.func.as_ref(), Some(c)),
                other => (other, None),
            };
            let kind = match self.device_entity(callee).as_deref() {
                Some("kernel") => FuncKind::Kernel,
                Some("func") => FuncKind::Func,
                _ => continue,
            };
            let mut interop = false;
            if let Some(call) = call {
                let name = if kind == FuncKind::Kernel { "kernel" } else { "func" };
                if !call.arguments.args.is_empty() {
                    self.error(
                        call.arguments.range(),
                        format!("the arguments of @device.{name} must be keywords"),
                        Some(&format!("write @device.{name}(interop=True)")),
                    );
                }
                for kw in &call.arguments.keywords {
                    match kw.arg.as_ref().map(|a| a.id.as_str()) {
                        Some("interop") => match &kw.value {
                            Expr::BooleanLiteral(b) => interop = b.value,
                            other => self.error(
                                other.range(),
                                format!("interop of @device.{name} must be True or False"),
                                Some("write interop=True or interop=False"),
                            ),
                        },
                        // Linked files: the Python package reads them (python/pydev/_interop.py).
                        Some("link") => {}
                        // .file/.loc line information, multiply-add contraction and extra
                        // passes: the Python package passes them as compile options.
                        Some("lineinfo") | Some("fmad") | Some("passes") | Some("plugins") => {}
                        Some(other) => {
                            self.error(
                                kw.range(),
                                format!("unknown keyword '{other}' of @device.{name}"),
                                Some("the keywords are interop=True|False, link=[paths], lineinfo=True|False, fmad=True|False, passes={point: passes} and plugins=[paths]"),
                            );
                        }
                        None => self.error(
                            kw.range(),
                            format!("@device.{name} does not take **kwargs"),
                            Some("write the keywords out, e.g. interop=True"),
                        ),
                    }
                }
            }
            if let Some((prev, _, _)) = found {
                if prev != kind {
                    self.error(
                        d.range(),
                        "a function cannot be both @device.kernel and @device.func",
                        Some("kernels are device-only; call a @device.func from the kernel instead"),
                    );
                    return None;
                }
            }
            found = Some((kind, interop, d.range()));
        }
        found.map(|(k, i, _)| (k, i))
    }

    /// Scans class `c` if it is a `@device.struct`, into `structs[key]`;
    /// whether it is one.
    fn scan_struct(&mut self, c: &'a ast::StmtClassDef, key: String) -> bool {
        let mut align = 0u64;
        let mut is_struct = false;
        for d in &c.decorator_list {
            let (callee, call) = match &d.expression {
                Expr::Call(call) => (call.func.as_ref(), Some(call)),
                other => (other, None),
            };
            if self.device_entity(callee).as_deref() != Some("struct") {
                continue;
            }
            is_struct = true;
            if let Some(call) = call.filter(|c| !c.arguments.args.is_empty()) {
                self.error(
                    call.arguments.range(),
                    "the arguments of @device.struct must be keywords",
                    Some("write @device.struct(align=16)"),
                );
            }
            for kw in call.map(|c| c.arguments.keywords.as_slice()).unwrap_or(&[]) {
                match (kw.arg.as_ref().map(|a| a.id.as_str()), &kw.value) {
                    // A literal or a module constant defined above the class.
                    (Some("align"), value) => match self.const_expr(value) {
                        Some(GlobalConst::Num(Const::Int(i))) => {
                            match u64::try_from(i).ok().filter(|a| a.is_power_of_two()) {
                                Some(a) => align = a,
                                None => self.error(
                                    value.range(),
                                    format!("align of struct '{}' must be a power of two, got {i}", c.name.id),
                                    Some("e.g. @device.struct(align=16)"),
                                ),
                            }
                        }
                        _ => self.error(
                            value.range(),
                            format!("align of struct '{}' must be an integer constant", c.name.id),
                            Some("use a literal or a module-level constant"),
                        ),
                    },
                    (Some(other), _) => self.error(
                        kw.range(),
                        format!("unknown keyword '{other}' of @device.struct"),
                        Some("the only keyword is align=N"),
                    ),
                    (None, _) => self.error(kw.range(), "@device.struct takes only align=N", None),
                }
            }
        }
        if !is_struct {
            return false;
        }
        let mut fields = Vec::new();
        let mut methods = HashMap::new();
        let mut defaults = HashMap::new();
        for stmt in &c.body {
            match stmt {
                Stmt::AnnAssign(a) => {
                    let Expr::Name(name) = a.target.as_ref() else { continue };
                    if fields.iter().any(|(f, _)| f == name.id.as_str()) {
                        self.error(
                            a.target.range(),
                            format!("field '{}' of struct '{}' is declared twice", name.id, c.name.id),
                            Some("give each field its own name"),
                        );
                        continue;
                    }
                    if let Some(value) = &a.value {
                        defaults.insert(name.id.to_string(), value.as_ref());
                    }
                    match self.annotation_type(&a.annotation) {
                        Some(t) => fields.push((name.id.to_string(), t)),
                        None => self.error(a.annotation.range(), format!("field '{}' of struct '{}' needs a heterogeneous type hint", name.id, c.name.id), Some("use int, float, bool, complex, a device number or vector type, or another @device.struct")),
                    }
                }
                Stmt::FunctionDef(f) => match self.function_kind(&f.decorator_list) {
                    Some((FuncKind::Func, _)) => {
                        methods.insert(f.name.id.to_string(), f);
                    }
                    Some((FuncKind::Kernel, _)) => self.error(
                        f.range(),
                        format!("method '{}' of struct '{}' cannot be a kernel", f.name.id, c.name.id),
                        Some("decorate methods with @device.func"),
                    ),
                    None => self.error(
                        f.name.range(),
                        format!("method '{}' of struct '{}' needs @device.func", f.name.id, c.name.id),
                        Some("decorate it with @device.func"),
                    ),
                },
                Stmt::Pass(_) | Stmt::Expr(_) => {}
                other => self.error(
                    other.range(),
                    format!("struct '{}' may hold only annotated fields and @device.func methods", c.name.id),
                    None,
                ),
            }
        }
        let def = Rc::new(StructDef { name: key.clone(), fields, align });
        self.struct_keys.insert(c as *const ast::StmtClassDef as usize, key.clone());
        self.structs.insert(key, StructClass { def, methods, defaults, method_envs: HashMap::new() });
        true
    }

    /// The type a field annotation or a dtype expression names.
    pub fn annotation_type(&self, e: &Expr) -> Option<Ty> {
        if let Some(entity) = self.device_entity(e) {
            return Ty::from_dtype_name(&entity).or_else(|| Ty::from_vector_name(&entity));
        }
        match e {
            Expr::Name(n) => match n.id.as_str() {
                "int" | "float" | "bool" | "complex" => Ty::from_dtype_name(n.id.as_str()),
                other => self
                    .lexical
                    .last()
                    .and_then(|scope| scope.get(other))
                    .and_then(|k| self.structs.get(k))
                    .or_else(|| self.structs.get(other))
                    .map(|s| Ty::Struct(s.def.clone())),
            },
            Expr::StringLiteral(s) => {
                self.annotation_type(&ruff_python_parser::parse_expression(s.value.to_str()).ok()?.into_expr())
            }
            // `device.Atomic(t)` / `device.Atomic(t, align=n)`: a field accessed atomically.
            Expr::Call(c) if self.device_entity(&c.func).as_deref() == Some("Atomic") => {
                let [t] = &*c.arguments.args else { return None };
                let mut align = 0;
                for kw in c.arguments.keywords.iter() {
                    match (kw.arg.as_ref().map(|a| a.id.as_str()), self.const_expr(&kw.value)) {
                        (Some("align"), Some(GlobalConst::Num(Const::Int(n)))) => {
                            align = u64::try_from(n).ok().filter(|n| n.is_power_of_two())?
                        }
                        _ => return None,
                    }
                }
                let t = self.annotation_type(t)?;
                (t.is_number() && t.size() <= 16).then(|| Ty::atomic_cell(t, align))
            }
            // `device.align(t, n)` with a constant power of two.
            Expr::Call(c)
                if self.device_entity(&c.func).as_deref() == Some("align") && c.arguments.keywords.is_empty() =>
            {
                let [t, n] = &*c.arguments.args else { return None };
                let GlobalConst::Num(Const::Int(n)) = self.const_expr(n)? else { return None };
                let n = u64::try_from(n).ok().filter(|n| n.is_power_of_two())?;
                Some(Ty::aligned(self.annotation_type(t)?, n))
            }
            _ => None,
        }
    }

    /// The `def` that a Python code object names, at any depth of the file
    /// (inside functions, methods, classes, loops, conditionals):
    /// `qualname` is its `co_qualname` (`make.<locals>.k`), `line` its
    /// `co_firstlineno` (the first decorator's line, else the `def`'s).
    pub fn locate(
        body: &'a [Stmt],
        file: &SourceFile,
        qualname: &str,
        line: usize,
    ) -> Result<&'a ast::StmtFunctionDef, LocateError> {
        let mut found = Vec::new();
        walk_defs(body, "", &mut |qual, def| {
            if qual == qualname {
                found.push(def);
            }
        });
        let first_line = |d: &ast::StmtFunctionDef| {
            let start =
                d.decorator_list.iter().map(|x| x.range().start()).chain([d.range().start()]).min().unwrap_or_default();
            file.line_col(start).0
        };
        if let Some(d) = found.iter().find(|d| first_line(d) == line) {
            return Ok(d);
        }
        let name = qualname.rsplit('.').next().unwrap_or(qualname);
        let qualname = qualname.to_owned();
        Err(if name == "<lambda>" {
            LocateError::Lambda { qualname }
        } else if found.is_empty() {
            LocateError::NotFound { qualname, file: file.name.to_string() }
        } else {
            let lines: Vec<String> = found.iter().map(|d| first_line(d).to_string()).collect();
            LocateError::OtherLine { qualname, lines: lines.join(", "), file: file.name.to_string(), line }
        })
    }

    /// A module-level constant expression, if the value is one.
    pub fn const_expr(&self, e: &Expr) -> Option<GlobalConst> {
        Some(match e {
            Expr::NumberLiteral(n) => GlobalConst::Num(match &n.value {
                ast::Number::Int(i) => Const::Int(i128::from(i.as_u64()?)),
                ast::Number::Float(f) => Const::Float(*f),
                ast::Number::Complex { .. } => return None,
            }),
            Expr::BooleanLiteral(b) => GlobalConst::Num(Const::Bool(b.value)),
            Expr::StringLiteral(s) => GlobalConst::Str(s.value.to_str().to_owned()),
            Expr::Tuple(t) => GlobalConst::Tuple(t.elts.iter().map(|e| self.const_expr(e)).collect::<Option<_>>()?),
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => match self.const_expr(&u.operand)? {
                GlobalConst::Num(Const::Int(i)) => GlobalConst::Num(Const::Int(-i)),
                GlobalConst::Num(Const::Float(f)) => GlobalConst::Num(Const::Float(-f)),
                _ => return None,
            },
            Expr::BinOp(b) => match (self.const_expr(&b.left)?, self.const_expr(&b.right)?) {
                (GlobalConst::Num(x), GlobalConst::Num(y)) => {
                    GlobalConst::Num(crate::consts::fold_binary(b.op, &x, &y)?)
                }
                _ => return None,
            },
            Expr::Name(n) => self.globals.get(n.id.as_str())?.clone(),
            _ => return None,
        })
    }
}

/// The names an annotation reads (in string annotations too).
fn expr_names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::StringLiteral(s) => {
            if let Ok(p) = ruff_python_parser::parse_expression(s.value.to_str()) {
                expr_names(&p.into_expr(), out);
            }
        }
        Expr::Attribute(a) => expr_names(&a.value, out),
        Expr::Subscript(s) => {
            expr_names(&s.value, out);
            expr_names(&s.slice, out);
        }
        Expr::Tuple(t) => t.elts.iter().for_each(|e| expr_names(e, out)),
        Expr::Call(c) => {
            expr_names(&c.func, out);
            c.arguments.args.iter().for_each(|e| expr_names(e, out));
            c.arguments.keywords.iter().for_each(|k| expr_names(&k.value, out));
        }
        _ => {}
    }
}

/// Calls `f(qualname, def)` for every `def` of `body` at any depth, with
/// Python's qualified names (`outer.<locals>.inner`, `Class.method`).
pub(crate) fn walk_defs<'a>(body: &'a [Stmt], prefix: &str, f: &mut dyn FnMut(&str, &'a ast::StmtFunctionDef)) {
    walk(body, prefix, &mut |qual, stmt| {
        if let Stmt::FunctionDef(d) = stmt {
            f(qual, d);
        }
    });
}

/// Calls `f(qualname, stmt)` for every `def` and `class` of `body` at any
/// depth (inside functions, classes, loops, conditionals, `try`, `with`,
/// `match`), with Python's qualified names.
pub(crate) fn walk<'a>(body: &'a [Stmt], prefix: &str, f: &mut dyn FnMut(&str, &'a Stmt)) {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(d) => {
                let qual = format!("{prefix}{}", d.name.id);
                f(&qual, stmt);
                walk(&d.body, &format!("{qual}.<locals>."), f);
            }
            Stmt::ClassDef(c) => {
                let qual = format!("{prefix}{}", c.name.id);
                f(&qual, stmt);
                walk(&c.body, &format!("{qual}."), f);
            }
            Stmt::If(s) => {
                walk(&s.body, prefix, f);
                for c in &s.elif_else_clauses {
                    walk(&c.body, prefix, f);
                }
            }
            Stmt::For(s) => {
                walk(&s.body, prefix, f);
                walk(&s.orelse, prefix, f);
            }
            Stmt::While(s) => {
                walk(&s.body, prefix, f);
                walk(&s.orelse, prefix, f);
            }
            Stmt::With(s) => walk(&s.body, prefix, f),
            Stmt::Try(s) => {
                walk(&s.body, prefix, f);
                for h in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    walk(&h.body, prefix, f);
                }
                walk(&s.orelse, prefix, f);
                walk(&s.finalbody, prefix, f);
            }
            Stmt::Match(s) => {
                for c in &s.cases {
                    walk(&c.body, prefix, f);
                }
            }
            _ => {}
        }
    }
}
