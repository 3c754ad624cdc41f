//! Calls: the dispatch over what is called, and calls of `@device.func`
//! functions and struct methods (arguments bound to parameters, the callee
//! specialised for their types) and of struct classes (constructors).

use super::operands;
use crate::{
    ir::{v, Const, Val},
    lower::{describe, ClosureBody, Item, Lowerer, R},
    types::{Ty, INT32},
};
use pydev_dialect::ops::generic;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};
use std::rc::Rc;

impl Lowerer<'_, '_, '_> {
    pub(super) fn call(&mut self, c: &ast::ExprCall) -> R<Item> {
        let callee = self.expr(&c.func)?;
        self.at(c.range());
        match callee {
            Item::Closure(body) => {
                if !c.arguments.args.is_empty() || !c.arguments.keywords.is_empty() {
                    let what = match body.as_ref() {
                        ClosureBody::Def(f) => format!("local function '{}'", f.name.id),
                        ClosureBody::Lambda(_) => "this lambda".to_owned(),
                    };
                    return self.err_help(
                        c.range(),
                        format!("{what} takes no arguments"),
                        "local functions see the locals of the enclosing function; call it without arguments",
                    );
                }
                self.call_closure(&body, c.range())
            }
            Item::Func(name) => {
                let def = self.c.m.funcs.get(&name).map(|f| f.def);
                let args = match def {
                    Some(def) => self.bind_user_args(def, 0, c)?,
                    None => self.positional_values(c)?,
                };
                self.call_user(&name, None, args, c.range())
            }
            Item::Method(obj, method) => self.call_method(*obj, &method, c),
            Item::StructClass(def) => self.construct_struct(&def, c),
            // `device.align(S, n)` of a struct class constructs like `S`.
            Item::Dtype(Ty::Struct(def)) if Ty::Struct(def.clone()).aligned_value().is_none() => {
                self.construct_struct(&def, c)
            }
            Item::Device(name) => self.device_call(&name, c),
            Item::Dtype(t) => self.dtype_call(&t, c),
            Item::Builtin(b) => self.builtin_call(b, c),
            Item::Math(f) => self.math_call(&f, c),
            other => self.err(c.func.range(), format!("{} is not callable in device code", describe(&other))),
        }
    }

    /// The arguments of a call to a `@device.func` (or a method, whose
    /// `self` is `skip`ped) in parameter order: positional arguments, then
    /// keywords by parameter name, then the defaults (constant expressions)
    /// of the parameters left. Too many positional arguments are left to
    /// the arity check of the callee.
    pub(super) fn bind_user_args(&mut self, def: &ast::StmtFunctionDef, skip: usize, c: &ast::ExprCall) -> R<Vec<Val>> {
        let p = &def.parameters;
        if p.vararg.is_some() || p.kwarg.is_some() || !p.kwonlyargs.is_empty() || !p.posonlyargs.is_empty() {
            return self.err_help(
                p.range(),
                format!("'{}' may only have plain positional parameters", def.name.id),
                "*args, **kwargs and keyword-only parameters are not supported in device code",
            );
        }
        let params: Vec<&ast::ParameterWithDefault> = p.args.iter().skip(skip).collect();
        // Which parameters are ConstExpr (they also take tuples of constants as such).
        let const_expr: Vec<bool> =
            params.iter().map(|p| p.parameter.annotation.as_deref().is_some_and(|a| self.c.is_const_expr(a))).collect();
        let is_const = |i: usize| const_expr.get(i).copied().unwrap_or(false);
        let given = &c.arguments.args;
        if c.arguments.keywords.is_empty() && given.len() >= params.len() {
            return c.arguments.args.iter().enumerate().map(|(i, a)| self.argument(a, is_const(i))).collect();
        }
        let what = if skip == 0 { def.name.id.to_string() } else { format!("method {}", def.name.id) };
        let mut slots: Vec<Option<Val>> = vec![None; params.len().max(given.len())];
        for (i, a) in given.iter().enumerate() {
            slots[i] = Some(self.argument(a, is_const(i))?);
        }
        for k in &c.arguments.keywords {
            let Some(name) = k.arg.as_ref().map(|a| a.id.as_str()) else {
                return self.err(k.range(), "**kwargs unpacking is not supported in device code");
            };
            let Some(i) = params.iter().position(|p| p.parameter.name.id.as_str() == name) else {
                let names: Vec<String> = params.iter().map(|p| format!("'{}'", p.parameter.name.id)).collect();
                return self.err_help(
                    k.range(),
                    format!("{what}() has no parameter '{name}'"),
                    format!(
                        "its parameters are {}",
                        if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                    ),
                );
            };
            if slots[i].is_some() {
                return self.err(k.range(), format!("{what}() got two values for parameter '{name}'"));
            }
            slots[i] = Some(self.argument(&k.value, is_const(i))?);
        }
        let mut out = Vec::new();
        for (i, (slot, p)) in slots.into_iter().zip(params.iter().map(Some).chain(std::iter::repeat(None))).enumerate()
        {
            match (slot, p) {
                (Some(x), _) => out.push(x),
                (None, Some(p)) => {
                    let name = &p.parameter.name.id;
                    let Some(default) = &p.default else {
                        return self.err_help(
                            c.range(),
                            format!("{what}() is missing a value for parameter '{name}'"),
                            "pass it positionally or by keyword",
                        );
                    };
                    let Some(value) = self.c.m.const_expr(default) else {
                        return self.err_help(
                            default.range(),
                            format!("the default value of parameter '{name}' of {what}() is not a constant expression"),
                            "use a literal or a module-level constant",
                        );
                    };
                    let item = self.global_value(&value, c.range())?;
                    out.push(self.pass_item(item, is_const(i), c.range())?);
                }
                (None, None) => unreachable!("a slot per parameter or positional argument"),
            }
        }
        Ok(out)
    }

    /// A call argument of a `@device.func`: a value, or `None`, which is
    /// passed as nothing (the callee is specialised for NoneType and sees
    /// the constant None), or a compile-time object (see [`Self::pass_item`]).
    fn argument(&mut self, e: &Expr, const_expr: bool) -> R<Val> {
        let item = self.expr(e)?;
        self.pass_item(item, const_expr, e.range())
    }

    /// How an item is passed to a parameter. Target descriptions, dtypes,
    /// strings and SM selectors are compile-time objects with no run-time
    /// value: they are passed as a [`Ty::Static`] (nothing in IR) and the
    /// callee is specialised on them, so a `ConstExpr` parameter can be a
    /// `target(...)` description or a dtype. A tuple of constants passed to
    /// a `ConstExpr` parameter is one too (a shape); numbers keep their
    /// constant value through the ConstExpr specialisation.
    fn pass_item(&mut self, item: Item, const_expr: bool, range: TextRange) -> R<Val> {
        if matches!(item, Item::NoneV) {
            return Ok(Val { id: self.b.fresh(), ty: Ty::None, weak: false, konst: None });
        }
        let by_object = match &item {
            Item::Val(_) => false,
            Item::Tuple(_) => const_expr,
            _ => true,
        };
        if by_object {
            if let Some(obj) = crate::lower::static_obj(&item) {
                return Ok(Val { id: self.b.fresh(), ty: Ty::Static(Rc::new(obj)), weak: false, konst: None });
            }
        }
        self.materialize(&item, range)
    }

    pub(crate) fn positional_values(&mut self, c: &ast::ExprCall) -> R<Vec<Val>> {
        if let Some(k) = c.arguments.keywords.first() {
            return self.err(k.range(), "keyword arguments are not supported in this call");
        }
        c.arguments.args.iter().map(|a| self.value(a)).collect()
    }

    /// [`Self::positional_values`] with WarpMasks as the int32s they are
    /// (spec: WarpMask), for the builtins that take numbers.
    pub(super) fn positional_numbers(&mut self, c: &ast::ExprCall) -> R<Vec<Val>> {
        let vals = self.positional_values(c)?;
        vals.into_iter()
            .map(|x| if x.ty == Ty::WarpMask { self.convert(&x, &INT32, c.range()) } else { Ok(x) })
            .collect()
    }

    pub(crate) fn call_user(
        &mut self,
        name: &str,
        self_struct: Option<&str>,
        args: Vec<Val>,
        range: TextRange,
    ) -> R<Item> {
        if self_struct.is_none() && self.c.m.funcs.get(name).is_some_and(|f| f.kind == crate::module::FuncKind::Kernel)
        {
            return self.err_help(
                range,
                format!("'{name}' is a kernel and cannot be called from device code"),
                "launch kernels from the host with device.launch",
            );
        }
        // A declared interoperable function (body `...`): a C call (interop.rs).
        if let Some(item) = self.call_declared(name, self_struct, &args, range) {
            return item;
        }
        let types: Vec<Ty> = args.iter().map(|a| a.ty.clone()).collect();
        let m = self.c.m;
        let class = self_struct.and_then(|s| m.structs.get(s));
        // A compile-time object is constant (its type is the object, on
        // which the callee is specialised): the ConstExpr check takes it.
        let consts: Vec<Option<Const>> = args.iter().map(|a| a.konst.clone()).collect();
        let (symbol, ret) = self.c.specialize(name, class, &types, &consts, range)?;
        self.at(range);
        // None is passed as nothing, or to an interop function as a null void*.
        let interop = self_struct.is_none() && m.funcs.get(name).is_some_and(|f| f.interop);
        let mut names = Vec::new();
        let mut arg_types = Vec::new();
        for a in args.iter().filter(|a| !matches!(a.ty, Ty::Static(_))) {
            if a.ty != Ty::None {
                names.push(v(a.id));
                arg_types.push(a.ty.mlir());
            } else if interop {
                let null = self.b.op1("llvm.mlir.zero : !llvm.ptr", Ty::Raw("!llvm.ptr"));
                names.push(v(null.id));
                arg_types.push("!llvm.ptr".to_owned());
            }
        }
        match ret {
            None => {
                self.b
                    .op(&[], &format!("func.call @{symbol}({}) : ({}) -> ()", names.join(", "), arg_types.join(", ")));
                Ok(Item::NoneV)
            }
            Some(t) => Ok(Item::Val(self.b.op1(
                &format!("func.call @{symbol}({}) : ({}) -> {}", names.join(", "), arg_types.join(", "), t.mlir()),
                t,
            ))),
        }
    }

    fn construct_struct(&mut self, def: &Rc<crate::types::StructDef>, c: &ast::ExprCall) -> R<Item> {
        if def.holds_atomics() {
            return self.err_help(c.range(), format!("struct '{}' holds device.Atomic fields, so it lives in memory and cannot be built as a value in device code", def.short_name()), "keep it in an array (global or device.shared_array) and use m = array[i]");
        }
        let n = def.fields.len();
        let mut slots: Vec<Option<Val>> = vec![None; n];
        if c.arguments.args.len() > n {
            return self.err(
                c.range(),
                format!(
                    "struct '{}' has {n} fields but {} arguments were given",
                    def.short_name(),
                    c.arguments.args.len()
                ),
            );
        }
        for (i, a) in c.arguments.args.iter().enumerate() {
            slots[i] = Some(self.value(a)?);
        }
        for k in &c.arguments.keywords {
            let Some(name) = &k.arg else { return self.err(k.range(), "**kwargs is not supported in device code") };
            let Some(i) = def.fields.iter().position(|(f, _)| f == name.id.as_str()) else {
                return self.err(k.range(), format!("struct '{}' has no field '{}'", def.name, name.id));
            };
            if slots[i].is_some() {
                return self.err(k.range(), format!("field '{}' is given twice", name.id));
            }
            slots[i] = Some(self.value(&k.value)?);
        }
        let mut vals = Vec::new();
        for (i, (field, ty)) in def.fields.iter().enumerate() {
            let x = match slots[i].take() {
                Some(x) => x,
                None => {
                    let m = self.c.m;
                    let Some(default) = m.structs.get(&def.name).and_then(|s| s.defaults.get(field)) else {
                        return self.err_help(
                            c.range(),
                            format!("struct '{}' needs a value for field '{field}'", def.short_name()),
                            format!("pass it positionally or as {field}=..."),
                        );
                    };
                    let Some(value) = m.const_expr(default) else {
                        return self.err_help(
                            default.range(),
                            format!(
                                "the default of field '{field}' of struct '{}' is not a constant expression",
                                def.short_name()
                            ),
                            "use a literal or a module-level constant",
                        );
                    };
                    let item = self.global_value(&value, c.range())?;
                    self.materialize(&item, c.range())?
                }
            };
            vals.push(self.coerce(&x, ty, c.range(), &format!("field '{field}'"))?);
        }
        let ty = Ty::Struct(def.clone());
        self.at(c.range());
        Ok(Item::Val(self.b.op1(&generic::struct_create(&operands(&vals), &ty.mlir()), ty)))
    }
}
