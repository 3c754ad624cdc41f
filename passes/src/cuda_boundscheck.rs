//! `pydev-cuda-boundscheck`: index checks on the GPU (`PYDEV_BOUNDSCHECK=1`
//! on the cuda target), the device-side counterpart of
//! `pydev-lower-arrays{target=host boundscheck=1}`.
//!
//! Expects: promoted pydev IR (`pydev-promote-types`: indices are signless
//! integers or `index`), outlined into a `gpu.module`
//! (`pydev-outline-kernels`), array ops not lowered yet (it runs right before
//! `pydev-lower-arrays{target=cuda}`); the cuda pipeline runs
//! `convert-scf-to-cf` after it.
//! Guarantees: every `array_load`, `array_store`, `atomic_ref` and
//! `array_index` in a gpu.module is preceded, per index, by a check of the
//! index (sign-extended to i64, compared unsigned, so a negative index fails
//! too) against the array's extent on that axis; a failing check calls
//! `@__pydev_bounds_fail`, which records the first failure of the launch in
//! the module's error buffer `@__pydev_error` and ends the thread (PTX
//! `exit`), so the access never happens and the CUDA context stays usable
//! (a `trap` would make every later call of the process fail). The runtime
//! (`runtime/src/cuda_check.rs`) reads and resets the buffer when the
//! stream synchronizes and raises `pydev.LaunchError`. Every op it builds
//! has the location of the access it checks.
//! The same buffer carries the Python exceptions raised in device code:
//! the function `@__pydev_raise(%id: i32)` (`pydev_dialect::abi::RAISE`),
//! which a frontend defines empty and calls, gets a body that records kind
//! 5 (exception) with the id as the index and ends the thread (a negative
//! id, an exception not to report, only ends it; a module whose calls all
//! pass a negative constant gets no buffer); with
//! `accesses=0` (the cuda pipeline without `boundscheck=1`) that is all the
//! pass does.
//! Does not fire on a module without array accesses (or, with `accesses=0`,
//! without `@__pydev_raise`): no global or function is added and the IR is
//! unchanged.
//!
//! The error buffer (`.visible .global .align 8 .b8 __pydev_error[64]`), in
//! 32-bit words ([`error_record`], which the runtime reads too):
//!   [0] claim: 0, then 1 once a thread claimed the record (atomic CAS)
//!   [1] ready: 1 once the claiming thread wrote every field (after membar.gl)
//!   [2] kind (1 load, 2 store, 3 atomic reference, 4 view, 5 exception)  [3] axis
//!   [4] location: index into `@__pydev_error_locations`, the NUL-separated
//!       `file:line:col` of each checked access (a constant global of the module)
//!   [5..7] thread x, y, z   [8..10] block x, y, z   [12..13] index (i64)   [14..15] extent (i64)
//!
//! Rewrites:
//!   array_load|array_store|atomic_ref|array_index %a[i_0..i_{n-1}]
//!     =>  %s = pydev.array_shape %a;
//!         per k: %e = tuple_extract %s[k]; %i = sext/index_cast i_k to i64;
//!                scf.if (%i >=u %e) { func.call @__pydev_bounds_fail(kind, k, loc, %i, %e) };
//!         the access, unchanged
//!   gpu.module (with a check)  +=  @__pydev_error, @__pydev_error_locations,
//!     func.func private @__pydev_bounds_fail(kind, axis, loc, index, extent):
//!       if cmpxchg(@__pydev_error[0], 0, 1) succeeded: store the fields,
//!       membar.gl, store volatile 1 to [1]; nvvm.exit
//!   func.func @__pydev_raise(%id: i32) { body }
//!     =>  func.func @__pydev_raise(%id: i32) {
//!           exit if %id < 0 (inline PTX);
//!           func.call @__pydev_bounds_fail(5, 0, 0, sext %id, 0); body }
//!     (and the gpu.module gets the buffer, table and failure function)

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, to_i64, Builder, PassId, RewriteError},
    PassError, PassInfo, PassOption,
};
use melior::ir::{
    attribute::{FlatSymbolRefAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Block, BlockLike, Identifier, Module, OperationRef, Region, RegionLike, Value, ValueLike,
};
use pydev_dialect::{abi::RAISE, ops, types::ArrayType};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-cuda-boundscheck",
    summary: "check array indices on the GPU, recording the first failure in the module's error buffer",
    options: &[PassOption {
        name: "accesses",
        default: "1",
        help: "1: check the array accesses; 0: only give @__pydev_raise its body",
    }],
    create: |o| match o.get(&INFO, "accesses") {
        "1" => Ok(external_pass(&ID, INFO.argument, INFO.summary, |ir| run(ir, true))),
        "0" => Ok(external_pass(&ID_RAISE, "pydev-cuda-boundscheck{accesses=0}", INFO.summary, |ir| run(ir, false))),
        other => Err(PassError::InvalidOption {
            pass: INFO.argument,
            message: format!("accesses must be 0 or 1, got '{other}'"),
        }),
    },
};

