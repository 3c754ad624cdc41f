//! `pydev-vectorize-access`: adjacent unit-stride loads and stores of
//! C-contiguous arrays become vector loads and stores (`ld/st.global.v2|v4`
//! on cuda), where their alignment is proved.
//!
//! Expects: promoted pydev IR (machine element types), before
//! `pydev-lower-arrays` (whose descriptor type, per `target`, it uses) and
//! without bounds checks (the vector access is not checked per element:
//! the pipelines run it only with `boundscheck=0`). Both targets: `target`
//! says which, or `auto` (the default, for `passes=` pipelines that run on
//! either) reads it from the module: cuda where the kernels are outlined
//! into a `gpu.module`, as at the before-lowering point, else host.
//! Guarantees: each element read or written is the one the original access
//! reads or writes, with the same value; only the width of the access
//! changes.
//!
//! A group: k (4, else 2) `array_load`s, or k `array_store`s, of the same
//! rank-1 C-contiguous array of a number type of s bytes (k * s <= 16), in
//! one block, at indices i, i + 1, .., i + k - 1, i a known multiple of k
//! (so the test below is the same in every thread: it depends on the
//! array's start only). Between the group's first and last access there is
//! no op that may write memory (loads) or touch it (stores): only `arith`,
//! `math`, pure pydev ops and, for loads, other loads; and i is defined
//! before the first load. A multiple: constants, `muli` (the product of its
//! operands' factors), `shli` by a constant, `addi`/`subi`/`select` (the
//! least), sign or zero extension and index casts (a multiple of a power of
//! two stays one when it wraps).
//!
//! Alignment: pydev does not know where an argument's data starts (a view
//! such as `a[1:]` is an array too), so the group is versioned on it, a
//! test every thread of the grid takes the same way:
//!   %l_c = array_load %a[i + c] (c < k)
//!     =>  %p = gep T, data(%a)[i]
//!         %r:k = scf.if (ptrtoint %p & (k * s - 1)) == 0 {
//!                  %v = llvm.load %p {alignment = k * s} : vector<k x T>; yield %v[0], .., %v[k-1]
//!                } else { yield array_load %a[i], .., array_load %a[i + k - 1] }
//!         (at the first load; %l_c's uses take %r#c)
//!   array_store %v_c, %a[i + c] (c < k)
//!     =>  scf.if (ptrtoint %p & (k * s - 1)) == 0 {
//!           llvm.store <%v_0, .., %v_k-1>, %p {alignment = k * s}
//!         } else { array_store %v_0, %a[i] .. %v_k-1, %a[i + k - 1] }
//!         (at the last store)
//! The arrays pydev allocates need no test at run time: their alignment is
//! raised, and LLVM folds the test away:
//!   %a = shared_array|local_array shape [.., n] order "C" align A : !pydev.array<T, ..>
//!     with a group of k accesses (n % k == 0)   =>  ... align max(A, k * s)
//! Does not fire on: rank > 1, F or strided layouts, aggregates, bools,
//! groups split across blocks or by a call, barrier, atomic or store (loads)
//! or by any access (stores), a first index not known to be a multiple of k.

use crate::capi::PassIr;
use crate::ir::{external_pass, to_i64, Builder, PassId, PassResult, Reported};
use crate::lower_arrays::descriptor_type;
use crate::{PassError, PassInfo, PassOption};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, TypeAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, Block, BlockLike, BlockRef, OperationRef, Region, RegionLike, Type, TypeLike, Value, ValueLike,
};
use pydev_dialect::ops;
use pydev_dialect::types::ArrayType;

static ID_CUDA: PassId = PassId;
static ID_HOST: PassId = PassId;
static ID_AUTO: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-vectorize-access",
    summary: "turn adjacent unit-stride array loads and stores into vector accesses where alignment is proved",
    options: &[PassOption {
        name: "target",
        default: "auto",
        help: "cuda, host, or auto: cuda where the kernels are outlined into a gpu.module (the before-lowering point), else host",
    }],
    create: |options| match options.get(&INFO, "target") {
        "cuda" => Ok(external_pass(&ID_CUDA, INFO.argument, INFO.summary, |ir| run(ir, true))),
        "host" => Ok(external_pass(&ID_HOST, INFO.argument, INFO.summary, |ir| run(ir, false))),
        "auto" => Ok(external_pass(&ID_AUTO, INFO.argument, INFO.summary, |ir| {
            let cuda = !ir.ops_named(ir.root(), &["gpu.module"]).is_empty();
            run(ir, cuda)
        })),
        other => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("unknown target '{other}', expected cuda, host or auto"),
        }),
    },
};

