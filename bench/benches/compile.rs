//! Compile time per typical kernel with a warm compiler context (as the JIT
//! keeps one): Python source to verified pydev IR (the frontend), and the
//! whole cuda pipeline, Python source to PTX text.
//! Run: `cargo bench -p pydev-bench`; the first-compile figure in a fresh
//! process comes from `bench/first_compile.sh`.

use criterion::{criterion_group, criterion_main, Criterion};
use pydev_bench::{compile_ptx, KERNELS};

fn compile(c: &mut Criterion) {
    pydev_passes::register_upstream_passes();
    let context = pydev_dialect::new_context();
    let mut group = c.benchmark_group("python-to-pydev");
    group.sample_size(50);
    for (kernel, signature) in KERNELS {
        group.bench_function(*kernel, |b| {
            b.iter(|| {
                pydev_frontend_python::compile(&context, "kernels.py", pydev_bench::SOURCE, kernel, signature)
                    .expect("compiles")
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("python-to-ptx");
    group.sample_size(30);
    for (kernel, signature) in KERNELS {
        group.bench_function(*kernel, |b| b.iter(|| compile_ptx(&context, kernel, signature)));
    }
    group.finish();
}

criterion_group!(benches, compile);
criterion_main!(benches);
