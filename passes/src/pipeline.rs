//! The named pipelines. `cuda`: Python-level pydev IR to PTX, as stages:
//!
//! | stage       | passes                                                         |
//! |-------------|----------------------------------------------------------------|
//! | `pydev-opt` | pydev-select-kernel, symbol-dce, pydev-specialize-target,      |
//! |             | pydev-promote-types, canonicalize,                             |
//! |             | the float8 lowering, pydev-expand-fp-class,                    |
//! |             | convert-math-to-funcs, pydev-outline-kernels                   |
//! | `llvm`      | pydev-lower-arrays{target=cuda}, pydev-lower-atomics,          |
//! |             | pydev-lower-sync-nvvm, pydev-lower-aggregates,                 |
//! |             | pydev-check-lowered, nvvm-attach-target,                       |
//! |             | convert-complex-to-standard, arith-expand,                     |
//! |             | convert-gpu-to-nvvm, convert-math-to-llvm (the math ops        |
//! |             | libdevice does not cover: ctpop, ctlz, cttz, absi),            |
//! |             | reconcile-unrealized-casts, pydev-align-params,                |
//! |             | pydev-drop-c-wrappers, pydev-raise-ptx                         |
//! | `ptx`       | gpu-module-to-binary{format=isa}                               |
//!
//! With `boundscheck=1` (`PYDEV_BOUNDSCHECK=1`) the `llvm` stage starts with
//! pydev-cuda-boundscheck and convert-scf-to-cf; without it, with
//! pydev-cuda-boundscheck{accesses=0}, which only gives `@__pydev_raise`
//! (exceptions raised in device code) its body, so the PTX of a module
//! without one is exactly that of the passes above.
//!
//! The optional optimizations ([`Optimizations`], off by default), first in
//! the `llvm` stage of both pipelines: `aggregate-atomics=1`
//! (pydev-aggregate-atomics) and `vectorize-access=1`
//! (pydev-vectorize-access{target=...}, not with `boundscheck=1`); on cuda
//! convert-scf-to-cf follows them.
//!
//! `host`: the same passes up to SIMT lowering, then the host's:
//!
//! | stage       | passes                                                         |
//! |-------------|----------------------------------------------------------------|
//! | `pydev-opt` | pydev-select-kernel, symbol-dce,                               |
//! |             | pydev-specialize-target{target=host}, pydev-promote-types,     |
//! |             | canonicalize, the float8 lowering, pydev-expand-fp-class,      |
//! |             | convert-math-to-funcs                                          |
//! | `llvm`      | pydev-lower-simt-host, pydev-lower-arrays{target=host},        |
//! |             | pydev-lower-atomics{target=host}, pydev-lower-aggregates,      |
//! |             | pydev-check-lowered, reconcile-unrealized-casts,               |
//! |             | pydev-host-barrier-fission, convert-complex-to-standard,       |
//! |             | arith-expand, convert-scf-to-cf, pydev-lower-math-libm,        |
//! |             | convert-math-to-llvm, convert-math-to-libm,                    |
//! |             | convert-to-llvm, reconcile-unrealized-casts                    |
//!
//! The runtime (`pydev-runtime`) compiles the `llvm` stage to an object with
//! LLVM's `default<O{opt-level}>` and links it into its ORC JIT.
//!
//! pydev-opt (`--pydev-pipeline=cuda{...}`, `host{...}`), pydevc and the JIT
//! all build them here; the runtime builds them in three parts ([`Part`]) so
//! that it can keep the pass managers of the stateless ones.

use crate::{add_pipeline, create_pass, AddPipelineError, PassError};
use melior::pass::PassManager;

