//! Every `unsafe` and raw mlir-sys call of the passes crate.
//!
//! melior's references (`OperationRef<'c, 'a>`, `Value<'c, 'a>`, ...) borrow
//! their parent (`'a`), which makes rewriting a walk's ops awkward; the
//! helpers here re-borrow them for the whole run instead. Those that make a
//! reference outlive its borrow are `unsafe fn`s with a `# Safety` contract.
//! Passes call them only through [`PassIr`], the token of one pass run,
//! whose contract is established once, where the pass callback creates it
//! (`ir::external_pass`), and whose methods are therefore safe. Erasing
//! an op through the token only unlinks it: it is destroyed after the run,
//! when no reference into it can be left (docs/ARCHITECTURE.md, "A pass
//! reaches the IR through the token of its run").

use melior::{
    ir::{
        attribute::AttributeLike, operation::OperationLike, BlockLike, Location, OperationRef, RegionLike, RegionRef,
        TypeLike, Value, ValueLike,
    },
    pass::OperationPassManager,
    Context, StringRef,
};
use mlir_sys::{mlirEmitError, mlirGPUObjectAttrGetObject, mlirOpPassManagerAddPipeline, mlirRegionTakeBody};
use std::ffi::CString;

/// The context that owns `op`.
///
/// Safe: an `OperationRef<'c, _>` is only made for an op of a context that
/// lives for `'c` (melior's contract), and `op` is alive during the call.
/// `ContextRef::to_ref` borrows the `ContextRef` itself, so it must outlive
/// the returned reference: one `ContextRef` per context is leaked (16 bytes)
/// and cached.
pub fn context<'c>(op: OperationRef<'c, '_>) -> &'c Context {
    use std::{cell::RefCell, collections::HashMap};
    thread_local! {
        static REFS: RefCell<HashMap<usize, &'static melior::ContextRef<'static>>> = RefCell::default();
    }
    // SAFETY: `op` is alive during the call (see the doc comment).
    let raw = unsafe { mlir_sys::mlirOperationGetContext(op.to_raw()) };
    let leaked = REFS.with(|refs| {
        *refs
            .borrow_mut()
            .entry(raw.ptr as usize)
            // SAFETY: `raw` is the live context of `op`; the ContextRef is
            // leaked on purpose (one per context, cached) and never freed.
            .or_insert_with(|| Box::leak(Box::new(unsafe { melior::ContextRef::from_raw(raw) })))
    });
    // SAFETY: the context outlives every operation created in it, so the
    // reference is valid for `'c`, the lifetime of `op`'s context.
    unsafe { std::mem::transmute::<&'static Context, &'c Context>(leaked.to_ref()) }
}

/// Every operation under `root` (itself excluded) whose name is in `names`,
/// in pre-order, detached from the walk's borrow so that they can be
/// rewritten one by one. Passes use [`PassIr::ops_named`].
///
/// # Safety
/// Each returned reference must not be used once its op is destroyed: not
/// after it (or an op around it) is erased or replaced, nor after the IR
/// that `root` belongs to (a `Module`, a pass run) is dropped or ends. `'c`
/// says only that the context lives that long; the caller keeps the
/// references no longer than the IR.
pub unsafe fn ops_named<'c>(root: OperationRef<'c, '_>, names: &[&str]) -> Vec<OperationRef<'c, 'c>> {
    let mut raw = Vec::new();
    let root_raw = root.to_raw();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        // Compared as bytes: this runs on every op of every pass, and
        // `as_str` checks UTF-8 each time (1.4% of a compile's MLIR part).
        let name = op.name().as_string_ref().to_raw();
        // SAFETY: an op name is an identifier uniqued in the context, alive
        // for the whole walk; `data` and `length` describe its characters.
        let name = unsafe { std::slice::from_raw_parts(name.data.cast::<u8>(), name.length) };
        if op.to_raw().ptr != root_raw.ptr && names.iter().any(|n| n.as_bytes() == name) {
            raw.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // SAFETY: each op was alive when walked; the caller uses the references
    // only while the ops are (this function's contract).
    raw.into_iter().map(|r| unsafe { OperationRef::from_raw(r) }).collect()
}

/// Re-borrows a value with the context's lifetime. Passes use
/// [`PassIr::value`].
///
/// # Safety
/// The result must not be used once the op or block that defines `v` is
/// destroyed (erased, replaced, or dropped with the IR it belongs to).
pub unsafe fn value<'c>(v: Value<'c, '_>) -> Value<'c, 'c> {
    // SAFETY: `v` is live; the caller uses the re-borrow only while its
    // defining op or block is (this function's contract).
    unsafe { Value::from_raw(v.to_raw()) }
}

/// Emits an error diagnostic at `location` (the pass then signals failure).
pub fn emit_error(location: Location, message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // Safety: live location; the C string outlives the call.
    unsafe { mlirEmitError(location.to_raw(), text.as_ptr()) }
}

/// Moves the blocks of `source` into the empty region `target`.
///
/// # Safety
/// `target` and `source` are distinct, and neither lies inside an op of the
/// other (MLIR would make a cycle of ownership); references into the moved
/// blocks stay valid (the blocks are moved, not copied).
pub unsafe fn take_body(target: RegionRef, source: RegionRef) {
    // SAFETY: both regions are alive; distinct and not nested in each other
    // (this function's contract).
    unsafe { mlirRegionTakeBody(target.to_raw(), source.to_raw()) }
}

