//! Links libstdc++ statically into the extension module (Linux, GNU).
//!
//! mlir-sys asks for `-lstdc++`; against the shared library every C++
//! type-info of the linked LLVM/MLIR code is a symbol relocation that the
//! dynamic loader resolves at each `import pydev` (7,140 of them, about
//! 1.3 ms of a 6.5-7 ms `dlopen`: docs/performance.md). A linker script
//! named `libstdc++.so` in a directory searched before the compiler's own
//! makes every `-lstdc++` of the link read the static archive instead, so
//! the whole library takes one copy, whose symbols the version script of
//! the cdylib keeps hidden (no clash with another library's libstdc++).
use std::{env, fs, path::PathBuf, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PYDEV_SHARED_LIBSTDCXX");
    let gnu_linux = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if !gnu_linux || env::var("PYDEV_SHARED_LIBSTDCXX").as_deref() == Ok("1") {
        return;
    }
    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    let archive = Command::new(&cc)
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let Some(archive) = archive.filter(|p| PathBuf::from(p).is_absolute() && PathBuf::from(p).exists()) else {
        println!(
            "cargo:warning=libstdc++.a not found ({cc} -print-file-name): the extension links libstdc++ dynamically"
        );
        return;
    };
    let dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("static-libstdcxx");
    fs::create_dir_all(&dir).expect("create the linker-script directory");
    fs::write(
        dir.join("libstdc++.so"),
        format!("/* pydev: link libstdc++ statically (python/build.rs) */\nINPUT({archive})\n"),
    )
    .expect("write the linker script");
    println!("cargo:rustc-link-search=native={}", dir.display());
}
