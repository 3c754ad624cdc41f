//! Links the plugin against the shared libMLIR.so and libLLVM.so that
//! Debian's mlir-opt-22 is linked to (the pass registry entries, which the
//! C API cannot make, are pydev-dialect's C++: dialect/cpp/PipelineRegistry.cpp).
//!
//! Why the order matters: mlir-sys links MLIR statically (its rlib bundles
//! every libMLIR*.a). A plugin with its own copy of MLIR would have its own
//! TypeIDs, dialect and pass registries and command-line options, and fail
//! as soon as mlir-opt loads it. The native libraries named here come on the
//! link line before the upstream rlibs, so every MLIR and LLVM symbol that
//! libMLIR.so / libLLVM.so export is bound to them, and only what they do not
//! export, the C API (Debian ships no libMLIR-C.so), is taken from the static
//! archives: a few hundred KB of thin wrappers over the shared library.

use std::{env, path::PathBuf};

fn main() {
    let prefix = PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()));
    let lib = prefix.join("lib");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    // Found at run time without LD_LIBRARY_PATH (mlir-opt-22 has it loaded
    // already; other hosts, e.g. pydev's own tools, may not), by the cdylib
    // and by the harness `cargo test --lib` builds of it (cargo 1.95 puts
    // no search path outside the target directory on LD_LIBRARY_PATH).
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
}
