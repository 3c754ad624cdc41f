//! Small IR-building helpers shared by the passes: build an op before the one
//! being rewritten, at its location, and unrealized casts between pydev types
//! and their lowered forms (resolved by `reconcile-unrealized-casts`).

use crate::capi::{self, PassIr};
use melior::{
    ir::{
        attribute::{IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Identifier, Location, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    pass::{create_external, ExternalPass, Pass},
    Context, IrRewriter,
};
use pydev_dialect::ops;

/// Builds ops before an anchor op, at the anchor's location, in a pass run
/// (`ir`).
pub struct Builder<'c> {
    pub ctx: &'c Context,
    pub loc: Location<'c>,
    /// The run's token (see [`PassIr`]).
    pub ir: PassIr<'c>,
    /// The op this builder inserts before, if any: an erased one is out of
    /// its block, and inserting before it is refused.
    anchor: Option<OperationRef<'c, 'c>>,
    rewriter: IrRewriter<'c>,
}

impl<'c> Builder<'c> {
    pub fn before(ir: PassIr<'c>, op: OperationRef<'c, '_>) -> Self {
        let op = ir.detach(op);
        Self { ctx: ir.context(), loc: op.location(), ir, anchor: Some(op), rewriter: IrRewriter::from_op(op) }
    }

    /// A builder appending to `block` (at the location `loc`).
    pub fn at_end(ir: PassIr<'c>, block: melior::ir::BlockRef<'c, '_>, loc: Location<'c>) -> Self {
        let block = ir.block(block);
        let ctx = ir.context();
        let rewriter = IrRewriter::new(ctx);
        rewriter.as_rewriter_base().set_insertion_point_to_end(block);
        Self { ctx, loc, ir, anchor: None, rewriter }
    }

    pub fn ty(&self, text: &str) -> Type<'c> {
        Type::parse(self.ctx, text).unwrap_or_else(|| panic!("pydev built a bad type: {text}"))
    }

    pub fn attr(&self, text: &str) -> Attribute<'c> {
        Attribute::parse(self.ctx, text).unwrap_or_else(|| panic!("pydev built a bad attribute: {text}"))
    }

    pub fn named(&self, name: &str, attr: Attribute<'c>) -> (Identifier<'c>, Attribute<'c>) {
        (Identifier::new(self.ctx, name), attr)
    }

    /// Inserts `name(operands) {attrs} : results` and returns it.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attrs: &[(Identifier<'c>, Attribute<'c>)],
    ) -> OperationRef<'c, 'c> {
        let op = OperationBuilder::new(name, self.loc)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(attrs)
            .build()
            .unwrap_or_else(|e| panic!("pydev built an invalid {name}: {e}"));
        self.insert_op(op)
    }

    /// Inserts an op built elsewhere at this builder's position; its
    /// operands must be defined under the run's root (checked).
    pub fn insert_op(&self, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'c> {
        if let Some(anchor) = self.anchor {
            assert!(self.ir.contains(anchor), "pydev: a pass built before an op it had erased");
        }
        let op = self.ir.detach(self.rewriter.as_rewriter_base().insert(op));
        self.ir.check_operands(op);
        op
    }

    /// Inserts an op built elsewhere (a generated `pydev_dialect::ops`
    /// builder) at this builder's position and returns its one result.
    pub fn insert_value(&self, op: impl Into<melior::ir::Operation<'c>>) -> Value<'c, 'c> {
        let op = self.insert_op(op.into());
        self.ir.value(op.result(0).expect("one result").into())
    }

    /// Like [`Builder::op`], for ops with one result.
    pub fn value(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attrs: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Value<'c, 'c> {
        let op = self.op(name, operands, &[result], attrs);
        self.ir.value(op.result(0).expect("one result").into())
    }

    pub fn cast(&self, value: Value<'c, '_>, to: Type<'c>) -> Value<'c, 'c> {
        self.value("builtin.unrealized_conversion_cast", &[value], to, &[])
    }

    pub fn const_int(&self, ty: Type<'c>, v: i64) -> Value<'c, 'c> {
        self.value("llvm.mlir.constant", &[], ty, &[self.named("value", IntegerAttribute::new(ty, v).into())])
    }

    pub fn i32(&self) -> Type<'c> {
        IntegerType::new(self.ctx, 32).into()
    }

    pub fn i64(&self) -> Type<'c> {
        IntegerType::new(self.ctx, 64).into()
    }

    pub fn string(&self, s: &str) -> Attribute<'c> {
        StringAttribute::new(self.ctx, s).into()
    }

    /// `llvm.inline_asm has_side_effects "asm", "constraints" operands : results`.
    pub fn inline_asm(
        &self,
        asm: &str,
        constraints: &str,
        operands: &[Value<'c, '_>],
        result: Option<Type<'c>>,
    ) -> Option<Value<'c, 'c>> {
        let results: Vec<Type> = result.into_iter().collect();
        let op = self.op(
            "llvm.inline_asm",
            operands,
            &results,
            &[
                self.named("asm_string", self.string(asm)),
                self.named("constraints", self.string(constraints)),
                self.named("has_side_effects", self.attr("unit")),
            ],
        );
        op.result(0).ok().map(|r| self.ir.value(r.into()))
    }

    /// Replaces the results of `op` by `values` and erases it (see
    /// [`PassIr::erase`]: references to it stay valid).
    pub fn replace(&self, op: OperationRef<'c, '_>, values: &[Value<'c, '_>]) {
        self.ir.replace(op, values);
    }

    /// Erases `op`, whose results must be unused by the end of the run (see
    /// [`PassIr::erase`]: references to it stay valid).
    pub fn erase(&self, op: OperationRef<'c, '_>) {
        self.ir.erase(op);
    }
}

