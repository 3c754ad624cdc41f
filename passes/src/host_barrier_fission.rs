//! `pydev-host-barrier-fission`: kernels with block barriers and warp
//! operations as loops over threads on the host (loop fission at each
//! rendezvous, as POCL and Polygeist do), instead of one coroutine per
//! thread.
//!
//! Expects: the host pipeline up to `pydev-check-lowered` and
//! `reconcile-unrealized-casts`: kernels are `func.func` with `pydev.kernel`
//! and the trailing `%ctx` of `pydev-lower-simt-host`, barriers are calls
//! of `@pydev_rt_barrier` and warp operations calls of `@pydev_rt_warp`,
//! control flow is `cf` (nested regions only inside ops that hold no
//! rendezvous).
//! Guarantees: each kernel that qualifies becomes a step function
//! `@k(args.., %ctx, %state: i32) -> i32` that runs one thread from
//! rendezvous `state` (0: the start) to the next and returns its number
//! (barrier i: i; warp operation i: i | WARP_STATE; -1: the thread
//! returned); values live across a rendezvous live in the thread's frame
//! (`ctx.scratch + linear_tid * frame`), after a head that holds the
//! thread's state, whether it is ready, and its warp request and result.
//! `@__pydev_block_k` runs the block in rounds. While every live thread
//! resumes from the same state (the start, a released barrier) they all run
//! from it, a loop-invariant value, so that LLVM unswitches the dispatch out
//! of the thread loop; when all then wait at the same block barrier the loop
//! releases it itself (the common case costs no runtime call). Otherwise
//! `@pydev_rt_block_release` releases what can complete, as on a GPU: first
//! the warp operations whose lanes have all arrived (so warp 0's shuffles,
//! or those of a warp-uniform branch, go on while the other threads wait at
//! a block barrier: the next round runs only those ready lanes), else the
//! block barrier once every thread waits at it, until all return. Threads
//! that returned hold up a later barrier (the spec's rule: a reported
//! deadlock, "some returned, some waited at barrier i") unless the kernel
//! has `pydev.exited_skip_barriers` (pydev.numba's kernels: they are left
//! out, as on GPUs); threads at different barriers, or at a warp operation
//! that can never complete, are a reported deadlock. `pydev.host_frames`
//! (module) maps each such kernel to its frame size; the runtime runs it in
//! "barrier loops" mode instead of coroutines even when the module has
//! `pydev.host_fibers`.
//! Does not fire on kernels without barriers or warp operations, with
//! atomic waits (`@pydev_rt_wait`: those need coroutines), with a
//! rendezvous inside a nested region or in a called function, with a
//! value of a type that has no frame layout, with a local array
//! (`llvm.alloca`) of no constant size, or with a grid barrier
//! (`pydev_rt_barrier` of kind GRID: the runtime runs such a grid's blocks
//! together as coroutines).
//!
//! Rewrites (B: the block holding rendezvous i, R_i: the rest of B after it):
//!   %r = call @pydev_rt_barrier(%ctx, kind, %p); rest   =>  ctx.count += %p (and: += !%p);
//!                                                          frame.state = i; return i
//!                                                          ^R_i: %r = f(kind, ctx.total); rest
//!   %r = call @pydev_rt_warp(%ctx, op, mask, v, arg); rest
//!                                                      =>  frame.{op, mask, value, arg} = ..;
//!                                                          frame.state = i | WARP_STATE; return it
//!                                                          ^R_i: %r = frame.result; rest
//!   return                                               =>  frame.state = -1; return -1
//!   entry                                                =>  state of rendezvous i: ^R_i, else the old entry
//!   %p = llvm.alloca n x T (a local array)              =>  %p = frame + its slot (every one: its
//!                                                          address may cross inside a descriptor)
//!   %v used after a rendezvous on some path              =>  store %v to its frame slot at its
//!                                                          definition; load it at those uses
//!                                                          (constants are cloned instead;
//!                                                          an `index` is stored as its i64,
//!                                                          through arith.index_cast)
//!   %a = llvm.alloca %n x T, %a used after a rendezvous  =>  n * sizeof(T) bytes of the frame;
//!                                                          every use of %a takes their address
//!                                                          (frame base + offset)
//!
//! Thread context fields, frame head, entry points and codes: the host ABI,
//! `pydev_dialect::abi` (`dialect/src/abi.rs`), which the runtime shares.

