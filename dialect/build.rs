//! Generates the dialect's C++ from `pydev.td` with mlir-tblgen and compiles
//! it, with the C API in `cpp/CAPI.cpp`, into a static library that the Rust
//! crate links (see docs/ARCHITECTURE.md, "Why a C++ registration library").

use std::{env, path::PathBuf, process::Command};

fn llvm_prefix() -> PathBuf {
    PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()))
}

fn main() {
    let prefix = llvm_prefix();
    let include = prefix.join("include");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let tblgen = prefix.join("bin/mlir-tblgen");
    for path in ["pydev.td", "cpp/PydevDialect.h", "cpp/PydevDialect.cpp", "cpp/CAPI.cpp", "cpp/PipelineRegistry.cpp"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let generated = [
        ("-gen-dialect-decls", "PydevDialect.h.inc"),
        ("-gen-dialect-defs", "PydevDialect.cpp.inc"),
        ("-gen-enum-decls", "PydevEnums.h.inc"),
        ("-gen-enum-defs", "PydevEnums.cpp.inc"),
        ("-gen-attrdef-decls", "PydevAttrs.h.inc"),
        ("-gen-attrdef-defs", "PydevAttrs.cpp.inc"),
        ("-gen-typedef-decls", "PydevTypes.h.inc"),
        ("-gen-typedef-defs", "PydevTypes.cpp.inc"),
        ("-gen-op-decls", "PydevOps.h.inc"),
        ("-gen-op-defs", "PydevOps.cpp.inc"),
        ("-gen-dialect-doc", "dialect.md"),
    ];
    for (generator, file) in generated {
        let status = Command::new(&tblgen)
            .arg(generator)
            .arg(format!("-I{}", include.display()))
            .arg("pydev.td")
            .arg("-o")
            .arg(out.join(file))
            .status()
            .unwrap_or_else(|e| panic!("cannot run {}: {e} (run `make setup`)", tblgen.display()));
        assert!(status.success(), "mlir-tblgen {generator} failed on dialect/pydev.td");
    }

    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .include(&out)
        .include("cpp")
        .include(&include)
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-comment")
        .debug(false)
        .opt_level(1)
        .files(["cpp/PydevDialect.cpp", "cpp/CAPI.cpp", "cpp/PipelineRegistry.cpp"])
        .compile("pydev_dialect_cpp");
}