/// Converts an integer or index value to i64 (signless integers are read as
/// signed, as the dialect defines).
pub fn to_i64<'c>(b: &Builder<'c>, v: Value<'c, 'c>) -> Result<Value<'c, 'c>, RewriteError> {
    let ty = v.r#type();
    if ty.is_index() {
        return Ok(b.value("arith.index_cast", &[v], b.i64(), &[]));
    }
    let int = IntegerType::try_from(ty).map_err(|_| format!("index of type {ty} is not an integer"))?;
    if !int.is_signless() {
        return Err(RewriteError::Malformed(format!(
            "index of type {ty} must be signless here: run pydev-promote-types first"
        )));
    }
    Ok(match int.width() {
        64 => v,
        w if w < 64 => b.value("arith.extsi", &[v], b.i64(), &[]),
        _ => b.value("arith.trunci", &[v], b.i64(), &[]),
    })
}

/// A pass run that failed: its errors were reported as diagnostics at the
/// ops' locations (which is all a caller needs to know; the pass manager
/// then fails the pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the pass failed: its errors were reported as diagnostics")]
pub struct Reported;

/// What a pass's run and its rewrites of a whole region return.
pub type PassResult = Result<(), Reported>;

/// Creates an external pass whose body rewrites the op it runs on; an `Err`
/// has already been reported as a diagnostic and fails the pass. `run`
/// receives the run's token (see [`PassIr`]), and is generic over its
/// lifetime: nothing borrowed from the IR outlives the run.
pub fn external_pass(
    id: &'static PassId,
    argument: &'static str,
    summary: &'static str,
    run: impl for<'c> Fn(PassIr<'c>) -> PassResult + Clone + 'static,
) -> Pass {
    create_external(
        move |op: OperationRef, pass: ExternalPass| {
            let state = capi::RunState::default();
            // SAFETY: the pass manager runs this pass on `op` and runs
            // nothing else on it or under it until the callback returns (a
            // nested pass manager may run passes on sibling ops at the same
            // time, but the token reaches nothing outside `op`); IR under
            // `op` is destroyed only by `state.finish()` below, after the
            // run (the token borrows `state`, and `run` is generic over its
            // lifetime).
            let ir = unsafe { PassIr::new(op, &state) };
            let result = run(ir);
            state.finish();
            if result.is_err() {
                pass.signal_failure();
            }
        },
        melior::ir::r#type::TypeId::create(id),
        argument,
        argument,
        summary,
        "",
        &[],
    )
}