/// Errors of appending a textual upstream pipeline to a pass manager
/// ([`add_pipeline`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddPipelineError {
    /// MLIR's own message (an unknown pass, a bad option).
    #[error("{message}")]
    Rejected { message: String },
    /// MLIR refused the text without saying why.
    #[error("invalid pass pipeline '{pipeline}'")]
    Invalid { pipeline: String },
}

/// Appends a textual pipeline (`"canonicalize,cse"`) to a pass manager,
/// which `utility::parse_pass_pipeline` cannot do (it replaces the contents).
pub fn add_pipeline(pm: OperationPassManager, pipeline: &str) -> Result<(), AddPipelineError> {
    let mut message = String::new();
    unsafe extern "C" fn collect(s: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // Safety: `data` is the `String` below; `s` is valid for the call.
        unsafe {
            let out = &mut *(data as *mut String);
            out.push_str(StringRef::from_raw(s).as_str().unwrap_or(""));
        }
    }
    // Safety: the pipeline text and the message buffer outlive the call.
    let ok = unsafe {
        mlirOpPassManagerAddPipeline(
            pm.to_raw(),
            StringRef::new(pipeline).to_raw(),
            Some(collect),
            &mut message as *mut String as *mut _,
        )
    };
    if ok.value != 0 {
        Ok(())
    } else {
        Err(if message.is_empty() {
            AddPipelineError::Invalid { pipeline: pipeline.to_owned() }
        } else {
            AddPipelineError::Rejected { message }
        })
    }
}

/// The bytes of every `#gpu.object` in the `gpu.binary` ops under `root`, with
/// the binary's name.
pub fn gpu_objects(root: OperationRef) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    // SAFETY: the ops are used in this loop only, while `root` is borrowed
    // and nothing is erased.
    for op in unsafe { ops_named(root, &["gpu.binary"]) } {
        let name = sym_name(op);
        let Ok(objects) = op.attribute("objects") else { continue };
        let Ok(objects) = melior::ir::attribute::ArrayAttribute::try_from(objects) else { continue };
        for i in 0..objects.len() {
            let Ok(object) = objects.element(i) else { continue };
            // SAFETY: a live attribute, of any kind.
            if !unsafe { mlir_sys::mlirAttributeIsAGPUObjectAttr(object.to_raw()) } {
                continue;
            }
            // SAFETY: `object` is a `#gpu.object` (checked above); the string
            // it returns is owned by the context.
            let bytes = unsafe {
                let s = StringRef::from_raw(mlirGPUObjectAttrGetObject(object.to_raw()));
                std::slice::from_raw_parts(s.to_raw().data.cast::<u8>(), s.to_raw().length).to_vec()
            };
            out.push((name.clone(), bytes));
        }
    }
    out
}

/// Detaches an op from the borrow it was reached through (a rewriter, a
/// walk, a parent). Passes use [`PassIr::detach`].
///
/// # Safety
/// The result must not be used once `op` is destroyed (erased, replaced, or
/// dropped with the IR it belongs to).
pub unsafe fn detach<'c>(op: OperationRef<'c, '_>) -> OperationRef<'c, 'c> {
    // SAFETY: `op` is live; the caller uses the detached reference only
    // while it is (this function's contract).
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

/// Moves `op` to the end of `block`.
///
/// # Safety
/// `op` is attached to a block, and `block` does not lie inside `op` (a
/// cycle of ownership). References to `op` and into it stay valid; a
/// reference to its old parent may not, if the caller then erases that.
pub unsafe fn move_to_end(op: OperationRef, block: melior::ir::BlockRef) {
    // SAFETY: `op` is alive and attached; after removal its parent no
    // longer owns it, and appending hands ownership to `block`, which is not
    // inside `op` (this function's contract).
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// A mutable handle on an op. Passes use [`PassIr::op_mut`].
///
/// # Safety
/// Nothing else reads or changes `op` while the handle is in use (an
/// external pass has exclusive access to the op it runs on, and to every op
/// under it), and the handle is not used once `op` is destroyed.
pub unsafe fn op_mut<'c, 'a>(op: OperationRef<'c, 'a>) -> melior::ir::operation::OperationRefMut<'c, 'a> {
    // SAFETY: exclusive access to a live op (this function's contract).
    unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) }
}

/// The LLVM IR text of every `gpu.module` under `root` (after the `llvm`
/// stage), as `gpu-module-to-binary` would hand it to the NVPTX backend.
pub fn llvm_ir(root: OperationRef) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // SAFETY: the ops are used in this loop only, while `root` is borrowed
    // and nothing is erased.
    for op in unsafe { ops_named(root, &["gpu.module"]) } {
        let name = sym_name(op);
        // SAFETY: `op` is a live gpu.module of LLVM dialect ops; the returned
        // C string is malloc'ed by the C API and freed here.
        unsafe {
            let raw = mlir_sys::mlirTranslateModuleToLLVMIRToString(op.to_raw());
            if !raw.is_null() {
                out.push((name, std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned()));
                libc_free(raw.cast());
            }
        }
    }
    out
}

