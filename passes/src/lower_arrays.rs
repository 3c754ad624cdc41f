//! `pydev-lower-arrays`: array descriptors to address arithmetic.
//!
//! Expects: pydev array ops whose element types are already machine types
//! (signless integers, floats: `pydev-promote-types` has run) and whose
//! indices are integers or `index`, non-negative.
//! Guarantees: every function argument of type `!pydev.array<T, n, space>`
//! is the by-value ABI descriptor `!llvm.struct<(ptr<AS>, array<n x i64>,
//! array<n x i64>)>` (data, shape, strides in elements: docs/ARCHITECTURE.md "The kernel
//! ABI"), and so is every array value that joins control flow (block
//! arguments, `scf` results and iter_args, `arith.select`); `array_load`,
//! `array_store` and `atomic_ref` become a GEP on the
//! data pointer and LLVM loads and stores; atomic references become
//! `!llvm.ptr<AS>`. Values cross the old types through
//! `unrealized_conversion_cast`, resolved by `reconcile-unrealized-casts`.
//! Does not fire on functions and ops without pydev arrays.
//!
//! Address spaces (`target=cuda`): global 1, shared 3, constant 4, local 0
//! (allocas are generic; NVPTX moves them to local memory); `target=host`: 0.
//!
//! Rewrites:
//!   func(%a: !pydev.array<T, n>)     =>  func(%d: !llvm.struct<(ptr<AS>, array<n x i64>, array<n x i64>)>)
//!   func.call @f(%a: !pydev.array)   =>  func.call @f(descriptor of %a)
//!   ^bb(%x: !pydev.array), cf.br ^bb(%a)  =>  ^bb(%d: descriptor), cf.br ^bb(descriptor of %a)
//!   scf.if/for/while, arith.select of arrays =>  the same of descriptors (upstream's
//!                                        structural type conversions, dialect/cpp/CAPI.cpp)
//!   func(...) -> !pydev.array        =>  func(...) -> descriptor; return (descriptor of %r);
//!                                        the call's result is cast back to the array
//!   array_load %a[i_0..i_n-1]        =>  llvm.load (gep T, data[Σ i_k * strides[k]]) {alignment = alignof(T)}
//!   array_load (struct/vector/tuple) =>  one llvm.load per member at its CUDA C++ byte
//!                                        offset from data + Σ i_k * strides[k] * sizeof(T)
//!   array_store %v, %a[i_0..i_n-1]   =>  llvm.store %v, (gep T, data[Σ i_k * strides[k]])
//!   atomic_ref %a[i_0..i_n-1]        =>  gep T, data[Σ i_k * strides[k]] : !llvm.ptr<AS>
//!   atomic_ref (aggregate T)        =>  data + Σ i_k * strides[k] * sizeof(T) (bytes)
//!   atomic_ref %a[i..] field [f..]   =>  data + Σ i_k * strides[k] * sizeof(T) + offsetof(T, f..)
//!   tuple_extract (array_shape %a)[k]   =>  shape[k]
//!   tuple_extract (array_strides %a)[k] =>  strides[k] * sizeof(T)   (bytes, like NumPy)
//!   array_size %a                    =>  Π shape[k]
//!   shared_array shape [s..] align A =>  llvm.mlir.global internal (addrspace 3, align A) + descriptor
//!                                        (aggregate elements: an i8 array of their CUDA size)
//!   local_array shape [s..] align A  =>  llvm.alloca (in the entry block) + descriptor
//!   const_array shape [s..] data D   =>  llvm.mlir.global internal constant @__pydev_const_K (D: an i8
//!                                        array; addrspace 4 on cuda, read with ld.const) + descriptor
//!   dynamic_shared_array             =>  llvm.mlir.global external @__pydev_dynamic_shared (addrspace 3),
//!                                        shape [%dynamic_smem_size]
//! Static arrays' strides are those of `order`: C (last dimension contiguous) or F.
//!   array_view %a : T -> U           =>  same data; extents and strides rescaled by
//!                                        sizeof(T)/sizeof(U) (last dimension contiguous)
//!   array_index %a[i..]              =>  data + Σ i_k * strides[k]; the other dimensions
//!   array_slice %a [kinds] ...       =>  per slice, Python's normalisation of (start, stop, step)
//!                                        against the extent: extent' = len(range), stride' =
//!                                        stride * step, data += start * stride
//!   array_reshape %a(d..)            =>  same data; extents d.., dense strides of the layout

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, rewrite_all, to_i64, Builder, PassId, RewriteError},
    PassError, PassInfo, PassOption,
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::FunctionType,
    BlockLike, OperationRef, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::{types::ArrayType, MemorySpace};

static ID_CUDA: PassId = PassId;
static ID_HOST: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-arrays",
    summary: "lower array descriptors, element access and atomic references to LLVM address arithmetic",
    options: &[
        PassOption { name: "target", default: "cuda", help: "cuda (NVPTX address spaces) or host" },
        PassOption {
            name: "boundscheck",
            default: "0",
            help: "host: check each index against its extent and report the file and line",
        },
    ],
    create: |options| match (options.get(&INFO, "target"), options.get(&INFO, "boundscheck")) {
        ("cuda", "0") => Ok(external_pass(&ID_CUDA, INFO.argument, INFO.summary, run_cuda)),
        ("host", "0") => Ok(external_pass(&ID_HOST, INFO.argument, INFO.summary, run_host)),
        ("host", "1") => Ok(external_pass(&ID_HOST_CHECKED, INFO.argument, INFO.summary, run_host_checked)),
        ("cuda", "1") => {
            Err(PassError::InvalidOption { pass: INFO.argument, message: "boundscheck=1 is for target=host".into() })
        }
        (_, b) if b != "0" && b != "1" => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("boundscheck must be 0 or 1, got '{b}'"),
        }),
        (other, _) => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("unknown target '{other}', expected cuda or host"),
        }),
    },
};

static ID_HOST_CHECKED: PassId = PassId;