static ID_RAISE: PassId = PassId;

/// The error buffer's layout and symbols, shared with the runtime.
pub mod error_record {
    /// The module global holding the record.
    pub const SYMBOL: &str = "__pydev_error";
    /// The module global holding the NUL-separated `file:line:col` texts.
    pub const LOCATIONS: &str = "__pydev_error_locations";
    /// The function a failing check calls.
    pub const FAIL: &str = "__pydev_bounds_fail";
    /// Size in 32-bit words (64 bytes).
    pub const WORDS: usize = 16;
    /// Word offsets.
    pub const CLAIM: usize = 0;
    pub const READY: usize = 1;
    pub const KIND: usize = 2;
    pub const AXIS: usize = 3;
    pub const LOCATION: usize = 4;
    pub const THREAD: usize = 5;
    pub const BLOCK: usize = 8;
    /// i64 fields (two words each).
    pub const INDEX: usize = 12;
    pub const EXTENT: usize = 14;
    /// Kinds of access.
    pub const LOAD: i32 = 1;
    pub const STORE: i32 = 2;
    pub const ATOMIC: i32 = 3;
    pub const VIEW: i32 = 4;
    /// Not an access: a Python exception raised in device code
    /// (`pydev_dialect::abi::RAISE`); INDEX holds its id.
    pub const EXCEPTION: i32 = 5;

    /// "a load", "a store", ... for messages.
    pub fn kind_text(kind: i32) -> &'static str {
        match kind {
            LOAD => "a load",
            STORE => "a store",
            ATOMIC => "an atomic reference",
            VIEW => "a view",
            _ => "an access",
        }
    }
}

use error_record as rec;

fn enclosing_gpu_module<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>) -> Option<OperationRef<'c, 'c>> {
    let mut cur = op.parent_operation().map(|o| ir.detach(o));
    while let Some(p) = cur {
        if p.name().as_string_ref().as_str() == Ok("gpu.module") {
            return Some(p);
        }
        cur = p.parent_operation().map(|o| ir.detach(o));
    }
    None
}