unsafe extern "C" {
    #[link_name = "free"]
    fn libc_free(p: *mut std::ffi::c_void);
}

/// Changes the type of a value in place (the pass keeps users consistent).
pub fn set_value_type<'c>(v: Value<'c, '_>, ty: melior::ir::Type<'c>) {
    // Safety: live value and type of one context.
    unsafe { mlir_sys::mlirValueSetType(v.to_raw(), ty.to_raw()) }
}

/// The element type of a `complex<T>`; panics on another type (callers
/// check first).
pub fn complex_element(ty: melior::ir::Type) -> melior::ir::Type {
    // SAFETY: a live type, of any kind.
    assert!(unsafe { mlir_sys::mlirTypeIsAComplex(ty.to_raw()) }, "pydev: {ty} is not a complex type");
    // SAFETY: `ty` is a complex type (checked above).
    unsafe { melior::ir::Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(ty.to_raw())) }
}

/// `complex<element>`; panics unless `element` is an integer or float type.
pub fn complex_type(element: melior::ir::Type) -> melior::ir::Type {
    // SAFETY: a live type, of any kind.
    let ok = unsafe { mlir_sys::mlirTypeIsAInteger(element.to_raw()) || mlir_sys::mlirTypeIsAFloat(element.to_raw()) };
    assert!(ok, "pydev: complex<{element}>");
    // SAFETY: a live integer or float type (checked above).
    unsafe { melior::ir::Type::from_raw(mlir_sys::mlirComplexTypeGet(element.to_raw())) }
}

/// The value of an integer attribute (any signedness).
pub fn integer_attr_value(attr: melior::ir::Attribute) -> Option<i64> {
    // Safety: kind checked first.
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw()))
    }
}

pub fn float_attr_value(attr: melior::ir::Attribute) -> Option<f64> {
    // Safety: kind checked first.
    unsafe {
        mlir_sys::mlirAttributeIsAFloat(attr.to_raw()).then(|| mlir_sys::mlirFloatAttrGetValueDouble(attr.to_raw()))
    }
}

/// Whether no result of `op` is used.
pub fn has_no_uses(op: OperationRef) -> bool {
    op.results().all(|r| {
        // Safety: live value.
        unsafe { mlir_sys::mlirValueGetFirstUse(r.to_raw()).ptr.is_null() }
    })
}

/// The `sym_name` of a symbol op, or "".
pub fn sym_name(op: OperationRef) -> String {
    op.attribute("sym_name")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_default()
}

/// Every op under `root` (itself included), detached from the walk. Passes
/// use [`PassIr::all_ops`].
///
/// # Safety
/// As for [`ops_named`].
pub unsafe fn all_ops<'c>(root: OperationRef<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut raw = Vec::new();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        raw.push(op.to_raw());
        melior::ir::operation::WalkResult::Advance
    });
    // SAFETY: each op was alive when walked; the caller uses the references
    // only while the ops are (this function's contract).
    raw.into_iter().map(|r| unsafe { OperationRef::from_raw(r) }).collect()
}

/// An owned deep copy of `op` (to move ops parsed elsewhere into a module).
pub fn clone_op<'c>(op: OperationRef<'c, '_>) -> melior::ir::Operation<'c> {
    // Safety: `mlirOperationClone` returns a new, unowned operation of the
    // same context, which the returned `Operation` then owns.
    unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// [`clone_op`] with every operation of the copy at `location`: for
/// helpers a pass parses from its own text, whose parser locations name
/// that text (file "-") and would otherwise reach the PTX's line table.
pub fn clone_op_at<'c>(op: OperationRef<'c, '_>, location: Location<'c>) -> melior::ir::Operation<'c> {
    use melior::ir::operation::{OperationMutLike, WalkOrder, WalkResult};
    let mut copy = clone_op(op);
    let raw = location.to_raw();
    copy.walk_mut(WalkOrder::PreOrder, |o| {
        // SAFETY: `o` is a live operation of the copy, `raw` a location of
        // the same context (locations are uniqued for the context's lifetime).
        unsafe { mlir_sys::mlirOperationSetLocation(o.to_raw(), raw) };
        WalkResult::Advance
    });
    copy
}

/// The LLVM IR text of a whole module of LLVM dialect ops (the host's).
pub fn module_llvm_ir(root: OperationRef) -> Option<String> {
    // Safety: as in `llvm_ir`, for the module itself.
    unsafe {
        let raw = mlir_sys::mlirTranslateModuleToLLVMIRToString(root.to_raw());
        if raw.is_null() {
            return None;
        }
        let text = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
        libc_free(raw.cast());
        Some(text)
    }
}

/// LLVM options of the NVPTX backend, set once per process: libdevice's
/// `__nv_sqrtf` reads `__CUDA_PREC_SQRT` through NVVMReflect, and without
/// it (LLVM's default 0) Python's correctly rounded `math.sqrt` would
/// become `sqrt.approx`. MLIR's NVVM target forwards only the ftz flag.
pub fn set_nvptx_options() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args = [c"pydev", c"-nvvm-reflect-add=__CUDA_PREC_SQRT=1"];
        let argv: Vec<*const std::ffi::c_char> = args.iter().map(|a| a.as_ptr()).collect();
        // Safety: NUL-terminated strings that live for the call; LLVM
        // copies what it keeps.
        unsafe { llvm_sys::support::LLVMParseCommandLineOptions(argv.len() as i32, argv.as_ptr(), c"".as_ptr()) }
    });
}