thread_local! {
    /// Whether the running instance checks bounds. The passes run on the
    /// module op on the thread that runs the pass manager, so a per-thread
    /// flag set for the duration of `run` is enough to thread the option
    /// through the helpers without widening every signature.
    static BOUNDSCHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn run_cuda(ir: PassIr) -> PassResult {
    run(ir, true)
}

fn run_host(ir: PassIr) -> PassResult {
    run(ir, false)
}

fn run_host_checked(ir: PassIr) -> PassResult {
    let root = ir.root();
    BOUNDSCHECK.with(|c| c.set(true));
    let mut pending = Vec::new();
    PENDING.with(|p| p.borrow_mut().clear());
    let result = run(ir, false);
    BOUNDSCHECK.with(|c| c.set(false));
    PENDING.with(|p| std::mem::swap(&mut *p.borrow_mut(), &mut pending));
    crate::lower_simt_host::add_locations(ir, ir.module_of(root), &pending);
    result
}

thread_local! {
    /// Locations of the bounds checks, appended to `pydev.host_locations`.
    static PENDING: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// With bounds checking: `if index >= extent (unsigned): report; index = 0`.
fn checked_index<'c>(
    b: &Builder<'c>,
    descriptor: Value<'c, 'c>,
    k: usize,
    index: Value<'c, 'c>,
) -> Result<Value<'c, 'c>, RewriteError> {
    let ir = b.ir;
    if !BOUNDSCHECK.with(|c| c.get()) {
        return Ok(index);
    }
    let first = ir.defining_op(descriptor).expect("an op result");
    let ctx = crate::lower_simt_host::context_arg(ir, first)
        .ok_or("bounds checks on the host need pydev-lower-simt-host first")?;
    let module = ir.module_of(first);
    let loc = PENDING.with(|p| crate::lower_simt_host::location_index(module, &mut p.borrow_mut(), b.loc));
    let extent = b.value(
        "llvm.extractvalue",
        &[descriptor],
        b.i64(),
        &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[1, k as i64]).into())],
    );
    let i1 = melior::ir::r#type::IntegerType::new(b.ctx, 1).into();
    let bad = b.value("arith.cmpi", &[index, extent], i1, &[b.named("predicate", b.attr("9 : i64"))]); // uge
    crate::lower_simt_host::report_if(b, bad, ctx, crate::error_code::OUT_OF_BOUNDS, loc, index, extent);
    let zero = b.const_int(b.i64(), 0);
    Ok(b.value("arith.select", &[bad, zero, index], b.i64(), &[]))
}

pub fn address_space(space: MemorySpace, cuda: bool) -> u32 {
    match (cuda, space) {
        (false, _) => 0,
        (true, MemorySpace::Global) => 1,
        (true, MemorySpace::Shared) => 3,
        (true, MemorySpace::Local) => 0,
        (true, MemorySpace::Constant) => 4,
    }
}

pub(crate) fn descriptor_type<'c>(b: &Builder<'c>, array: &ArrayType<'c>, cuda: bool) -> Type<'c> {
    let n = array.rank();
    b.ty(&format!("!llvm.struct<(ptr<{}>, array<{n} x i64>, array<{n} x i64>)>", address_space(array.space(), cuda)))
}

