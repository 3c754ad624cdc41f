//! `pydev-lower-aggregates`: vectors, structs and tuples to LLVM values.
//!
//! Expects: arrays already lowered (`pydev-lower-arrays`), so aggregates
//! live in registers (SSA values, block arguments, function arguments and
//! results); element types are machine types (`pydev-promote-types` ran).
//! Guarantees: no pydev vector, struct or tuple type or op remains: every
//! value of such a type, block argument and function type is retyped in place
//! to its register form (kernel parameters, and interop functions'
//! parameters and results in a gpu.module, to their CUDA C++ ABI form, as
//! below), and the ops become `llvm.insertvalue`/
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
//!   kernel parameters                   =>  their CUDA C++ layout where LLVM's differs (3-lane and
//!     (gpu.func kernels; on the host        32-byte vectors as arrays, explicit padding for align=),
//!     pydev.kernel funcs and their          rebuilt into registers at entry (`abi_of`; the block
//!     @__pydev_block_k loops)               loops pass them on to @k as they are)
//!   gpu.func kernel with a struct/tuple =>  gpu.func attributes {pydev.param_aligns = array<i64: .., A, ..>}
//!     parameter CUDA aligns beyond its      (A = its CUDA alignment, 0 for the other parameters);
//!     members (align=, device.align)        pydev-align-params makes it `.param .align A`
//!   interop func.func @f in a gpu.module =>  the same CUDA C++ layout for its parameters and result
//!     (CUDA C++ calls it or defines it:     (a definition rebuilds registers at entry and converts
//!     its symbol is `extern "C"`)           back before each return), `pydev.param_aligns` likewise;
//!                                           each func.call @f converts its arguments to the ABI types
//!                                           and the result back (`interop_abi`). Host interop
//!                                           functions keep their form (the C adapters of
//!                                           `pydev._interop`).
//!   interop result CUDA aligns beyond   =>  a leading !llvm.array<0 x vector<A x i8>> member (`result_abi`):
//!     its members (align=)                  NVPTX declares `.param .align A .b8 func_retval0[size]`

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
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
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::types;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-aggregates",
    summary: "lower pydev vectors, structs and tuples to LLVM register values",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

const OPS: &[&str] = &[
    ops::VectorCreateOperation::NAME,
    ops::VectorExtractOperation::NAME,
    ops::VectorInsertOperation::NAME,
    ops::StructCreateOperation::NAME,
    ops::StructExtractOperation::NAME,
    ops::StructInsertOperation::NAME,
    ops::TupleCreateOperation::NAME,
    ops::TupleExtractOperation::NAME,
    ops::TupleInsertOperation::NAME,
];

/// The register form of a type (unchanged for types without aggregates).
pub fn register_type<'c>(ctx: &'c Context, ty: Type<'c>) -> Type<'c> {
    let parse = |text: String| Type::parse(ctx, &text).unwrap_or_else(|| panic!("pydev built a bad type: {text}"));
    if let Some((lanes, e)) = types::vector_parts(ty) {
        return parse(format!("vector<{lanes}x{}>", register_type(ctx, e)));
    }
    let members: Option<Vec<Type>> = types::struct_parts(ty)
        .map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect())
        .or_else(|| types::tuple_parts(ty));
    if let Some(members) = members {
        let inner: Vec<String> = members.into_iter().map(|t| register_type(ctx, t).to_string()).collect();
        return parse(format!("!llvm.struct<({})>", inner.join(", ")));
    }
    if let Ok(f) = FunctionType::try_from(ty) {
        let inputs: Vec<Type> = (0..f.input_count()).map(|i| register_type(ctx, f.input(i).expect("input"))).collect();
        let results: Vec<Type> =
            (0..f.result_count()).map(|i| register_type(ctx, f.result(i).expect("result"))).collect();
        return FunctionType::new(ctx, &inputs, &results).into();
    }
    ty
}