/// Errors of reading a pipeline's options (`cuda{...}`, `host{...}`) and
/// of assembling its passes up to a stage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    #[error("pipeline option '{item}' must be key=value")]
    OptionNotKeyValue { item: String },
    #[error("opt-level must be 0 to 3, got '{value}'")]
    OptLevel { value: String },
    /// A 0/1 option (`fast-math`, `fmad`, `line-info`, `boundscheck`) given another value.
    #[error("{option} must be 0 or 1, got '{value}'")]
    Flag { option: String, value: String },
    #[error("unknown option '{option}' of the cuda pipeline (known: chip, ptx, opt-level, fast-math, fmad, line-info, libdevice, boundscheck, aggregate-atomics, vectorize-access)")]
    UnknownCudaOption { option: String },
    #[error("unknown option '{option}' of the host pipeline (known: opt-level, fast-math, fmad, boundscheck, aggregate-atomics, vectorize-access)")]
    UnknownHostOption { option: String },
    #[error("unsupported chip '{chip}': expected one of {CHIPS}")]
    UnsupportedChip { chip: String },
    #[error("unknown stage '{stage}'")]
    UnknownStage { stage: String },
    /// `known`: [`HOST_STAGES`], comma-separated.
    #[error("unknown stage '{stage}' of the host pipeline (known: {known})")]
    UnknownHostStage { stage: String, known: String },
    /// `passes={"POINT": ...}` names a point the pipelines do not have.
    #[error("unknown pass point '{point}' (known: {known})")]
    UnknownPoint { point: String, known: String },
    /// The extra passes of a point do not parse or name an unknown pass.
    #[error("passes at '{point}': {message}")]
    ExtraPasses { point: String, message: String },
    /// A pass plugin could not be loaded.
    #[error(transparent)]
    Plugin(#[from] crate::plugin::PluginError),
    /// A pydev pass of the pipeline could not be built.
    #[error(transparent)]
    Pass(#[from] PassError),
    /// Upstream passes of the pipeline could not be appended.
    #[error(transparent)]
    Upstream(#[from] AddPipelineError),
}

/// Options of the `cuda` pipeline.
#[derive(Clone, Debug)]
pub struct CudaOptions {
    /// `sm_70` .. `sm_120`.
    pub chip: String,
    /// PTX ISA version as LLVM spells it (`80` for PTX 8.0); empty: the
    /// lowest version that supports `chip`.
    pub ptx: String,
    /// LLVM optimisation level, 0 to 3.
    pub opt_level: u8,
    /// Fast math and flush-to-zero of denormals (nvvm target `fast`, `ftz`).
    pub fast_math: bool,
    /// Multiply-add contraction allowed (nvcc's `-fmad=true`, the default);
    /// off, `a * b + c` rounds twice, as NumPy does.
    pub fmad: bool,
    /// `.loc` line information pointing at the Python source.
    pub line_info: bool,
    /// Path of libdevice.10.bc, linked for the math functions it provides
    /// (empty: none; a kernel that needs one then fails to assemble).
    pub libdevice: String,
    /// Check every array index on the GPU (`PYDEV_BOUNDSCHECK=1`,
    /// `pydev-cuda-boundscheck`).
    pub boundscheck: bool,
    /// The optional optimizations: pydev-aggregate-atomics and
    /// pydev-vectorize-access, first in the `llvm` stage.
    pub optimizations: Optimizations,
    /// Passes added at the pipeline's points (`passes=`).
    pub extra: ExtraPasses,
}

impl Default for CudaOptions {
    fn default() -> Self {
        Self {
            chip: "sm_90".into(),
            ptx: String::new(),
            opt_level: 3,
            fast_math: false,
            fmad: true,
            line_info: false,
            libdevice: String::new(),
            boundscheck: false,
            optimizations: Optimizations::default(),
            extra: ExtraPasses::default(),
        }
    }
}

/// The stages of a pipeline, in order, each dumpable by name.
pub const STAGES: &[&str] = &["pydev", "pydev-opt", "llvm", "ptx"];

/// The lowest PTX ISA that knows `chip` (PTX ISA release notes).
/// The chips the cuda pipeline compiles for (the SM selectors below sm_70
/// still name targets in `target(...)` descriptions).
pub const CHIPS: &str =
    "sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_101, sm_103, sm_110, sm_120, sm_121";

fn default_ptx(chip: &str) -> Option<&'static str> {
    Some(match chip {
        "sm_70" | "sm_72" | "sm_75" | "sm_80" | "sm_86" | "sm_87" | "sm_89" | "sm_90" => "80",
        "sm_100" | "sm_101" => "86",
        "sm_103" | "sm_120" | "sm_121" => "88",
        "sm_110" => "90",
        _ => return None,
    })
}

impl CudaOptions {
    /// Parses `chip=sm_80 ptx=80 opt-level=2 fast-math=1 fmad=0 line-info=1` (the
    /// body of `cuda{...}`).
    pub fn parse(body: &str) -> Result<Self, PipelineError> {
        let mut options = Self::default();
        for item in body.split_whitespace() {
            let (k, v) =
                item.split_once('=').ok_or_else(|| PipelineError::OptionNotKeyValue { item: item.to_owned() })?;
            match k {
                "chip" => options.chip = v.to_owned(),
                "ptx" => options.ptx = v.to_owned(),
                "opt-level" => {
                    options.opt_level = v
                        .parse()
                        .ok()
                        .filter(|l| *l <= 3)
                        .ok_or_else(|| PipelineError::OptLevel { value: v.to_owned() })?
                }
                "libdevice" => options.libdevice = v.to_owned(),
                "aggregate-atomics" | "vectorize-access" => options.optimizations.set(k, v)?,
                "fast-math" | "fmad" | "line-info" | "boundscheck" => {
                    let on = match v {
                        "1" | "true" => true,
                        "0" | "false" => false,
                        _ => return Err(PipelineError::Flag { option: k.to_owned(), value: v.to_owned() }),
                    };
                    match k {
                        "fast-math" => options.fast_math = on,
                        "fmad" => options.fmad = on,
                        "line-info" => options.line_info = on,
                        _ => options.boundscheck = on,
                    }
                }
                _ => return Err(PipelineError::UnknownCudaOption { option: k.to_owned() }),
            }
        }
        if default_ptx(&options.chip).is_none() {
            return Err(PipelineError::UnsupportedChip { chip: options.chip });
        }
        Ok(options)
    }

    fn ptx_version(&self) -> &str {
        if self.ptx.is_empty() {
            default_ptx(&self.chip).unwrap_or("80")
        } else {
            &self.ptx
        }
    }
}

/// A part of a pipeline, for a caller that keeps pass managers across runs
/// (the runtime, `compile::PipelineContext`). Upstream's
/// convert-math-to-funcs keeps the helper functions it made (`funcImpls`)
/// across runs, and a second run would call those of a module already
/// destroyed; so it is a part of its own, for a pass manager made afresh
/// each time. Every other pass of both pipelines keeps no state between
/// runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The whole pipeline (pydev-opt, pydevc).
    All,
    /// The passes before convert-math-to-funcs.
    Before,
    /// convert-math-to-funcs alone.
    MathToFuncs,
    /// The passes after it.
    After,
}