/// Ops that neither read nor write memory (besides loads, allowed in a
/// load group's span).
const PURE: &[&str] = &[
    ops::ConstantOperation::NAME,
    ops::CastOperation::NAME,
    ops::ArrayShapeOperation::NAME,
    ops::ArrayStridesOperation::NAME,
    ops::ArraySizeOperation::NAME,
    ops::TupleCreateOperation::NAME,
    ops::TupleExtractOperation::NAME,
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.lane_id",
];

fn run(ir: PassIr, cuda: bool) -> PassResult {
    let root = ir.root();
    // The arrays pydev allocates: aligned for their groups.
    for array_op in ir.ops_named(root, &[ops::SharedArrayOperation::NAME, ops::LocalArrayOperation::NAME]) {
        let Some(width) = static_group_width(ir, array_op) else { continue };
        let current = array_op.attribute("alignment").ok().and_then(crate::capi::integer_attr_value).unwrap_or(0);
        if width > current {
            let i64t = IntegerType::new(ir.context(), 64).into();
            ir.set_attribute(array_op, "alignment", IntegerAttribute::new(i64t, width).into());
        }
    }
    // The slow paths' accesses, not to be grouped again.
    let mut done = Vec::new();
    for store in [false, true] {
        while let Some(group) = find_group(ir, store, &done) {
            done.extend(rewrite(ir, &group, cuda).map_err(|()| Reported)?);
        }
    }
    Ok(())
}

/// k accesses of one array at i + c, c < k (`members[c]`), in one block.
struct Group<'c> {
    store: bool,
    members: Vec<OperationRef<'c, 'c>>,
    array: Value<'c, 'c>,
    /// i (before the frontend's normalisation).
    index: Index<'c>,
    element: Type<'c>,
    bytes: i64,
}

/// An index as the frontend writes it: `x`, or Python's wrap of a negative
/// `x`, `select(x < 0, x + extent, x)` (`normalised`: the `array_shape`
/// and `tuple_extract` ops that read the extent).
#[derive(Clone, Copy)]
struct Index<'c> {
    x: Value<'c, 'c>,
    normalised: Option<(OperationRef<'c, 'c>, OperationRef<'c, 'c>)>,
}

/// The array operand and the indices of an `array_load` or `array_store`.
fn access<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>) -> (Value<'c, 'c>, Vec<Value<'c, 'c>>) {
    let first = usize::from(op.name().as_string_ref().as_str() == Ok(ops::ArrayStoreOperation::NAME));
    let array = ir.value(op.operand(first).expect("array"));
    (array, op.operands().skip(first + 1).map(|v| ir.value(v)).collect())
}

fn named(op: &OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// The index `v` of dimension `dim` of `array`, seen through the frontend's wrap of
/// negative indices, and through sign extensions.
fn parse_index<'c>(ir: PassIr<'c>, v: Value<'c, 'c>, array: Value<'c, 'c>, dim: i64) -> Index<'c> {
    let plain = Index { x: strip(ir, v), normalised: None };
    let Some(select) = ir.defining_op(v).filter(|d| named(d, "arith.select")) else { return plain };
    let operand = |op: &OperationRef<'c, 'c>, i: usize| op.operand(i).ok().map(|o| ir.value(o));
    let (Some(cond), Some(wrapped), Some(x)) = (operand(&select, 0), operand(&select, 1), operand(&select, 2)) else {
        return plain;
    };
    let cmp = ir.defining_op(cond).filter(|d| {
        named(d, "arith.cmpi")
            && d.attribute("predicate").ok().and_then(crate::capi::integer_attr_value) == Some(2)
            && d.operand(0).is_ok_and(|o| o.to_raw().ptr == x.to_raw().ptr)
            && d.operand(1).ok().and_then(|o| constant(ir, o)) == Some(0)
    });
    let add = ir
        .defining_op(wrapped)
        .filter(|d| named(d, "arith.addi") && d.operand(0).is_ok_and(|o| o.to_raw().ptr == x.to_raw().ptr));
    let extract = add.and_then(|a| a.operand(1).ok()).and_then(|e| ir.defining_op(e)).filter(|d| {
        named(d, ops::TupleExtractOperation::NAME)
            && d.attribute("index").ok().and_then(crate::capi::integer_attr_value) == Some(dim)
    });
    let shape = extract.and_then(|e| e.operand(0).ok()).and_then(|t| ir.defining_op(t)).filter(|d| {
        named(d, ops::ArrayShapeOperation::NAME) && d.operand(0).is_ok_and(|a| a.to_raw().ptr == array.to_raw().ptr)
    });
    match (cmp, shape, extract) {
        (Some(_), Some(shape), Some(extract)) => Index { x: strip(ir, x), normalised: Some((shape, extract)) },
        _ => plain,
    }
}