/// The token of one run of a pydev pass over the op it runs on (its root):
/// the one place where the references the helpers above hand out become
/// safe to use.
///
/// It is made by [`PassIr::new`], an `unsafe fn` called only by the pass
/// callback of `ir::external_pass`. `'c` is the lifetime of that call: the
/// token borrows the run's [`RunState`], a local of the callback, and the
/// pass's `run` function is generic over `'c`, so no reference carrying
/// `'c` can leave the run. The token's methods re-borrow IR *under the
/// root* for `'c` and check that it is (a reference to IR elsewhere, such
/// as a module a pass parsed itself, panics). That IR lives for the whole
/// run: only the pass touches it, and it destroys nothing during the run.
/// [`PassIr::erase`] and [`PassIr::replace`] (which `ir::Builder`'s erase
/// and replace call) unlink the op from the IR, drop its operands (and
/// those of the ops inside it), and leave it allocated; [`RunState::finish`] destroys it after the run,
/// when no reference into it can be left. A reference to an erased op thus
/// stays valid (the op is just no longer in the IR), and the safe functions
/// of the passes cannot make one dangle.
#[derive(Clone, Copy)]
pub struct PassIr<'c> {
    root: OperationRef<'c, 'c>,
    state: &'c RunState,
}

/// What a pass run leaves to do after it: destroy the ops it erased.
#[derive(Default)]
pub struct RunState {
    erased: std::cell::RefCell<Vec<mlir_sys::MlirOperation>>,
}

impl RunState {
    /// Destroys the ops the run erased. Their operands, and those of the ops
    /// inside them, were dropped when they were erased, so only IR the run
    /// kept can still use a value one of them defines; such an op is not
    /// destroyed (that use would dangle) but leaked, and `finish` panics.
    pub fn finish(self) {
        let mut used = 0;
        for op in self.erased.into_inner() {
            if !defines_used_values(op) {
                // SAFETY: `op` was unlinked from the IR by `PassIr::erase`,
                // so nothing owns it but this list (an op is erased once: it
                // is no longer under the root); nothing uses a value it
                // defines (checked); the run is over, so no reference into
                // it is left.
                unsafe { mlir_sys::mlirOperationDestroy(op) };
            } else {
                used += 1;
            }
        }
        assert!(used == 0, "pydev: a pass erased {used} op(s) whose values are still used");
    }
}