impl Part {
    fn has(self, part: Part) -> bool {
        self == Part::All || self == part
    }
}

/// Integer `**` (math.ipowi) becomes a helper function (on cuda,
/// outlining then moves it into the gpu.module with the rest).
const MATH_TO_FUNCS: &str = "convert-math-to-funcs{convert-ctlz=false}";

/// Appends the passes of the cuda pipeline up to and including `last_stage`.
pub fn add_cuda(pm: &PassManager, options: &CudaOptions, last_stage: &str) -> Result<(), PipelineError> {
    add_cuda_part(pm, options, last_stage, Part::All)
}

/// Appends `part` of the cuda pipeline up to and including `last_stage`.
pub fn add_cuda_part(
    pm: &PassManager,
    options: &CudaOptions,
    last_stage: &str,
    part: Part,
) -> Result<(), PipelineError> {
    let stage = STAGES
        .iter()
        .position(|s| *s == last_stage)
        .ok_or_else(|| PipelineError::UnknownStage { stage: last_stage.to_owned() })?;
    let extra = &options.extra;
    if stage >= 1 && part.has(Part::Before) {
        extra.add(pm, "after-frontend")?;
        add_select_kernel(pm)?;
        pm.add_pass(create_pass(&format!("pydev-specialize-target{{target={}}}", options.chip))?);
        pm.add_pass(create_pass(promote_types(options.fast_math, options.fmad))?);
        // After promotion: canonicalize builds arith ops, which need signless types.
        add_pipeline(pm.as_operation_pass_manager(), "canonicalize")?;
        extra.add(pm, "after-promotion")?;
        add_float8(pm)?;
        pm.add_pass(create_pass("pydev-expand-fp-class")?);
    }
    if stage >= 1 && part.has(Part::MathToFuncs) {
        add_pipeline(pm.as_operation_pass_manager(), MATH_TO_FUNCS)?;
    }
    if !part.has(Part::After) {
        return Ok(());
    }
    if stage >= 1 {
        pm.add_pass(create_pass("pydev-outline-kernels")?);
        extra.add(pm, "before-lowering")?;
    }
    if stage >= 2 {
        options.optimizations.add(pm, true, options.boundscheck)?;
        // Extra passes before the lowering may leave scf ops (PDL patterns,
        // transform scripts, pydev-vectorize-access): the host lowers scf
        // later; the cuda stage does not, so it does here.
        if extra.has_mlir_passes() && !options.boundscheck {
            add_pipeline(pm.as_operation_pass_manager(), "convert-scf-to-cf")?;
        }
        if options.boundscheck {
            pm.add_pass(create_pass("pydev-cuda-boundscheck")?);
            add_pipeline(pm.as_operation_pass_manager(), "convert-scf-to-cf")?;
        } else {
            // Exceptions raised in device code use its error buffer too.
            pm.add_pass(create_pass("pydev-cuda-boundscheck{accesses=0}")?);
        }
        for pass in [
            "pydev-lower-arrays{target=cuda}",
            "pydev-lower-atomics",
            "pydev-lower-sync-nvvm",
            "pydev-lower-aggregates",
            "pydev-check-lowered",
        ] {
            pm.add_pass(create_pass(pass)?);
        }
        let mut fast = if options.fast_math { " fast ftz".to_owned() } else { String::new() };
        if !options.libdevice.is_empty() {
            fast.push_str(&format!(" l={}", options.libdevice));
        }
        let lines = if options.line_info {
            ",ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly}"
        } else {
            ""
        };

        add_pipeline(
            pm.as_operation_pass_manager(),
            &format!(
                "nvvm-attach-target{{chip={} features=+ptx{} O={}{fast}}},gpu.module(convert-complex-to-standard,arith-expand,convert-gpu-to-nvvm,convert-math-to-llvm),reconcile-unrealized-casts{lines}",
                options.chip,
                options.ptx_version(),
                options.opt_level
            ),
        )?;
        // Wrappers first: upstream copies a function's attributes (the
        // param_aligns mark of an interop function) onto its C wrapper.
        pm.add_pass(create_pass("pydev-drop-c-wrappers")?);
        pm.add_pass(create_pass("pydev-align-params")?);
        pm.add_pass(create_pass("pydev-raise-ptx")?);
        pm.add_pass(create_pass("pydev-prune-libdevice")?);
        extra.add(pm, "llvm")?;
    }
    if stage >= 3 {
        add_cuda_serialization(pm)?;
    }
    Ok(())
}