fn run(ir: PassIr, cuda: bool) -> PassResult {
    let root = ir.root();
    let mut ok = convert_signatures(ir, root, cuda).is_ok();
    ok &= convert_joins(ir, root, cuda).is_ok();
    ok &= rewrite_all(ir, root, &["func.call"], |b, op| {
        for (i, v) in op.operands().enumerate() {
            if let Some(array) = ArrayType::from_type(v.r#type()) {
                let d = b.cast(ir.value(v), descriptor_type(b, &array, cuda));
                ir.set_operand(op, i, d);
            }
        }
        // Array results come back as descriptors.
        for r in op.results() {
            if let Some(array) = ArrayType::from_type(r.r#type()) {
                let value: Value = ir.value(r.into());
                let lowered = descriptor_type(b, &array, cuda);
                capi::set_value_type(value, lowered);
                let after = op.next_in_block().map(|o| ir.detach(o)).ok_or("a call without a successor op")?;
                let view = Builder::before(ir, after).cast(value, array.as_type());
                ir.replace_uses_except(value, view, ir.detach(ir.defining_op(view).expect("an op result")));
            }
        }
        Ok(())
    })
    .is_ok();
    ok &= rewrite_all(ir, root, &["func.return"], |b, op| {
        for (i, v) in op.operands().enumerate() {
            if let Some(array) = ArrayType::from_type(v.r#type()) {
                let d = b.cast(ir.value(v), descriptor_type(b, &array, cuda));
                ir.set_operand(op, i, d);
            }
        }
        Ok(())
    })
    .is_ok();
    let mut counter = 0;
    let mut shared_bytes = 0i64;
    ok &= rewrite_all(
        ir,
        root,
        &[
            ops::SharedArrayOperation::NAME,
            ops::LocalArrayOperation::NAME,
            ops::DynamicSharedArrayOperation::NAME,
            ops::ConstArrayOperation::NAME,
        ],
        |b, op| {
            counter += 1;
            static_array(b, op, cuda, counter, &mut shared_bytes)
        },
    )
    .is_ok();
    if !cuda && shared_bytes > 0 {
        let module = ir.module_of(root);
        let ctx = capi::context(module);
        ir.set_attribute(
            module,
            pydev_dialect::abi::attr::HOST_SHARED_BYTES,
            melior::ir::attribute::IntegerAttribute::new(
                melior::ir::r#type::IntegerType::new(ctx, 64).into(),
                shared_bytes,
            )
            .into(),
        );
    }
    ok &= rewrite_all(ir, root, &[ops::ArrayViewOperation::NAME], |b, op| view(b, op, cuda)).is_ok();
    ok &= rewrite_all(
        ir,
        root,
        &[ops::ArrayIndexOperation::NAME, ops::ArraySliceOperation::NAME, ops::ArrayReshapeOperation::NAME],
        |b, op| restride(b, op, cuda),
    )
    .is_ok();
    ok &= rewrite_all(ir, root, &[ops::TupleExtractOperation::NAME, ops::ArraySizeOperation::NAME], |b, op| {
        let is_size = op.name().as_string_ref().as_str() == Ok(ops::ArraySizeOperation::NAME);
        let input = ir.value(op.operand(0).expect("operand"));
        let (array_value, field) = if is_size {
            (input, 1)
        } else {
            let Some(def) = ir.defining_op(input) else { return Ok(()) };
            let def_name = def.name();
            match def_name.as_string_ref().as_str() {
                Ok(ops::ArrayShapeOperation::NAME) => (ir.value(def.operand(0).expect("array")), 1),
                Ok(ops::ArrayStridesOperation::NAME) => (ir.value(def.operand(0).expect("array")), 2),
                _ => return Ok(()), // other tuples are not arrays' metadata
            }
        };
        let array = ArrayType::from_type(array_value.r#type()).expect("verified array");
        let descriptor = b.cast(array_value, descriptor_type(b, &array, cuda));
        let at = |k: i64| {
            b.value(
                "llvm.extractvalue",
                &[descriptor],
                b.i64(),
                &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[field, k]).into())],
            )
        };
        let result = if is_size {
            let mut product = b.const_int(b.i64(), 1);
            for k in 0..i64::from(array.rank()) {
                product = b.value("llvm.mul", &[product, at(k)], b.i64(), &[]);
            }
            product
        } else {
            let k = ops::TupleExtractOperation::view(op).and_then(|x| x.index().ok()).expect("verified index").value();
            let v = at(k);
            if field == 2 {
                let (size, _) =
                    pydev_dialect::type_layout(array.element_type()).ok_or("array element without a layout")?;
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
    for op in ir.ops_named(root, &[ops::ArrayShapeOperation::NAME, ops::ArrayStridesOperation::NAME]) {
        if capi::has_no_uses(op) {
            Builder::before(ir, op).erase(op);
        }
    }
    ok &= rewrite_all(
        ir,
        root,
        &[ops::ArrayLoadOperation::NAME, ops::ArrayStoreOperation::NAME, ops::AtomicRefOperation::NAME],
        |b, op| {
            let name = op.name();
            let name = name.as_string_ref().as_str().unwrap_or_default();
            let (array_value, first_index) = if name == ops::ArrayStoreOperation::NAME { (1, 2) } else { (0, 1) };
            let array_value = ir.value(op.operand(array_value).expect("array operand"));
            let array = ArrayType::from_type(array_value.r#type()).expect("verified array");
            let indices: Vec<Value> = op.operands().skip(first_index).map(|v| ir.value(v)).collect();
            let aggregate = members(array.element_type()).is_some()
                || pydev_dialect::types::vector_parts(array.element_type()).is_some()
                || array.element_type().is_complex();
            if let Some(path) = field_path(op) {
                // atomic_ref %a[i..] field [f..]  =>  data + Σ i_k * strides[k] * sizeof(T) + offsetof(T, f..)
                let base = element_bytes(b, array_value, &array, &indices, cuda)?;
                let offset = path_offset(array.element_type(), &path)?;
                let ptr = byte_gep(b, base, b.const_int(b.i64(), offset as i64));
                let result_type = op.result(0).expect("atomic_ref result").r#type();
                let r = b.cast(ptr, result_type);
                b.replace(op, &[r]);
                return Ok(());
            }
            if aggregate && name == ops::AtomicRefOperation::NAME {
                // atomic_ref (struct/vector/tuple/complex)  =>  data + Σ i_k * strides[k] * sizeof(T)
                let base = element_bytes(b, array_value, &array, &indices, cuda)?;
                let result_type = op.result(0).expect("atomic_ref result").r#type();
                let r = b.cast(base, result_type);
                b.replace(op, &[r]);
                return Ok(());
            }
            if aggregate {
                // Structs, vectors, tuples: member by member at CUDA C++ offsets.
                let base = element_bytes(b, array_value, &array, &indices, cuda)?;
                if name == ops::ArrayLoadOperation::NAME {
                    let loaded = load_at(b, base, 0, array.element_type())?;
                    let v = b.cast(loaded, array.element_type());
                    b.replace(op, &[v]);
                } else {
                    let v = ir.value(op.operand(0).expect("value"));
                    let v = b.cast(v, crate::lower_aggregates::register_type(b.ctx, array.element_type()));
                    store_at(b, base, 0, array.element_type(), v)?;
                    b.erase(op);
                }
                return Ok(());
            }
            let ptr = element_pointer(b, array_value, &array, &indices, cuda)?;
            // The element's natural alignment: without it LLVM takes the data
            // layout's ABI one, 4 for i64/f64, and NVPTX splits the access in two.
            let (_, align) = pydev_dialect::type_layout(array.element_type())
                .ok_or_else(|| format!("{} has no device layout", array.element_type()))?;
            let align = b.named("alignment", b.attr(&format!("{align} : i64")));
            match name {
                ops::ArrayLoadOperation::NAME => {
                    let v = b.value("llvm.load", &[ptr], array.element_type(), &[align]);
                    b.replace(op, &[v]);
                }
                ops::ArrayStoreOperation::NAME => {
                    let v = ir.value(op.operand(0).expect("value"));
                    b.op("llvm.store", &[v, ptr], &[], &[align]);
                    b.erase(op);
                }
                _ => {
                    let result_type = op.result(0).expect("atomic_ref result").r#type();
                    let r = b.cast(ptr, result_type);
                    b.replace(op, &[r]);
                }
            }
            Ok(())
        },
    )
    .is_ok();
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// The `field` path of an `atomic_ref` (a member of a struct element).
fn field_path(op: OperationRef) -> Option<Vec<String>> {
    let path = ops::AtomicRefOperation::view(op)?.field().ok()?;
    let path = melior::ir::attribute::ArrayAttribute::try_from(path).ok()?;
    (0..path.len())
        .map(|i| {
            let name = melior::ir::attribute::StringAttribute::try_from(path.element(i).ok()?).ok()?;
            Some(name.value().to_owned())
        })
        .collect()
}

/// The byte offset of the member that `path` names inside `ty` (the
/// verifier checked that each name exists).
fn path_offset(mut ty: Type, path: &[String]) -> Result<u64, RewriteError> {
    let mut offset = 0;
    for name in path {
        let (_, fields, _) = pydev_dialect::types::struct_parts(ty)
            .ok_or_else(|| format!("field '{name}' of {ty}, which is not a struct"))?;
        let index = fields.iter().position(|(n, _)| n == name).ok_or_else(|| format!("{ty} has no field '{name}'"))?;
        offset += pydev_dialect::field_offset(ty, index as u32).ok_or_else(|| format!("{ty} has no device layout"))?;
        ty = fields[index].1;
    }
    Ok(offset)
}

/// `Σ i_k * strides[k]` and the data pointer of an array value.
fn element_offset<'c>(
    b: &Builder<'c>,
    array_value: Value<'c, 'c>,
    array: &ArrayType<'c>,
    indices: &[Value<'c, 'c>],
    cuda: bool,
) -> Result<(Value<'c, 'c>, Value<'c, 'c>), RewriteError> {
    let descriptor = b.cast(array_value, descriptor_type(b, array, cuda));
    let ptr_type = b.ty(&format!("!llvm.ptr<{}>", address_space(array.space(), cuda)));
    let data = b.value(
        "llvm.extractvalue",
        &[descriptor],
        ptr_type,
        &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[0]).into())],
    );
    let mut offset: Option<Value> = None;
    for (k, index) in indices.iter().enumerate() {
        let index = to_i64(b, *index)?;
        let index = checked_index(b, descriptor, k, index)?;
        // The contiguous dimension of a C or Fortran array has stride 1 (its
        // type says so), which lets LLVM vectorize.
        let contiguous = match array.layout() {
            pydev_dialect::Layout::C => k + 1 == array.rank() as usize,
            pydev_dialect::Layout::F => k == 0,
            _ => false,
        };
        let stride = if contiguous {
            b.const_int(b.i64(), 1)
        } else {
            b.value(
                "llvm.extractvalue",
                &[descriptor],
                b.i64(),
                &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[2, k as i64]).into())],
            )
        };
        let term = b.value("llvm.mul", &[index, stride], b.i64(), &[]);
        offset = Some(match offset {
            None => term,
            Some(sum) => b.value("llvm.add", &[sum, term], b.i64(), &[]),
        });
    }
    Ok((data, offset.unwrap_or_else(|| b.const_int(b.i64(), 0))))
}