use crate::capi::PassIr;
use crate::ir::PassResult;
use crate::{
    capi,
    ir::{external_pass, Builder, PassId},
    lower_arrays::byte_gep,
    lower_simt_host::{gep, linear_tid},
    PassInfo,
};
use melior::ir::{
    attribute::{ArrayAttribute, Attribute, IntegerAttribute, TypeAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{FunctionType, IntegerType},
    Block, BlockLike, BlockRef, Identifier, Module, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use petgraph::algo::dominators::{simple_fast, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use pydev_dialect::abi::{attr, barrier_kind, ctx as ctx_field, entry, frame};
use std::collections::{HashMap, HashSet};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-host-barrier-fission",
    summary: "run host kernels with block barriers as loops over threads between barriers",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

const BARRIER: &str = entry::BARRIER;
const WARP: &str = entry::WARP;
const NEEDS_COROUTINES: &[&str] = &[entry::WAIT];

/// Warp-operation states have this bit set (block barriers do not).
const WARP_STATE: i64 = frame::WARP_STATE;

/// The fixed head of every thread's frame (`pydev_dialect::abi::frame`):
/// the state it last returned, whether it runs in the next round, and what
/// it brings to a warp operation: mask, value bits, lane argument,
/// operation, and the result that `pydev_rt_block_release` computes when
/// the lane's group completes.
const HEAD: u64 = frame::HEAD;
// The block loop's text reads and writes the state at the frame's start.
const _: () = assert!(frame::STATE == 0);

fn callee(op: OperationRef) -> Option<String> {
    if op.name().as_string_ref().as_str() != Ok("func.call") {
        return None;
    }
    op.attribute("callee").ok().map(|a| a.to_string().trim_start_matches('@').trim_matches('"').to_owned())
}

fn run(ir: PassIr) -> PassResult {
    let module = ir.root();
    let funcs = ir.ops_named(module, &["func.func"]);
    // Functions that synchronize, directly or through calls.
    let mut syncing: HashSet<String> = HashSet::new();
    loop {
        let before = syncing.len();
        for f in &funcs {
            let name = capi::sym_name(*f);
            if syncing.contains(&name) {
                continue;
            }
            if ir
                .all_ops(*f)
                .into_iter()
                .filter_map(callee)
                .any(|c| c == BARRIER || c == WARP || NEEDS_COROUTINES.contains(&c.as_str()) || syncing.contains(&c))
            {
                syncing.insert(name);
            }
        }
        if syncing.len() == before {
            break;
        }
    }
    // Decide first: transforming a kernel replaces its block loop.
    let kernels: Vec<OperationRef> = funcs
        .into_iter()
        .filter(|f| {
            f.has_attribute(attr::KERNEL)
                && f.has_attribute(attr::HOST_CTX)
                && syncing.contains(&capi::sym_name(*f))
                && qualifies(ir, *f, &syncing)
        })
        .collect();
    let mut frames = Vec::new();
    for f in kernels {
        if let Some(size) = Some(transform(ir, module, f)) {
            frames.push((capi::sym_name(f), size));
        }
    }
    if !frames.is_empty() {
        let ctx = capi::context(module);
        let entries: Vec<String> = frames.iter().map(|(n, s)| format!("{n} = {s} : i64")).collect();
        ir.set_attribute(
            module,
            attr::HOST_FRAMES,
            Attribute::parse(ctx, &format!("{{{}}}", entries.join(", "))).expect("frame table"),
        );
    }
    Ok(())
}

/// The constant kind of a `pydev_rt_barrier` call (`barrier_kind`).
fn barrier_kind_of(ir: PassIr, call: OperationRef) -> i64 {
    let kind = ir.value(call.operand(1).expect("kind"));
    ir.defining_op(kind).and_then(|d| d.attribute("value").ok()).and_then(capi::integer_attr_value).unwrap_or(0)
}

/// Barriers only at the top level (no grid barrier), no warp operations or waits, no calls
/// of synchronizing functions, every value with a frame layout.
fn qualifies<'c>(ir: PassIr<'c>, f: OperationRef<'c, '_>, syncing: &HashSet<String>) -> bool {
    let mut barriers = 0;
    for op in ir.all_ops(f) {
        if let Some(c) = callee(op) {
            if c == BARRIER || c == WARP {
                if op.parent_operation().map(|p| p.to_raw().ptr) != Some(f.to_raw().ptr) {
                    return false;
                }
                if c == BARRIER && barrier_kind_of(ir, op) == barrier_kind::GRID {
                    return false; // the grid's blocks run together, as coroutines
                }
                barriers += 1;
            } else if NEEDS_COROUTINES.contains(&c.as_str()) || syncing.contains(&c) {
                return false;
            }
        }
        if op.parent_operation().map(|p| p.to_raw().ptr) == Some(f.to_raw().ptr)
            && op.results().any(|r| layout(r.r#type()).is_none())
        {
            return false;
        }
        if op.name().as_string_ref().as_str() == Ok("llvm.alloca") && alloca_storage(ir, op).is_none() {
            return false; // storage the frame cannot hold: coroutines keep each thread's stack
        }
    }
    let region = f.region(0).expect("body");
    let mut b = region.first_block().and_then(|e| e.next_in_region());
    while let Some(block) = b {
        if (0..block.argument_count()).any(|i| layout(block.argument(i).expect("arg").r#type()).is_none()) {
            return false;
        }
        b = block.next_in_region();
    }
    barriers > 0
}

/// (size, alignment) of the memory of `llvm.alloca` `op` (a local array):
/// a constant count of an element type with a frame layout.
fn alloca_storage<'c>(ir: PassIr<'c>, op: OperationRef<'c, '_>) -> Option<(u64, u64)> {
    let count = op.operand(0).ok()?;
    let def = ir.defining_op(count)?;
    let n = def.attribute("value").ok().and_then(|a| IntegerAttribute::try_from(a).ok())?.value();
    let elem = op.attribute("elem_type").ok().and_then(|a| TypeAttribute::try_from(a).ok())?.value();
    let (size, align) = layout(elem)?;
    let want = op
        .attribute("alignment")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(1, |a| a.value().max(1) as u64);
    Some((size.checked_mul(u64::try_from(n).ok()?)?, align.max(want)))
}

/// (size, alignment) of a value of type `t` in the frame: the host
/// storage layout of the dialect (`pydev_dialect::storage_layout`, the C
/// rules of the aggregates' layout applied to their LLVM types).
fn layout(t: Type) -> Option<(u64, u64)> {
    pydev_dialect::storage_layout(t)
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

fn blocks_of<'c>(ir: PassIr<'c>, f: OperationRef<'c, 'c>) -> Vec<BlockRef<'c, 'c>> {
    let region = f.region(0).expect("body");
    let mut out = Vec::new();
    let mut b = region.first_block();
    while let Some(block) = b {
        out.push(ir.block(block));
        b = block.next_in_region();
    }
    out
}

/// The op under `f` that holds `op` (itself if it is at the top level).
fn top_level<'c>(ir: PassIr<'c>, f: OperationRef<'c, 'c>, op: OperationRef<'c, 'c>) -> OperationRef<'c, 'c> {
    let mut cur = op;
    loop {
        match cur.parent_operation() {
            Some(p) if p.to_raw().ptr == f.to_raw().ptr => return cur,
            Some(p) => cur = ir.detach(p),
            None => return cur,
        }
    }
}

/// The entries of a map keyed by IR addresses in frame order: the map's own
/// order differs between processes, and so would the code made in it (the
/// same kernel must compile to the same text).
fn by_offset(m: &HashMap<usize, u64>) -> Vec<(usize, u64)> {
    let mut v: Vec<(usize, u64)> = m.iter().map(|(k, o)| (*k, *o)).collect();
    v.sort_by_key(|&(_, o)| o);
    v
}

/// The dominator tree of blocks `0..n` (`succ`: each block's successors)
/// under a virtual root `n` that enters block 0 and every block of
/// `entries` (petgraph's Cooper-Harvey-Kennedy `simple_fast`).
fn dominators(n: usize, succ: &[Vec<usize>], entries: &[usize]) -> Dominators<NodeIndex<u32>> {
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, n * 2);
    let nodes: Vec<NodeIndex<u32>> = (0..=n).map(|_| g.add_node(())).collect();
    for (b, ss) in succ.iter().enumerate() {
        for &s in ss {
            g.add_edge(nodes[b], nodes[s], ());
        }
    }
    for &e in std::iter::once(&0).chain(entries) {
        g.add_edge(nodes[n], nodes[e], ());
    }
    simple_fast(&g, nodes[n])
}

/// Whether block `def` dominates block `user` (every block dominates
/// itself; a block the root does not reach is dominated by nothing else).
fn dominates(dom: &Dominators<NodeIndex<u32>>, def: usize, user: usize) -> bool {
    def == user || dom.dominators(NodeIndex::new(user)).is_some_and(|mut d| d.any(|x| x.index() == def))
}

/// Rewrites kernel `f` into its step function; returns the frame size.
fn transform<'c>(ir: PassIr<'c>, module: OperationRef<'c, 'c>, f: OperationRef<'c, 'c>) -> u64 {
    let ctx = capi::context(f);
    let i32t: Type = IntegerType::new(ctx, 32).into();
    let entry = blocks_of(ir, f)[0];
    let ctx_arg: Value = ir.value(entry.argument(entry.argument_count() - 1).expect("ctx").into());
    let region = f.region(0).expect("body");

    // 1. Split every barrier's block after the barrier.
    let calls: Vec<OperationRef> =
        ir.all_ops(f).into_iter().filter(|op| matches!(callee(*op).as_deref(), Some(BARRIER | WARP))).collect();
    let mut barriers = Vec::new(); // (call, B, R)
    for call in &calls {
        let b = call.block().expect("in a block");
        let b = ir.block(b);
        let r = ir.block(region.insert_block_after(b, Block::new(&[])));
        let mut next = call.next_in_block();
        while let Some(op) = next {
            next = op.next_in_block();
            ir.move_to_end(op, r);
        }
        barriers.push((*call, b, r));
    }

    // 1b. Each rendezvous' result, computed where its thread resumes, so
    //     that spilling below treats it as any other value.
    let i64t: Type = IntegerType::new(ctx, 64).into();
    let mut frame_size_uses: Vec<OperationRef> = Vec::new();
    for (call, _, r) in &barriers {
        let rb = Builder::before(ir, ir.detach(r.first_operation().expect("R has a terminator")));
        let result = if callee(*call).as_deref() == Some(WARP) {
            // The thread's frame (its size is set once known, step 4): the
            // runtime left the result there when it released the group.
            let size = rb.const_int(i64t, 0);
            frame_size_uses.push(ir.defining_op(size).expect("a constant op"));
            let scratch_p = gep(&rb, ctx_arg, ctx_field::SCRATCH);
            let scratch = rb.value("llvm.load", &[scratch_p], rb.ty("!llvm.ptr"), &[]);
            let lin = linear_tid(&rb, ctx_arg);
            let lin = rb.value("llvm.zext", &[lin], i64t, &[]);
            let bytes = rb.value("llvm.mul", &[lin, size], i64t, &[]);
            let own = byte_gep(&rb, scratch, bytes);
            let p = gep(&rb, own, frame::RESULT);
            rb.value("llvm.load", &[p], i64t, &[])
        } else {
            let kind = barrier_kind_of(ir, *call);
            let total_p = gep(&rb, ctx_arg, ctx_field::TOTAL);
            let total = rb.value("llvm.load", &[total_p], i32t, &[]);
            match kind {
                barrier_kind::COUNT => total,
                barrier_kind::AND | barrier_kind::OR => {
                    let i1: Type = IntegerType::new(ctx, 1).into();
                    let cmp = if kind == barrier_kind::AND {
                        // The total counts the false predicates (step 8):
                        // right whichever threads take part.
                        let zero = rb.const_int(i32t, 0);
                        rb.value("llvm.icmp", &[total, zero], i1, &[rb.named("predicate", rb.attr("0 : i64"))])
                    } else {
                        let zero = rb.const_int(i32t, 0);
                        rb.value("llvm.icmp", &[total, zero], i1, &[rb.named("predicate", rb.attr("1 : i64"))])
                    };
                    rb.value("llvm.zext", &[cmp], i32t, &[])
                }
                _ => rb.const_int(i32t, 0),
            }
        };
        let old: Value = ir.value(call.result(0).expect("result").into());
        ir.replace_uses_except(old, result, *call);
    }

    // 2. The CFG (barrier blocks end at the barrier: no successors).
    let blocks = blocks_of(ir, f);
    let index: HashMap<usize, usize> = blocks.iter().enumerate().map(|(i, b)| (b.to_raw().ptr as usize, i)).collect();
    let succ: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| match b.terminator() {
            Some(t) if callee(t).as_deref() != Some(BARRIER) => {
                t.successors().map(|s| index[&(s.to_raw().ptr as usize)]).collect()
            }
            _ => vec![],
        })
        .collect();
    // Dominators in the step function's CFG: a root (the dispatch) enters
    // the old entry and every resume block. A use its definition no longer
    // dominates is separated from it by a barrier.
    let resumes: Vec<usize> = barriers.iter().map(|(_, _, r)| index[&(r.to_raw().ptr as usize)]).collect();
    let dom = dominators(blocks.len(), &succ, &resumes);
    let crosses = |def: usize, user: usize| !dominates(&dom, def, user);

    // 3. Values defined at the top level (not function arguments) and the
    //    uses that a barrier separates from them.
    let barrier_results: HashSet<usize> =
        barriers.iter().map(|(c, _, _)| key(ir.value(c.result(0).expect("result").into()))).collect();
    let mut defs: HashMap<usize, (usize, Value, Option<OperationRef>)> = HashMap::new();
    for (bi, b) in blocks.iter().enumerate() {
        if bi != 0 {
            for i in 0..b.argument_count() {
                let v: Value = ir.value(b.argument(i).expect("arg").into());
                defs.insert(key(v), (bi, v, None));
            }
        }
        let mut op = b.first_operation();
        while let Some(o) = op {
            for r in o.results() {
                let v: Value = ir.value(r.into());
                if !barrier_results.contains(&key(v)) {
                    defs.insert(key(v), (bi, v, Some(ir.detach(o))));
                }
            }
            op = o.next_in_block();
        }
    }
    let mut crossing: Vec<(OperationRef, usize, usize)> = Vec::new(); // (user, operand, def key)
    for user in ir.all_ops(f) {
        if user.to_raw().ptr == f.to_raw().ptr {
            continue;
        }
        let top = top_level(ir, f, user);
        let Some(ub) = top.block().map(|b| index[&(b.to_raw().ptr as usize)]) else { continue };
        for (j, operand) in user.operands().enumerate() {
            if let Some((db, _, _)) = defs.get(&key(operand)) {
                if crosses(*db, ub) {
                    crossing.push((user, j, key(operand)));
                }
            }
        }
    }

    // 4. Frame slots for what is not a constant.
    let remat = |op: Option<OperationRef>| {
        op.is_some_and(|o| o.operand_count() == 0 && o.region_count() == 0 && o.result_count() == 1)
    };
    let is_alloca =
        |op: Option<OperationRef>| op.is_some_and(|o| o.name().as_string_ref().as_str() == Ok("llvm.alloca"));
    let mut slots: HashMap<usize, u64> = HashMap::new();
    let mut frame = HEAD;
    // Every local array keeps its memory in the frame, not in the stack of
    // the step function that made it (which has returned at the next
    // rendezvous): its pointer is recomputed from the frame base wherever it
    // is used. All of them, not only those whose pointer a rendezvous
    // separates from a use: the pointer also travels inside values (an
    // array descriptor saved in the frame), which would keep a dead stack
    // address.
    let mut allocas: HashMap<usize, u64> = HashMap::new();
    let local_arrays: Vec<usize> = ir
        .all_ops(f)
        .into_iter()
        .filter(|o| is_alloca(Some(*o)))
        .map(|o| key(ir.value(o.result(0).expect("an alloca's pointer").into())))
        .filter(|k| defs.contains_key(k))
        .collect();
    for k in &local_arrays {
        let (_, _, op) = defs[k];
        if allocas.contains_key(k) {
            continue;
        }
        let (size, align) = alloca_storage(ir, op.expect("an op")).expect("checked by qualifies");
        let offset = frame.div_ceil(align) * align;
        frame = offset + size;
        allocas.insert(*k, offset);
    }
    for (_, _, k) in &crossing {
        let (_, v, op) = defs[k];
        if remat(op) || slots.contains_key(k) || allocas.contains_key(k) {
            continue;
        }
        let (size, align) = layout(v.r#type()).expect("checked by qualifies");
        let offset = frame.div_ceil(align) * align;
        frame = offset + size;
        slots.insert(*k, offset);
    }
    let frame = frame.div_ceil(16).max(1) * 16;
    for c in frame_size_uses {
        ir.set_attribute(c, "value", IntegerAttribute::new(i64t, frame as i64).into());
    }

    // 5. Dispatch: a new first block takes the arguments and the state.
    let real_entry = region.insert_block_after(entry, Block::new(&[]));
    let real_entry = ir.block(real_entry);
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        ir.move_to_end(op, real_entry);
    }
    let loc = f.location();
    let state: Value = ir.value(entry.add_argument(i32t, loc));
    // frame base = scratch + linear_tid * frame
    let frame_ptr = {
        let b = Builder::at_end(ir, entry, loc);
        let scratch_p = gep(&b, ctx_arg, ctx_field::SCRATCH);
        let scratch = b.value("llvm.load", &[scratch_p], b.ty("!llvm.ptr"), &[]);
        let lin = linear_tid(&b, ctx_arg);
        let lin = b.value("llvm.zext", &[lin], b.i64(), &[]);
        let size = b.const_int(b.i64(), frame as i64);
        let bytes = b.value("llvm.mul", &[lin, size], b.i64(), &[]);
        byte_gep(&b, scratch, bytes)
    };
    // The frame's local arrays: every use takes the slot's address, made in
    // the dispatch block (which dominates every stretch).
    for (k, off) in &by_offset(&allocas) {
        let (_, v, op) = defs[k];
        let b = Builder::at_end(ir, entry, loc);
        let p = gep(&b, frame_ptr, *off as i64);
        ir.replace_uses_except(v, p, op.expect("an op"));
    }
    // state of rendezvous i => R_i; otherwise the old entry.
    let state_of = |i: usize, call: OperationRef| {
        (i as i64 + 1) | if callee(call).as_deref() == Some(WARP) { WARP_STATE } else { 0 }
    };
    let mut dispatch = entry;
    for (i, (call, _, r)) in barriers.iter().enumerate() {
        let b = Builder::at_end(ir, dispatch, loc);
        let c = b.const_int(i32t, state_of(i, *call));
        let i1: Type = IntegerType::new(ctx, 1).into();
        let is = b.value("arith.cmpi", &[state, c], i1, &[b.named("predicate", b.attr("0 : i64"))]);
        let next_block = region.insert_block_after(dispatch, Block::new(&[]));
        let next_block = ir.block(next_block);
        b.insert_op(
            OperationBuilder::new("cf.cond_br", loc)
                .add_operands(&[is])
                .add_successors(&[r, &next_block])
                .add_attributes(&[(
                    Identifier::new(ctx, "operandSegmentSizes"),
                    Attribute::parse(ctx, "array<i32: 1, 0, 0>").expect("segments"),
                )])
                .build()
                .expect("cond_br"),
        );
        dispatch = next_block;
    }
    dispatch.append_operation(OperationBuilder::new("cf.br", loc).add_successors(&[&real_entry]).build().expect("br"));

    // 6. Stores at definitions.
    for (k, off) in &by_offset(&slots) {
        let (db, v, op) = defs[k];
        let b = match op {
            Some(o) => Builder::before(ir, o.next_in_block().map(|o| ir.detach(o)).expect("a terminator follows")),
            None => {
                let block = if db == 0 { real_entry } else { blocks[db] };
                Builder::before(ir, ir.detach(block.first_operation().expect("a block has a terminator")))
            }
        };
        let p = gep(&b, frame_ptr, *off as i64);
        // index => its i64 (the host's index width; convert-to-llvm makes the cast nothing)
        let stored = if v.r#type().is_index() { b.value("arith.index_cast", &[v], b.i64(), &[]) } else { v };
        b.op("llvm.store", &[stored, p], &[], &[]);
    }
    // 7. Loads (or clones of constants) at the separated uses.
    for (user, j, k) in &crossing {
        if allocas.contains_key(k) {
            continue;
        }
        let (_, v, op) = defs[k];
        let b = Builder::before(ir, top_level(ir, f, *user));
        let new = if let Some(off) = slots.get(k) {
            let p = gep(&b, frame_ptr, *off as i64);
            if v.r#type().is_index() {
                let loaded = b.value("llvm.load", &[p], b.i64(), &[]);
                b.value("arith.index_cast", &[loaded], v.r#type(), &[])
            } else {
                b.value("llvm.load", &[p], v.r#type(), &[])
            }
        } else {
            let clone = b.insert_op(capi::clone_op(op.expect("constants are ops")));
            ir.value(clone.result(0).expect("result").into())
        };
        ir.set_operand(*user, *j, new);
    }

    // 8. Rendezvous return their state; their results come from the block
    //    (barriers) or the warp (warp operations).
    let store_at = |b: &Builder<'c>, v: Value<'c, 'c>, offset: i64| {
        let p = gep(b, frame_ptr, offset);
        b.op("llvm.store", &[v, p], &[], &[]);
    };
    for (i, (call, _, _)) in barriers.iter().enumerate() {
        let state_id = state_of(i, *call);
        if state_id & WARP_STATE != 0 {
            let b = Builder::before(ir, *call);
            let operand = |k: usize| ir.value(call.operand(k).expect("warp operand"));
            store_at(&b, operand(2), frame::MASK);
            store_at(&b, operand(3), frame::VALUE);
            store_at(&b, operand(4), frame::ARG);
            store_at(&b, operand(1), frame::OP);
            let n = b.const_int(i32t, state_id);
            store_at(&b, n, frame::STATE);
            b.op("func.return", &[n], &[], &[]);
            b.erase(*call);
            continue;
        }
        // syncthreads_and counts the false predicates: the threads taking
        // part need not be the whole block (those that returned may sit out).
        let kind = ir
            .defining_op(ir.value(call.operand(1).expect("kind")))
            .and_then(|d| d.attribute("value").ok())
            .and_then(capi::integer_attr_value)
            .unwrap_or(0);
        let pred = ir.value(call.operand(2).expect("pred"));
        let b = Builder::before(ir, *call);
        let pred = if kind == barrier_kind::AND {
            let one = b.const_int(i32t, 1);
            b.value("llvm.xor", &[pred, one], i32t, &[])
        } else {
            pred
        };
        let count_p = gep(&b, ctx_arg, ctx_field::COUNT);
        let count = b.value("llvm.load", &[count_p], i32t, &[]);
        let sum = b.value("llvm.add", &[count, pred], i32t, &[]);
        b.op("llvm.store", &[sum, count_p], &[], &[]);
        let n = b.const_int(i32t, state_id);
        store_at(&b, n, frame::STATE);
        b.op("func.return", &[n], &[], &[]);
        b.erase(*call);
    }

    // 9. Returns give -1; the signature takes the state and returns i32.
    for ret in ir
        .all_ops(f)
        .into_iter()
        .filter(|o| o.name().as_string_ref().as_str() == Ok("func.return") && o.operand_count() == 0)
    {
        let b = Builder::before(ir, ret);
        let m1 = b.const_int(i32t, -1);
        store_at(&b, m1, frame::STATE);
        b.op("func.return", &[m1], &[], &[]);
        b.erase(ret);
    }

    let t = FunctionType::try_from(
        f.attribute("function_type").ok().and_then(|a| TypeAttribute::try_from(a).ok()).expect("type").value(),
    )
    .expect("function type");
    let mut inputs: Vec<Type> = (0..t.input_count()).map(|i| t.input(i).expect("input")).collect();
    let params = inputs.clone();
    inputs.push(i32t);
    let mut fm = ir.op_mut(f);
    fm.set_attribute("function_type", TypeAttribute::new(FunctionType::new(ctx, &inputs, &[i32t]).into()).into());
    if let Ok(a) = fm.attribute("arg_attrs").and_then(ArrayAttribute::try_from) {
        let mut all: Vec<Attribute> = (0..a.len()).map(|i| a.element(i).expect("in range")).collect();
        all.push(Attribute::parse(ctx, "{}").expect("dict"));
        fm.set_attribute("arg_attrs", ArrayAttribute::new(ctx, &all).into());
    }

    // 10. The block loop: every thread to its next barrier, until all return.
    let name = capi::sym_name(f);
    let loop_name = format!("__pydev_block_{name}");
    for old in ir.ops_named(module, &["func.func"]).into_iter().filter(|o| capi::sym_name(*o) == loop_name) {
        Builder::before(ir, old).erase(old);
    }
    // Text, not builder code (not converted yet): the block
    // loop is a whole `func.func` of upstream ops (scf.while, arith, llvm
    // GEP/load/store, func.call) with no pydev op; `block_loop` writes it as
    // one template whose ABI names come from `pydev_dialect::abi`.
    let text = block_loop(&name, &params, frame, f.has_attribute(attr::EXITED_SKIP_BARRIERS));
    let parsed =
        Module::parse(ctx, &text).unwrap_or_else(|| panic!("pydev-host-barrier-fission built invalid IR:\n{text}"));
    let body = module.region(0).ok().and_then(|r| ir.entry_block(r)).expect("module body");
    let mut op = parsed.body().first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let n = capi::sym_name(o);
        let exists = ir.ops_named(module, &["func.func"]).iter().any(|g| capi::sym_name(*g) == n);
        if n != name && !exists {
            body.append_operation(capi::clone_op(o));
        }
    }
    frame
}