/// Index of `field` in the struct type `ty` (recorded before retyping).
fn field_index(ty: Type, field: &str) -> Option<i64> {
    types::struct_parts(ty)?.1.iter().position(|(n, _)| n == field).map(|i| i as i64)
}

fn run(ir: PassIr) -> PassResult {
    run_on(ir)
}

fn run_on<'c>(ir: PassIr<'c>) -> PassResult {
    let root = ir.root();
    let ctx = capi::context(root);
    // 1. Record what the ops need from the pydev types before retyping.
    let mut pending = Vec::new();
    for op in ir.ops_named(root, OPS) {
        let index = match op.name().as_string_ref().as_str().unwrap_or_default() {
            ops::StructExtractOperation::NAME => {
                let x = ops::StructExtractOperation::view(op).expect("matched by name");
                x.field().ok().zip(x.input().ok()).and_then(|(f, s)| field_index(s.r#type(), f.value()))
            }
            ops::StructInsertOperation::NAME => {
                let x = ops::StructInsertOperation::view(op).expect("matched by name");
                x.field().ok().zip(x.input().ok()).and_then(|(f, s)| field_index(s.r#type(), f.value()))
            }
            ops::TupleExtractOperation::NAME => {
                ops::TupleExtractOperation::view(op).and_then(|x| x.index().ok()).map(|i| i.value())
            }
            ops::TupleInsertOperation::NAME => {
                ops::TupleInsertOperation::view(op).and_then(|x| x.index().ok()).map(|i| i.value())
            }
            _ => None,
        };
        pending.push((op, index));
    }
    let abi_params = kernel_abi_params(ir, root);
    let interop_casts = interop_abi(ir, root);
    // 2. Retype every value, block argument and function type.
    crate::ir::retype_all(ir, root, |t| register_type(ctx, t));
    // 3. Rewrite the ops on the retyped values.
    for (op, index) in pending {
        let b = Builder::before(ir, op);
        let operand = |i: usize| ir.value(op.operand(i).expect("verified operand"));
        let result_type = op.result(0).expect("one result").r#type();
        let pos = |k: i64| b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k]).into());
        let lane = |v: Value<'c, 'c>| -> Value<'c, 'c> {
            let i32t: Type = IntegerType::new(b.ctx, 32).into();
            let ty = v.r#type();
            if ty == i32t {
                return ir.value(v);
            }
            if ty.is_index() {
                return b.value("arith.index_cast", &[v], i32t, &[]);
            }
            let w = IntegerType::try_from(ty).map(|i| i.width()).unwrap_or(32);
            b.value(if w > 32 { "arith.trunci" } else { "arith.extsi" }, &[v], i32t, &[])
        };
        let name = op.name();
        let v = match name.as_string_ref().as_str().unwrap_or_default() {
            ops::VectorCreateOperation::NAME => {
                let mut acc = b.value("llvm.mlir.undef", &[], result_type, &[]);
                for (k, e) in op.operands().enumerate() {
                    let k = b.const_int(IntegerType::new(b.ctx, 32).into(), k as i64);
                    acc = b.value("llvm.insertelement", &[acc, ir.value(e), k], result_type, &[]);
                }
                acc
            }
            ops::VectorExtractOperation::NAME => {
                let i = lane(operand(1));
                b.value("llvm.extractelement", &[operand(0), i], result_type, &[])
            }
            ops::VectorInsertOperation::NAME => {
                let i = lane(operand(2));
                b.value("llvm.insertelement", &[operand(1), operand(0), i], result_type, &[])
            }
            ops::StructCreateOperation::NAME | ops::TupleCreateOperation::NAME => {
                let mut acc = b.value("llvm.mlir.undef", &[], result_type, &[]);
                for (k, e) in op.operands().enumerate() {
                    acc = b.value("llvm.insertvalue", &[acc, ir.value(e)], result_type, &[pos(k as i64)]);
                }
                acc
            }
            ops::StructExtractOperation::NAME | ops::TupleExtractOperation::NAME => {
                let Some(k) = index else {
                    capi::emit_error(op.location(), "unknown field or index");
                    return Err(Reported);
                };
                b.value("llvm.extractvalue", &[operand(0)], result_type, &[pos(k)])
            }
            _ => {
                let Some(k) = index else {
                    capi::emit_error(op.location(), "unknown field or index");
                    return Err(Reported);
                };
                b.value("llvm.insertvalue", &[operand(1), operand(0)], result_type, &[pos(k)])
            }
        };
        b.replace(op, &[v]);
    }
    // 4. Kernel parameters in their CUDA C++ layout become register values.
    for (cast, pydev, abi) in abi_params {
        let b = Builder::before(ir, cast);
        let v = from_abi(&b, ir.value(cast.operand(0).expect("abi parameter")), pydev, &abi);
        b.replace(cast, &[v]);
    }
    // 5. Interop functions' arguments and results cross in that layout too.
    for (cast, pydev, abi, into_abi) in interop_casts {
        let b = Builder::before(ir, cast);
        let input = ir.value(cast.operand(0).expect("a cast operand"));
        let v = if into_abi { to_abi(&b, input, pydev, &abi) } else { from_abi(&b, input, pydev, &abi) };
        b.replace(cast, &[v]);
    }
    Ok(())
}

/// A recorded conversion: (cast, pydev type, its ABI, whether the cast goes
/// from registers to the ABI type); step 5 expands it.
type AbiCast<'c> = (OperationRef<'c, 'c>, Type<'c>, Abi, bool);