/// Creates an external pass that replaces the op it runs on wholesale (the
/// pass-plugin runner: `plugin::plugin_pass`) rather than rewriting it op by
/// op through a [`PassIr`]; an `Err` is reported at the op's location and
/// fails the pass.
pub(crate) fn external_pass_on_op(
    id: &'static PassId,
    argument: &'static str,
    summary: &'static str,
    run: impl Fn(OperationRef) -> Result<(), String> + Clone + 'static,
) -> Pass {
    create_external(
        move |op: OperationRef, pass: ExternalPass| {
            if let Err(message) = run(op) {
                capi::emit_error(op.location(), &message);
                pass.signal_failure();
            }
        },
        melior::ir::r#type::TypeId::create(id),
        argument,
        argument,
        summary,
        "",
        &[],
    )
}

/// A unique, 8-byte aligned address per pass: its MLIR TypeID.
#[repr(align(8))]
pub struct PassId;

/// Errors of a pass's rewrite of one op (the closures of [`rewrite_all`]
/// and the helpers they call): each is reported as a diagnostic at the
/// op's location, and the pass fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteError {
    /// What the pass does not lower (yet): an element type, an atomic
    /// kind, a width; the sentence says what is and what is not.
    #[error("{0}")]
    Unsupported(String),
    /// IR the pass did not expect: an op without an attribute, a type
    /// without a layout, an op outside a function, a pass that had to run
    /// before this one.
    #[error("{0}")]
    Malformed(String),
}

impl From<String> for RewriteError {
    fn from(message: String) -> Self {
        RewriteError::Malformed(message)
    }
}

impl From<&str> for RewriteError {
    fn from(message: &str) -> Self {
        RewriteError::Malformed(message.to_owned())
    }
}