fn run(ir: PassIr, accesses: bool) -> PassResult {
    let root = ir.root();
    let names: &[&str] = if accesses {
        &[
            ops::ArrayLoadOperation::NAME,
            ops::ArrayStoreOperation::NAME,
            ops::AtomicRefOperation::NAME,
            ops::ArrayIndexOperation::NAME,
        ]
    } else {
        &[]
    };
    // Per gpu.module (by raw pointer): the module and its location texts.
    let mut modules: Vec<(OperationRef, Vec<String>)> = Vec::new();
    let mut ok = true;
    for raise in ir.ops_named(root, &["func.func"]).into_iter().filter(|f| capi::sym_name(*f) == RAISE) {
        let Some(gm) = enclosing_gpu_module(ir, raise) else { continue };
        let reported = reports(ir, gm);
        if reported && !modules.iter().any(|(m, _)| m.to_raw().ptr == gm.to_raw().ptr) {
            modules.push((gm, vec![crate::lower_simt_host::location_text(raise.location())]));
        }
        if let Err(message) = raise_body(ir, raise, reported) {
            capi::emit_error(raise.location(), &message.to_string());
            ok = false;
        }
    }
    for op in ir.ops_named(root, names) {
        let Some(gm) = enclosing_gpu_module(ir, op) else {
            capi::emit_error(
                op.location(),
                "pydev-cuda-boundscheck: an array access outside a gpu.module (run pydev-outline-kernels first)",
            );
            ok = false;
            continue;
        };
        let slot = match modules.iter().position(|(m, _)| m.to_raw().ptr == gm.to_raw().ptr) {
            Some(i) => i,
            None => {
                modules.push((gm, Vec::new()));
                modules.len() - 1
            }
        };
        let text = crate::lower_simt_host::location_text(op.location());
        let table = &mut modules[slot].1;
        let loc = table.iter().position(|t| *t == text).unwrap_or_else(|| {
            table.push(text);
            table.len() - 1
        });
        if let Err(message) = check(ir, op, loc as i64) {
            capi::emit_error(op.location(), &message.to_string());
            ok = false;
        }
    }
    for (gm, table) in &modules {
        if let Err(message) = add_helpers(ir, *gm, table) {
            capi::emit_error(gm.location(), &message.to_string());
            ok = false;
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// The checks before one access.
fn check<'c>(ir: PassIr<'c>, op: OperationRef<'c, 'c>, loc: i64) -> Result<(), RewriteError> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
    let (kind, array_at) = match name.as_str() {
        ops::ArrayLoadOperation::NAME => (rec::LOAD, 0),
        ops::ArrayStoreOperation::NAME => (rec::STORE, 1),
        ops::AtomicRefOperation::NAME => (rec::ATOMIC, 0),
        _ => (rec::VIEW, 0),
    };
    let array_value = ir.value(op.operand(array_at).map_err(|_| "an access without its array")?);
    let array = ArrayType::from_type(array_value.r#type()).ok_or("an access to something that is not a pydev array")?;
    let indices: Vec<Value> = op.operands().skip(array_at + 1).map(|v| ir.value(v)).collect();
    if indices.is_empty() {
        return Ok(());
    }
    let b = Builder::before(ir, op);
    let rank = array.rank() as usize;
    let tuple = b.ty(&format!("!pydev.tuple<{}>", vec!["i64"; rank].join(", ")));
    let shape = b.value(ops::ArrayShapeOperation::NAME, &[array_value], tuple, &[]);
    let i32t = b.i32();
    let constant =
        |v: i64| b.value("arith.constant", &[], i32t, &[b.named("value", IntegerAttribute::new(i32t, v).into())]);
    for (k, index) in indices.iter().enumerate() {
        let extent = b.value(
            ops::TupleExtractOperation::NAME,
            &[shape],
            b.i64(),
            &[b.named("index", IntegerAttribute::new(b.i64(), k as i64).into())],
        );
        let index = to_i64(&b, *index)?;
        let i1 = IntegerType::new(b.ctx, 1).into();
        let bad = b.value("arith.cmpi", &[index, extent], i1, &[b.named("predicate", b.attr("9 : i64"))]); // uge
        let (kind, axis, loc) = (constant(i64::from(kind)), constant(k as i64), constant(loc));
        let then_block = Block::new(&[]);
        then_block.append_operation(
            OperationBuilder::new("func.call", b.loc)
                .add_operands(&[kind, axis, loc, index, extent])
                .add_attributes(&[(
                    Identifier::new(b.ctx, "callee"),
                    FlatSymbolRefAttribute::new(b.ctx, rec::FAIL).into(),
                )])
                .build()
                .map_err(|e| format!("cannot build the bounds-check call: {e}"))?,
        );
        then_block.append_operation(
            OperationBuilder::new("scf.yield", b.loc).build().map_err(|e| format!("cannot build scf.yield: {e}"))?,
        );
        let then_region = Region::new();
        then_region.append_block(then_block);
        b.insert_op(
            OperationBuilder::new("scf.if", b.loc)
                .add_operands(&[bad])
                .add_regions([then_region, Region::new()])
                .build()
                .map_err(|e| format!("cannot build the bounds check: {e}"))?,
        );
    }
    Ok(())
}

/// The body of `@__pydev_raise(%id: i32)`: records the exception (kind
/// EXCEPTION, its id as the index) and ends the thread, before the
/// frontend's empty body; a negative id ends the thread without a record
/// (without `reported`, every call's id is a negative constant: only that).
fn raise_body<'c>(ir: PassIr<'c>, raise: OperationRef<'c, 'c>, reported: bool) -> Result<(), RewriteError> {
    let entry = raise.region(0).ok().and_then(|r| ir.entry_block(r)).ok_or("@__pydev_raise without a body")?;
    let id = entry.argument(0).map_err(|_| "@__pydev_raise takes the exception id")?;
    let first = entry.first_operation().ok_or("@__pydev_raise without a terminator")?;
    let b = Builder::before(ir, ir.detach(first));
    let i32t = b.i32();
    let constant =
        |v: i64| b.value("arith.constant", &[], i32t, &[b.named("value", IntegerAttribute::new(i32t, v).into())]);
    let id = ir.value(id.into());
    // A negative id: a raise without debug=True, not reported: the thread
    // just ends (its callers do not go on).
    b.inline_asm("{ .reg .pred p; setp.lt.s32 p, $0, 0; @p exit; }", "r", &[id], None);
    if !reported {
        return Ok(());
    }
    let id = to_i64(&b, id)?;
    let zero = b.value("arith.constant", &[], b.i64(), &[b.named("value", IntegerAttribute::new(b.i64(), 0).into())]);
    let (kind, axis, loc) = (constant(i64::from(rec::EXCEPTION)), constant(0), constant(0));
    b.insert_op(
        OperationBuilder::new("func.call", b.loc)
            .add_operands(&[kind, axis, loc, id, zero])
            .add_attributes(&[(Identifier::new(b.ctx, "callee"), FlatSymbolRefAttribute::new(b.ctx, rec::FAIL).into())])
            .build()
            .map_err(|e| format!("cannot build the exception record call: {e}"))?,
    );
    Ok(())
}

/// Whether a call of `@__pydev_raise` in gpu.module `gm` may report (its id
/// is not a negative constant): only then does the module get the buffer.
fn reports<'c>(ir: PassIr<'c>, gm: OperationRef<'c, 'c>) -> bool {
    ir.ops_named(gm, &["func.call"]).into_iter().any(|call| {
        let callee = call.attribute("callee").map(|a| a.to_string()).unwrap_or_default();
        if callee.trim_start_matches('@').trim_matches('"') != RAISE {
            return false;
        }
        let constant = call
            .operand(0)
            .ok()
            .and_then(|v| ir.defining_op(ir.value(v)))
            .filter(|d| d.name().as_string_ref().as_str() == Ok("arith.constant"))
            .and_then(|d| d.attribute("value").ok())
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|i| i.value());
        !matches!(constant, Some(v) if v < 0)
    })
}

