//! `pydev-outline-kernels`: put device code in a `gpu.module`.
//!
//! Expects: a `builtin.module` whose `func.func`s are device code, kernels
//! marked `pydev.kernel` (as the Python frontend emits them).
//! Guarantees: the module is a `gpu.container_module` holding one
//! `gpu.module @pydev` with every function; each kernel is a `gpu.func`
//! with the `kernel` attribute, its body and Python name kept, and the
//! NVVM dialect's kernel attributes the func carried (`nvvm.maxntid`,
//! `nvvm.minctasm`, `nvvm.cluster_max_blocks`, ...: launch bounds, which
//! convert-gpu-to-nvvm keeps on the llvm.func and the NVPTX backend writes
//! as `.maxntid`, `.minnctapersm`, `.maxclusterrank`).
//! A module of device functions alone (a `@device.func` compiled by itself,
//! e.g. an interop function for CUDA C++ to link) is outlined too, so its
//! PTX defines them rather than being empty.
//! Does not fire on a module without top-level `func.func`s.
//!
//! Rewrites:
//!   func.func @k {pydev.kernel} { ... func.return }  =>  gpu.module @pydev { gpu.func @k kernel { ... gpu.return } }
//!   func.func @k {pydev.kernel, nvvm.X = v}          =>  gpu.func @k kernel attributes {nvvm.X = v}
//!   func.func @f { ... }                             =>  gpu.module @pydev { func.func @f { ... } }

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, Builder, PassId},
    PassInfo,
};
use melior::ir::{
    attribute::StringAttribute,
    operation::{OperationBuilder, OperationLike},
    BlockLike, Identifier, Region, RegionLike,
};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-outline-kernels",
    summary: "move device functions into a gpu.module and turn kernels into gpu.func",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let module = ir.root();
    let body = module.region(0).ok().and_then(|r| ir.entry_block(r));
    let Some(body) = body.filter(|_| module.name().as_string_ref().as_str() == Ok("builtin.module")) else {
        capi::emit_error(module.location(), "pydev-outline-kernels runs on a builtin.module");
        return Err(Reported);
    };
    let funcs: Vec<_> = ir
        .ops_named(module, &["func.func"])
        .into_iter()
        .filter(|f| f.parent_operation().map(|p| p.to_raw().ptr) == Some(module.to_raw().ptr))
        .collect();
    if funcs.is_empty() {
        return Ok(());
    }
    let ctx = capi::context(module);
    let unit = melior::ir::Attribute::unit(ctx);
    ir.set_discardable_attribute(module, "gpu.container_module", unit);

    let region = Region::new();
    region.append_block(melior::ir::Block::new(&[]));
    let gpu_module = OperationBuilder::new("gpu.module", module.location())
        .add_attributes(&[(Identifier::new(ctx, "sym_name"), StringAttribute::new(ctx, "pydev").into())])
        .add_regions([region])
        .build()
        .expect("valid gpu.module");
    let gpu_module = ir.detach(body.append_operation(gpu_module));
    let gpu_body = gpu_module.region(0).ok().and_then(|r| ir.entry_block(r)).expect("gpu.module block");

    for func in funcs {
        if !func.has_attribute(pydev_dialect::abi::attr::KERNEL) {
            ir.move_to_end(func, gpu_body);
            continue;
        }
        let b = Builder::before(ir, func);
        let mut attrs = vec![
            b.named("sym_name", func.attribute("sym_name").expect("func has a name")),
            b.named("function_type", func.attribute("function_type").expect("func has a type")),
            b.named("gpu.kernel", unit),
            b.named("workgroup_attributions", b.attr("0 : i64")),
        ];
        if let Ok(interop) = func.attribute(pydev_dialect::abi::attr::INTEROP) {
            attrs.push(b.named(pydev_dialect::abi::attr::INTEROP, interop));
        }
        // Launch bounds and the NVVM dialect's other kernel attributes (the
        // dialect verified them on the func).
        for (name, value) in func.attributes() {
            if name.as_string_ref().as_str().is_ok_and(|n| n.starts_with("nvvm.")) {
                attrs.push((name, value));
            }
        }
        let kernel = OperationBuilder::new("gpu.func", func.location())
            .add_attributes(&attrs)
            .add_regions([Region::new()])
            .build()
            .expect("valid gpu.func");
        let kernel = ir.detach(gpu_body.append_operation(kernel));
        ir.take_body(kernel, func);
        for ret in ir.ops_named(kernel, &["func.return"]) {
            let rb = Builder::before(ir, ret);
            let operands: Vec<_> = ret.operands().collect();
            rb.op("gpu.return", &operands, &[], &[]);
            rb.erase(ret);
        }
        b.erase(func);
    }
    Ok(())
}