/// Gives every interoperable function of a gpu.module, defined (the symbol
/// CUDA C++ calls: `extern "C" __device__`) or declared (C++ defines it),
/// the CUDA C++ layout of its parameters and result where LLVM's differs,
/// as kernels have, and converts at its calls in the module.
fn interop_abi<'c>(ir: PassIr<'c>, root: OperationRef<'c, 'c>) -> Vec<AbiCast<'c>> {
    use melior::ir::attribute::{FlatSymbolRefAttribute, TypeAttribute};
    let ctx = capi::context(root);
    let parse = |text: &str| Type::parse(ctx, text).unwrap_or_else(|| panic!("pydev built a bad type: {text}"));
    let mut out = Vec::new();
    // name -> (per parameter: its pydev type and ABI where it changes, the same for the result)
    type Changes<'c> = (Vec<Option<(Type<'c>, Abi)>>, Option<(Type<'c>, Abi)>);
    let mut changed: Vec<(String, Changes<'c>)> = Vec::new();
    for f in ir.ops_named(root, &["func.func"]) {
        let in_gpu_module = f.parent_operation().is_some_and(|p| p.name().as_string_ref().as_str() == Ok("gpu.module"));
        if !in_gpu_module || !f.has_attribute(pydev_dialect::abi::attr::INTEROP) {
            continue;
        }
        // A declaration (C++ defines it) has no body to convert in.
        let entry = f.region(0).ok().and_then(|r| ir.entry_block(r));
        let Some(fn_type) = f
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
        else {
            continue;
        };
        let mut inputs: Vec<Type> = (0..fn_type.input_count()).map(|i| fn_type.input(i).expect("input")).collect();
        let mut results: Vec<Type> = (0..fn_type.result_count()).map(|i| fn_type.result(i).expect("result")).collect();
        let mut params = Vec::new();
        let mut stack_aligns = Vec::new();
        for i in 0..inputs.len() {
            let pydev = inputs[i];
            let Some(abi) = abi_of(ctx, pydev) else {
                params.push(None);
                continue;
            };
            if let Some(a) = over_alignment(&abi, pydev) {
                stack_aligns.push((i, a));
            }
            let Some(abi_type) = abi_type(ctx, pydev, &abi) else {
                params.push(None);
                continue;
            };
            inputs[i] = abi_type;
            if let Some(entry) = entry {
                out.push((retype_argument(ir, entry, i, abi_type, pydev), pydev, abi.clone(), false));
            }
            params.push(Some((pydev, abi)));
        }
        let mut result = None;
        if let [pydev] = results[..] {
            if let Some(abi) = result_abi(ctx, pydev).filter(|a| a.text() != register_type(ctx, pydev).to_string()) {
                let abi_type = parse(abi.text());
                results[0] = abi_type;
                for ret in ir.ops_named(f, &["func.return"]) {
                    let b = Builder::before(ir, ret);
                    let cast = b.cast(ir.value(ret.operand(0).expect("a returned value")), abi_type);
                    ir.set_operand(ret, 0, cast);
                    out.push((ir.defining_op(cast).expect("an op result"), pydev, abi.clone(), true));
                }
                result = Some((pydev, abi));
            }
        }
        if !stack_aligns.is_empty() {
            set_stack_aligns(ir, ctx, f, inputs.len(), &stack_aligns);
        }
        if params.iter().any(Option::is_some) || result.is_some() {
            ir.set_attribute(
                f,
                "function_type",
                TypeAttribute::new(FunctionType::new(ctx, &inputs, &results).into()).into(),
            );
            changed.push((capi::sym_name(f), (params, result)));
        }
    }
    if changed.is_empty() {
        return out;
    }
    for call in ir.ops_named(root, &["func.call"]) {
        let Some(callee) = call
            .attribute("callee")
            .ok()
            .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
            .map(|c| c.value().to_owned())
        else {
            continue;
        };
        let Some((_, (params, result))) = changed.iter().find(|(n, _)| *n == callee) else { continue };
        let b = Builder::before(ir, call);
        for (i, p) in params.iter().enumerate() {
            if let Some((pydev, abi)) = p {
                let cast = b.cast(ir.value(call.operand(i).expect("a call operand")), parse(abi.text()));
                ir.set_operand(call, i, cast);
                out.push((ir.defining_op(cast).expect("an op result"), *pydev, abi.clone(), true));
            }
        }
        if let Some((pydev, abi)) = result {
            let r = call.result(0).expect("the call's result");
            capi::set_value_type(r.into(), parse(abi.text()));
            let next = call.next_in_block().expect("a call is followed by its block's terminator");
            let b = Builder::before(ir, next);
            let cast = b.cast(ir.value(r.into()), *pydev);
            let cast_op = ir.defining_op(cast).expect("an op result");
            ir.replace_uses_except(ir.value(r.into()), cast, cast_op);
            out.push((cast_op, *pydev, abi.clone(), false));
        }
    }
    out
}

/// The ABI of a function result of pydev type `ty`: [`abi_of`], and where
/// CUDA aligns the struct beyond its members (MLIR has no `alignstack` for
/// results) a leading zero-length array of that alignment, which gives the
/// LLVM struct CUDA's alignment (NVPTX declares `.param .align A .b8
/// func_retval0[size]`) and takes no bytes:
///   struct align=16 {f32, f32}  =>  !llvm.struct<(array<0 x vector<16 x i8>>, f32, f32, array<8 x i8>)>
fn result_abi(ctx: &Context, ty: Type) -> Option<Abi> {
    let abi = abi_of(ctx, ty)?;
    let (_, cuda_align) = pydev_dialect::type_layout(ty)?;
    match abi {
        Abi::Struct { text, size, align, fields } if cuda_align > align => {
            let parts = text
                .strip_prefix("!llvm.struct<(")
                .and_then(|t| t.strip_suffix(")>"))
                .expect("abi_of writes !llvm.struct<(...)>");
            let text = format!("!llvm.struct<(!llvm.array<0 x vector<{cuda_align} x i8>>, {parts})>");
            Some(Abi::Struct {
                text,
                size,
                align: cuda_align,
                fields: fields.into_iter().map(|(i, a)| (i + 1, a)).collect(),
            })
        }
        abi => Some(abi),
    }
}

/// The ABI value of register value `v` of pydev type `ty` (the reverse of [`from_abi`]).
fn to_abi<'c>(b: &Builder<'c>, v: Value<'c, 'c>, ty: Type<'c>, abi: &Abi) -> Value<'c, 'c> {
    let pos = |k: i64| b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k]).into());
    let abi_type = || Type::parse(b.ctx, abi.text()).expect("built by abi_of");
    match abi {
        Abi::Same(..) => v,
        Abi::Array { .. } => {
            let (lanes, e) = types::vector_parts(ty).expect("arrays stand for vectors");
            let e = register_type(b.ctx, e);
            let at = abi_type();
            let mut acc = b.value("llvm.mlir.undef", &[], at, &[]);
            for k in 0..lanes {
                let index = b.const_int(b.i32(), i64::from(k));
                let lane = b.value("llvm.extractelement", &[v, index], e, &[]);
                acc = b.value("llvm.insertvalue", &[acc, lane], at, &[pos(i64::from(k))]);
            }
            acc
        }
        Abi::Struct { fields, .. } => {
            let members: Vec<Type> = types::struct_parts(ty)
                .map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect())
                .or_else(|| types::tuple_parts(ty))
                .expect("structs and tuples");
            let st = abi_type();
            let mut acc = b.value("llvm.mlir.undef", &[], st, &[]);
            for (k, ((index, field_abi), member)) in fields.iter().zip(members).enumerate() {
                let field = b.value("llvm.extractvalue", &[v], register_type(b.ctx, member), &[pos(k as i64)]);
                let field = to_abi(b, field, member, field_abi);
                acc = b.value("llvm.insertvalue", &[acc, field], st, &[pos(*index)]);
            }
            acc
        }
    }
}