/// The address of an aggregate element: `data + offset * sizeof(T)` in bytes.
fn element_bytes<'c>(
    b: &Builder<'c>,
    array_value: Value<'c, 'c>,
    array: &ArrayType<'c>,
    indices: &[Value<'c, 'c>],
    cuda: bool,
) -> Result<Value<'c, 'c>, RewriteError> {
    let (size, _) = pydev_dialect::type_layout(array.element_type())
        .ok_or_else(|| format!("array element type {} has no device layout", array.element_type()))?;
    let (data, offset) = element_offset(b, array_value, array, indices, cuda)?;
    let bytes = b.value("llvm.mul", &[offset, b.const_int(b.i64(), size as i64)], b.i64(), &[]);
    Ok(byte_gep(b, data, bytes))
}

pub(crate) fn byte_gep<'c>(b: &Builder<'c>, base: Value<'c, 'c>, bytes: Value<'c, 'c>) -> Value<'c, 'c> {
    let i8t: Type = melior::ir::r#type::IntegerType::new(b.ctx, 8).into();
    b.value(
        "llvm.getelementptr",
        &[base, bytes],
        base.r#type(),
        &[
            b.named("rawConstantIndices", DenseI32ArrayAttribute::new(b.ctx, &[i32::MIN]).into()),
            b.named("elem_type", TypeAttribute::new(i8t).into()),
        ],
    )
}

/// Members of an aggregate at `base + offset`, in CUDA C++ layout.
fn members<'c>(ty: Type<'c>) -> Option<Vec<Type<'c>>> {
    pydev_dialect::types::struct_parts(ty)
        .map(|(_, f, _)| f.into_iter().map(|(_, t)| t).collect())
        .or_else(|| pydev_dialect::types::tuple_parts(ty))
}

/// Loads a value of pydev type `ty` stored at `base + offset` bytes, in its
/// register form.
pub(crate) fn load_at<'c>(
    b: &Builder<'c>,
    base: Value<'c, 'c>,
    offset: u64,
    ty: Type<'c>,
) -> Result<Value<'c, 'c>, RewriteError> {
    let reg = crate::lower_aggregates::register_type(b.ctx, ty);
    if ty.is_complex() {
        // complex<T> is {T re; T im;} in memory (cuda::std::complex).
        let part = capi::complex_element(ty);
        let (size, _) = pydev_dialect::type_layout(part).ok_or("complex part without a layout")?;
        let re = load_at(b, base, offset, part)?;
        let im = load_at(b, base, offset + size, part)?;
        return Ok(b.value("complex.create", &[re, im], ty, &[]));
    }
    if let Some(ms) = members(ty) {
        let mut acc = b.value("llvm.mlir.undef", &[], reg, &[]);
        for (k, m) in ms.into_iter().enumerate() {
            let off = pydev_dialect::field_offset(ty, k as u32).ok_or("member without a layout")?;
            let v = load_at(b, base, offset + off, m)?;
            acc = b.value(
                "llvm.insertvalue",
                &[acc, v],
                reg,
                &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k as i64]).into())],
            );
        }
        return Ok(acc);
    }
    let (_, align) = pydev_dialect::type_layout(ty).ok_or_else(|| format!("{ty} has no device layout"))?;
    let p = byte_gep(b, base, b.const_int(b.i64(), offset as i64));
    Ok(b.value("llvm.load", &[p], reg, &[b.named("alignment", b.attr(&format!("{align} : i64")))]))
}

pub(crate) fn store_at<'c>(
    b: &Builder<'c>,
    base: Value<'c, 'c>,
    offset: u64,
    ty: Type<'c>,
    v: Value<'c, 'c>,
) -> Result<(), RewriteError> {
    if ty.is_complex() {
        let part = capi::complex_element(ty);
        let (size, _) = pydev_dialect::type_layout(part).ok_or("complex part without a layout")?;
        let re = b.value("complex.re", &[v], part, &[]);
        let im = b.value("complex.im", &[v], part, &[]);
        store_at(b, base, offset, part, re)?;
        return store_at(b, base, offset + size, part, im);
    }
    if let Some(ms) = members(ty) {
        for (k, m) in ms.into_iter().enumerate() {
            let off = pydev_dialect::field_offset(ty, k as u32).ok_or("member without a layout")?;
            let reg = crate::lower_aggregates::register_type(b.ctx, m);
            let part = b.value(
                "llvm.extractvalue",
                &[v],
                reg,
                &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[k as i64]).into())],
            );
            store_at(b, base, offset + off, m, part)?;
        }
        return Ok(());
    }
    let (_, align) = pydev_dialect::type_layout(ty).ok_or_else(|| format!("{ty} has no device layout"))?;
    let p = byte_gep(b, base, b.const_int(b.i64(), offset as i64));
    b.op("llvm.store", &[v, p], &[], &[b.named("alignment", b.attr(&format!("{align} : i64")))]);
    Ok(())
}

