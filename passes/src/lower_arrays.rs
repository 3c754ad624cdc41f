//! `pydev-lower-arrays`: array descriptors to address arithmetic.
//!
//! Expects: pydev array ops whose element types are already machine types
//! (signless integers, floats: `pydev-promote-types` has run) and whose
//! indices are integers or `index`, non-negative.
//! Guarantees: every function argument of type `!pydev.array<T, n, space>`
//! is the by-value ABI descriptor `!llvm.struct<(ptr<AS>, array<n x i64>,
//! array<n x i64>)>` (data, shape, strides in elements: DESIGN.md "Kernel
//! ABI"); `array_load`, `array_store` and `atomic_ref` become a GEP on the
//! data pointer and LLVM loads and stores; atomic references become
//! `!llvm.ptr<AS>`. Values cross the old types through
//! `unrealized_conversion_cast`, resolved by `reconcile-unrealized-casts`.
//! Does not fire on functions and ops without pydev arrays.
//!
//! Address spaces (`target=cuda`): global 1, shared 3, local 5; `target=host`: 0.
//!
//! Rewrites:
//!   func(%a: !pydev.array<T, n>)     =>  func(%d: !llvm.struct<(ptr<AS>, array<n x i64>, array<n x i64>)>)
//!   array_load %a[i_0..i_n-1]        =>  llvm.load (gep T, data[Σ i_k * strides[k]])
//!   array_store %v, %a[i_0..i_n-1]   =>  llvm.store %v, (gep T, data[Σ i_k * strides[k]])
//!   atomic_ref %a[i_0..i_n-1]        =>  gep T, data[Σ i_k * strides[k]] : !llvm.ptr<AS>
//!   tuple_extract (array_shape %a)[k]   =>  shape[k]
//!   tuple_extract (array_strides %a)[k] =>  strides[k] * sizeof(T)   (bytes, like NumPy)
//!   array_size %a                    =>  Π shape[k]

use crate::{
    capi::{self, OwnerOp},
    ir::{external_pass, rewrite_all, to_i64, Builder, PassId},
    PassInfo, PassOption,
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, TypeAttribute},
    operation::{OperationLike, OperationMutLike},
    r#type::FunctionType,
    BlockLike, OperationRef, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::{types::ArrayType, MemorySpace};

static ID_CUDA: PassId = PassId;
static ID_HOST: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-arrays",
    summary: "lower array descriptors, element access and atomic references to LLVM address arithmetic",
    options: &[PassOption { name: "target", default: "cuda", help: "cuda (NVPTX address spaces) or host" }],
    create: |options| match options.get(&INFO, "target") {
        "cuda" => Ok(external_pass(&ID_CUDA, INFO.argument, INFO.summary, run_cuda)),
        "host" => Ok(external_pass(&ID_HOST, INFO.argument, INFO.summary, run_host)),
        other => Err(format!("pydev-lower-arrays: unknown target '{other}', expected cuda or host")),
    },
};

fn run_cuda(root: OperationRef) -> Result<(), ()> {
    run(root, true)
}

fn run_host(root: OperationRef) -> Result<(), ()> {
    run(root, false)
}

pub fn address_space(space: MemorySpace, cuda: bool) -> u32 {
    match (cuda, space) {
        (false, _) => 0,
        (true, MemorySpace::Global) => 1,
        (true, MemorySpace::Shared) => 3,
        (true, MemorySpace::Local) => 5,
    }
}

fn descriptor_type<'c>(b: &Builder<'c>, array: &ArrayType<'c>, cuda: bool) -> Type<'c> {
    let n = array.rank;
    b.ty(&format!(
        "!llvm.struct<(ptr<{}>, array<{n} x i64>, array<{n} x i64>)>",
        address_space(array.space, cuda)
    ))
}