/// The last step of the `cuda` pipeline, from the `llvm` stage to `ptx`:
/// upstream's `gpu-module-to-binary`, the one place PTX comes from.
pub fn add_cuda_serialization(pm: &PassManager) -> Result<(), PipelineError> {
    crate::capi::set_nvptx_options();
    Ok(add_pipeline(pm.as_operation_pass_manager(), "gpu-module-to-binary{format=isa}")?)
}

/// The error to report when PTX calls libdevice functions that were not
/// linked (ptxas would say "Unresolved extern function").
pub fn missing_libdevice(ptx: &str) -> Option<String> {
    let name = ptx.lines().find_map(|l| {
        l.trim_start().strip_prefix(".extern .func").and_then(|r| r.split_whitespace().find(|w| w.contains("__nv_")))
    })?;
    let name = name.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '_').split('(').next().unwrap_or(name);
    Some(format!(
        "the kernel calls the CUDA math function {name}, which needs libdevice: set PYDEV_LIBDEVICE (or pass libdevice=PATH) to libdevice.10.bc from the nvidia-nvvm wheel (`make setup` installs it)"
    ))
}

/// Options of the `host` pipeline.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// LLVM optimisation level of the JIT, 0 to 3.
    pub opt_level: u8,
    /// Contract and reassociate floating-point arithmetic.
    pub fast_math: bool,
    /// Multiply-add contraction allowed (the default); see [`CudaOptions::fmad`].
    pub fmad: bool,
    /// Check every array index against its extent (`PYDEV_BOUNDSCHECK=1`).
    pub boundscheck: bool,
    /// As [`CudaOptions::optimizations`].
    pub optimizations: Optimizations,
    /// Passes added at the pipeline's points (`passes=`).
    pub extra: ExtraPasses,
}