/// `gep T, data[Σ i_k * strides[k]]`.
fn element_pointer<'c>(
    b: &Builder<'c>,
    array_value: Value<'c, 'c>,
    array: &ArrayType<'c>,
    indices: &[Value<'c, 'c>],
    cuda: bool,
) -> Result<Value<'c, 'c>, RewriteError> {
    if !is_machine_type(array.element_type()) {
        return Err(RewriteError::Malformed(format!(
            "array element type {} has no machine form yet: run pydev-promote-types first",
            array.element_type()
        )));
    }
    let (data, offset) = element_offset(b, array_value, array, indices, cuda)?;
    let ptr_type = data.r#type();
    Ok(b.value(
        "llvm.getelementptr",
        &[data, offset],
        ptr_type,
        &[
            b.named("rawConstantIndices", DenseI32ArrayAttribute::new(b.ctx, &[i32::MIN]).into()),
            b.named("elem_type", TypeAttribute::new(array.element_type()).into()),
        ],
    ))
}

fn is_machine_type(ty: Type) -> bool {
    ty.is_float() || melior::ir::r#type::IntegerType::try_from(ty).is_ok_and(|i| i.is_signless())
}

/// Rewrites the array arguments of every func-like op to ABI descriptors.
fn convert_signatures<'c>(ir: PassIr<'c>, root: OperationRef<'c, '_>, cuda: bool) -> PassResult {
    for func in ir.ops_named(root, &["func.func", "gpu.func"]) {
        let Ok(type_attr) = func.attribute("function_type") else { continue };
        let Ok(fn_type) = TypeAttribute::try_from(type_attr).map(|t| t.value()) else { continue };
        let Ok(fn_type) = FunctionType::try_from(fn_type) else { continue };
        let Some(entry) = func.region(0).ok().and_then(|r| ir.entry_block(r)) else {
            // A declaration (an interop function linked code defines,
            // frontends/python/src/interop.rs): only its type changes.
            let b = Builder::before(ir, func);
            let lower = |t| ArrayType::from_type(t).map_or(t, |a| descriptor_type(&b, &a, cuda));
            let inputs: Vec<Type> =
                (0..fn_type.input_count()).map(|i| lower(fn_type.input(i).expect("input"))).collect();
            let results: Vec<Type> =
                (0..fn_type.result_count()).map(|i| lower(fn_type.result(i).expect("result"))).collect();
            ir.set_attribute(
                func,
                "function_type",
                TypeAttribute::new(FunctionType::new(b.ctx, &inputs, &results).into()).into(),
            );
            continue;
        };
        let Some(first) = entry.first_operation() else { continue };
        let b = Builder::before(ir, ir.detach(first));
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
            let cast_op = ir.defining_op(view).expect("an op result");
            ir.replace_uses_except(arg_value, view, cast_op);
        }
        let results: Vec<Type> = (0..fn_type.result_count())
            .map(|i| fn_type.result(i).expect("result"))
            .map(|t| ArrayType::from_type(t).map_or(t, |a| descriptor_type(&b, &a, cuda)))
            .collect();
        let new_type = FunctionType::new(b.ctx, &inputs, &results);
        ir.set_attribute(func, "function_type", TypeAttribute::new(new_type.into()).into());
    }
    Ok(())
}