/// A kernel parameter's type in the CUDA C++ layout of its pydev type (what
/// a launch passes and `.param` declares): register types where LLVM's
/// layout already is CUDA's, else
///   vector<3 x T>, and vectors LLVM over-aligns (4 x 8 bytes) =>  !llvm.array<N x T>
///   struct/tuple                  =>  !llvm.struct<(members in their ABI types,
///                                      !llvm.array<k x i8> where CUDA pads more:
///                                      over-aligned members, align=, device.align)>
#[derive(Clone)]
enum Abi {
    Same(String, u64, u64),
    Array { text: String, size: u64, align: u64 },
    Struct { text: String, size: u64, align: u64, fields: Vec<(i64, Abi)> },
}

impl Abi {
    fn text(&self) -> &str {
        match self {
            Abi::Same(t, ..) | Abi::Array { text: t, .. } | Abi::Struct { text: t, .. } => t,
        }
    }
    fn size_align(&self) -> (u64, u64) {
        match self {
            Abi::Same(_, s, a) | Abi::Array { size: s, align: a, .. } | Abi::Struct { size: s, align: a, .. } => {
                (*s, *a)
            }
        }
    }
}

fn abi_of(ctx: &Context, ty: Type) -> Option<Abi> {
    let (size, align) = pydev_dialect::type_layout(ty)?;
    let reg = register_type(ctx, ty).to_string();
    if let Some((lanes, e)) = types::vector_parts(ty) {
        let (es, _) = pydev_dialect::type_layout(e)?;
        let llvm_align = (u64::from(lanes) * es).next_power_of_two();
        if lanes == 3 || llvm_align > align {
            return Some(Abi::Array {
                text: format!("!llvm.array<{lanes} x {}>", register_type(ctx, e)),
                size,
                align: es,
            });
        }
        return Some(Abi::Same(reg, size, llvm_align));
    }
    let members: Option<Vec<Type>> = types::struct_parts(ty)
        .map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect())
        .or_else(|| types::tuple_parts(ty));
    let Some(members) = members else { return Some(Abi::Same(reg, size, align)) };
    let (mut parts, mut fields, mut cur, mut max_align) = (Vec::new(), Vec::new(), 0u64, 1u64);
    for (k, m) in members.into_iter().enumerate() {
        let a = abi_of(ctx, m)?;
        let (ms, ma) = a.size_align();
        let off = pydev_dialect::field_offset(ty, k as u32)?;
        if cur.div_ceil(ma) * ma != off {
            parts.push(format!("!llvm.array<{} x i8>", off - cur));
        }
        fields.push((parts.len() as i64, a));
        parts.push(fields.last().expect("pushed").1.text().to_owned());
        cur = off + ms;
        max_align = max_align.max(ma);
    }
    if cur.div_ceil(max_align) * max_align != size {
        parts.push(format!("!llvm.array<{} x i8>", size - cur));
    }
    Some(Abi::Struct { text: format!("!llvm.struct<({})>", parts.join(", ")), size, align: max_align, fields })
}

