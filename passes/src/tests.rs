//! Unit tests of the registry, the pipeline builder and the whole cuda
//! pipeline as the JIT and pydevc will drive it.

use crate::{create_pass, gpu_objects, parse_pass, pipeline, register_upstream_passes, PASSES};
use melior::{ir::Module, pass::PassManager};

#[test]
fn registry_names_and_options() {
    assert!(PASSES.iter().all(|p| p.argument.starts_with("pydev-") && !p.summary.is_empty()));
    // Every pass builds from its name alone, but for the options a pass
    // requires (pydev-apply-pdl's patterns file).
    let patterns = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/pdl/mul_pow2.mlir");
    for pass in PASSES {
        let text = match pass.argument {
            "pydev-apply-pdl" => format!("pydev-apply-pdl{{patterns={patterns}}}"),
            name => name.to_owned(),
        };
        create_pass(&text).unwrap_or_else(|e| panic!("{}: {e}", pass.argument));
    }
    assert!(create_pass("pydev-apply-pdl").err().unwrap().to_string().contains("patterns=PATH"));
    let (info, options) = parse_pass("pydev-lower-arrays{target=host}").unwrap();
    assert_eq!(options.get(info, "target"), "host");
    let (info, options) = parse_pass("pydev-lower-arrays").unwrap();
    assert_eq!(options.get(info, "target"), "cuda");
    assert!(parse_pass("pydev-lower-arrays{colour=red}")
        .err()
        .unwrap()
        .to_string()
        .contains("unknown option 'colour'"));
    assert!(parse_pass("pydev-nope").err().unwrap().to_string().contains("unknown pydev pass 'pydev-nope'"));
    assert!(create_pass("pydev-lower-arrays{target=tpu}").err().unwrap().to_string().contains("unknown target 'tpu'"));
}

#[test]
fn cuda_options() {
    let o = pipeline::CudaOptions::parse("chip=sm_80 opt-level=2").unwrap();
    assert_eq!((o.chip.as_str(), o.opt_level), ("sm_80", 2));
    assert!(pipeline::CudaOptions::parse("chip=sm_42").unwrap_err().to_string().contains("unsupported chip"));
    assert!(pipeline::CudaOptions::parse("opt-level=9").unwrap_err().to_string().contains("0 to 3"));
    assert!(pipeline::CudaOptions::parse("speed=max").unwrap_err().to_string().contains("unknown option 'speed'"));
}

#[test]
fn errors_render_the_sentences_of_before() {
    use crate::PassError;
    use pipeline::PipelineError;
    let e = create_pass("pydev-lower-arrays{target=tpu}").err().unwrap();
    assert!(matches!(e, PassError::InvalidOption { pass: "pydev-lower-arrays", .. }));
    assert_eq!(e.to_string(), "pydev-lower-arrays: unknown target 'tpu', expected cuda or host");
    assert_eq!(
        parse_pass("pydev-align-params{x=1}").err().unwrap().to_string(),
        "unknown option 'x' of pass 'pydev-align-params' (known: none)"
    );
    assert_eq!(
        parse_pass("pydev-lower-arrays{x").err().unwrap().to_string(),
        "pass options of 'pydev-lower-arrays' must be written {key=value ...}"
    );
    assert_eq!(
        parse_pass("pydev-lower-arrays{x}").err().unwrap().to_string(),
        "option 'x' of 'pydev-lower-arrays' must be key=value"
    );
    let e = pipeline::CudaOptions::parse("fast-math=2").unwrap_err();
    assert_eq!(e, PipelineError::Flag { option: "fast-math".into(), value: "2".into() });
    assert_eq!(e.to_string(), "fast-math must be 0 or 1, got '2'");
    assert_eq!(
        pipeline::HostOptions::parse("speed=max").unwrap_err().to_string(),
        "unknown option 'speed' of the host pipeline (known: opt-level, fast-math, fmad, boundscheck, aggregate-atomics, vectorize-access)"
    );
    // The optional optimizations: off by default, 0/1 on both pipelines.
    let none = pipeline::Optimizations::default();
    assert_eq!(pipeline::CudaOptions::parse("").unwrap().optimizations, none);
    let both = pipeline::Optimizations { aggregate_atomics: true, vectorize_access: true };
    assert_eq!(pipeline::CudaOptions::parse("aggregate-atomics=1 vectorize-access=true").unwrap().optimizations, both);
    assert_eq!(pipeline::HostOptions::parse("aggregate-atomics=1 vectorize-access=1").unwrap().optimizations, both);
    assert_eq!(
        pipeline::HostOptions::parse("vectorize-access=2").unwrap_err().to_string(),
        "vectorize-access must be 0 or 1, got '2'"
    );
    let context = pydev_dialect::new_pipeline_context();
    let pm = PassManager::new(&context);
    let e = pipeline::add_host(&pm, &Default::default(), "ptx").unwrap_err();
    assert_eq!(e.to_string(), "unknown stage 'ptx' of the host pipeline (known: pydev, pydev-opt, llvm)");
}

const KERNEL: &str = r#"
func.func @k(%out: !pydev.array<i64, 1>, %v: i64) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %m = pydev.activemask
  %one = arith.constant 1 : i32
  %w = pydev.shfl xor %m, %v, %one : i64, i32
  %r = pydev.atomic_ref %out[%tx] : !pydev.array<i64, 1>, index -> !pydev.atomic_ref<i64>
  %o = pydev.atomic_rmw max %r, %w memory <acq_rel> scope <system> : !pydev.atomic_ref<i64>, i64
  pydev.syncthreads
  return
}"#;

#[test]
fn cuda_pipeline_gives_ptx_for_each_stage() {
    register_upstream_passes();
    let ctx = pydev_dialect::new_context();
    for (stage, expect) in [("pydev-opt", "gpu.func @k"), ("llvm", "llvm.func @k"), ("ptx", "gpu.binary @pydev")] {
        let mut module = Module::parse(&ctx, KERNEL).unwrap();
        let pm = PassManager::new(&ctx);
        pipeline::add_cuda(&pm, &pipeline::CudaOptions::default(), stage).unwrap();
        pm.run(&mut module).unwrap_or_else(|e| panic!("stage {stage}: {e}"));
        assert!(module.as_operation().to_string().contains(expect), "stage {stage}");
    }
    let mut module = Module::parse(&ctx, KERNEL).unwrap();
    let pm = PassManager::new(&ctx);
    pipeline::add_cuda(&pm, &pipeline::CudaOptions::parse("chip=sm_80").unwrap(), "ptx").unwrap();
    pm.run(&mut module).unwrap();
    let objects = gpu_objects(module.as_operation());
    assert_eq!(objects.len(), 1);
    let ptx = String::from_utf8(objects[0].1.clone()).unwrap();
    for needle in [
        ".target sm_80",
        ".visible .entry k(",
        "shfl.sync.bfly.b32",
        "atom.acq_rel.sys.global.max.s64",
        "bar.sync \t0;",
    ] {
        assert!(ptx.contains(needle), "missing {needle} in\n{ptx}");
    }
}
