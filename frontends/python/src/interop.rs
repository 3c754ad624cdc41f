//! Interoperable functions declared in Python and defined in linked code
//! (spec: Python and CUDA C++; `@device.func(interop=True, link=[...])`
//! whose body is only `...`, a docstring allowed).
//!
//! A declaration's parameter and return annotations give its C signature;
//! a call converts each argument to its parameter's type (as a typed call
//! does) and calls the C symbol, which a linked file defines:
//!
//!   call f(a, b) with f declared (x: S, y: int32) -> float32
//!     => func.func private @f(S, i32) -> f32      (once per module)
//!        func.call @f(%a, %b')                   (%b' = b converted to int32)
//!
//! On the host target the callee is `@__pydev_cabi_f`: an adapter that the
//! runtime writes next to the linked files
//! (`runtime/src/cabi_adapters.rs`) takes the LLVM register form of the
//! arguments and calls `f` with the C calling convention of the CUDA C++
//! types (aggregates by value as the platform's C ABI passes them), which
//! LLVM's own lowering of first-class aggregates does not follow. On cuda
//! the declaration is marked `pydev.interop`, and `pydev-lower-aggregates`
//! gives it (and the calls) the CUDA C++ layout of `.param`s, as nvcc's.

use crate::{
    ir::{v, Val},
    lower::{Item, Lowerer, R},
    types::Ty,
};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

/// The symbol prefix of the host adapters (`runtime/src/cabi_adapters.rs`),
/// defined once in the dialect's host ABI.
pub const HOST_ADAPTER_PREFIX: &str = pydev_dialect::abi::HOST_ADAPTER_PREFIX;

/// Whether `def`'s body is only `...` (after an optional docstring): a
/// declaration of a function defined elsewhere.
pub fn is_declaration(def: &ast::StmtFunctionDef) -> bool {
    let body: &[Stmt] = &def.body;
    let body = match body.first() {
        Some(Stmt::Expr(e)) if matches!(*e.value, Expr::StringLiteral(_)) && body.len() > 1 => &body[1..],
        _ => body,
    };
    matches!(body, [Stmt::Expr(e)] if matches!(*e.value, Expr::EllipsisLiteral(_)))
}

/// Why `ty` cannot cross the C ABI, or None when it can.
pub fn c_abi_problem(ty: &Ty) -> Option<String> {
    match ty {
        Ty::Bool | Ty::Int { .. } | Ty::Float(_) => None,
        Ty::Vector { elem, .. } => c_abi_problem(elem),
        Ty::Tuple(items) => items.iter().find_map(c_abi_problem),
        Ty::Struct(def) if def.holds_atomics() => Some(format!(
            "struct '{}' holds device.Atomic fields, so it lives in memory and has no value to pass",
            def.short_name()
        )),
        Ty::Struct(def) => def.fields.iter().find_map(|(_, t)| c_abi_problem(t)),
        Ty::Array { dtype, .. } => c_abi_problem(dtype),
        Ty::Complex(_) => Some("complex numbers have no C type of the spec's tables to cross as".into()),
        other => Some(format!("{other} has no C representation")),
    }
}

/// The type an annotation of an interoperable function names: what a
/// struct field may be (`annotation_type`), `tuple[T, ...]`, or a string in
/// the signature syntax (`"float32[::1]"`, `"(int32, float32)"`).
pub fn declared_type(m: &crate::module::Module, ann: &Expr) -> Option<Ty> {
    if let Some(t) = m.annotation_type(ann) {
        return Some(t);
    }
    match ann {
        Expr::StringLiteral(s) => match crate::signature::parse_signature(m, s.value.to_str()).ok()?.as_slice() {
            [t] => Some(t.clone()),
            _ => None,
        },
        Expr::Subscript(s) if matches!(&*s.value, Expr::Name(n) if n.id.as_str() == "tuple") => {
            let items: Vec<&Expr> = match &*s.slice {
                Expr::Tuple(t) => t.elts.iter().collect(),
                one => vec![one],
            };
            items.into_iter().map(|e| declared_type(m, e)).collect::<Option<Vec<_>>>().map(Ty::Tuple)
        }
        _ => None,
    }
}

impl<'c, 'm, 'a> Lowerer<'c, 'm, 'a> {
    fn declared_type(&self, ann: &Expr) -> Option<Ty> {
        declared_type(self.c.m, ann)
    }