impl Default for HostOptions {
    fn default() -> Self {
        Self {
            opt_level: 3,
            fast_math: false,
            fmad: true,
            boundscheck: false,
            optimizations: Optimizations::default(),
            extra: ExtraPasses::default(),
        }
    }
}

impl HostOptions {
    /// Parses `opt-level=2 fast-math=1 fmad=0 boundscheck=1` (the body of `host{...}`).
    pub fn parse(body: &str) -> Result<Self, PipelineError> {
        let mut options = Self::default();
        for item in body.split_whitespace() {
            let (k, v) =
                item.split_once('=').ok_or_else(|| PipelineError::OptionNotKeyValue { item: item.to_owned() })?;
            let flag = || match v {
                "1" | "true" => Ok(true),
                "0" | "false" => Ok(false),
                _ => Err(PipelineError::Flag { option: k.to_owned(), value: v.to_owned() }),
            };
            match k {
                "opt-level" => {
                    options.opt_level = v
                        .parse()
                        .ok()
                        .filter(|l| *l <= 3)
                        .ok_or_else(|| PipelineError::OptLevel { value: v.to_owned() })?
                }
                "fast-math" => options.fast_math = flag()?,
                "fmad" => options.fmad = flag()?,
                "boundscheck" => options.boundscheck = flag()?,
                "aggregate-atomics" | "vectorize-access" => options.optimizations.set(k, v)?,
                _ => return Err(PipelineError::UnknownHostOption { option: k.to_owned() }),
            }
        }
        Ok(options)
    }
}

/// The stages of the host pipeline.
pub const HOST_STAGES: &[&str] = &["pydev", "pydev-opt", "llvm"];

/// Appends the passes of the host pipeline up to and including `last_stage`.
pub fn add_host(pm: &PassManager, options: &HostOptions, last_stage: &str) -> Result<(), PipelineError> {
    add_host_part(pm, options, last_stage, Part::All)
}

/// Appends `part` of the host pipeline up to and including `last_stage`.
pub fn add_host_part(
    pm: &PassManager,
    options: &HostOptions,
    last_stage: &str,
    part: Part,
) -> Result<(), PipelineError> {
    let stage = HOST_STAGES.iter().position(|s| *s == last_stage).ok_or_else(|| PipelineError::UnknownHostStage {
        stage: last_stage.to_owned(),
        known: HOST_STAGES.join(", "),
    })?;
    let extra = &options.extra;
    if stage >= 1 && part.has(Part::Before) {
        extra.add(pm, "after-frontend")?;
        add_select_kernel(pm)?;
        pm.add_pass(create_pass("pydev-specialize-target{target=host}")?);
        pm.add_pass(create_pass(promote_types(options.fast_math, options.fmad))?);
        add_pipeline(pm.as_operation_pass_manager(), "canonicalize")?;
        extra.add(pm, "after-promotion")?;
        add_float8(pm)?;
        pm.add_pass(create_pass("pydev-expand-fp-class")?);
    }
    if stage >= 1 && part.has(Part::MathToFuncs) {
        add_pipeline(pm.as_operation_pass_manager(), MATH_TO_FUNCS)?;
    }
    if stage >= 1 && part.has(Part::After) {
        extra.add(pm, "before-lowering")?;
    }
    if stage >= 2 && part.has(Part::After) {
        options.optimizations.add(pm, false, options.boundscheck)?;
        let arrays = if options.boundscheck {
            "pydev-lower-arrays{target=host boundscheck=1}"
        } else {
            "pydev-lower-arrays{target=host}"
        };
        for pass in [
            "pydev-lower-simt-host",
            arrays,
            "pydev-lower-atomics{target=host}",
            "pydev-lower-aggregates",
            "pydev-check-lowered",
        ] {
            pm.add_pass(create_pass(pass)?);
        }
        // Fission needs LLVM types only (no casts to pydev types left).
        add_pipeline(pm.as_operation_pass_manager(), "reconcile-unrealized-casts")?;
        pm.add_pass(create_pass("pydev-host-barrier-fission")?);
        add_pipeline(pm.as_operation_pass_manager(), "convert-complex-to-standard,arith-expand,convert-scf-to-cf")?;
        // Before convert-math-to-llvm, which lowers expm1 and log1p inexactly.
        pm.add_pass(create_pass("pydev-lower-math-libm")?);
        add_pipeline(
            pm.as_operation_pass_manager(),
            "convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,reconcile-unrealized-casts",
        )?;
        extra.add(pm, "llvm")?;
    }
    Ok(())
}