/// Rewrites the array block arguments of the blocks after the entry (joins:
/// `cf.br`/`cf.cond_br` successors) and the array results, iter_args and
/// region arguments of `scf` ops to descriptors, by upstream's structural
/// type conversions with this pass's descriptor of each array type.
fn convert_joins<'c>(ir: PassIr<'c>, root: OperationRef<'c, '_>, cuda: bool) -> PassResult {
    let mut arrays: Vec<Type> = Vec::new();
    let mut anchor = None;
    for op in ir.all_ops(root) {
        let mut types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
        for region in op.regions() {
            let mut block = ir.entry_block(region);
            while let Some(blk) = block {
                types.extend((0..blk.argument_count()).map(|i| blk.argument(i).expect("in range").r#type()));
                block = blk.next_in_region().map(|n| ir.block(n));
            }
        }
        for t in types {
            if ArrayType::from_type(t).is_some() && !arrays.contains(&t) {
                arrays.push(t);
                anchor = Some(op);
            }
        }
    }
    let Some(anchor) = anchor else { return Ok(()) };
    let conversions: Vec<(Type, Type)> = {
        // only for the types: the conversion below may replace `anchor`
        let b = Builder::before(ir, anchor);
        arrays
            .into_iter()
            .map(|t| (t, descriptor_type(&b, &ArrayType::from_type(t).expect("an array"), cuda)))
            .collect()
    };
    if pydev_dialect::convert_structural_types(root, &conversions) {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// The nearest enclosing op of one of `names`.
pub(crate) fn enclosing<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>, names: &[&str]) -> Option<OperationRef<'c, 'c>> {
    let mut cur = op.parent_operation().map(|o| ir.detach(o));
    while let Some(p) = cur {
        if names.iter().any(|n| p.name().as_string_ref().as_str() == Ok(n)) {
            return Some(p);
        }
        cur = p.parent_operation().map(|o| ir.detach(o));
    }
    None
}

/// A builder at the start of the first block of `op`'s first region.
/// `llvm.mlir.global @symbol : global_type` with `attrs` (linkage, address
/// space, ...), built by `mb` (at the module's start): a shared or constant
/// array's storage.
fn add_global<'c>(
    mb: &Builder<'c>,
    symbol: &str,
    global_type: Type<'c>,
    attrs: &[(&str, melior::ir::Attribute<'c>)],
) -> Result<(), String> {
    let mut all =
        vec![mb.named("sym_name", mb.string(symbol)), mb.named("global_type", TypeAttribute::new(global_type).into())];
    all.extend(attrs.iter().map(|(name, a)| mb.named(name, *a)));
    let global = melior::ir::operation::OperationBuilder::new("llvm.mlir.global", mb.loc)
        .add_attributes(&all)
        .add_regions([melior::ir::Region::new()])
        .build()
        .map_err(|e| format!("cannot build the global '{symbol}': {e}"))?;
    mb.insert_op(global);
    Ok(())
}

/// The address (`ptr_type`) of global `symbol`, at `b`.
fn address_of<'c>(b: &Builder<'c>, symbol: &str, ptr_type: Type<'c>) -> Value<'c, 'c> {
    let name = melior::ir::attribute::FlatSymbolRefAttribute::new(b.ctx, symbol);
    b.value("llvm.mlir.addressof", &[], ptr_type, &[b.named("global_name", name.into())])
}

pub(crate) fn at_start<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>) -> Option<Builder<'c>> {
    let block = op.region(0).ok().and_then(|r| ir.entry_block(r))?;
    block.first_operation().map(|first| Builder::before(ir, ir.detach(first)))
}

fn static_array<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    cuda: bool,
    counter: usize,
    shared_bytes: &mut i64,
) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
    let result_type = op.result(0).expect("result").r#type();
    let array = ArrayType::from_type(result_type).expect("verified array");
    let (elem_size, elem_align) = pydev_dialect::type_layout(array.element_type()).ok_or("element without a layout")?;
    // Structs, vectors and tuples (e.g. device.align(t, n)) are stored as
    // bytes at their CUDA C++ size; element_bytes addresses them.
    let machine = is_machine_type(array.element_type());
    // (shape, alignment, order) of local_array/shared_array (one ODS class);
    // dynamic_shared_array has none.
    macro_rules! static_attrs {
        ($op:ty) => {
            <$op>::view(op).map(|x| {
                (
                    x.shape().ok(),
                    x.alignment().ok().map(|a| a.value()),
                    x.order().ok().is_some_and(|o| o.value() == "F"),
                )
            })
        };
    }
    let (shape, align, fortran) = static_attrs!(ops::LocalArrayOperation)
        .or_else(|| static_attrs!(ops::SharedArrayOperation))
        .or_else(|| {
            ops::ConstArrayOperation::view(op).map(|x| (x.shape().ok(), x.alignment().ok().map(|a| a.value()), false))
        })
        .unwrap_or((None, None, false));
    let shape: Vec<i64> = shape
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
        .map(|dense| (0..dense.len()).map(|i| dense.element(i).expect("in range")).collect())
        .unwrap_or_default();
    let align = align.filter(|a| *a > 0).unwrap_or(elem_align as i64);
    let space = address_space(array.space(), cuda);
    let ptr_type = b.ty(&format!("!llvm.ptr<{space}>"));
    let module =
        enclosing(ir, op, &["gpu.module", "builtin.module"]).ok_or("no enclosing module for the array's storage")?;
    // A shape the verifier let through can still overflow (a mutated or
    // hand-written IR): an error, not a wrapped size.
    let total: i64 =
        shape.iter().try_fold(1i64, |n, s| n.checked_mul(*s)).ok_or("the array's element count overflows i64")?;
    let total_bytes = total.checked_mul(elem_size as i64).ok_or("the array's size in bytes overflows i64")?;
    let (data, extents): (Value, Vec<Value>) = match name.as_str() {
        ops::SharedArrayOperation::NAME | ops::DynamicSharedArrayOperation::NAME => {
            let dynamic = name == ops::DynamicSharedArrayOperation::NAME;
            if !cuda {
                // Shared memory is per block: the host runtime hands each
                // block's threads one buffer through the thread context;
                // static arrays get fixed offsets in it.
                let ctx = crate::lower_simt_host::context_arg(ir, op)
                    .ok_or("shared memory on the host needs pydev-lower-simt-host first")?;
                let load_ptr = |offset: i64| {
                    let p = crate::lower_simt_host::gep(b, ctx, offset);
                    b.value("llvm.load", &[p], ptr_type, &[])
                };
                return finish_static(
                    b,
                    op,
                    &array,
                    cuda,
                    &shape,
                    fortran,
                    if dynamic {
                        let base = load_ptr(pydev_dialect::abi::ctx::DYN_SHARED);
                        let p = crate::lower_simt_host::gep(b, ctx, pydev_dialect::abi::ctx::DYN_SHARED_BYTES);
                        let bytes = b.value("llvm.load", &[p], b.i64(), &[]);
                        let size = b.const_int(b.i64(), elem_size as i64);
                        (base, vec![b.value("llvm.udiv", &[bytes, size], b.i64(), &[])])
                    } else {
                        let offset = (*shared_bytes + align - 1) / align * align;
                        *shared_bytes =
                            total_bytes.checked_add(offset).ok_or("the block's shared memory size overflows i64")?;
                        let base = load_ptr(pydev_dialect::abi::ctx::SHARED);
                        (
                            crate::lower_simt_host::gep(b, base, offset),
                            shape.iter().map(|s| b.const_int(b.i64(), *s)).collect(),
                        )
                    },
                );
            }
            let symbol =
                if dynamic { "__pydev_dynamic_shared".to_owned() } else { format!("__pydev_shared_{counter}") };
            let exists = ir.ops_named(module, &["llvm.mlir.global"]).iter().any(|g| {
                g.attribute("sym_name")
                    .ok()
                    .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                    .is_some_and(|s| s.value() == symbol)
            });
            if !exists {
                let mb = at_start(ir, module).ok_or("empty module")?;
                let global_type = if dynamic {
                    b.ty("!llvm.array<0 x i8>")
                } else if machine {
                    b.ty(&format!("!llvm.array<{total} x {}>", array.element_type()))
                } else {
                    b.ty(&format!("!llvm.array<{total_bytes} x i8>"))
                };
                let linkage = if dynamic { "external" } else { "internal" };
                add_global(
                    &mb,
                    &symbol,
                    global_type,
                    &[
                        ("linkage", mb.attr(&format!("#llvm.linkage<{linkage}>"))),
                        ("addr_space", mb.attr(&format!("{space} : i32"))),
                        ("alignment", mb.attr(&format!("{} : i64", if dynamic { 16 } else { align }))),
                    ],
                )?;
            }
            let p = address_of(b, &symbol, ptr_type);
            let extents = if dynamic {
                let bytes = b.inline_asm("mov.u32 $0, %dynamic_smem_size;", "=r", &[], Some(b.i32())).expect("result");
                vec![b.value("llvm.zext", &[bytes], b.i64(), &[])]
            } else {
                shape.iter().map(|s| b.const_int(b.i64(), *s)).collect()
            };
            (p, extents)
        }
        ops::ConstArrayOperation::NAME => {
            let symbol = format!("__pydev_const_{counter}");
            let data = op.attribute("data").map_err(|_| "const_array without data")?;
            let mb = at_start(ir, module).ok_or("empty module")?;
            add_global(
                &mb,
                &symbol,
                b.ty(&format!("!llvm.array<{total_bytes} x i8>")),
                &[
                    ("linkage", mb.attr("#llvm.linkage<internal>")),
                    ("constant", mb.attr("unit")),
                    ("value", data),
                    ("addr_space", mb.attr(&format!("{space} : i32"))),
                    ("alignment", mb.attr(&format!("{align} : i64"))),
                ],
            )?;
            let p = address_of(b, &symbol, ptr_type);
            (p, shape.iter().map(|s| b.const_int(b.i64(), *s)).collect())
        }
        _ => {
            let func =
                enclosing(ir, op, &["func.func", "gpu.func", "llvm.func"]).ok_or("local_array outside a function")?;
            let fb = at_start(ir, func).ok_or("function without a body")?;
            let (count, elem_type) = if machine { (total, array.element_type()) } else { (total_bytes, b.ty("i8")) };
            let count = fb.const_int(fb.i64(), count);
            let p = fb.value(
                "llvm.alloca",
                &[count],
                ptr_type,
                &[
                    fb.named("elem_type", TypeAttribute::new(elem_type).into()),
                    fb.named("alignment", fb.attr(&format!("{align} : i64"))),
                ],
            );
            (p, shape.iter().map(|s| b.const_int(b.i64(), *s)).collect())
        }
    };
    finish_static(b, op, &array, cuda, &shape, fortran, (data, extents))
}