/// The block loop: rounds in which threads run to their next rendezvous,
/// each leaving the state it reached in its frame's head. When every live
/// thread resumes from the same state (at the start, after a barrier) they
/// all run from that loop-invariant state, and if all then wait at the same
/// block barrier the loop releases it itself: the common case costs no
/// runtime call, and LLVM unswitches the dispatch out of the thread loop.
/// Otherwise `pydev_rt_block_release` readies the threads whose warp
/// operation can complete (0: the ready ones run, each from its own state),
/// releases the block barrier (its state: every live thread resumes there),
/// or ends the block (-1: all returned, or a deadlock it reported).
/// `exited_skip`: threads that returned do not hold up a barrier.
fn block_loop(kernel: &str, params: &[Type], frame: u64, exited_skip: bool) -> String {
    let n = params.len();
    let decl: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("%a{i}: {t}{}", if i + 1 == n { " {llvm.noalias}" } else { "" }))
        .collect();
    let args: Vec<String> = (0..n).map(|i| format!("%a{i}")).collect();
    let types: Vec<String> = params.iter().map(|t| t.to_string()).collect();
    let c = format!("%a{}", n - 1);
    let call =
        |from: &str| format!("func.call @{kernel}({}, {from}) : ({}, i32) -> i32", args.join(", "), types.join(", "));
    let call = [call("%st0"), call("%own")];
    format!(
        r#"module {{
func.func private @{kernel}({types}, i32) -> i32
func.func private @{release}(!llvm.ptr, i64, i32) -> i32
func.func @__pydev_block_{kernel}({decl}) attributes {{{host_ctx}}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %exit = arith.constant -1 : i32
  %big = arith.constant 2147483647 : i32
  %warp = arith.constant {warp_state} : i32
  %false = arith.constant false
  %true = arith.constant true
  %skip = arith.constant {skip} : i32
  %strict = arith.constant {strict}
  %fsz = arith.constant {frame} : index
  %fsz64 = arith.constant {frame} : i64
  %px = llvm.getelementptr {c}[{bdim_x}] : (!llvm.ptr) -> !llvm.ptr, i8
  %py = llvm.getelementptr {c}[{bdim_y}] : (!llvm.ptr) -> !llvm.ptr, i8
  %pz = llvm.getelementptr {c}[{bdim_z}] : (!llvm.ptr) -> !llvm.ptr, i8
  %tx = llvm.getelementptr {c}[{tid_x}] : (!llvm.ptr) -> !llvm.ptr, i8
  %ty = llvm.getelementptr {c}[{tid_y}] : (!llvm.ptr) -> !llvm.ptr, i8
  %tz = llvm.getelementptr {c}[{tid_z}] : (!llvm.ptr) -> !llvm.ptr, i8
  %pscratch = llvm.getelementptr {c}[{scratch}] : (!llvm.ptr) -> !llvm.ptr, i8
  %pcount = llvm.getelementptr {c}[{count}] : (!llvm.ptr) -> !llvm.ptr, i8
  %ptotal = llvm.getelementptr {c}[{total}] : (!llvm.ptr) -> !llvm.ptr, i8
  %scratch = llvm.load %pscratch : !llvm.ptr -> !llvm.ptr
  %bx = llvm.load %px : !llvm.ptr -> i32
  %by = llvm.load %py : !llvm.ptr -> i32
  %bz = llvm.load %pz : !llvm.ptr -> i32
  %nx = arith.index_castui %bx : i32 to index
  %ny = arith.index_castui %by : i32 to index
  %nz = arith.index_castui %bz : i32 to index
  // No frame needs clearing: the first round runs every thread, which
  // writes its state, and a thread the runtime readies runs (and clears its
  // flag) before the block ends; frames start zeroed at each launch.
  llvm.store %zero, %pcount : i32, !llvm.ptr
  // %uni: every live thread resumes from %st (a loop-invariant state, so
  // that LLVM unswitches the step's dispatch out of the thread loop);
  // otherwise only the ready threads run, each from its own state. %gone:
  // some thread has returned.
  %last:4 = scf.while (%go = %true, %uni = %true, %st = %zero, %gone = %false) : (i1, i1, i32, i1) -> (i1, i1, i32, i1) {{
    scf.condition(%go) %go, %uni, %st, %gone : i1, i1, i32, i1
  }} do {{
  ^bb0(%g: i1, %uni0: i1, %st0: i32, %gone0: i1):
    // %r#0: lowest state a thread that ran reached (%big: none), %r#1: the
    // highest, %r#2: some thread has returned. Two loop nests: while every
    // thread is alive and resumes from %st0 (the common case) the first calls
    // the step for each, unconditionally, from that loop-invariant state (so
    // LLVM hoists what the inlined step reads of the context); the other runs
    // the live threads (uniform rounds after some returned: each one's own
    // state is %st0) or the ready ones, each from its own state.
    %not_gone = arith.xori %gone0, %true : i1
    %fast = arith.andi %uni0, %not_gone : i1
    %r:3 = scf.if %fast -> (i32, i32, i1) {{
{uniform}
    }} else {{
{ready_nest}
    }}
    // Every live thread ran and all wait at the same block barrier, which
    // no returned thread holds up: release it here.
    %same = arith.cmpi eq, %r#0, %r#1 : i32
    %some = arith.cmpi ne, %r#0, %big : i32
    %at_warp = arith.andi %r#0, %warp : i32
    %no_warp = arith.cmpi eq, %at_warp, %zero : i32
    %kept = arith.andi %r#2, %strict : i1
    %free = arith.xori %kept, %true : i1
    %u0 = arith.andi %uni0, %same : i1
    %u1 = arith.andi %u0, %some : i1
    %u2 = arith.andi %u1, %no_warp : i1
    %uniform = arith.andi %u2, %free : i1
    %next:3 = scf.if %uniform -> (i1, i1, i32) {{
      %total = llvm.load %pcount : !llvm.ptr -> i32
      llvm.store %total, %ptotal : i32, !llvm.ptr
      llvm.store %zero, %pcount : i32, !llvm.ptr
      scf.yield %true, %true, %r#0 : i1, i1, i32
    }} else {{
      // After a round of every live thread, none ran: all have returned.
      %none = arith.xori %some, %true : i1
      %done = arith.andi %uni0, %none : i1
      %n2:3 = scf.if %done -> (i1, i1, i32) {{
        scf.yield %false, %false, %zero : i1, i1, i32
      }} else {{
        %rel = func.call @{release}({c}, %fsz64, %skip) : (!llvm.ptr, i64, i32) -> i32
        %more = arith.cmpi sge, %rel, %zero : i32
        %barrier = arith.cmpi sgt, %rel, %zero : i32
        scf.yield %more, %barrier, %rel : i1, i1, i32
      }}
      scf.yield %n2#0, %n2#1, %n2#2 : i1, i1, i32
    }}
    scf.yield %next#0, %next#1, %next#2, %r#2 : i1, i1, i32, i1
  }}
  return
}}
}}
"#,
        uniform = thread_nest(&call, "uniform"),
        ready_nest = thread_nest(&call, "ready"),
        types = types.join(", "),
        decl = decl.join(", "),
        host_ctx = attr::HOST_CTX,
        release = entry::BLOCK_RELEASE,
        skip = i32::from(exited_skip),
        strict = !exited_skip,
        warp_state = WARP_STATE,
        total = ctx_field::TOTAL,
        bdim_x = ctx_field::dim(ctx_field::BDIM, 0),
        bdim_y = ctx_field::dim(ctx_field::BDIM, 1),
        bdim_z = ctx_field::dim(ctx_field::BDIM, 2),
        tid_x = ctx_field::dim(ctx_field::TID, 0),
        tid_y = ctx_field::dim(ctx_field::TID, 1),
        tid_z = ctx_field::dim(ctx_field::TID, 2),
        scratch = ctx_field::SCRATCH,
        count = ctx_field::COUNT,
    )
}

