//! `pydev-lower-aggregates`: vectors, structs and tuples to LLVM values.
//!
//! Expects: arrays already lowered (`pydev-lower-arrays`), so aggregates
//! live in registers (SSA values, block arguments, function arguments and
//! results); element types are machine types (`pydev-promote-types` ran).
//! Guarantees: no pydev vector, struct or tuple type or op remains: every
//! value of such a type, block argument and function type is retyped in place
//! to its register form, and the ops become `llvm.insertvalue`/
//! `extractvalue`/`insertelement`/`extractelement`. Memory layout (CUDA C++
//! offsets and alignment) is `pydev-lower-arrays`' business; registers have
//! none.
//! Does not fire on IR without pydev aggregates.
//!
//! Rewrites:
//!   !pydev.vector<N x T>                =>  vector<N x T>
//!   !pydev.struct<"S", {f: T, ...}>     =>  !llvm.struct<(T, ...)>
//!   !pydev.tuple<T, ...>                =>  !llvm.struct<(T, ...)>
//!   vector_create(a, b, ..)             =>  insertelement chain on llvm.mlir.undef
//!   vector_extract %v[%i]               =>  llvm.extractelement %v[%i : i32]
//!   vector_insert %x, %v[%i]            =>  llvm.insertelement %x, %v[%i : i32]
//!   struct_create|tuple_create(a, ..)   =>  insertvalue chain on llvm.mlir.undef
//!   struct_extract %s["f"]              =>  llvm.extractvalue %s[index of f]
//!   struct_insert %x, %s["f"]           =>  llvm.insertvalue %x, %s[index of f]
//!   tuple_extract|tuple_insert [k]      =>  llvm.extractvalue|insertvalue [k]

use crate::{
    capi,
    ir::{external_pass, Builder, PassId},
    PassInfo,
};
use melior::{
    ir::{
        attribute::DenseI64ArrayAttribute,
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
        OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use pydev_dialect::types;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-aggregates",
    summary: "lower pydev vectors, structs and tuples to LLVM register values",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

const OPS: &[&str] = &[
    "pydev.vector_create", "pydev.vector_extract", "pydev.vector_insert", "pydev.struct_create", "pydev.struct_extract",
    "pydev.struct_insert", "pydev.tuple_create", "pydev.tuple_extract", "pydev.tuple_insert",
];

/// The register form of a type (unchanged for types without aggregates).
pub fn register_type<'c>(ctx: &'c Context, ty: Type<'c>) -> Type<'c> {
    let parse = |text: String| Type::parse(ctx, &text).unwrap_or_else(|| panic!("pydev built a bad type: {text}"));
    if let Some((lanes, e)) = types::vector_parts(ty) {
        return parse(format!("vector<{lanes}x{}>", register_type(ctx, e)));
    }
    let members: Option<Vec<Type>> = types::struct_parts(ty).map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect()).or_else(|| types::tuple_parts(ty));
    if let Some(members) = members {
        let inner: Vec<String> = members.into_iter().map(|t| register_type(ctx, t).to_string()).collect();
        return parse(format!("!llvm.struct<({})>", inner.join(", ")));
    }
    if let Ok(f) = FunctionType::try_from(ty) {
        let inputs: Vec<Type> = (0..f.input_count()).map(|i| register_type(ctx, f.input(i).expect("input"))).collect();
        let results: Vec<Type> = (0..f.result_count()).map(|i| register_type(ctx, f.result(i).expect("result"))).collect();
        return FunctionType::new(ctx, &inputs, &results).into();
    }
    ty
}

/// Index of `field` in the struct type `ty` (recorded before retyping).
fn field_index(ty: Type, field: &str) -> Option<i64> {
    types::struct_parts(ty)?.1.iter().position(|(n, _)| n == field).map(|i| i as i64)
}

fn run(root: OperationRef) -> Result<(), ()> {
    run_on(capi::detach(root))
}

fn run_on<'c>(root: OperationRef<'c, 'c>) -> Result<(), ()> {
    let ctx = capi::context(root);
    // 1. Record what the ops need from the pydev types before retyping.
    let mut pending = Vec::new();
    for op in capi::ops_named(root, OPS) {
        let index = match op.name().as_string_ref().as_str().unwrap_or_default() {
            "pydev.struct_extract" | "pydev.struct_insert" => {
                let aggregate = if op.name().as_string_ref().as_str() == Ok("pydev.struct_extract") { op.operand(0) } else { op.operand(1) };
                let field = op.attribute("field").ok().and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok()).map(|s| s.value().to_owned());
                field.and_then(|f| aggregate.ok().and_then(|v| field_index(v.r#type(), &f)))
            }
            "pydev.tuple_extract" | "pydev.tuple_insert" => op.attribute("index").ok().and_then(capi::integer_attr_value),
            _ => None,
        };
        pending.push((op, index));
    }
    // 2. Retype every value, block argument and function type.
    crate::ir::retype_all(root, |t| register_type(ctx, t));
    // 3. Rewrite the ops on the retyped values.
    for (op, index) in pending {
        let b = Builder::before(op);
        let operand = |i: usize| capi::value(op.operand(i).expect("verified operand"));
        let result_type = op.result(0).expect("one result").r#type();
        let pos = |k: i64| b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k]).into());
        let lane = |v: Value<'c, 'c>| -> Value<'c, 'c> {
            let i32t: Type = IntegerType::new(b.ctx, 32).into();
            let ty = v.r#type();
            if ty == i32t {
                return capi::value(v);
            }
            if ty.is_index() {
                return b.value("arith.index_cast", &[v], i32t, &[]);
            }
            let w = IntegerType::try_from(ty).map(|i| i.width()).unwrap_or(32);
            b.value(if w > 32 { "arith.trunci" } else { "arith.extsi" }, &[v], i32t, &[])
        };
        let name = op.name();
        let v = match name.as_string_ref().as_str().unwrap_or_default() {
            "pydev.vector_create" => {
                let mut acc = b.value("llvm.mlir.undef", &[], result_type, &[]);
                for (k, e) in op.operands().enumerate() {
                    let k = b.const_int(IntegerType::new(b.ctx, 32).into(), k as i64);
                    acc = b.value("llvm.insertelement", &[acc, capi::value(e), k], result_type, &[]);
                }
                acc
            }
            "pydev.vector_extract" => {
                let i = lane(operand(1));
                b.value("llvm.extractelement", &[operand(0), i], result_type, &[])
            }
            "pydev.vector_insert" => {
                let i = lane(operand(2));
                b.value("llvm.insertelement", &[operand(1), operand(0), i], result_type, &[])
            }
            "pydev.struct_create" | "pydev.tuple_create" => {
                let mut acc = b.value("llvm.mlir.undef", &[], result_type, &[]);
                for (k, e) in op.operands().enumerate() {
                    acc = b.value("llvm.insertvalue", &[acc, capi::value(e)], result_type, &[pos(k as i64)]);
                }
                acc
            }
            "pydev.struct_extract" | "pydev.tuple_extract" => {
                let Some(k) = index else {
                    capi::emit_error(op.location(), "unknown field or index");
                    return Err(());
                };
                b.value("llvm.extractvalue", &[operand(0)], result_type, &[pos(k)])
            }
            _ => {
                let Some(k) = index else {
                    capi::emit_error(op.location(), "unknown field or index");
                    return Err(());
                };
                b.value("llvm.insertvalue", &[operand(1), operand(0)], result_type, &[pos(k)])
            }
        };
        b.replace(op, &[v]);
    }
    Ok(())
}