    /// A call of `name` when it is a declared interoperable function (None
    /// when it is not one: the caller compiles its body as usual).
    pub fn call_declared(
        &mut self,
        name: &str,
        self_struct: Option<&str>,
        args: &[Val],
        range: TextRange,
    ) -> Option<R<Item>> {
        if self_struct.is_some() {
            return None;
        }
        let f = self.c.m.funcs.get(name)?;
        if !f.interop || !is_declaration(f.def) {
            return None;
        }
        Some(self.call_declared_def(f.def, args, range))
    }

    fn call_declared_def(&mut self, def: &'a ast::StmtFunctionDef, args: &[Val], range: TextRange) -> R<Item> {
        let name = def.name.id.to_string();
        let params = &def.parameters;
        if params.vararg.is_some()
            || params.kwarg.is_some()
            || !params.kwonlyargs.is_empty()
            || !params.posonlyargs.is_empty()
        {
            return self.err_help(
                params.range(),
                format!(
                    "the interoperable function '{name}' is declared with *args, **kwargs or keyword-only parameters"
                ),
                "a C function takes plain positional parameters",
            );
        }
        // The signature, from the annotations.
        let mut types = Vec::new();
        for p in &params.args {
            let pname = p.parameter.name.id.as_str();
            let Some(ann) = &p.parameter.annotation else {
                return self.err_help(
                    p.range(),
                    format!("parameter '{pname}' of the declared interoperable function '{name}' has no annotation"),
                    "a declaration (a body of only `...`) gives its C signature by annotations, e.g. x: device.float32",
                );
            };
            let Some(ty) = self.declared_type(ann) else {
                return self.err_help(ann.range(), format!("the annotation of parameter '{pname}' of '{name}' does not name a type"), "use a number type, vector type, @device.struct class, tuple[...], or a string in the signature syntax (\"float32[::1]\")");
            };
            if let Some(why) = c_abi_problem(&ty) {
                return self.err(ann.range(), format!("parameter '{pname}' of the declared interoperable function '{name}' cannot cross the C ABI: {why}"));
            }
            types.push(ty);
        }
        let ret = match def.returns.as_deref() {
            None => {
                return self.err_help(
                    def.name.range(),
                    format!("the declared interoperable function '{name}' has no return annotation"),
                    "annotate the result type, or -> None for void",
                );
            }
            Some(Expr::NoneLiteral(_)) => None,
            Some(ann) => {
                let Some(ty) = self.declared_type(ann) else {
                    return self.err(ann.range(), format!("the return annotation of '{name}' does not name a type"));
                };
                if let Some(why) = c_abi_problem(&ty) {
                    return self.err(
                        ann.range(),
                        format!(
                            "the result of the declared interoperable function '{name}' cannot cross the C ABI: {why}"
                        ),
                    );
                }
                if matches!(ty, Ty::Array { .. }) {
                    return self.err(ann.range(), format!("the declared interoperable function '{name}' returns an array, which device code cannot own"));
                }
                Some(ty)
            }
        };
        if args.len() != types.len() {
            return self.err(range, format!("'{name}' takes {} arguments, {} given", types.len(), args.len()));
        }
        let mut names = Vec::new();
        for (i, (a, t)) in args.iter().zip(&types).enumerate() {
            let pname = params.args[i].parameter.name.id.to_string();
            let x = self.coerce(a, t, range, &format!("argument '{pname}' of '{name}'"))?;
            names.push(v(x.id));
        }
        // On cuda the call is to `name` itself: `pydev-lower-aggregates`
        // gives interop declarations of a gpu.module (and the calls) the
        // CUDA C++ layout where LLVM's differs (3-lane vectors, align=).
        let cuda = matches!(self.c.target, Some(Some(_)));
        let symbol = if self.c.target == Some(None) { format!("{HOST_ADAPTER_PREFIX}{name}") } else { name.clone() };
        let inputs: Vec<String> = types.iter().map(Ty::mlir).collect();
        let result = ret.as_ref().map(Ty::mlir);
        let fn_type = format!("({}) -> ({})", inputs.join(", "), result.clone().unwrap_or_default());
        let head = format!("func.func private @{symbol}(");
        if !self.c.functions.iter().any(|f| f.starts_with(&head)) {
            let loc = self.c.m.file.mlir_loc(def.range());
            let attrs = if cuda { " attributes {pydev.interop}" } else { "" };
            self.c.functions.push(format!("func.func private @{symbol}{}{attrs} {loc}\n", &fn_type[..]));
        }
        self.at(range);
        match ret {
            None => {
                self.b.op(&[], &format!("func.call @{symbol}({}) : {fn_type}", names.join(", ")));
                Ok(Item::NoneV)
            }
            Some(t) => Ok(Item::Val(self.b.op1(&format!("func.call @{symbol}({}) : {fn_type}", names.join(", ")), t))),
        }
    }
}