/// `"text"` as an MLIR string literal, every byte outside a safe set escaped.
fn string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &c in bytes {
        if c.is_ascii_alphanumeric() || b" ./_-:+,()<>".contains(&c) {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\{c:02X}"));
        }
    }
    s.push('"');
    s
}

/// The error buffer, the location table and the failure function, added
/// once to a gpu.module that has checks.
fn add_helpers<'c>(ir: PassIr<'c>, gm: OperationRef<'c, '_>, table: &[String]) -> Result<(), RewriteError> {
    let ctx = capi::context(gm);
    let body = gm.region(0).ok().and_then(|r| ir.entry_block(r)).ok_or("a gpu.module without a body")?;
    let first = body.first_operation().ok_or("an empty gpu.module")?;
    let at = first.location();
    if ir.ops_named(gm, &["func.func", "llvm.mlir.global"]).iter().any(|o| {
        let n = capi::sym_name(*o);
        n == rec::SYMBOL || n == rec::FAIL || n == rec::LOCATIONS
    }) {
        return Err(RewriteError::Malformed(format!(
            "pydev-cuda-boundscheck: the gpu.module already defines {} or {}",
            rec::SYMBOL,
            rec::FAIL
        )));
    }
    let mut strings = Vec::new();
    for t in table {
        strings.extend_from_slice(t.as_bytes());
        strings.push(0);
    }
    let (w, n) = (rec::WORDS, strings.len());
    let field = |word: usize| {
        format!(
            "%p{word} = llvm.getelementptr %buf[0, {word}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.array<{w} x i32>"
        )
    };
    let store32 = |word: usize, v: &str| format!("{}\n      llvm.store {v}, %p{word} : i32, !llvm.ptr<1>", field(word));
    let mut fields = vec![store32(rec::KIND, "%kind"), store32(rec::AXIS, "%axis"), store32(rec::LOCATION, "%loc")];
    for (base, op) in [(rec::THREAD, "gpu.thread_id"), (rec::BLOCK, "gpu.block_id")] {
        for (d, dim) in ["x", "y", "z"].iter().enumerate() {
            let v = format!("%{}{dim}", &op[4..]);
            fields.push(format!("{v} = {op} {dim}\n      {v}32 = arith.index_castui {v} : index to i32"));
            fields.push(store32(base + d, &format!("{v}32")));
        }
    }
    for (word, v) in [(rec::INDEX, "%index"), (rec::EXTENT, "%extent")] {
        fields.push(format!("{}\n      llvm.store {v}, %p{word} : i64, !llvm.ptr<1>", field(word)));
    }
    let text = format!(
        r#"module {{
  llvm.mlir.global external @{sym}() {{addr_space = 1 : i32, alignment = 8 : i64}} : !llvm.array<{w} x i32> {{
    %z = llvm.mlir.zero : !llvm.array<{w} x i32>
    llvm.return %z : !llvm.array<{w} x i32>
  }}
  llvm.mlir.global external constant @{locs}({lit}) {{addr_space = 1 : i32, alignment = 1 : i64}} : !llvm.array<{n} x i8>
  func.func private @{fail}(%kind: i32, %axis: i32, %loc: i32, %index: i64, %extent: i64) attributes {{llvm.linkage = #llvm.linkage<internal>}} {{
    %buf = llvm.mlir.addressof @{sym} : !llvm.ptr<1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = llvm.cmpxchg %buf, %c0, %c1 monotonic monotonic : !llvm.ptr<1>, i32
    %old = llvm.extractvalue %r[0] : !llvm.struct<(i32, i1)>
    %won = arith.cmpi eq, %old, %c0 : i32
    cf.cond_br %won, ^record, ^done
  ^record:
      {fields}
      llvm.inline_asm has_side_effects "membar.gl;", "" : () -> ()
      {ready}
      llvm.store volatile %c1, %p{ready_word} : i32, !llvm.ptr<1>
      cf.br ^done
  ^done:
    nvvm.exit
    return
  }}
}}
"#,
        sym = rec::SYMBOL,
        locs = rec::LOCATIONS,
        fail = rec::FAIL,
        lit = string_literal(&strings),
        fields = fields.join("\n      "),
        ready = field(rec::READY),
        ready_word = rec::READY,
    );
    // Text (upstream llvm/arith/gpu/nvvm ops only, no pydev op), like the
    // other helpers the passes add; not converted to builder code yet.
    let parsed =
        Module::parse(ctx, &text).ok_or_else(|| format!("pydev-cuda-boundscheck built invalid IR:\n{text}"))?;
    let b = Builder::before(ir, ir.detach(first));
    let mut op = parsed.body().first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        b.insert_op(capi::clone_op_at(o, at));
    }
    Ok(())
}