/// The descriptor of a static array at `data` with `extents`, replacing `op`.
#[allow(clippy::too_many_arguments)]
fn finish_static<'c>(
    b: &Builder<'c>,
    op: OperationRef<'c, 'c>,
    array: &ArrayType<'c>,
    cuda: bool,
    shape: &[i64],
    fortran: bool,
    (data, extents): (Value<'c, 'c>, Vec<Value<'c, 'c>>),
) -> Result<(), RewriteError> {
    let result_type = op.result(0).expect("result").r#type();
    // Element strides of a dense array in C or Fortran order.
    let strides: Vec<i64> = (0..shape.len())
        .map(|k| if fortran { shape[..k].iter().product() } else { shape[k + 1..].iter().product() })
        .collect();
    let desc_type = descriptor_type(b, array, cuda);
    let mut desc = b.value("llvm.mlir.undef", &[], desc_type, &[]);
    let insert = |d: Value<'c, 'c>, v: Value<'c, '_>, pos: &[i64]| {
        b.value(
            "llvm.insertvalue",
            &[d, v],
            desc_type,
            &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, pos).into())],
        )
    };
    desc = insert(desc, data, &[0]);
    for (k, e) in extents.iter().enumerate() {
        desc = insert(desc, *e, &[1, k as i64]);
        let s = b.const_int(b.i64(), strides.get(k).copied().unwrap_or(1));
        desc = insert(desc, s, &[2, k as i64]);
    }
    let v = b.cast(desc, result_type);
    b.replace(op, &[v]);
    Ok(())
}

fn view<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>, cuda: bool) -> Result<(), RewriteError> {
    let ir = b.ir;
    let source = ir.value(op.operand(0).expect("source"));
    let from = ArrayType::from_type(source.r#type()).expect("verified array");
    let result_type = op.result(0).expect("result").r#type();
    let to = ArrayType::from_type(result_type).expect("verified array");
    let (from_size, _) = pydev_dialect::type_layout(from.element_type()).ok_or("element without a layout")?;
    let (to_size, _) = pydev_dialect::type_layout(to.element_type()).ok_or("element without a layout")?;
    let from_desc = b.cast(source, descriptor_type(b, &from, cuda));
    let to_type = descriptor_type(b, &to, cuda);
    let get = |pos: &[i64], ty| {
        b.value(
            "llvm.extractvalue",
            &[from_desc],
            ty,
            &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, pos).into())],
        )
    };
    let ptr_type = b.ty(&format!("!llvm.ptr<{}>", address_space(from.space(), cuda)));
    let mut desc = b.value("llvm.mlir.undef", &[], to_type, &[]);
    let set = |d: Value<'c, 'c>, v: Value<'c, 'c>, pos: &[i64]| {
        b.value(
            "llvm.insertvalue",
            &[d, v],
            to_type,
            &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, pos).into())],
        )
    };
    desc = set(desc, get(&[0], ptr_type), &[0]);
    let n = i64::from(from.rank());
    // x * from_size / to_size, exact for the verified contiguous case.
    let rescale = |v: Value<'c, 'c>| {
        if from_size == to_size {
            return v;
        }
        let num = b.const_int(b.i64(), from_size as i64);
        let den = b.const_int(b.i64(), to_size as i64);
        let bytes = b.value("llvm.mul", &[v, num], b.i64(), &[]);
        b.value("llvm.udiv", &[bytes, den], b.i64(), &[])
    };
    for k in 0..n {
        let extent = get(&[1, k], b.i64());
        let stride = get(&[2, k], b.i64());
        let last = k == n - 1;
        desc = set(desc, if last { rescale(extent) } else { extent }, &[1, k]);
        desc = set(desc, if last && from_size != to_size { b.const_int(b.i64(), 1) } else { rescale(stride) }, &[2, k]);
    }
    let v = b.cast(desc, result_type);
    b.replace(op, &[v]);
    Ok(())
}

/// A descriptor built from parts.
fn make_descriptor<'c>(
    b: &Builder<'c>,
    ty: Type<'c>,
    data: Value<'c, 'c>,
    extents: &[Value<'c, 'c>],
    strides: &[Value<'c, 'c>],
) -> Value<'c, 'c> {
    let set = |d: Value<'c, 'c>, v: Value<'c, 'c>, pos: &[i64]| {
        b.value("llvm.insertvalue", &[d, v], ty, &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, pos).into())])
    };
    let mut d = b.value("llvm.mlir.undef", &[], ty, &[]);
    d = set(d, data, &[0]);
    for (k, (e, s)) in extents.iter().zip(strides).enumerate() {
        d = set(d, *e, &[1, k as i64]);
        d = set(d, *s, &[2, k as i64]);
    }
    d
}

/// `data + offset` elements (bytes times the element size for aggregates).
fn advance<'c>(
    b: &Builder<'c>,
    array: &ArrayType<'c>,
    data: Value<'c, 'c>,
    offset: Value<'c, 'c>,
) -> Result<Value<'c, 'c>, RewriteError> {
    if is_machine_type(array.element_type()) {
        return Ok(b.value(
            "llvm.getelementptr",
            &[data, offset],
            data.r#type(),
            &[
                b.named("rawConstantIndices", DenseI32ArrayAttribute::new(b.ctx, &[i32::MIN]).into()),
                b.named("elem_type", TypeAttribute::new(array.element_type()).into()),
            ],
        ));
    }
    let (size, _) = pydev_dialect::type_layout(array.element_type()).ok_or("element without a layout")?;
    let bytes = b.value("llvm.mul", &[offset, b.const_int(b.i64(), size as i64)], b.i64(), &[]);
    Ok(byte_gep(b, data, bytes))
}