/// The element type and size of a rank-1 C-contiguous global array of
/// 16- to 64-bit numbers.
fn vectorizable(ty: Type) -> Option<(Type, i64)> {
    let array = ArrayType::from_type(ty)?;
    let element = array.element_type();
    let number = element.is_f16()
        || element.is_f32()
        || element.is_f64()
        || IntegerType::try_from(element).is_ok_and(|i| matches!(i.width(), 16 | 32 | 64));
    // Shared and local arrays are pydev's: their alignment is raised instead.
    let global = array.space() == pydev_dialect::MemorySpace::Global;
    if array.rank() != 1 || array.layout() != pydev_dialect::Layout::C || !number || !global {
        return None;
    }
    Some((element, pydev_dialect::type_layout(element)?.0 as i64))
}

fn block_ops<'c>(ir: PassIr<'c>, block: BlockRef<'c, 'c>) -> Vec<OperationRef<'c, 'c>> {
    let mut out = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        out.push(ir.detach(o));
        op = o.next_in_block();
    }
    out
}

fn find_group<'c>(ir: PassIr<'c>, store: bool, done: &[mlir_sys::MlirOperation]) -> Option<Group<'c>> {
    let name = if store { ops::ArrayStoreOperation::NAME } else { ops::ArrayLoadOperation::NAME };
    let mut seen = Vec::new();
    for op in ir.ops_named(ir.root(), &[name]) {
        let Some(block) = op.block() else { continue };
        if seen.contains(&block.to_raw().ptr) {
            continue;
        }
        seen.push(block.to_raw().ptr);
        let ops = block_ops(ir, ir.block(block));
        // (position, array, index) of each access of the block.
        let accesses: Vec<(usize, Value, Index)> = ops
            .iter()
            .enumerate()
            .filter(|(_, o)| named(o, name) && !done.iter().any(|d| d.ptr == o.to_raw().ptr))
            .filter_map(|(pos, o)| {
                let (array, indices) = access(ir, *o);
                vectorizable(array.r#type())?;
                Some((pos, array, parse_index(ir, indices[0], array, 0)))
            })
            .collect();
        for &(pos, array, index) in &accesses {
            let (element, bytes) = vectorizable(array.r#type())?;
            let known = factor(ir, index.x, 16);
            for k in [4i64, 2] {
                if k * bytes > 16 || known % k != 0 {
                    continue;
                }
                let members: Option<Vec<usize>> = (0..k)
                    .map(|c| {
                        accesses.iter().find_map(|&(p, a, i)| {
                            (a.to_raw().ptr == array.to_raw().ptr
                                && i.normalised.is_some() == index.normalised.is_some()
                                && offset_of(ir, i.x, index.x) == Some(c))
                            .then_some(p)
                        })
                    })
                    .collect();
                let Some(members) = members else { continue };
                let (lo, hi) = (*members.iter().min()?, *members.iter().max()?);
                let quiet = ops[lo..=hi].iter().enumerate().all(|(j, o)| {
                    let n = o.name();
                    let n = n.as_string_ref().as_str().unwrap_or_default();
                    members.contains(&(lo + j))
                        || (o.region_count() == 0
                            && (n.starts_with("arith.")
                                || n.starts_with("math.")
                                || PURE.contains(&n)
                                || (!store && n == ops::ArrayLoadOperation::NAME)))
                });
                // The accesses are rebuilt at the first load, at the last
                // store: i and the array must be defined by then.
                let anchor = if store { hi } else { lo };
                let before = |v: Value| {
                    ir.defining_op(v).is_none_or(|d| {
                        d.block().map(|b| b.to_raw().ptr) != Some(block.to_raw().ptr)
                            || ops[..anchor].iter().any(|o| o.to_raw().ptr == d.to_raw().ptr)
                    })
                };
                if quiet && before(index.x) && before(array) && members[0] == pos {
                    return Some(Group {
                        store,
                        members: members.iter().map(|&m| ops[m]).collect(),
                        array,
                        index,
                        element,
                        bytes,
                    });
                }
            }
        }
    }
    None
}

/// Rewrites the group; returns the slow path's accesses.
fn rewrite<'c>(ir: PassIr<'c>, g: &Group<'c>, cuda: bool) -> Result<Vec<mlir_sys::MlirOperation>, ()> {
    let k = g.members.len();
    let width = k as i64 * g.bytes;
    let order = |a: &&OperationRef<'c, 'c>, b: &&OperationRef<'c, 'c>| {
        if a.is_before_in_block(**b) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    };
    let anchor =
        *if g.store { g.members.iter().max_by(order) } else { g.members.iter().min_by(order) }.expect("members");
    let b = Builder::before(ir, anchor);
    let fail = |message: String| crate::capi::emit_error(anchor.location(), &message);
    let array_type = ArrayType::from_type(g.array.r#type()).expect("an array");
    let descriptor = b.cast(g.array, descriptor_type(&b, &array_type, cuda));
    let ptr_type = b.ty(&format!("!llvm.ptr<{}>", crate::lower_arrays::address_space(array_type.space(), cuda)));
    let data = b.value(
        "llvm.extractvalue",
        &[descriptor],
        ptr_type,
        &[b.named("position", DenseI64ArrayAttribute::new(b.ctx, &[0]).into())],
    );
    let x = to_i64(&b, g.index.x).map_err(|e| fail(e.to_string()))?;
    let ptr = b.value(
        "llvm.getelementptr",
        &[data, x],
        ptr_type,
        &[
            b.named("rawConstantIndices", DenseI32ArrayAttribute::new(b.ctx, &[i32::MIN]).into()),
            b.named("elem_type", TypeAttribute::new(g.element).into()),
        ],
    );
    let i1: Type = IntegerType::new(b.ctx, 1).into();
    let cmp = |bb: &Builder<'c>, p: &str, l: Value<'c, 'c>, r: Value<'c, 'c>| {
        bb.value("arith.cmpi", &[l, r], i1, &[bb.named("predicate", bb.attr(&format!("{p} : i64")))])
    };
    let zero = make_constant(&b, b.i64(), 0);
    let address = b.value("llvm.ptrtoint", &[ptr], b.i64(), &[]);
    let low = b.value("arith.andi", &[address, make_constant(&b, b.i64(), width - 1)], b.i64(), &[]);
    let mut fast_ok = cmp(&b, "0", low, zero); // eq
    if g.index.normalised.is_some() {
        // A negative i wraps (the originals read from the end): not adjacent.
        let nonnegative = cmp(&b, "5", x, zero); // sge
        fast_ok = b.value("arith.andi", &[fast_ok, nonnegative], i1, &[]);
    }
    let vector = b.ty(&format!("vector<{k}x{}>", g.element));
    let align = b.named("alignment", b.attr(&format!("{width} : i64")));
    let results: Vec<Type> = if g.store { vec![] } else { vec![g.element; k] };
    let region = || {
        let r = Region::new();
        r.append_block(Block::new(&[]));
        r
    };
    let if_op = b.insert_op(
        OperationBuilder::new("scf.if", b.loc)
            .add_operands(&[fast_ok])
            .add_results(&results)
            .add_regions([region(), region()])
            .build()
            .map_err(|e| fail(format!("cannot build scf.if: {e}")))?,
    );
    let block = |i: usize| if_op.region(i).ok().and_then(|r| ir.entry_block(r)).expect("a block");
    let (fast, slow) = (Builder::at_end(ir, block(0), b.loc), Builder::at_end(ir, block(1), b.loc));
    let lane = |bb: &Builder<'c>, c: usize| make_constant(bb, bb.i64(), c as i64);
    // The slow path's indices: i + c, wrapped as the originals were.
    let extent = g.index.normalised.map(|(shape, extract)| {
        let attrs = |o: OperationRef<'c, 'c>| o.attributes().collect::<Vec<_>>();
        let tuple_type = shape.result(0).expect("a shape").r#type();
        let t = slow.value(ops::ArrayShapeOperation::NAME, &[g.array], tuple_type, &attrs(shape));
        slow.value(ops::TupleExtractOperation::NAME, &[t], slow.i64(), &attrs(extract))
    });
    let indices: Vec<Value> = (0..k)
        .map(|c| {
            let xc = if c == 0 { x } else { slow.value("arith.addi", &[x, lane(&slow, c)], slow.i64(), &[]) };
            match extent {
                None => xc,
                Some(e) => {
                    let negative = cmp(&slow, "2", xc, make_constant(&slow, slow.i64(), 0)); // slt
                    let wrapped = slow.value("arith.addi", &[xc, e], slow.i64(), &[]);
                    slow.value("arith.select", &[negative, wrapped, xc], slow.i64(), &[])
                }
            }
        })
        .collect();
    let mut slow_ops = Vec::new();
    if g.store {
        let mut v = fast.value("llvm.mlir.poison", &[], vector, &[]);
        for (c, m) in g.members.iter().enumerate() {
            let value = ir.value(m.operand(0).expect("value"));
            v = fast.value("llvm.insertelement", &[v, value, lane(&fast, c)], vector, &[]);
        }
        fast.op("llvm.store", &[v, ptr], &[], std::slice::from_ref(&align));
        fast.op("scf.yield", &[], &[], &[]);
        for (c, m) in g.members.iter().enumerate() {
            let value = ir.value(m.operand(0).expect("value"));
            let attrs: Vec<_> = m.attributes().collect();
            slow_ops.push(slow.op(ops::ArrayStoreOperation::NAME, &[value, g.array, indices[c]], &[], &attrs).to_raw());
        }
        slow.op("scf.yield", &[], &[], &[]);
        for m in &g.members {
            ir.erase(*m);
        }
    } else {
        let parts: Vec<Value> = if cuda {
            // Inline PTX: LLVM would scalarize a vector load whose lanes are
            // only extracted, then merge the two paths and lose the alignment.
            let bits = g.bytes * 8;
            let int: Type = IntegerType::new(fast.ctx, bits as u32).into();
            let outs: Vec<String> = (0..k).map(|c| format!("${c}")).collect();
            let register = match bits {
                16 => "h",
                32 => "r",
                _ => "l",
            };
            let loaded = fast
                .inline_asm(
                    &format!("ld.global.v{k}.b{bits} {{{}}}, [${k}];", outs.join(", ")),
                    &format!("{},l", vec![format!("={register}"); k].join(",")),
                    &[ptr],
                    Some(fast.ty(&format!("!llvm.struct<({})>", vec![int.to_string(); k].join(", ")))),
                )
                .expect("the loaded lanes");
            (0..k)
                .map(|c| {
                    let position = fast.named("position", DenseI64ArrayAttribute::new(fast.ctx, &[c as i64]).into());
                    let lane = fast.value("llvm.extractvalue", &[loaded], int, &[position]);
                    if g.element == int {
                        lane
                    } else {
                        fast.value("llvm.bitcast", &[lane], g.element, &[])
                    }
                })
                .collect()
        } else {
            let v = fast.value("llvm.load", &[ptr], vector, std::slice::from_ref(&align));
            (0..k).map(|c| fast.value("llvm.extractelement", &[v, lane(&fast, c)], g.element, &[])).collect()
        };
        fast.op("scf.yield", &parts, &[], &[]);
        let loaded: Vec<Value> = g
            .members
            .iter()
            .enumerate()
            .map(|(c, m)| {
                let attrs: Vec<_> = m.attributes().collect();
                let op = slow.op(ops::ArrayLoadOperation::NAME, &[g.array, indices[c]], &[g.element], &attrs);
                slow_ops.push(op.to_raw());
                ir.value(op.result(0).expect("a load").into())
            })
            .collect();
        slow.op("scf.yield", &loaded, &[], &[]);
        for (c, m) in g.members.iter().enumerate() {
            let r = ir.value(if_op.result(c).expect("a result").into());
            ir.replace(*m, &[r]);
        }
    }
    Ok(slow_ops)
}

