//! The `pydev` MLIR dialect.
//!
//! The dialect is defined once, in `dialect/pydev.td` (ODS). `build.rs` turns
//! it into a small C++ library (types with verifiers and custom syntax, enum
//! attributes, ops with traits, verifiers and folders) that this crate links;
//! [`register`] loads it into a melior [`Context`]. The Rust side adds typed
//! constructors and accessors for pydev types and attributes, for the passes,
//! and [`ops`], the typed op API generated from the same ODS file.
//!
//! The reference page of every op is `docs/dialect.md`, generated from the
//! same ODS file (`make docs`).

pub mod abi;
pub mod ops;
mod capi;
pub mod types;

pub use capi::{enum_value, field_offset, storage_layout, target_parts, type_layout};
pub use melior;

use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_llvm_translations},
    Context,
};

/// Registers and loads the pydev dialect in `context`.
pub fn register(context: &Context) {
    let handle = capi::dialect_handle();
    handle.register_dialect(context);
    handle.load_dialect(context);
}

/// A context with every upstream dialect, the LLVM translations (for PTX and
/// host code) and pydev loaded: what pydev-opt, pydevc and the JIT use.
pub fn new_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    capi::dialect_handle().insert_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_llvm_translations(&context);
    register(&context);
    context
}

/// A context with only what the `cuda` and `host` pipelines use (the
/// compile driver and the wheel: docs/ARCHITECTURE.md, "Invariants"); pydev-opt, which must
/// read any upstream IR, uses [`new_context`].
pub fn new_pipeline_context() -> Context {
    let registry = DialectRegistry::new();
    capi::register_pipeline_dialects(&registry);
    capi::dialect_handle().insert_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register(&context);
    context
}

macro_rules! pydev_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $value:literal => $text:literal),* $(,)? }) => {
        $(#[$doc])*
        /// Values and spellings are those of `pydev.td` (a test checks them).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant = $value),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            pub fn from_value(value: i64) -> Option<Self> {
                match value { $($value => Some(Self::$variant),)* _ => None }
            }

            /// The spelling in pydev IR and in Python (`"acq_rel"`, `"device"`...).
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),* }
            }

            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some(Self::$variant),)* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pydev_enum!(
    /// A memory order (spec: Memory Orderings).
    MemoryOrder { Relaxed = 0 => "relaxed", Consume = 1 => "consume", Acquire = 2 => "acquire",
        Release = 3 => "release", AcqRel = 4 => "acq_rel", SeqCst = 5 => "seq_cst" }
);
pydev_enum!(
    /// A thread scope (spec: Thread Scopes).
    Scope { System = 0 => "system", Device = 1 => "device", Block = 2 => "block",
        Thread = 3 => "thread" }
);
pydev_enum!(
    /// The operation of `pydev.atomic_rmw`.
    AtomicRmwKind { Add = 0 => "add", Sub = 1 => "sub", And = 2 => "and", Or = 3 => "or",
        Xor = 4 => "xor", Max = 5 => "max", Min = 6 => "min", NanMax = 7 => "nanmax",
        NanMin = 8 => "nanmin", Exch = 9 => "exch" }
);
pydev_enum!(
    /// The predicate of `pydev.cmp`.
    CmpPredicate { Eq = 0 => "eq", Ne = 1 => "ne", Lt = 2 => "lt", Le = 3 => "le",
        Gt = 4 => "gt", Ge = 5 => "ge" }
);
pydev_enum!(
    /// The kind of `pydev.vote`.
    VoteKind { All = 0 => "all", Any = 1 => "any", Eq = 2 => "eq", Ballot = 3 => "ballot" }
);
pydev_enum!(
    /// The kind of `pydev.shfl`.
    ShuffleKind { Idx = 0 => "idx", Up = 1 => "up", Down = 2 => "down", Xor = 3 => "xor" }
);
pydev_enum!(
    /// Where an array or atomic lives.
    MemorySpace { Global = 0 => "global", Shared = 1 => "shared", Local = 2 => "local" }
);
pydev_enum!(
    /// What is known of an array's strides.
    Layout { Strided = 0 => "strided", C = 1 => "c", F = 2 => "f" }
);
pydev_enum!(
    /// A node of a target description (`#pydev.target<...>`).
    TargetKind { IsHost = 0 => "is_host", IsDevice = 1 => "is_device",
        IsExactly = 2 => "is_exactly", Provides = 3 => "provides", And = 4 => "and",
        Or = 5 => "or", Not = 6 => "not", AnyTarget = 7 => "any_target",
        NoTarget = 8 => "no_target" }
);

impl TargetKind {
    /// Whether a node holds for the compile target (`None`: the host, else
    /// the SM number), given the truth of its operands: the one meaning of a
    /// target description, shared by `pydev-specialize-target` and the
    /// frontend (which folds `if target(...)` while lowering).
    pub fn holds(self, arch: u32, operands: impl IntoIterator<Item = bool>, sm: Option<u32>) -> bool {
        let mut operands = operands.into_iter();
        match self {
            TargetKind::IsHost => sm.is_none(),
            TargetKind::IsDevice => sm.is_some(),
            TargetKind::IsExactly => sm == Some(arch),
            TargetKind::Provides => sm.is_some_and(|s| s >= arch),
            TargetKind::AnyTarget => true,
            TargetKind::NoTarget => false,
            TargetKind::Not => !operands.next().unwrap_or(false),
            TargetKind::And => operands.all(|b| b),
            TargetKind::Or => operands.any(|b| b),
        }
    }
}

/// The CUDA architectures of `smXX` selectors, in capability order.
pub const SM_ARCHS: &[u32] = &[
    50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121,
];

#[cfg(test)]
mod tests;