fn cmp<'c>(b: &Builder<'c>, pred: i64, x: Value<'c, 'c>, y: Value<'c, 'c>) -> Value<'c, 'c> {
    let i1: Type = melior::ir::r#type::IntegerType::new(b.ctx, 1).into();
    b.value("arith.cmpi", &[x, y], i1, &[b.named("predicate", b.attr(&format!("{pred} : i64")))])
}

/// Python's `slice(start, stop, step).indices(n)` and the length of the range.
fn normalise<'c>(
    b: &Builder<'c>,
    start: Value<'c, 'c>,
    stop: Value<'c, 'c>,
    step: Value<'c, 'c>,
    n: Value<'c, 'c>,
) -> (Value<'c, 'c>, Value<'c, 'c>) {
    let i64t = b.i64();
    let zero = b.const_int(i64t, 0);
    let one = b.const_int(i64t, 1);
    let minus1 = b.const_int(i64t, -1);
    let sel = |c, x, y| b.value("arith.select", &[c, x, y], i64t, &[]);
    let add = |x, y| b.value("arith.addi", &[x, y], i64t, &[]);
    let sub = |x, y| b.value("arith.subi", &[x, y], i64t, &[]);
    let positive = cmp(b, 4, step, zero); // sgt
    let n_minus_1 = sub(n, one);
    // Bounds: [0, n] going up, [-1, n - 1] going down.
    let lower = sel(positive, zero, minus1);
    let upper = sel(positive, n, n_minus_1);
    let clamp = |x: Value<'c, 'c>| {
        let neg = cmp(b, 2, x, zero); // slt
        let wrapped = add(x, n);
        let low = b.value("arith.maxsi", &[wrapped, lower], i64t, &[]);
        let high = b.value("arith.minsi", &[x, upper], i64t, &[]);
        sel(neg, low, high)
    };
    let (start, stop) = (clamp(start), clamp(stop));
    // len = max(0, ceil((stop - start) / step)) for either sign of step.
    let span = sub(stop, start);
    let toward = sub(step, sel(positive, one, minus1));
    let len = b.value("arith.divsi", &[add(span, toward), step], i64t, &[]);
    let len = b.value("arith.maxsi", &[len, zero], i64t, &[]);
    (start, len)
}

fn restride<'c>(b: &Builder<'c>, op: OperationRef<'c, 'c>, cuda: bool) -> Result<(), RewriteError> {
    let ir = b.ir;
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
    let source = ir.value(op.operand(0).expect("source"));
    let from = ArrayType::from_type(source.r#type()).expect("verified array");
    let result_type = op.result(0).expect("result").r#type();
    let to = ArrayType::from_type(result_type).expect("verified array");
    let desc = b.cast(source, descriptor_type(b, &from, cuda));
    let ptr_type = b.ty(&format!("!llvm.ptr<{}>", address_space(from.space(), cuda)));
    let get = |pos: &[i64], ty| {
        b.value(
            "llvm.extractvalue",
            &[desc],
            ty,
            &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, pos).into())],
        )
    };
    let data = get(&[0], ptr_type);
    let n = i64::from(from.rank());
    let extent = |k: i64| get(&[1, k], b.i64());
    let stride = |k: i64| get(&[2, k], b.i64());
    let operands: Vec<Value> = op.operands().skip(1).map(|v| ir.value(v)).collect();
    let (data, extents, strides) = match name.as_str() {
        ops::ArrayIndexOperation::NAME => {
            let mut offset = b.const_int(b.i64(), 0);
            for (k, i) in operands.iter().enumerate() {
                let i = to_i64(b, *i)?;
                let t = b.value("llvm.mul", &[i, stride(k as i64)], b.i64(), &[]);
                offset = b.value("llvm.add", &[offset, t], b.i64(), &[]);
            }
            let k0 = operands.len() as i64;
            (
                advance(b, &from, data, offset)?,
                (k0..n).map(extent).collect::<Vec<_>>(),
                (k0..n).map(stride).collect::<Vec<_>>(),
            )
        }
        ops::ArraySliceOperation::NAME => {
            let kinds = ops::ArraySliceOperation::view(op).and_then(|x| x.kinds().ok()).ok_or("slice without kinds")?;
            let kinds: Vec<i32> = (0..kinds.len()).map(|i| kinds.element(i).expect("in range")).collect();
            let slices = kinds.iter().filter(|k| **k == 1).count();
            let (starts, rest) = operands.split_at(kinds.len());
            let (stops, steps) = rest.split_at(slices);
            let mut offset = b.const_int(b.i64(), 0);
            let (mut extents, mut strides) = (Vec::new(), Vec::new());
            let mut s = 0;
            for (k, kind) in kinds.iter().enumerate() {
                let start = to_i64(b, starts[k])?;
                let st = stride(k as i64);
                let first = if *kind == 0 {
                    start
                } else {
                    let step = to_i64(b, steps[s])?;
                    let (first, len) = normalise(b, start, to_i64(b, stops[s])?, step, extent(k as i64));
                    extents.push(len);
                    strides.push(b.value("llvm.mul", &[st, step], b.i64(), &[]));
                    s += 1;
                    first
                };
                let t = b.value("llvm.mul", &[first, st], b.i64(), &[]);
                offset = b.value("llvm.add", &[offset, t], b.i64(), &[]);
            }
            (advance(b, &from, data, offset)?, extents, strides)
        }
        _ => {
            let extents = operands.iter().map(|d| to_i64(b, *d)).collect::<Result<Vec<_>, _>>()?;
            let m = extents.len();
            let mut strides = vec![b.const_int(b.i64(), 1); m];
            let order: Vec<usize> = if to.layout() == pydev_dialect::Layout::F {
                (1..m).collect()
            } else {
                (0..m.saturating_sub(1)).rev().collect()
            };
            for k in order {
                let (inner, next) =
                    if to.layout() == pydev_dialect::Layout::F { (k - 1, k - 1) } else { (k + 1, k + 1) };
                strides[k] = b.value("llvm.mul", &[strides[inner], extents[next]], b.i64(), &[]);
            }
            (data, extents, strides)
        }
    };
    let out = make_descriptor(b, descriptor_type(b, &to, cuda), data, &extents, &strides);
    let v = b.cast(out, result_type);
    b.replace(op, &[v]);
    Ok(())
}