fn make_constant<'c>(b: &Builder<'c>, ty: Type<'c>, value: i64) -> Value<'c, 'c> {
    b.value("arith.constant", &[], ty, &[b.named("value", IntegerAttribute::new(ty, value).into())])
}

/// The widest group (k * sizeof(T) bytes) among the accesses of the array
/// that `array_op` allocates, if any: its accesses' last indices i + c with
/// i a multiple of k, and its last extent a multiple of k.
fn static_group_width<'c>(ir: PassIr<'c>, array_op: OperationRef<'c, 'c>) -> Option<i64> {
    let order = array_op.attribute("order").ok().map(|a: Attribute| a.to_string());
    if order.as_deref() != Some("\"C\"") {
        return None;
    }
    let array_value: Value = ir.value(array_op.result(0).ok()?.into());
    let array = ArrayType::from_type(array_value.r#type())?;
    let element = array.element_type();
    if !(element.is_float() || IntegerType::try_from(element).is_ok()) {
        return None;
    }
    let (size, _) = pydev_dialect::type_layout(element)?;
    let shape = DenseI64ArrayAttribute::try_from(array_op.attribute("shape").ok()?).ok()?;
    let dim = shape.len().checked_sub(1)?;
    let last_extent = shape.element(dim).ok()?;
    let dim = dim as i64;
    // (is a store, the indices) of each access of this array.
    let mine: Vec<(bool, Vec<Value>)> = ir
        .ops_named(ir.root(), &[ops::ArrayLoadOperation::NAME, ops::ArrayStoreOperation::NAME])
        .into_iter()
        .filter_map(|op| {
            let store = op.name().as_string_ref().as_str() == Ok(ops::ArrayStoreOperation::NAME);
            let (array, indices) = access(ir, op);
            (array.to_raw().ptr == array_value.to_raw().ptr).then_some((store, indices))
        })
        .collect();
    for k in [4i64, 2] {
        if k * size as i64 > 16 || last_extent % k != 0 {
            continue;
        }
        let found = mine.iter().any(|(store, indices)| {
            let Some((last, lead)) = indices.split_last() else { return false };
            let last = parse_index(ir, *last, array_value, dim);
            factor(ir, last.x, 16) % k == 0
                && (1..k).all(|c| {
                    mine.iter().any(|(s, other)| {
                        s == store
                            && other.split_last().is_some_and(|(o_last, o_lead)| {
                                let o_last = parse_index(ir, *o_last, array_value, dim);
                                same_values(o_lead, lead)
                                    && o_last.normalised.is_some() == last.normalised.is_some()
                                    && offset_of(ir, o_last.x, last.x) == Some(c)
                            })
                    })
                })
        });
        if found {
            return Some(k * size as i64);
        }
    }
    None
}

fn same_values(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_raw().ptr == y.to_raw().ptr)
}

