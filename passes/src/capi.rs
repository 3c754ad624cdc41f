//! Every `unsafe` and raw mlir-sys call of the passes crate.

use melior::{
    ir::{
        attribute::AttributeLike, operation::OperationLike, BlockLike, Location, OperationRef, TypeLike,
        RegionLike, RegionRef, Value, ValueLike,
    },
    pass::OperationPassManager,
    Context, StringRef,
};
use mlir_sys::{
    mlirEmitError, mlirGPUObjectAttrGetObject, mlirOpPassManagerAddPipeline, mlirRegionTakeBody,
};
use std::ffi::CString;

/// The context that owns `op`.
///
/// # Safety (of the body)
/// `ContextRef::to_ref` borrows the `ContextRef` itself, so it must outlive
/// the returned reference: one `ContextRef` per context is leaked (16 bytes)
/// and cached. A context outlives every operation created in it, so the
/// reference is valid for `'c` while the IR is alive.
pub fn context<'c>(op: OperationRef<'c, '_>) -> &'c Context {
    use std::{cell::RefCell, collections::HashMap};
    thread_local! {
        static REFS: RefCell<HashMap<usize, &'static melior::ContextRef<'static>>> = RefCell::default();
    }
    // Safety: live op.
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
/// rewritten one by one.
///
/// # Safety (of the body)
/// The returned references stay valid while the ops are alive; the passes
/// rewrite each op once and never touch an erased one again.
pub fn ops_named<'c>(root: OperationRef<'c, '_>, names: &[&str]) -> Vec<OperationRef<'c, 'c>> {
    let mut raw = Vec::new();
    let root_raw = root.to_raw();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr != root_raw.ptr && names.iter().any(|n| op.name().as_string_ref().as_str() == Ok(n)) {
            raw.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // SAFETY: each op was alive when walked; the callers rewrite each op
    // once and never touch an erased one again (see the doc comment).
    raw.into_iter().map(|r| unsafe { OperationRef::from_raw(r) }).collect()
}

/// Re-borrows a value with the context's lifetime.
///
/// # Safety (of the body)
/// Values live as long as their defining op or block; callers use them only
/// while those are alive, before erasing anything.
pub fn value<'c>(v: Value<'c, '_>) -> Value<'c, 'c> {
    // SAFETY: `v` is live; callers use the re-borrow only while its
    // defining op or block is (see the doc comment).
    unsafe { Value::from_raw(v.to_raw()) }
}

/// Emits an error diagnostic at `location` (the pass then signals failure).
pub fn emit_error(location: Location, message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // Safety: live location; the C string outlives the call.
    unsafe { mlirEmitError(location.to_raw(), text.as_ptr()) }
}

/// Moves the blocks of `source` into the empty region `target`.
pub fn take_body(target: RegionRef, source: RegionRef) {
    // Safety: both regions are alive and distinct.
    unsafe { mlirRegionTakeBody(target.to_raw(), source.to_raw()) }
}

/// Appends a textual pipeline (`"canonicalize,cse"`) to a pass manager,
/// which `utility::parse_pass_pipeline` cannot do (it replaces the contents).
pub fn add_pipeline(pm: OperationPassManager, pipeline: &str) -> Result<(), String> {
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
        Err(if message.is_empty() { format!("invalid pass pipeline '{pipeline}'") } else { message })
    }
}

/// The bytes of every `#gpu.object` in the `gpu.binary` ops under `root`, with
/// the binary's name.
pub fn gpu_objects(root: OperationRef) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for op in ops_named(root, &["gpu.binary"]) {
        let name = sym_name(op);
        let Ok(objects) = op.attribute("objects") else { continue };
        let Ok(objects) = melior::ir::attribute::ArrayAttribute::try_from(objects) else { continue };
        for i in 0..objects.len() {
            let Ok(object) = objects.element(i) else { continue };
            // Safety: `object` is a `#gpu.object` (the verifier of gpu.binary
            // guarantees it); the string it returns is owned by the context.
            let bytes = unsafe {
                let s = StringRef::from_raw(mlirGPUObjectAttrGetObject(object.to_raw()));
                std::slice::from_raw_parts(s.to_raw().data.cast::<u8>(), s.to_raw().length).to_vec()
            };
            out.push((name.clone(), bytes));
        }
    }
    out
}

/// The first block of a region, if any (helper kept here for its lifetimes).
pub fn entry_block<'c>(region: RegionRef<'c, '_>) -> Option<melior::ir::BlockRef<'c, 'c>> {
    // Safety: blocks live as long as their region, which outlives the pass's use.
    region.first_block().map(|b| unsafe { melior::ir::BlockRef::from_raw(b.to_raw()) })
}


/// Detaches an inserted op from the rewriter's borrow.
///
/// # Safety (of the body)
/// The op lives in the IR until a pass erases it; helpers only use it before.
pub fn detach<'c>(op: OperationRef<'c, '_>) -> OperationRef<'c, 'c> {
    // SAFETY: `op` is live and stays in the IR until a pass erases it;
    // helpers only use the detached reference before that.
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

/// Moves `op` to the end of `block`.
///
/// # Safety (of the body)
/// `op` is alive and attached; after removal its parent no longer owns it, and
/// appending hands ownership to `block`.
pub fn move_to_end(op: OperationRef, block: melior::ir::BlockRef) {
    // SAFETY: `op` is alive and attached; after removal its parent no
    // longer owns it, and appending hands ownership to `block`.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// A mutable handle on an op the pass owns for its run.
///
/// # Safety (of the body)
/// An external pass has exclusive access to the op it runs on.
pub fn op_mut<'c, 'a>(op: OperationRef<'c, 'a>) -> melior::ir::operation::OperationRefMut<'c, 'a> {
    // SAFETY: an external pass has exclusive access to the op it runs on.
    unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) }
}