/// One round of the block loop over the threads (z, y, x; the body sees
/// `%pf`, the thread's frame, and `%pr`, its ready flag): "uniform" runs
/// every thread from `%st0` (`call[0]`), the other the live threads in a
/// uniform round (`%uni0`), else the ready ones, from their own state
/// (`call[1]`). Yields (lowest state reached, highest, some
/// thread returned), from (`%big`, -1, `%gone0`).
fn thread_nest(call: &[String; 2], which: &str) -> String {
    let body = if which == "uniform" {
        format!(
            r#"          %res:3 = scf.if %true -> (i32, i32, i1) {{
            %x32 = arith.index_castui %x : index to i32
            llvm.store %x32, %tx : i32, !llvm.ptr
            %s = {}"#,
            call[0]
        )
    } else {
        format!(
            r#"          %own = llvm.load %pf : !llvm.ptr -> i32
          %alive = arith.cmpi ne, %own, %exit : i32
          %ready = llvm.load %pr : !llvm.ptr -> i32
          %is_ready = arith.cmpi ne, %ready, %zero : i32
          %run = arith.select %uni0, %alive, %is_ready : i1
          %res:3 = scf.if %run -> (i32, i32, i1) {{
            %x32 = arith.index_castui %x : index to i32
            llvm.store %x32, %tx : i32, !llvm.ptr
            %s = {}
            llvm.store %zero, %pr : i32, !llvm.ptr"#,
            call[1]
        )
    };
    format!(
        r#"    %n:3 = scf.for %z = %c0 to %nz step %c1 iter_args(%lo0 = %big, %hi0 = %exit, %ex0 = %gone0) -> (i32, i32, i1) {{
      %z32 = arith.index_castui %z : index to i32
      llvm.store %z32, %tz : i32, !llvm.ptr
      %ry:3 = scf.for %y = %c0 to %ny step %c1 iter_args(%lo1 = %lo0, %hi1 = %hi0, %ex1 = %ex0) -> (i32, i32, i1) {{
        %y32 = arith.index_castui %y : index to i32
        llvm.store %y32, %ty : i32, !llvm.ptr
        %rx:3 = scf.for %x = %c0 to %nx step %c1 iter_args(%lo2 = %lo1, %hi2 = %hi1, %ex2 = %ex1) -> (i32, i32, i1) {{
          %yz = arith.muli %z, %ny : index
          %yz2 = arith.addi %yz, %y : index
          %lin0 = arith.muli %yz2, %nx : index
          %lin = arith.addi %lin0, %x : index
          %off = arith.muli %lin, %fsz : index
          %off64 = arith.index_cast %off : index to i64
          %pf = llvm.getelementptr %scratch[%off64] : (!llvm.ptr, i64) -> !llvm.ptr, i8
          %pr = llvm.getelementptr %pf[{ready}] : (!llvm.ptr) -> !llvm.ptr, i8
{body}
            %exited = arith.cmpi eq, %s, %exit : i32
            %ex = arith.ori %ex2, %exited : i1
            %lo = arith.select %exited, %lo2, %s : i32
            %lo_ = arith.minsi %lo2, %lo : i32
            %hi_ = arith.maxsi %hi2, %s : i32
            scf.yield %lo_, %hi_, %ex : i32, i32, i1
          }} else {{
            scf.yield %lo2, %hi2, %ex2 : i32, i32, i1
          }}
          scf.yield %res#0, %res#1, %res#2 : i32, i32, i1
        }}
        scf.yield %rx#0, %rx#1, %rx#2 : i32, i32, i1
      }}
      scf.yield %ry#0, %ry#1, %ry#2 : i32, i32, i1
    }}
    scf.yield %n#0, %n#1, %n#2 : i32, i32, i1"#,
        ready = frame::READY,
    )
}
