//! `pydev-vectorize-access`: make adjacent unit-stride accesses of pydev's
//! own arrays provably aligned for vector loads and stores
//! (`ld/st.shared.v2|v4`, `ld/st.local.v2|v4` on cuda).
//!
//! Expects: promoted pydev IR (machine element types), before
//! `pydev-lower-arrays`. Both targets.
//! Guarantees: the program's results are unchanged: the pass only raises
//! the alignment of arrays that pydev allocates, which their lowering
//! honours (`pydev-lower-arrays`: `shared_array`/`local_array ... align A`
//! become globals and allocas of alignment A). LLVM (`InferAlignment`, then
//! NVPTX's load-store vectorizer) then proves each group's first element
//! aligned from the array's alignment and the index, and emits one vector
//! access for the group; the pass decides the width where LLVM cannot: it
//! may not raise the alignment of an array it does not see allocated.
//!
//! A group: k (2 or 4) `array_load`s, or k `array_store`s, of the same
//! C-order `shared_array` or `local_array` of a number type of s bytes,
//! k * s <= 16, whose last indices are i, i + 1, .., i + k - 1 (the other
//! indices the same values), i a multiple of k, and the last extent a
//! multiple of k (so every row starts aligned).
//! A multiple: constants, `muli` (the product of its operands' factors),
//! `shli` by a constant, `addi`/`subi`/`select` (the gcd), and sign or zero
//! extension and index casts (multiples of a power of two stay multiples in
//! two's complement when they wrap).
//!
//! Rewrites:
//!   %a = shared_array|local_array shape [.., n] order "C" align A : !pydev.array<T, ..>
//!     with a group of k accesses, n % k == 0
//!                                   =>  ... align max(A, k * sizeof(T))
//! Does not fire on: arguments' arrays (pydev cannot know where their data
//! starts: a view such as `a[1:]` is an array too; a run-time check of the
//! pointer would be needed), F order, dynamic shared memory, aggregates,
//! groups whose first index is not known to be a multiple of k.

use crate::capi::PassIr;
use crate::ir::{external_pass, PassId, PassResult};
use crate::PassInfo;
use melior::ir::{
    attribute::{DenseI64ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, OperationRef, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops;
use pydev_dialect::types::ArrayType;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-vectorize-access",
    summary: "align pydev-allocated arrays for vector loads and stores of their adjacent unit-stride accesses",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    let accesses = ir.ops_named(root, &[ops::ArrayLoadOperation::NAME, ops::ArrayStoreOperation::NAME]);
    for array_op in ir.ops_named(root, &[ops::SharedArrayOperation::NAME, ops::LocalArrayOperation::NAME]) {
        let Some(width) = group_width(ir, array_op, &accesses) else { continue };
        let current = array_op.attribute("alignment").ok().and_then(crate::capi::integer_attr_value).unwrap_or(0);
        if width > current {
            let ctx = ir.context();
            let i64t = IntegerType::new(ctx, 64).into();
            ir.set_attribute(array_op, "alignment", IntegerAttribute::new(i64t, width).into());
        }
    }
    Ok(())
}

/// The widest group (in bytes, k * sizeof(T)) among the accesses of the
/// array `array_op` makes, if any.
fn group_width<'c>(ir: PassIr<'c>, array_op: OperationRef<'c, 'c>, accesses: &[OperationRef<'c, 'c>]) -> Option<i64> {
    let order = array_op.attribute("order").ok().map(|a: Attribute| a.to_string());
    if order.as_deref() != Some("\"C\"") {
        return None;
    }
    let array_value: Value = array_op.result(0).ok()?.into();
    let array = ArrayType::from_type(array_value.r#type())?;
    let element = array.element_type();
    if !(element.is_float() || IntegerType::try_from(element).is_ok()) {
        return None;
    }
    let (size, _) = pydev_dialect::type_layout(element)?;
    let shape = DenseI64ArrayAttribute::try_from(array_op.attribute("shape").ok()?).ok()?;
    let last_extent = shape.element(shape.len().checked_sub(1)?).ok()?;
    // (is a store, the indices) of each access of this array.
    let mine: Vec<(bool, Vec<Value>)> = accesses
        .iter()
        .filter_map(|op| {
            let store = op.name().as_string_ref().as_str() == Ok(ops::ArrayStoreOperation::NAME);
            let first = usize::from(store);
            let array = op.operand(first).ok()?;
            (array.to_raw().ptr == array_value.to_raw().ptr)
                .then(|| (store, op.operands().skip(first + 1).map(|v| ir.value(v)).collect()))
        })
        .collect();
    let mut best = None;
    for k in [4i64, 2] {
        if k * size as i64 > 16 || last_extent % k != 0 {
            continue;
        }
        let found = mine.iter().any(|(store, indices)| {
            let Some((last, lead)) = indices.split_last() else { return false };
            factor(ir, *last, 16) % k == 0
                && (1..k).all(|c| {
                    mine.iter().any(|(s, other)| {
                        s == store
                            && other.split_last().is_some_and(|(o_last, o_lead)| {
                                same_values(o_lead, lead) && offset_of(ir, *o_last, *last) == Some(c)
                            })
                    })
                })
        });
        if found {
            best = Some(k * size as i64);
            break;
        }
    }
    best
}

fn same_values(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_raw().ptr == y.to_raw().ptr)
}