/// Gives every kernel parameter (`gpu.func` kernels; on the host `pydev.kernel`
/// functions and their block loops) whose register type's layout is not CUDA
/// C++'s the ABI type, and a cast to its pydev type that step 4
/// expands once registers are typed: (cast, pydev type, ABI).
fn kernel_abi_params<'c>(ir: PassIr<'c>, root: OperationRef<'c, 'c>) -> Vec<(OperationRef<'c, 'c>, Type<'c>, Abi)> {
    use melior::ir::{attribute::TypeAttribute, BlockLike};
    let ctx = capi::context(root);
    let mut out = Vec::new();
    let funcs = ir.ops_named(root, &["gpu.func", "func.func"]);
    // Host kernels (pydev-lower-simt-host) are entry points too, and so are
    // their block loops `@__pydev_block_k`, whose parameters only pass on to
    // `@k`: they take the ABI types without a conversion.
    let host_kernels: Vec<String> = funcs
        .iter()
        .filter(|f| {
            f.name().as_string_ref().as_str() == Ok("func.func") && f.has_attribute(pydev_dialect::abi::attr::KERNEL)
        })
        .map(|f| capi::sym_name(*f))
        .collect();
    for f in funcs {
        let gpu = f.name().as_string_ref().as_str() == Ok("gpu.func");
        let forward = !gpu
            && capi::sym_name(f).strip_prefix("__pydev_block_").is_some_and(|k| host_kernels.iter().any(|h| h == k));
        if !(gpu && f.has_attribute("gpu.kernel")
            || !gpu && f.has_attribute(pydev_dialect::abi::attr::KERNEL)
            || forward)
        {
            continue;
        }
        let Some(entry) = f.region(0).ok().and_then(|r| ir.entry_block(r)) else { continue };
        let Some(fn_type) = f
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
        else {
            continue;
        };
        let mut inputs: Vec<Type> = (0..fn_type.input_count()).map(|i| fn_type.input(i).expect("input")).collect();
        let results: Vec<Type> = (0..fn_type.result_count()).map(|i| fn_type.result(i).expect("result")).collect();
        let mut changed = false;
        let mut stack_aligns: Vec<(usize, u64)> = Vec::new();
        let args = (0..entry.argument_count()).map(|i| entry.argument(i).expect("argument below the count"));
        for (i, arg) in args.enumerate() {
            let pydev = arg.r#type();
            let Some(abi) = abi_of(ctx, pydev) else { continue };
            if let Some(a) = over_alignment(&abi, pydev).filter(|_| gpu) {
                stack_aligns.push((i, a));
            }
            let Some(abi_type) = abi_type(ctx, pydev, &abi) else { continue };
            inputs[i] = abi_type;
            changed = true;
            if forward {
                arg.set_type(abi_type);
                continue;
            }
            out.push((retype_argument(ir, entry, i, abi_type, pydev), pydev, abi));
        }
        if changed {
            ir.set_attribute(
                f,
                "function_type",
                TypeAttribute::new(FunctionType::new(ctx, &inputs, &results).into()).into(),
            );
        }
        if !stack_aligns.is_empty() {
            set_stack_aligns(ir, ctx, f, inputs.len(), &stack_aligns);
        }
    }
    out
}