/// Runs `rewrite` on every op named in `names` under `root`, reporting each
/// failure at the op's location; returns `Err` if any failed. An op erased
/// meanwhile with an op around it (it is no longer under the root) is
/// skipped.
pub fn rewrite_all<'c>(
    ir: PassIr<'c>,
    root: OperationRef<'c, '_>,
    names: &[&str],
    mut rewrite: impl FnMut(&Builder<'c>, OperationRef<'c, 'c>) -> Result<(), RewriteError>,
) -> PassResult {
    let mut ok = true;
    for op in ir.ops_named(root, names) {
        if !ir.contains(op) {
            continue;
        }
        let b = Builder::before(ir, op);
        if let Err(message) = rewrite(&b, op) {
            capi::emit_error(op.location(), &message.to_string());
            ok = false;
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

/// Changes, in place, the type of every value, block argument and
/// `function_type` under `root` by `map` (identity where it returns its
/// argument). Passes that erase a type family everywhere at once use it, so
/// that block arguments, branches and calls stay consistent without casts.
pub fn retype_all<'c>(
    ir: PassIr<'c>,
    root: OperationRef<'c, '_>,
    map: impl Fn(melior::ir::Type<'c>) -> melior::ir::Type<'c>,
) {
    use melior::ir::{attribute::TypeAttribute, BlockLike, RegionLike};
    for op in ir.all_ops(root) {
        for r in op.results() {
            let t = map(r.r#type());
            if t != r.r#type() {
                capi::set_value_type(r.into(), t);
            }
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for i in 0..b.argument_count() {
                    let a = b.argument(i).expect("argument below the count");
                    let t = map(a.r#type());
                    if t != a.r#type() {
                        a.set_type(t);
                    }
                }
                block = b.next_in_region();
            }
        }
        if let Some(t) = op.attribute("function_type").ok().and_then(|a| TypeAttribute::try_from(a).ok()) {
            let mapped = map(t.value());
            if mapped != t.value() {
                ir.set_attribute(op, "function_type", TypeAttribute::new(mapped).into());
            }
        }
    }
}

/// Applies `f` to every scalar member of `v` (lanes of a vector, fields of
/// a struct, elements of a tuple, parts of a complex number) and rebuilds
/// the aggregate; `f(v)` for a scalar. Lowerings of ops that move small
/// aggregates (shuffles) use it to move them member by member.
pub fn map_members<'c>(
    b: &Builder<'c>,
    v: Value<'c, 'c>,
    f: &mut dyn FnMut(&Builder<'c>, Value<'c, 'c>) -> Result<Value<'c, 'c>, RewriteError>,
) -> Result<Value<'c, 'c>, RewriteError> {
    use pydev_dialect::types::{struct_parts, tuple_parts, vector_parts};
    let ty = v.r#type();
    if let Some((lanes, element)) = vector_parts(ty) {
        let mut parts = Vec::new();
        for i in 0..lanes {
            let index = b.const_int(b.i32(), i64::from(i));
            let lane = b.insert_value(ops::vector_extract(b.ctx, element, v, index, b.loc));
            parts.push(map_members(b, lane, f)?);
        }
        return Ok(b.insert_value(ops::vector_create(b.ctx, ty, &parts, b.loc)));
    }
    if let Some((_, fields, _)) = struct_parts(ty) {
        let mut parts = Vec::new();
        for (name, field_ty) in fields {
            let field =
                b.insert_value(ops::struct_extract(b.ctx, field_ty, v, StringAttribute::new(b.ctx, &name), b.loc));
            parts.push(map_members(b, field, f)?);
        }
        return Ok(b.insert_value(ops::struct_create(b.ctx, ty, &parts, b.loc)));
    }
    if let Some(types) = tuple_parts(ty) {
        let mut parts = Vec::new();
        for (i, element) in types.into_iter().enumerate() {
            let index = IntegerAttribute::new(b.i64(), i as i64);
            let item = b.insert_value(ops::tuple_extract(b.ctx, element, v, index, b.loc));
            parts.push(map_members(b, item, f)?);
        }
        return Ok(b.insert_value(ops::tuple_create(b.ctx, ty, &parts, b.loc)));
    }
    if ty.to_string().starts_with("complex<") {
        let element = capi::complex_element(ty);
        let re = b.value("complex.re", &[v], element, &[]);
        let im = b.value("complex.im", &[v], element, &[]);
        let (re, im) = (f(b, re)?, f(b, im)?);
        return Ok(b.value("complex.create", &[re, im], ty, &[]));
    }
    f(b, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::RunState;
    use melior::{ir::Module, pass::PassManager};
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::atomic::{AtomicBool, Ordering};

    const F: &str = r#"
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}"#;

    static CHECKED: AtomicBool = AtomicBool::new(false);
    static ID: PassId = PassId;

    /// Replaces the `arith.muli` by an `arith.subi`, then reads the erased
    /// op: it is out of the IR but still allocated, without operands.
    fn replace_muli(ir: PassIr) -> PassResult {
        let root = ir.root();
        let [op] = ir.ops_named(root, &["arith.muli"])[..] else { return Err(Reported) };
        let b = Builder::before(ir, op);
        let i32t = b.ty("i32");
        let v = b.value("arith.subi", &[ir.value(op.operand(0).unwrap()), ir.value(op.operand(1).unwrap())], i32t, &[]);
        b.replace(op, &[v]);
        let ok = op.name().as_string_ref().as_str() == Ok("arith.muli")
            && op.operand_count() == 0
            && ir.ops_named(root, &["arith.muli"]).is_empty()
            && !ir.contains(op)
            && ir.defining_op(v).is_some_and(|d| ir.contains(d))
            && catch_unwind(AssertUnwindSafe(|| ir.detach(op))).is_err();
        CHECKED.store(ok, Ordering::SeqCst);
        Ok(())
    }

    #[test]
    fn erased_ops_stay_allocated_until_the_run_ends() {
        let ctx = pydev_dialect::new_context();
        let mut module = Module::parse(&ctx, F).unwrap();
        let pm = PassManager::new(&ctx);
        pm.add_pass(external_pass(&ID, "test-replace-muli", "test", replace_muli));
        pm.run(&mut module).unwrap();
        assert!(CHECKED.load(Ordering::SeqCst));
        let text = module.as_operation().to_string();
        assert!(text.contains("arith.subi") && !text.contains("arith.muli"), "{text}");
    }

    #[test]
    fn ir_outside_the_root_is_refused() {
        let ctx = pydev_dialect::new_context();
        let module = Module::parse(&ctx, F).unwrap();
        let other = Module::parse(&ctx, F).unwrap();
        let state = RunState::default();
        {
            // SAFETY: this test owns `module` and touches it only through
            // the token, which lives in this block, before `state.finish()`.
            let ir = unsafe { PassIr::new(module.as_operation(), &state) };
            let foreign = ir_first(&other, "arith.addi");
            assert!(catch_unwind(AssertUnwindSafe(|| ir.detach(foreign))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| ir.value(foreign.result(0).unwrap().into()))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| ir.ops_named(foreign, &["arith.addi"]))).is_err());
            // A value of the other module used under the root would dangle
            // once that module is dropped.
            let own = ir.ops_named(ir.root(), &["arith.muli"])[0];
            let b = Builder::before(ir, own);
            let v = foreign.result(0).unwrap().into();
            assert!(catch_unwind(AssertUnwindSafe(|| b.replace(own, &[v]))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| ir.set_operand(own, 0, v))).is_err());
            assert!(
                catch_unwind(AssertUnwindSafe(|| ir.set_operand(own, 2, ir.value(own.operand(0).unwrap())))).is_err()
            );
            assert!(catch_unwind(AssertUnwindSafe(|| ir.erase(ir.root()))).is_err());
            // Building before an erased op (out of its block) is refused.
            b.replace(own, &[ir.value(own.operand(0).unwrap())]);
            assert!(catch_unwind(AssertUnwindSafe(|| b.const_int(b.i32(), 1))).is_err());
        }
        state.finish();
        assert!(module.as_operation().verify());
    }

    #[test]
    fn an_op_defining_a_used_value_inside_is_not_destroyed() {
        let ctx = pydev_dialect::new_context();
        let module = Module::parse(
            &ctx,
            r#"
func.func @f(%a: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    %0 = arith.addi %a, %a : i32
    scf.yield %0 : i32
  }
  %1 = arith.muli %r, %r : i32
  return %1 : i32
}"#,
        )
        .unwrap();
        let state = RunState::default();
        {
            // SAFETY: as in `ir_outside_the_root_is_refused`.
            let ir = unsafe { PassIr::new(module.as_operation(), &state) };
            let region_op = ir.ops_named(ir.root(), &["scf.execute_region"])[0];
            let add = ir.ops_named(region_op, &["arith.addi"])[0];
            let mul = ir.ops_named(ir.root(), &["arith.muli"])[0];
            // The muli now uses a value defined inside the op erased next.
            ir.set_operand(mul, 1, ir.value(add.result(0).unwrap().into()));
            let b = Builder::before(ir, region_op);
            let zero = b.value("arith.constant", &[], b.ty("i32"), &[b.named("value", b.attr("0 : i32"))]);
            b.replace(region_op, &[zero]);
        }
        assert!(catch_unwind(AssertUnwindSafe(|| state.finish())).is_err());
    }

    #[test]
    fn an_erased_op_with_used_results_is_not_destroyed() {
        let ctx = pydev_dialect::new_context();
        let module = Module::parse(&ctx, F).unwrap();
        let state = RunState::default();
        {
            // SAFETY: as in `ir_outside_the_root_is_refused`.
            let ir = unsafe { PassIr::new(module.as_operation(), &state) };
            let add = ir.ops_named(ir.root(), &["arith.addi"])[0];
            Builder::before(ir, add).erase(add);
        }
        // The muli still uses the addi's result: destroying the addi would
        // leave that use dangling, so `finish` refuses (and leaks it).
        assert!(catch_unwind(AssertUnwindSafe(|| state.finish())).is_err());
    }

    fn ir_first<'c>(module: &'c Module<'c>, name: &str) -> OperationRef<'c, 'c> {
        let mut found = None;
        module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if found.is_none() && op.name().as_string_ref().as_str() == Ok(name) {
                found = Some(op.to_raw());
            }
            melior::ir::operation::WalkResult::Advance
        });
        // SAFETY: an op of `module`, which the result borrows.
        unsafe { OperationRef::from_raw(found.expect("op")) }
    }
}