/// Whether a value that the live op `op` or an op inside it defines (a
/// result or a block argument) has a use.
fn defines_used_values(op: mlir_sys::MlirOperation) -> bool {
    use melior::ir::BlockLike;
    fn used(v: mlir_sys::MlirValue) -> bool {
        // SAFETY: a live value.
        !unsafe { mlir_sys::mlirValueGetFirstUse(v) }.ptr.is_null()
    }
    let mut found = false;
    // SAFETY: `op` is live (its caller's contract); the reference is used
    // in this function only.
    let op = unsafe { OperationRef::from_raw(op) };
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |o| {
        found |= o.results().any(|r| used(r.to_raw()));
        for region in o.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                found |= (0..b.argument_count()).any(|i| used(b.argument(i).expect("below the count").to_raw()));
                block = b.next_in_region();
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    found
}

impl<'c> PassIr<'c> {
    /// The token of a run over `root`.
    ///
    /// # Safety
    /// For all of `'c`: `root` and its context are alive, and only code
    /// given this token reads or changes the IR under `root` (an MLIR pass
    /// run gives this: the pass manager hands the op to the pass and
    /// touches nothing under it until the pass returns; pydev's pipelines
    /// run no pass on ops nested in another pass's root at the same time).
    /// IR under `root` is destroyed only by `state.finish()`, after `'c`
    /// (it borrows `state`).
    pub unsafe fn new(root: OperationRef<'_, '_>, state: &'c RunState) -> Self {
        // SAFETY: `root` lives for `'c` (this function's contract).
        Self { root: unsafe { OperationRef::from_raw(root.to_raw()) }, state }
    }

    /// Unlinks `op` (under the root, not the root) from the IR; it is
    /// destroyed after the run (see [`PassIr`]). The values it defines (its
    /// results, and those of the ops inside it) must be unused by then
    /// (`RunState::finish` panics otherwise).
    pub fn erase(self, op: OperationRef<'c, '_>) {
        self.check(op.to_raw(), "an op");
        assert!(op.to_raw().ptr != self.root.to_raw().ptr, "pydev: a pass erased the op it runs on");
        // SAFETY: `op` is a live op under the root, attached to a block (it
        // is not the root); once unlinked, only the list owns it.
        unsafe { mlir_sys::mlirOperationRemoveFromParent(op.to_raw()) };
        // Its operands, and those of every op inside it, are dropped now,
        // so that the values it used no longer count it as a user.
        op.walk(melior::ir::operation::WalkOrder::PostOrder, |o| {
            // SAFETY: a live op of the unlinked tree; an empty operand list.
            unsafe { mlir_sys::mlirOperationSetOperands(o.to_raw(), 0, std::ptr::null()) };
            melior::ir::operation::WalkResult::Advance
        });
        self.state.erased.borrow_mut().push(op.to_raw());
    }

    /// Replaces the results of `op` by `values` and erases it.
    pub fn replace(self, op: OperationRef<'c, '_>, values: &[Value<'c, '_>]) {
        assert_eq!(op.result_count(), values.len(), "pydev: an op replaced by as many values as it has results");
        for (i, &v) in values.iter().enumerate() {
            let v = self.value(v);
            let result = op.result(i).expect("a result below the count");
            // SAFETY: live values of one context.
            unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), v.to_raw()) };
        }
        self.erase(op);
    }

    /// The op the pass runs on.
    pub fn root(self) -> OperationRef<'c, 'c> {
        self.root
    }

    pub fn context(self) -> &'c Context {
        context(self.root)
    }

    /// Panics unless `op` is the root or lies under it (IR the run owns).
    fn check(self, op: mlir_sys::MlirOperation, what: &str) {
        if !self.encloses(self.root.to_raw(), op) {
            panic!("pydev: a pass used {what} outside the op it runs on");
        }
    }

    /// Whether `op` is the root or lies under it: false for an op erased
    /// during the run, or inside one (still allocated: see [`PassIr`]).
    pub fn contains(self, op: OperationRef<'c, '_>) -> bool {
        self.encloses(self.root.to_raw(), op.to_raw())
    }

    /// The op owning a live block (null if it is in no region).
    fn block_owner(block: mlir_sys::MlirBlock) -> mlir_sys::MlirOperation {
        // SAFETY: a live block (its caller holds a reference to it).
        unsafe { mlir_sys::mlirBlockGetParentOperation(block) }
    }

    /// `op` re-borrowed for the run.
    pub fn detach(self, op: OperationRef<'c, '_>) -> OperationRef<'c, 'c> {
        self.check(op.to_raw(), "an op");
        // SAFETY: `op` is under the root, so it lives for the run unless the
        // pass erases it, which only `unsafe` calls do (see `PassIr`).
        unsafe { detach(op) }
    }

    /// `v` re-borrowed for the run.
    pub fn value(self, v: Value<'c, '_>) -> Value<'c, 'c> {
        // SAFETY: a live value, of either kind.
        let owner = unsafe {
            if mlir_sys::mlirValueIsAOpResult(v.to_raw()) {
                mlir_sys::mlirOpResultGetOwner(v.to_raw())
            } else {
                Self::block_owner(mlir_sys::mlirBlockArgumentGetOwner(v.to_raw()))
            }
        };
        self.check(owner, "a value");
        // SAFETY: `v` is defined under the root (as `detach`).
        unsafe { value(v) }
    }

    /// A block under the root, re-borrowed for the run.
    pub fn block(self, block: melior::ir::BlockRef<'c, '_>) -> melior::ir::BlockRef<'c, 'c> {
        self.check(Self::block_owner(block.to_raw()), "a block");
        // SAFETY: the block is under the root (as `detach`).
        unsafe { melior::ir::BlockRef::from_raw(block.to_raw()) }
    }

    /// The first block of a region of an op under the root.
    pub fn entry_block(self, region: RegionRef<'c, '_>) -> Option<melior::ir::BlockRef<'c, 'c>> {
        region.first_block().map(|b| self.block(b))
    }

    /// [`ops_named`] under `root`, which lies under the run's root.
    pub fn ops_named(self, root: OperationRef<'c, '_>, names: &[&str]) -> Vec<OperationRef<'c, 'c>> {
        self.check(root.to_raw(), "an op");
        // SAFETY: the ops are under the run's root (as `detach`).
        unsafe { ops_named(root, names) }
    }

    /// [`all_ops`] under `root`, which lies under the run's root.
    pub fn all_ops(self, root: OperationRef<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
        self.check(root.to_raw(), "an op");
        // SAFETY: the ops are under the run's root (as `detach`).
        unsafe { all_ops(root) }
    }

    /// The op defining `v`, if it is an op result.
    pub fn defining_op(self, v: Value<'c, '_>) -> Option<OperationRef<'c, 'c>> {
        // SAFETY: a live value.
        let result = unsafe { mlir_sys::mlirValueIsAOpResult(v.to_raw()) };
        result.then(|| {
            // SAFETY: the owner of a live op result is a live op, used here
            // only to be checked and detached.
            self.detach(unsafe { OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(v.to_raw())) })
        })
    }

    /// The nearest `builtin.module` around `op` (or `op` itself), not
    /// above the root (the pass does not own what is).
    pub fn module_of(self, op: OperationRef<'c, '_>) -> OperationRef<'c, 'c> {
        let mut cur = self.detach(op);
        while cur.name().as_string_ref().as_str() != Ok("builtin.module") && cur.to_raw().ptr != self.root.to_raw().ptr
        {
            match cur.parent_operation() {
                Some(p) => cur = self.detach(p),
                None => break,
            }
        }
        cur
    }

    /// Moves `op` (under the root, not the root) to the end of `block`
    /// (under the root, not inside `op`).
    pub fn move_to_end(self, op: OperationRef<'c, '_>, block: melior::ir::BlockRef<'c, '_>) {
        self.check(op.to_raw(), "an op");
        assert!(op.to_raw().ptr != self.root.to_raw().ptr, "pydev: a pass moved the op it runs on");
        let owner = Self::block_owner(block.to_raw());
        self.check(owner, "a block");
        assert!(!self.encloses(op.to_raw(), owner), "pydev: a pass moved an op into itself");
        // SAFETY: `op` is attached (under the root, not the root) and
        // `block` is not inside it (both checked above).
        unsafe { move_to_end(op, block) }
    }

    /// Moves the body of `source`'s first region into the empty first
    /// region of `target` (two distinct ops under the root, neither inside
    /// the other).
    pub fn take_body(self, target: OperationRef<'c, '_>, source: OperationRef<'c, '_>) {
        self.check(target.to_raw(), "an op");
        self.check(source.to_raw(), "an op");
        assert!(
            !self.encloses(target.to_raw(), source.to_raw()) && !self.encloses(source.to_raw(), target.to_raw()),
            "pydev: a pass moved a region into itself"
        );
        let to = target.region(0).expect("a region to fill");
        assert!(to.first_block().is_none(), "pydev: a pass moved a body into a region that has one");
        // SAFETY: distinct regions of ops neither of which is inside the
        // other (checked above).
        unsafe { take_body(to, source.region(0).expect("a region to move")) }
    }

    /// Whether `outer` is `inner` or an ancestor of it (`inner` live: the
    /// caller holds a reference to it).
    fn encloses(self, outer: mlir_sys::MlirOperation, inner: mlir_sys::MlirOperation) -> bool {
        let mut cur = inner;
        while !cur.ptr.is_null() {
            if cur.ptr == outer.ptr {
                return true;
            }
            // SAFETY: `cur` is `inner` (live) or an ancestor of it.
            cur = unsafe { mlir_sys::mlirOperationGetParentOperation(cur) };
        }
        false
    }

    /// A handle on an op under the root for changing its attributes and
    /// operands ([`OpMut`]; melior's `OperationRefMut` can also unlink and
    /// move ops, which is not safe).
    pub fn op_mut(self, op: OperationRef<'c, '_>) -> OpMut<'c> {
        OpMut { ir: self, op: self.detach(op) }
    }

    /// Sets an attribute of an op under the root.
    pub fn set_attribute(self, op: OperationRef<'c, '_>, name: &str, attribute: melior::ir::Attribute<'c>) {
        self.op_mut(op).set_attribute(name, attribute);
    }

    /// Sets a discardable attribute of an op under the root.
    pub fn set_discardable_attribute(self, op: OperationRef<'c, '_>, name: &str, attribute: melior::ir::Attribute<'c>) {
        self.op_mut(op).set_discardable_attribute(name, attribute);
    }

    /// Sets operand `index` of an op under the root (see [`OpMut::set_operand`]).
    pub fn set_operand(self, op: OperationRef<'c, '_>, index: usize, value: Value<'c, '_>) {
        self.op_mut(op).set_operand(index, value);
    }

    /// Replaces every use of symbol `old` nested in `from` (the root or an
    /// op under it; nested symbol tables not entered) with `new`, with
    /// MLIR's symbol table utilities (`SymbolTable::replaceAllSymbolUses`);
    /// false when some use could not be replaced (an unknown symbol
    /// attribute kind). The symbol's own `sym_name` is not changed.
    pub fn replace_symbol_uses(self, old: &str, new: &str, from: OperationRef<'c, '_>) -> bool {
        self.check(from.to_raw(), "a symbol table op");
        // SAFETY: `from` lies under the op this pass runs on, which only this
        // run changes (the token's contract); MLIR copies the two names into
        // attributes of the context, so the borrowed strings outlive the call.
        let result = unsafe {
            mlir_sys::mlirSymbolTableReplaceAllSymbolUses(
                StringRef::new(old).to_raw(),
                StringRef::new(new).to_raw(),
                from.to_raw(),
            )
        };
        result.value != 0
    }

    /// Replaces every use of `from` by `to`, except in `except` (all under
    /// the root).
    pub fn replace_uses_except(self, from: Value<'c, '_>, to: Value<'c, '_>, except: OperationRef<'c, '_>) {
        let (from, to, except) = (self.value(from), self.value(to), self.detach(except));
        // SAFETY: live values and op under the root (checked above).
        unsafe { mlir_sys::mlirValueReplaceAllUsesExcept(from.to_raw(), to.to_raw(), 1, &mut except.to_raw()) }
    }

    /// Checks that every operand of `op` (just built) is defined under the
    /// root: a use of a value that dies earlier would dangle.
    pub fn check_operands(self, op: OperationRef<'c, '_>) {
        for v in op.operands() {
            self.value(v);
        }
    }
}