/// pydev-promote-types with the float flags of `fast_math` and `fmad`.
fn promote_types(fast_math: bool, fmad: bool) -> &'static str {
    match (fast_math, fmad) {
        (true, true) => "pydev-promote-types{fastmath=fast}",
        (true, false) => "pydev-promote-types{fastmath=fast contract=0}",
        (false, true) => "pydev-promote-types",
        (false, false) => "pydev-promote-types{contract=0}",
    }
}

/// Device functions internal, then what no kernel reaches dropped.
fn add_select_kernel(pm: &PassManager) -> Result<(), PipelineError> {
    pm.add_pass(create_pass("pydev-select-kernel")?);
    add_pipeline(pm.as_operation_pass_manager(), "symbol-dce")?;
    Ok(())
}

/// float8 arithmetic in f32 (upstream), then float8 values as their bits.
fn add_float8(pm: &PassManager) -> Result<(), PipelineError> {
    add_pipeline(
        pm.as_operation_pass_manager(),
        "arith-emulate-unsupported-floats{source-types=f8E4M3FN,f8E5M2 target-type=f32}",
    )?;
    pm.add_pass(create_pass("pydev-lower-float8")?);
    Ok(())
}

/// The points of both pipelines where extra passes run (`passes=`), in
/// pipeline order: before the pipeline's first pass (the frontend's IR),
/// after type promotion, at the end of the `pydev-opt` stage (before the
/// lowering), at the end of the `llvm` stage (LLVM dialect), and on the
/// LLVM IR (LLVM's new-pass-manager pipeline text, run before
/// `default<O{n}>`).
pub const POINTS: &[&str] = &["after-frontend", "after-promotion", "before-lowering", "llvm", "llvm-ir"];

/// Extra passes at the pipelines' points, and the pass plugins that
/// provide passes they name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtraPasses {
    /// `(point, pipeline)`, in [`POINTS`] order, none empty.
    points: Vec<(String, String)>,
    /// Paths of pass plugins, in the order given.
    pub plugins: Vec<String>,
}

impl ExtraPasses {
    /// From `(point, pipeline)` pairs (any order; empty pipelines dropped)
    /// and plugin paths. Checks the points, loads the plugins, and checks
    /// every MLIR point's pipeline by building it (an unknown pass is an
    /// error naming it and its point); the `llvm-ir` text is checked by LLVM
    /// when it runs.
    pub fn new(points: Vec<(String, String)>, plugins: Vec<String>) -> Result<Self, PipelineError> {
        let mut sorted = Vec::new();
        for (point, pipeline) in points {
            let Some(rank) = POINTS.iter().position(|p| *p == point) else {
                return Err(PipelineError::UnknownPoint { point, known: POINTS.join(", ") });
            };
            let pipeline = pipeline.trim().to_owned();
            if !pipeline.is_empty() {
                sorted.push((rank, point, pipeline));
            }
        }
        sorted.sort_by_key(|(rank, ..)| *rank);
        let extra = Self { points: sorted.into_iter().map(|(_, p, t)| (p, t)).collect(), plugins };
        for plugin in &extra.plugins {
            crate::plugin::load(plugin)?;
        }
        Ok(extra)
    }