/// Replaces every use of `from` by `to`, except in `except`.
pub fn replace_uses_except(from: Value, to: Value, except: OperationRef) {
    // Safety: live values and op of one context.
    unsafe { mlir_sys::mlirValueReplaceAllUsesExcept(from.to_raw(), to.to_raw(), 1, &mut except.to_raw()) }
}

/// The op defining a result value.
pub trait OwnerOp<'c> {
    fn owner_operation(&self) -> OperationRef<'c, 'c>;
}

impl<'c> OwnerOp<'c> for Value<'c, 'c> {
    fn owner_operation(&self) -> OperationRef<'c, 'c> {
        // Safety: only called on op results (casts just built).
        unsafe { OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(self.to_raw())) }
    }
}

/// The LLVM IR text of every `gpu.module` under `root` (after the `llvm`
/// stage), as `gpu-module-to-binary` would hand it to the NVPTX backend.
pub fn llvm_ir(root: OperationRef) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for op in ops_named(root, &["gpu.module"]) {
        let name = sym_name(op);
        // Safety: `op` is a live gpu.module of LLVM dialect ops; the returned
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
pub fn set_value_type(v: Value, ty: melior::ir::Type) {
    // Safety: live value and type of one context.
    unsafe { mlir_sys::mlirValueSetType(v.to_raw(), ty.to_raw()) }
}

/// The element type of a `complex<T>`; callers check `is_complex` first.
pub fn complex_element(ty: melior::ir::Type) -> melior::ir::Type {
    // Safety: `ty` is a complex type (checked by the caller).
    unsafe { melior::ir::Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(ty.to_raw())) }
}

pub fn complex_type(element: melior::ir::Type) -> melior::ir::Type {
    // Safety: live element type.
    unsafe { melior::ir::Type::from_raw(mlir_sys::mlirComplexTypeGet(element.to_raw())) }
}

/// The value of an integer attribute (any signedness).
pub fn integer_attr_value(attr: melior::ir::Attribute) -> Option<i64> {
    // Safety: kind checked first.
    unsafe { mlir_sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw())) }
}

pub fn float_attr_value(attr: melior::ir::Attribute) -> Option<f64> {
    // Safety: kind checked first.
    unsafe { mlir_sys::mlirAttributeIsAFloat(attr.to_raw()).then(|| mlir_sys::mlirFloatAttrGetValueDouble(attr.to_raw())) }
}

/// The op that defines a value, if it is an op result.
pub fn defining_op<'c>(v: Value<'c, '_>) -> Option<OperationRef<'c, 'c>> {
    // Safety: live value; the owner of an op result is that op.
    unsafe {
        mlir_sys::mlirValueIsAOpResult(v.to_raw()).then(|| OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(v.to_raw())))
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

/// Every op under `root` (itself included), detached from the walk.
pub fn all_ops<'c>(root: OperationRef<'c, '_>) -> Vec<OperationRef<'c, 'c>> {
    let mut raw = Vec::new();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        raw.push(op.to_raw());
        melior::ir::operation::WalkResult::Advance
    });
    // Safety: see `ops_named`.
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

/// The nearest `builtin.module` around `op` (or `op` itself).
pub fn module_of<'c>(op: OperationRef<'c, 'c>) -> OperationRef<'c, 'c> {
    let mut cur = op;
    loop {
        if cur.name().as_string_ref().as_str() == Ok("builtin.module") {
            return cur;
        }
        match cur.parent_operation() {
            Some(p) => cur = detach(p),
            None => return cur,
        }
    }
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

/// Registers, in MLIR's textual registry, only the upstream passes the
/// `cuda` and `host` pipelines name (the wheel links nothing else).
pub fn register_pipeline_passes() {
    // Safety: registration functions of the C API; idempotent per pass.
    unsafe {
        mlir_sys::mlirRegisterTransformsCanonicalizer();
        mlir_sys::mlirRegisterConversionConvertMathToFuncs();
        mlir_sys::mlirRegisterGPUGpuNVVMAttachTarget();
        mlir_sys::mlirRegisterConversionConvertComplexToStandardPass();
        mlir_sys::mlirRegisterArithArithExpandOpsPass();
        mlir_sys::mlirRegisterArithArithEmulateUnsupportedFloats();
        mlir_sys::mlirRegisterConversionConvertGpuOpsToNVVMOps();
        mlir_sys::mlirRegisterConversionConvertMathToLLVMPass();
        mlir_sys::mlirRegisterConversionReconcileUnrealizedCastsPass();
        mlir_sys::mlirRegisterLLVMDIScopeForLLVMFuncOpPass();
        mlir_sys::mlirRegisterGPUGpuModuleToBinaryPass();
        mlir_sys::mlirRegisterConversionSCFToControlFlowPass();
        mlir_sys::mlirRegisterConversionConvertMathToLibmPass();
        mlir_sys::mlirRegisterConversionConvertToLLVMPass();
    }
}

unsafe extern "C" {
    fn LLVMParseCommandLineOptions(argc: i32, argv: *const *const std::ffi::c_char, overview: *const std::ffi::c_char);
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
        unsafe { LLVMParseCommandLineOptions(argv.len() as i32, argv.as_ptr(), c"".as_ptr()) }
    });
}

/// The context that owns `block` (see [`context`]).
pub fn context_of_block<'c>(block: melior::ir::BlockRef<'c, 'c>) -> &'c Context {
    // Safety: a live block belongs to a region of a live operation or is
    // being built in the same context as its parent function.
    let parent = unsafe { mlir_sys::mlirBlockGetParentOperation(block.to_raw()) };
    // SAFETY: the parent operation of a live block is live.
    context(unsafe { OperationRef::from_raw(parent) })
}