/// The changes a pass makes to an op in place ([`PassIr::op_mut`]).
pub struct OpMut<'c> {
    ir: PassIr<'c>,
    op: OperationRef<'c, 'c>,
}

impl<'c> OpMut<'c> {
    fn raw(&self) -> melior::ir::operation::OperationRefMut<'c, 'c> {
        // SAFETY: `op` is under the root of the run (`PassIr::op_mut`
        // checked it), to which the pass has exclusive access; the handle is
        // used for one of the changes below only.
        unsafe { op_mut(self.op) }
    }

    pub fn attribute(&self, name: &str) -> Result<melior::ir::Attribute<'c>, melior::Error> {
        self.op.attribute(name)
    }

    pub fn set_attribute(&mut self, name: &str, attribute: melior::ir::Attribute<'c>) {
        use melior::ir::operation::OperationMutLike;
        self.raw().set_attribute(name, attribute);
    }

    pub fn set_discardable_attribute(&mut self, name: &str, attribute: melior::ir::Attribute<'c>) {
        use melior::ir::operation::OperationMutLike;
        self.raw().set_discardable_attribute(name, attribute);
    }

    pub fn remove_attribute(&mut self, name: &str) -> Result<(), melior::Error> {
        use melior::ir::operation::OperationMutLike;
        self.raw().remove_attribute(name)
    }

    /// Sets operand `index` (below the count) to a value defined under the
    /// run's root.
    pub fn set_operand(&mut self, index: usize, value: Value<'c, '_>) {
        use melior::ir::operation::OperationMutLike;
        let count = self.op.operand_count();
        assert!(index < count, "pydev: operand {index} of an op with {count}");
        let value = self.ir.value(value);
        self.raw().set_operand(index, value);
    }
}