    /// Parses `point=pipeline;point=pipeline` (the form of [`Self::text`]
    /// and of `PYDEV_PASSES`), with plugin paths.
    pub fn parse(passes: &str, plugins: Vec<String>) -> Result<Self, PipelineError> {
        let mut points = Vec::new();
        for item in passes.split(';').map(str::trim).filter(|i| !i.is_empty()) {
            let (point, pipeline) =
                item.split_once('=').ok_or_else(|| PipelineError::OptionNotKeyValue { item: item.to_owned() })?;
            points.push((point.trim().to_owned(), pipeline.to_owned()));
        }
        Self::new(points, plugins)
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty() && self.plugins.is_empty()
    }

    /// Whether some point before the lowering has passes.
    pub fn has_mlir_passes(&self) -> bool {
        self.points.iter().any(|(p, _)| p != "llvm" && p != "llvm-ir")
    }

    /// The pipeline text at `point`, if any.
    pub fn at(&self, point: &str) -> Option<&str> {
        self.points.iter().find(|(p, _)| p == point).map(|(_, t)| t.as_str())
    }

    /// `point=pipeline;...` (the form [`Self::parse`] reads).
    pub fn text(&self) -> String {
        self.points.iter().map(|(p, t)| format!("{p}={t}")).collect::<Vec<_>>().join(";")
    }

    /// Checks every MLIR point's pipeline by building it in a pass manager
    /// of `context` (an unknown pass is an error naming it and its point).
    pub fn check(&self, context: &melior::Context) -> Result<(), PipelineError> {
        for (point, _) in &self.points {
            if point != "llvm-ir" {
                self.add(&PassManager::new(context), point)?;
            }
        }
        Ok(())
    }

    /// Appends the passes at `point`: runs of a plugin's passes become one
    /// [`crate::plugin::plugin_pass`] each, the rest (pydev's and upstream
    /// passes, by name) are parsed by MLIR's textual pipeline parser.
    pub fn add(&self, pm: &PassManager, point: &str) -> Result<(), PipelineError> {
        let Some(text) = self.at(point) else { return Ok(()) };
        let plugins: Vec<_> = self.plugins.iter().map(|p| crate::plugin::load(p)).collect::<Result<Vec<_>, _>>()?;
        crate::plugin::add_passes(pm, text, &plugins)
            .map_err(|message| PipelineError::ExtraPasses { point: point.to_owned(), message })
    }
}

/// The top-level elements of a textual pipeline (`a,b{x=1,y},func.func(c,d)`
/// has three), commas inside `{}` and `()` kept.
pub(crate) fn split_top_level(text: &str) -> Vec<String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim().to_owned());
    out.retain(|e| !e.is_empty());
    out
}

/// The optional optimizations of both pipelines (`aggregate-atomics=1`,
/// `vectorize-access=1`; off by default: docs/performance.md says why).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Optimizations {
    /// pydev-aggregate-atomics.
    pub aggregate_atomics: bool,
    /// pydev-vectorize-access.
    pub vectorize_access: bool,
}

impl Optimizations {
    fn set(&mut self, option: &str, value: &str) -> Result<(), PipelineError> {
        let on = match value {
            "1" | "true" => true,
            "0" | "false" => false,
            _ => return Err(PipelineError::Flag { option: option.to_owned(), value: value.to_owned() }),
        };
        match option {
            "aggregate-atomics" => self.aggregate_atomics = on,
            _ => self.vectorize_access = on,
        }
        Ok(())
    }

    /// Appends the passes that are on, on pydev IR before its lowering
    /// (`cuda`: with convert-scf-to-cf after them); vectorize-access not
    /// with `boundscheck`.
    fn add(self, pm: &PassManager, cuda: bool, boundscheck: bool) -> Result<(), PipelineError> {
        if self.aggregate_atomics {
            pm.add_pass(create_pass("pydev-aggregate-atomics")?);
        }
        // Its vector accesses are not checked element by element.
        let vectorize = self.vectorize_access && !boundscheck;
        if vectorize {
            let target = if cuda { "cuda" } else { "host" };
            pm.add_pass(create_pass(&format!("pydev-vectorize-access{{target={target}}}"))?);
        }
        // Their scf.if: the host lowers scf later; the cuda stage does not.
        if cuda && (self.aggregate_atomics || vectorize) {
            add_pipeline(pm.as_operation_pass_manager(), "convert-scf-to-cf")?;
        }
        Ok(())
    }
}