/// CUDA's alignment of a by-value struct or tuple of pydev type `ty` where
/// it exceeds its ABI struct's (align=, device.align(t, n) fields): nvcc
/// writes `.param .align N`.
fn over_alignment(abi: &Abi, ty: Type) -> Option<u64> {
    match (abi, pydev_dialect::type_layout(ty)) {
        (Abi::Struct { align, .. }, Some((_, cuda))) if cuda > *align => Some(cuda),
        _ => None,
    }
}

/// The ABI type of pydev type `ty`, or None where it is its register type.
fn abi_type<'c>(ctx: &'c Context, ty: Type<'c>, abi: &Abi) -> Option<Type<'c>> {
    (abi.text() != register_type(ctx, ty).to_string())
        .then(|| Type::parse(ctx, abi.text()).unwrap_or_else(|| panic!("pydev built a bad type: {}", abi.text())))
}

/// Gives argument `i` of `entry` the ABI type `abi_type`; a cast to its
/// pydev type `pydev` at the top of the block takes its uses (returned, for
/// the expansion once registers are typed).
fn retype_argument<'c>(
    ir: PassIr<'c>,
    entry: melior::ir::BlockRef<'c, 'c>,
    i: usize,
    abi_type: Type<'c>,
    pydev: Type<'c>,
) -> OperationRef<'c, 'c> {
    use melior::ir::BlockLike;
    let arg = entry.argument(i).expect("an argument per input");
    arg.set_type(abi_type);
    let first = entry.first_operation().expect("a function body");
    let b = Builder::before(ir, ir.detach(first));
    let cast = b.cast(ir.value(arg.into()), pydev);
    let cast_op = ir.defining_op(cast).expect("an op result");
    ir.replace_uses_except(ir.value(arg.into()), cast, cast_op);
    cast_op
}