/// `v` without sign extensions and index casts (to_i64 makes them again).
fn strip<'c>(ir: PassIr<'c>, mut v: Value<'c, 'c>) -> Value<'c, 'c> {
    while let Some(def) = ir.defining_op(v).filter(|d| named(d, "arith.extsi") || named(d, "arith.index_cast")) {
        v = ir.value(def.operand(0).expect("a cast operand"));
    }
    v
}

/// Whether `a` and `b` are the same value: one SSA value, or the same pure
/// op of the same operands (the frontend computes `4 * i` afresh for each
/// access).
fn same<'c>(ir: PassIr<'c>, a: Value<'c, 'c>, b: Value<'c, 'c>, depth: u32) -> bool {
    if a.to_raw().ptr == b.to_raw().ptr {
        return true;
    }
    let (Some(x), Some(y)) = (ir.defining_op(a), ir.defining_op(b)) else { return false };
    let name = x.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    let attrs = |o: &OperationRef| {
        o.attributes()
            .map(|(k, v)| format!("{}={v}", k.as_string_ref().as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
    };
    depth > 0
        && (name.starts_with("arith.") || PURE.contains(&name))
        && named(&y, name)
        && x.result_count() == 1
        && y.result_count() == 1
        && x.region_count() == 0
        && attrs(&x) == attrs(&y)
        && x.operand_count() == y.operand_count()
        && x.operands().zip(y.operands()).all(|(p, q)| same(ir, ir.value(p), ir.value(q), depth - 1))
}

/// c when `v` is `base + c` (c a constant), seen through sign extensions.
fn offset_of<'c>(ir: PassIr<'c>, v: Value<'c, '_>, base: Value<'c, '_>) -> Option<i64> {
    let (v, base) = (strip(ir, ir.value(v)), strip(ir, ir.value(base)));
    if same(ir, v, base, 8) {
        return Some(0);
    }
    let def = ir.defining_op(v).filter(|d| named(d, "arith.addi"))?;
    let (x, y) = (strip(ir, ir.value(def.operand(0).ok()?)), strip(ir, ir.value(def.operand(1).ok()?)));
    match (constant(ir, x), constant(ir, y)) {
        (_, Some(c)) if same(ir, x, base, 8) => Some(c),
        (Some(c), _) if same(ir, y, base, 8) => Some(c),
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
