//! `libpydev_plugin.so`: the pydev dialect and every pydev pass for
//! upstream MLIR tools.
//!
//! ```text
//! mlir-opt-22 --load-dialect-plugin=$(pydev-opt --print-plugin-path) \
//!             --load-pass-plugin=$(pydev-opt --print-plugin-path) \
//!             --pass-pipeline='builtin.module(pydev-lower-atomics)' in.mlir
//! ```
//!
//! The library links the shared libMLIR.so of Debian's LLVM 22, as
//! mlir-opt-22 does (build.rs says why and how). It is a pass plugin with
//! no passes of its own: `pydev_passes::export_plugin!` makes the entry
//! points, which register the pydev dialect and every pydev pass by name,
//! as for any plugin built outside pydev (examples/pass-template).

pydev_passes::export_plugin!("pydev", []);