fn run(root: OperationRef, cuda: bool) -> Result<(), ()> {
    let mut ok = convert_signatures(root, cuda).is_ok();
    ok &= rewrite_all(root, &["pydev.tuple_extract", "pydev.array_size"], |b, op| {
        let is_size = op.name().as_string_ref().as_str() == Ok("pydev.array_size");
        let input = capi::value(op.operand(0).expect("operand"));
        let (array_value, field) = if is_size {
            (input, 1)
        } else {
            let Some(def) = capi::defining_op(input) else { return Ok(()) };
            let def_name = def.name();
            match def_name.as_string_ref().as_str() {
                Ok("pydev.array_shape") => (capi::value(def.operand(0).expect("array")), 1),
                Ok("pydev.array_strides") => (capi::value(def.operand(0).expect("array")), 2),
                _ => return Ok(()), // other tuples are not arrays' metadata
            }
        };
        let array = ArrayType::from_type(array_value.r#type()).expect("verified array");
        let descriptor = b.cast(array_value, descriptor_type(b, &array, cuda));
        let at = |k: i64| b.value("llvm.extractvalue", &[descriptor], b.i64(), &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[field, k]).into())]);
        let result = if is_size {
            let mut product = b.const_int(b.i64(), 1);
            for k in 0..i64::from(array.rank) {
                product = b.value("llvm.mul", &[product, at(k)], b.i64(), &[]);
            }
            product
        } else {
            let k = op.attribute("index").ok().and_then(|a| capi::integer_attr_value(a)).expect("verified index");
            let v = at(k);
            if field == 2 {
                let (size, _) = pydev_dialect::type_layout(array.element).ok_or("array element without a layout")?;
                let bytes = b.const_int(b.i64(), size as i64);
                b.value("llvm.mul", &[v, bytes], b.i64(), &[])
            } else {
                v
            }
        };
        let result_type = op.result(0).expect("result").r#type();
        let result = if result_type == b.i64() { result } else { b.cast(result, result_type) };
        b.replace(op, &[result]);
        Ok(())
    })
    .is_ok();
    // Shape and stride tuples whose elements were all read above are dead.
    for op in capi::ops_named(root, &["pydev.array_shape", "pydev.array_strides"]) {
        if capi::has_no_uses(op) {
            Builder::before(op).erase(op);
        }
    }
    ok &= rewrite_all(root, &["pydev.array_load", "pydev.array_store", "pydev.atomic_ref"], |b, op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        let (array_value, first_index) = if name == "pydev.array_store" { (1, 2) } else { (0, 1) };
        let array_value = capi::value(op.operand(array_value).expect("array operand"));
        let array = ArrayType::from_type(array_value.r#type()).expect("verified array");
        let indices: Vec<Value> = op.operands().skip(first_index).map(capi::value).collect();
        let ptr = element_pointer(b, array_value, &array, &indices, cuda)?;
        match name {
            "pydev.array_load" => {
                let v = b.value("llvm.load", &[ptr], array.element, &[]);
                b.replace(op, &[v]);
            }
            "pydev.array_store" => {
                let v = capi::value(op.operand(0).expect("value"));
                b.op("llvm.store", &[v, ptr], &[], &[]);
                b.erase(op);
            }
            _ => {
                let result_type = op.result(0).expect("atomic_ref result").r#type();
                let r = b.cast(ptr, result_type);
                b.replace(op, &[r]);
            }
        }
        Ok(())
    })
    .is_ok();
    if ok { Ok(()) } else { Err(()) }
}

/// `gep T, data[Σ i_k * strides[k]]`.
fn element_pointer<'c>(
    b: &Builder<'c>,
    array_value: Value<'c, 'c>,
    array: &ArrayType<'c>,
    indices: &[Value<'c, 'c>],
    cuda: bool,
) -> Result<Value<'c, 'c>, String> {
    if !is_machine_type(array.element) {
        return Err(format!(
            "array element type {} has no machine form yet: run pydev-promote-types first",
            array.element
        ));
    }
    let descriptor = b.cast(array_value, descriptor_type(b, array, cuda));
    let ptr_type = b.ty(&format!("!llvm.ptr<{}>", address_space(array.space, cuda)));
    let data = b.value(
        "llvm.extractvalue",
        &[descriptor],
        ptr_type,
        &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[0]).into())],
    );
    let mut offset: Option<Value> = None;
    for (k, index) in indices.iter().enumerate() {
        let index = to_i64(b, *index)?;
        let stride = b.value(
            "llvm.extractvalue",
            &[descriptor],
            b.i64(),
            &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[2, k as i64]).into())],
        );
        let term = b.value("llvm.mul", &[index, stride], b.i64(), &[]);
        offset = Some(match offset {
            None => term,
            Some(sum) => b.value("llvm.add", &[sum, term], b.i64(), &[]),
        });
    }
    let offset = offset.unwrap_or_else(|| b.const_int(b.i64(), 0));
    Ok(b.value(
        "llvm.getelementptr",
        &[data, offset],
        ptr_type,
        &[
            b.named("rawConstantIndices", DenseI32ArrayAttribute::new(b.ctx, &[i32::MIN]).into()),
            b.named("elem_type", TypeAttribute::new(array.element).into()),
        ],
    ))
}

fn is_machine_type(ty: Type) -> bool {
    ty.is_float() || melior::ir::r#type::IntegerType::try_from(ty).is_ok_and(|i| i.is_signless())
}

/// Rewrites the array arguments of every func-like op to ABI descriptors.
fn convert_signatures(root: OperationRef, cuda: bool) -> Result<(), ()> {
    for func in capi::ops_named(root, &["func.func", "gpu.func"]) {
        let Ok(type_attr) = func.attribute("function_type") else { continue };
        let Ok(fn_type) = TypeAttribute::try_from(type_attr).map(|t| t.value()) else { continue };
        let Ok(fn_type) = FunctionType::try_from(fn_type) else { continue };
        let Some(entry) = func.region(0).ok().and_then(capi::entry_block) else { continue };
        let Some(first) = entry.first_operation() else { continue };
        let b = Builder::before(capi::detach(first));
        let mut inputs = Vec::new();
        for i in 0..fn_type.input_count() {
            let ty = fn_type.input(i).expect("input");
            let Some(array) = ArrayType::from_type(ty) else {
                inputs.push(ty);
                continue;
            };
            let lowered = descriptor_type(&b, &array, cuda);
            inputs.push(lowered);
            let arg = entry.argument(i).expect("entry argument per input");
            arg.set_type(lowered);
            let arg_value: Value = arg.into();
            let view = b.cast(arg_value, ty);
            let cast_op = view.owner_operation();
            capi::replace_uses_except(arg_value, view, cast_op);
        }
        let results: Vec<Type> = (0..fn_type.result_count()).map(|i| fn_type.result(i).expect("result")).collect();
        let new_type = FunctionType::new(b.ctx, &inputs, &results);
        capi::op_mut(func).set_attribute("function_type", TypeAttribute::new(new_type.into()).into());
    }
    Ok(())
}