/// Marks `f` `pydev.param_aligns = array<i64: ...>` (0: LLVM's alignment),
/// which `pydev-align-params` turns into `llvm.alignstack` argument
/// attributes once the gpu.func is an llvm.func (that lowering drops them).
fn set_stack_aligns<'c>(ir: PassIr<'c>, ctx: &Context, f: OperationRef<'c, '_>, count: usize, aligns: &[(usize, u64)]) {
    let mut all = vec![0i64; count];
    for &(i, n) in aligns {
        all[i] = n as i64;
    }
    ir.set_attribute(f, crate::align_params::MARK, DenseI64ArrayAttribute::new(ctx, &all).into());
}

/// The register value of an ABI-typed kernel parameter of pydev type `ty`.
fn from_abi<'c>(b: &Builder<'c>, v: Value<'c, 'c>, ty: Type<'c>, abi: &Abi) -> Value<'c, 'c> {
    let reg = register_type(b.ctx, ty);
    let pos = |k: i64| b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k]).into());
    match abi {
        Abi::Same(..) => v,
        Abi::Array { .. } => {
            let (lanes, e) = types::vector_parts(ty).expect("arrays stand for vectors");
            let e = register_type(b.ctx, e);
            let mut acc = b.value("llvm.mlir.undef", &[], reg, &[]);
            for k in 0..lanes {
                let lane = b.value("llvm.extractvalue", &[v], e, &[pos(i64::from(k))]);
                let index = b.const_int(b.i32(), i64::from(k));
                acc = b.value("llvm.insertelement", &[acc, lane, index], reg, &[]);
            }
            acc
        }
        Abi::Struct { fields, .. } => {
            let members: Vec<Type> = types::struct_parts(ty)
                .map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect())
                .or_else(|| types::tuple_parts(ty))
                .expect("structs and tuples");
            let mut acc = b.value("llvm.mlir.undef", &[], reg, &[]);
            for (k, ((index, field_abi), member)) in fields.iter().zip(members).enumerate() {
                let field_type = Type::parse(b.ctx, field_abi.text()).expect("built above");
                let field = b.value("llvm.extractvalue", &[v], field_type, &[pos(*index)]);
                let field = from_abi(b, field, member, field_abi);
                acc = b.value("llvm.insertvalue", &[acc, field], reg, &[pos(k as i64)]);
            }
            acc
        }
    }
}