/// c when `v` is `base + c` (c a constant, through the same casts as `base`).
fn offset_of<'c>(ir: PassIr<'c>, v: Value<'c, '_>, base: Value<'c, '_>) -> Option<i64> {
    let strip = |mut x: Value<'c, 'c>| {
        while let Some(def) = ir.defining_op(x) {
            if !is_cast(&def) {
                break;
            }
            x = ir.value(def.operand(0).ok()?);
        }
        Some(x)
    };
    let (v, base) = (strip(ir.value(v))?, strip(ir.value(base))?);
    let def = ir.defining_op(v)?;
    if def.name().as_string_ref().as_str() != Ok("arith.addi") {
        return None;
    }
    let (x, y) = (strip(ir.value(def.operand(0).ok()?))?, strip(ir.value(def.operand(1).ok()?))?);
    let is = |a: Value, b: Value| a.to_raw().ptr == b.to_raw().ptr;
    match (constant(ir, x), constant(ir, y)) {
        (_, Some(c)) if is(x, base) => Some(c),
        (Some(c), _) if is(y, base) => Some(c),
        _ => None,
    }
}

fn is_cast(op: &OperationRef) -> bool {
    matches!(
        op.name().as_string_ref().as_str(),
        Ok("arith.extsi" | "arith.extui" | "arith.index_cast" | "arith.index_castui")
    )
}

fn constant<'c>(ir: PassIr<'c>, v: Value<'c, '_>) -> Option<i64> {
    let def = ir.defining_op(v)?;
    if def.name().as_string_ref().as_str() != Ok("arith.constant") {
        return None;
    }
    IntegerAttribute::try_from(def.attribute("value").ok()?).ok().map(|i| i.value())
}

/// A power of two (at most 2^20) that `v` is known to be a multiple of (1:
/// nothing known); `depth` bounds the walk.
fn factor<'c>(ir: PassIr<'c>, v: Value<'c, '_>, depth: u32) -> i64 {
    const MAX: i64 = 1 << 20;
    let pow2 = |c: i64| if c == 0 { MAX } else { (1i64 << c.trailing_zeros().min(20)).min(MAX) };
    if depth == 0 {
        return 1;
    }
    if let Some(c) = constant(ir, v) {
        return pow2(c);
    }
    let Some(def) = ir.defining_op(v) else { return 1 };
    let operand = |i: usize| def.operand(i).map(|o| factor(ir, o, depth - 1)).unwrap_or(1);
    match def.name().as_string_ref().as_str().unwrap_or_default() {
        "arith.muli" => (operand(0) * operand(1)).min(MAX),
        "arith.shli" => {
            let shift = def.operand(1).ok().and_then(|s| constant(ir, s)).filter(|s| (0..20).contains(s));
            shift.map_or(1, |s| (operand(0) << s).min(MAX))
        }
        "arith.addi" | "arith.subi" => operand(0).min(operand(1)),
        "arith.select" => operand(1).min(operand(2)),
        _ if is_cast(&def) => operand(0),
        _ => 1,
    }
}