// ---- The textual pass registry and pass plugins (crate::plugin) ----

unsafe extern "C" {
    /// dialect/cpp/PipelineRegistry.cpp.
    fn pydevRegisterPassByName(
        argument: mlir_sys::MlirStringRef,
        summary: mlir_sys::MlirStringRef,
        add: unsafe extern "C" fn(
            mlir_sys::MlirOpPassManager,
            mlir_sys::MlirStringRef,
            mlir_sys::MlirStringRef,
            mlir_sys::MlirStringCallback,
            *mut std::ffi::c_void,
        ) -> bool,
    );
}

/// The text of a C string reference; an empty `StringRef` may have a null
/// pointer, which a Rust slice may not.
///
/// # Safety
/// `raw` points at `length` valid bytes, or `length` is 0.
pub unsafe fn string_ref_text(raw: mlir_sys::MlirStringRef) -> String {
    if raw.data.is_null() || raw.length == 0 {
        return String::new();
    }
    // SAFETY: non-null with `length` valid bytes (the caller's contract).
    let bytes = unsafe { std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Called by the registry entry of a pydev pass when a textual pipeline
/// names it: builds it from its options and adds it to `pm`, or reports why
/// not through `error`.
///
/// # Safety
/// `pm` is the live op pass manager MLIR is filling; `argument` and
/// `options` are valid for the call; `error` is called with `user_data`.
unsafe extern "C" fn add_named_pass(
    pm: mlir_sys::MlirOpPassManager,
    argument: mlir_sys::MlirStringRef,
    options: mlir_sys::MlirStringRef,
    error: mlir_sys::MlirStringCallback,
    user_data: *mut std::ffi::c_void,
) -> bool {
    // SAFETY: valid for the call (see above).
    let (argument, options) = unsafe { (string_ref_text(argument), string_ref_text(options)) };
    let options = options.trim();
    let text = if options.is_empty() { argument } else { format!("{argument}{{{options}}}") };
    match crate::create_pass(&text) {
        Ok(pass) => {
            // SAFETY: `pm` is live for the call.
            unsafe { OperationPassManager::from_raw(pm) }.add_pass(pass);
            true
        }
        Err(message) => {
            if let Some(error) = error {
                let message = message.to_string();
                // SAFETY: the message outlives the call; `user_data` is MLIR's.
                unsafe { error(StringRef::new(&message).to_raw(), user_data) };
            }
            false
        }
    }
}

/// Names the pydev pass `argument` in MLIR's textual pass registry.
pub fn register_pass_by_name(argument: &'static str, summary: &'static str) {
    // SAFETY: both strings are 'static, as the registry needs; the callback
    // follows `add_named_pass`'s contract.
    unsafe {
        pydevRegisterPassByName(StringRef::new(argument).to_raw(), StringRef::new(summary).to_raw(), add_named_pass)
    }
}

/// Replaces the body and attributes of the module op `root` with those of
/// `module` (parsed in the same context), which is consumed. The ops of
/// `root`'s body are erased: nothing outside it may refer to them.
pub fn replace_module_body(root: OperationRef, module: melior::ir::Module) {
    use mlir_sys::*;
    let new_op = module.as_operation();
    // SAFETY: `root` is a live builtin.module whose body nothing outside
    // references during the call (the caller's pass runs on it); `module`
    // is owned here and destroyed at the end, after its body's ops were
    // moved (unlinked, then appended to `root`'s block).
    unsafe {
        let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(root.to_raw(), 0));
        loop {
            let op = mlirBlockGetFirstOperation(block);
            if op.ptr.is_null() {
                break;
            }
            mlirOperationDestroy(op);
        }
        let from = mlirRegionGetFirstBlock(mlirOperationGetRegion(new_op.to_raw(), 0));
        loop {
            let op = mlirBlockGetFirstOperation(from);
            if op.ptr.is_null() {
                break;
            }
            mlirOperationRemoveFromParent(op);
            mlirBlockAppendOwnedOperation(block, op);
        }
        let n = mlirOperationGetNumAttributes(root.to_raw());
        let names: Vec<String> = (0..n)
            .map(|i| {
                let named = mlirOperationGetAttribute(root.to_raw(), i);
                string_ref_text(mlirIdentifierStr(named.name))
            })
            .collect();
        for name in names {
            if name != "sym_name" {
                mlirOperationRemoveAttributeByName(root.to_raw(), StringRef::new(&name).to_raw());
            }
        }
        for i in 0..mlirOperationGetNumAttributes(new_op.to_raw()) {
            let named = mlirOperationGetAttribute(new_op.to_raw(), i);
            mlirOperationSetAttributeByName(root.to_raw(), mlirIdentifierStr(named.name), named.attribute);
        }
    }
    drop(module);
}

/// Opens the pass plugin at `path` and finds its pydev entry points; `Err(None)`:
/// a library without them.
pub fn open_plugin(path: &std::path::Path) -> Result<(crate::plugin::PassesFn, crate::plugin::RunFn), Option<String>> {
    // SAFETY: loading runs the library's initializers: a pass plugin's are
    // Rust's and those of the shared libMLIR.so / libLLVM.so it links (its
    // own MLIR, apart from this process's statically linked one, which it
    // cannot reach: the library is opened RTLD_LOCAL, and this binary
    // exports no MLIR symbols). The library is never closed (leaked), so
    // the function pointers stay valid; their signatures are those that
    // `export_plugin!` defines.
    unsafe {
        let lib = libloading::Library::new(path).map_err(|e| Some(e.to_string()))?;
        let lib: &'static libloading::Library = Box::leak(Box::new(lib));
        let passes = lib.get(b"pydevPluginPasses\0").map_err(|_| None)?;
        let run = lib.get(b"pydevPluginRun\0").map_err(|_| None)?;
        Ok((*passes, *run))
    }
}

/// `registerDialectRegistryCallbacks` of a dialect plugin: inserts the pydev
/// dialect into `registry` (a `mlir::DialectRegistry *`, which is what an
/// `MlirDialectRegistry` wraps).
///
/// # Safety
/// MLIR passes a live registry.
pub unsafe extern "C" fn insert_pydev_dialect(registry: *mut std::ffi::c_void) {
    let registry = mlir_sys::MlirDialectRegistry { ptr: registry };
    // SAFETY: a live registry (the caller's contract); the handle is pydev's.
    unsafe { mlir_sys::mlirDialectHandleInsertDialect(pydev_dialect::dialect_handle().to_raw(), registry) }
}

// ---- PDL patterns (crate::apply_pdl) ----

#[repr(C)]
#[derive(Clone, Copy)]
struct PdlHandle {
    ptr: *mut std::ffi::c_void,
}

// mlir-c/Rewrite.h's PDL functions (built with MLIR_ENABLE_PDL_IN_PATTERNMATCH,
// which mlir-sys's bindings leave out).
unsafe extern "C" {
    fn mlirPDLPatternModuleFromModule(module: mlir_sys::MlirModule) -> PdlHandle;
    fn mlirPDLPatternModuleDestroy(module: PdlHandle);
    fn mlirRewritePatternSetFromPDLPatternModule(module: PdlHandle) -> PdlHandle;
    fn mlirRewritePatternSetDestroy(set: PdlHandle);
    fn mlirFreezeRewritePattern(set: PdlHandle) -> PdlHandle;
    fn mlirFrozenRewritePatternSetDestroy(set: PdlHandle);
    fn mlirGreedyRewriteDriverConfigCreate() -> PdlHandle;
    fn mlirGreedyRewriteDriverConfigDestroy(config: PdlHandle);
    fn mlirApplyPatternsAndFoldGreedilyWithOp(
        op: mlir_sys::MlirOperation,
        patterns: PdlHandle,
        config: PdlHandle,
    ) -> mlir_sys::MlirLogicalResult;
}

/// Applies the `pdl.pattern`s of module text `patterns` to the ops under
/// `root` with MLIR's greedy driver (folding included); `Err` if the
/// patterns do not parse or the driver did not converge.
pub fn apply_pdl_patterns(root: OperationRef, patterns: &str) -> Result<(), String> {
    let context = context(root);
    let module = melior::ir::Module::parse(context, patterns).ok_or("the patterns do not parse")?;
    // SAFETY: each object is made here and destroyed once: the pattern
    // module takes the parsed module, the pattern set takes the pattern
    // module's contents (leaving an empty object, destroyed), the frozen set
    // the pattern set's (likewise); `root` is live and the greedy driver
    // rewrites only under it, in the pass that runs on it.
    unsafe {
        let raw = module.to_raw();
        std::mem::forget(module); // owned by the pattern module now
        let pdl = mlirPDLPatternModuleFromModule(raw);
        let set = mlirRewritePatternSetFromPDLPatternModule(pdl);
        mlirPDLPatternModuleDestroy(pdl);
        let frozen = mlirFreezeRewritePattern(set);
        mlirRewritePatternSetDestroy(set);
        let config = mlirGreedyRewriteDriverConfigCreate();
        let result = mlirApplyPatternsAndFoldGreedilyWithOp(root.to_raw(), frozen, config);
        mlirGreedyRewriteDriverConfigDestroy(config);
        mlirFrozenRewritePatternSetDestroy(frozen);
        if result.value != 0 {
            Ok(())
        } else {
            Err("the patterns did not converge (the greedy driver's iteration limit)".to_owned())
        }
    }
}
