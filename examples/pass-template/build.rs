//! Links the plugin against the shared libMLIR.so and libLLVM.so of LLVM 22
//! (those upstream mlir-opt-22 uses) rather than a static copy of MLIR:
//! mlir-opt then shares its registries with the plugin, and pydev's own
//! tools and JIT, which link MLIR statically, run its passes in this
//! library's MLIR (pydev_passes::plugin). Named before the upstream rlibs on
//! the link line, these bind every MLIR and LLVM symbol they export; only
//! the C API (Debian ships no libMLIR-C.so) comes from the static archives.

use std::{env, path::PathBuf};

fn main() {
    let prefix = PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()));
    let lib = prefix.join("lib");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    // Every target: the cdylib, and the harness `cargo test --lib` builds of
    // it (cargo puts no search path outside the target directory on
    // LD_LIBRARY_PATH).
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
}
