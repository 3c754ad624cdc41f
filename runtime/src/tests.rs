//! Kernels run on the host target from Rust, against results computed
//! here, with fixed-seed random inputs and poisoned outputs.

use crate::{
    compile::CompileError, compile::Source, compile_host, host::HostError, CompileOptions, HostProgram, LaunchConfig,
};
use pydev_frontend_python::FreeNames;

const KERNELS: &str = include_str!("../../test/gpu/kernels.py");

fn program(source: &str, kernel: &str, signature: &str, options: &CompileOptions) -> Result<HostProgram, CompileError> {
    let free = FreeNames::new();
    compile_host(
        &Source { file_name: "kernels.py", text: source, function: kernel, signature, free: &free, program: None },
        options,
    )
}

fn build(kernel: &str, signature: &str) -> HostProgram {
    program(KERNELS, kernel, signature, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// xorshift64*: fresh, reproducible inputs without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn f32(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

/// The ABI descriptor of a C-contiguous array.
fn array<T>(data: &mut [T], shape: &[u64]) -> Vec<u8> {
    let mut v = (data.as_mut_ptr() as u64).to_le_bytes().to_vec();
    for s in shape {
        v.extend(s.to_le_bytes());
    }
    for k in 0..shape.len() {
        let stride: u64 = shape[k + 1..].iter().product();
        v.extend(stride.to_le_bytes());
    }
    v
}

fn launch(p: &HostProgram, grid: u32, block: u32, args: &[Vec<u8>]) -> Result<(), HostError> {
    let refs: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
    // SAFETY: the tests' descriptors come from `array` over vectors that
    // outlive the launch.
    unsafe { p.launch(LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], shared: 0 }, &refs) }
}

#[test]
fn saxpy_grid_stride() {
    let p = build("saxpy", "float32, float32[::1], float32[::1], float32[::1]");
    assert_eq!(p.mode(), "loop", "no barrier: one loop over a block's threads");
    let mut rng = Rng(7);
    let n = 10_000;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut y: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![f32::NAN; n];
    let a = 1.5f32;
    let args = [
        a.to_le_bytes().to_vec(),
        array(&mut x, &[n as u64]),
        array(&mut y, &[n as u64]),
        array(&mut out, &[n as u64]),
    ];
    launch(&p, 7, 128, &args).unwrap();
    // Like CUDA (and pydev on the GPU), `a * x + y` may contract to one fma.
    for i in 0..n {
        assert!(out[i] == a.mul_add(x[i], y[i]) || out[i] == a * x[i] + y[i], "element {i}: {}", out[i]);
    }
}

#[test]
fn block_sum_with_shared_memory_and_barriers() {
    let p = build("block_sum", "float32[::1], readonly float32[::1]");
    assert_eq!(p.mode(), "barrier loops");
    let mut rng = Rng(11);
    let n: usize = 1000;
    let blocks = n.div_ceil(256);
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![f32::NAN; blocks];
    let args = [array(&mut out, &[blocks as u64]), array(&mut x, &[n as u64])];
    launch(&p, blocks as u32, 256, &args).unwrap();
    for b in 0..blocks {
        let expected: f32 = x[b * 256..((b + 1) * 256).min(n)].iter().sum();
        assert!((out[b] - expected).abs() < 1e-4, "block {b}: {} vs {expected}", out[b]);
    }
}

#[test]
fn warp_shuffle_reduction_and_atomics() {
    let p = build("warp_sum", "float32[::1], readonly float32[::1]");
    assert_eq!(p.mode(), "barrier loops");
    let mut rng = Rng(3);
    let n = 1000;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![0f32; 1];
    let args = [array(&mut out, &[1]), array(&mut x, &[n as u64])];
    launch(&p, 4, 256, &args).unwrap();
    let expected: f32 = x.iter().sum();
    assert!((out[0] - expected).abs() < 1e-3, "{} vs {expected}", out[0]);
}

#[test]
fn atomic_histogram() {
    let p = build("histogram", "uint32[::1], readonly int32[::1]");
    let mut rng = Rng(5);
    let n = 5000;
    let mut data: Vec<i32> = (0..n).map(|_| (rng.next() % 1000) as i32).collect();
    let mut bins = vec![0u32; 16];
    let args = [array(&mut bins, &[16]), array(&mut data, &[n as u64])];
    launch(&p, (n as u32).div_ceil(128), 128, &args).unwrap();
    let mut expected = [0u32; 16];
    for d in &data {
        expected[(*d % 16) as usize] += 1;
    }
    assert_eq!(bins, expected);
}

#[test]
fn votes_and_syncthreads_count() {
    let p = build("block_votes", "int32[::1], int32[::1], readonly float32[::1]");
    let mut rng = Rng(13);
    let n = 512;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut counts = vec![-1i32; 2];
    let mut ballots = vec![-1i32; n / 32];
    let args = [array(&mut counts, &[2]), array(&mut ballots, &[(n / 32) as u64]), array(&mut x, &[n as u64])];
    launch(&p, 2, 256, &args).unwrap();
    for b in 0..2 {
        assert_eq!(counts[b], x[b * 256..(b + 1) * 256].iter().filter(|v| **v > 0.0).count() as i32);
    }
    for w in 0..n / 32 {
        assert_eq!(ballots[w], x[w * 32..(w + 1) * 32].iter().filter(|v| **v > 0.0).count() as i32);
    }
}

const FAILING: &str = r#"
import cuda.device as device

@device.kernel
def divide(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] // b[i]

@device.kernel
def early_exit(out):
    i = device.tid(1)
    if i >= 100:
        return
    device.syncthreads()
    out[i] = 1

@device.kernel
def early_exit_warp(out):
    i = device.tid(1)
    if i >= 100:
        return
    v = device.shfl_sync(device.activemask(), i, 0)
    device.syncthreads()
    out[i] = v

@device.kernel
def early_exit_wait(out, flag):
    i = device.tid(1)
    if i >= 100:
        return
    device.atomic_ref(flag, 0).wait(1)
    device.syncthreads()
    out[i] = 1

@device.kernel
def overrun(out):
    i = device.tid(1)
    out[i] = 1

@device.kernel
def wild(out):
    i = device.tid(1)
    out[i * 100000000] = 1

@device.kernel
def wild_synced(out):
    i = device.tid(1)
    device.syncthreads()
    out[i * 100000000] = 1
"#;

#[test]
fn integer_division_by_zero_is_reported() {
    let p = program(FAILING, "divide", "int32[::1], int32[::1], int32[::1]", &CompileOptions::default()).unwrap();
    let (mut out, mut a, mut b) = (vec![0i32; 64], vec![7i32; 64], vec![1i32; 64]);
    b[37] = 0;
    let args = [array(&mut out, &[64]), array(&mut a, &[64]), array(&mut b, &[64])];
    let e = launch(&p, 1, 64, &args).unwrap_err().to_string();
    assert!(e.contains("kernel 'divide' failed on the host: integer division by zero at kernels.py:8:18"), "{e}");
    assert!(e.contains("thread (37, 0, 0)"), "{e}");
}

#[test]
fn a_barrier_not_reached_by_every_thread_is_a_deadlock_error() {
    let p = program(FAILING, "early_exit", "int32[::1]", &CompileOptions::default()).unwrap();
    let mut out = vec![0i32; 128];
    let e = launch(&p, 1, 128, &[array(&mut out, &[128])]).unwrap_err().to_string();
    assert!(e.contains("deadlock: the threads of block (0, 0, 0) did not all reach the same syncthreads (some returned, some waited at barrier 1)"), "{e}");
}

/// Synchronization patterns valid on a GPU (issue 35): warp 0 reduces with
/// shuffles while the other warps wait at the block barrier; the same with
/// the barrier in a device function (coroutines).
const SYNC_PATTERNS: &str = r#"
import cuda.device as device

@device.func
def block_sync():
    device.syncthreads()

@device.kernel
def warp0_then_barrier(x):
    t = device.thread_idx.x
    if t < 32:
        x[t] += device.shfl_down_sync(device.activemask(), x[t], 1)
    device.syncthreads()
    x[t] += 1

@device.kernel
def warp0_then_barrier_fibers(x):
    t = device.thread_idx.x
    if t < 32:
        x[t] += device.shfl_down_sync(device.activemask(), x[t], 1)
    block_sync()
    x[t] += 1

@device.kernel
def exit_then_count(out, flag):
    i = device.tid(1)
    if i >= 100:
        return
    device.atomic_ref(flag, 0).wait(1)
    c = device.syncthreads_count(lambda: i % 3 == 0)
    a = device.syncthreads_and(lambda: i < 100)
    out[i] = c * 10 + (1 if a else 0)

@device.kernel
def exit_then_count_split(out, flag):
    i = device.tid(1)
    if i >= 100:
        return
    c = device.syncthreads_count(lambda: i % 3 == 0)
    a = device.syncthreads_and(lambda: i < 100)
    out[i] = c * 10 + (1 if a else 0) + flag[0]
"#;

#[test]
fn warp_operations_of_some_warps_then_a_barrier_run_as_on_a_gpu() {
    for (kernel, mode) in [("warp0_then_barrier", "barrier loops"), ("warp0_then_barrier_fibers", "coroutines")] {
        let p = program(SYNC_PATTERNS, kernel, "int32[::1]", &CompileOptions::default()).unwrap();
        assert_eq!(p.mode(), mode, "{kernel}");
        let mut rng = Rng(35);
        let x0: Vec<i32> = (0..64).map(|_| (rng.next() % 1000) as i32).collect();
        let mut x = x0.clone();
        launch(&p, 1, 64, &[array(&mut x, &[64])]).unwrap_or_else(|e| panic!("{kernel}: {e}"));
        for t in 0..64 {
            let shuffled = if t < 31 { x0[t + 1] } else { x0[t] };
            let want = if t < 32 { x0[t] + shuffled + 1 } else { x0[t] + 1 };
            assert_eq!(x[t], want, "{kernel}: thread {t}");
        }
    }
}

#[test]
fn threads_that_returned_skip_barriers_in_kernels_marked_so() {
    // The pydev IR of a kernel with `pydev.exited_skip_barriers` (as
    // pydev.numba writes it): the 28 threads that return do not hold up the
    // barriers, and syncthreads_count/and count the 100 that reach them.
    use crate::compile::{compile_ir_stage, compile_stage, host_program_from_text, Target};
    let free = FreeNames::new();
    for (kernel, mode) in [("exit_then_count", "coroutines"), ("exit_then_count_split", "barrier loops")] {
        let src = Source {
            file_name: "kernels.py",
            text: SYNC_PATTERNS,
            function: kernel,
            signature: "int32[::1], int32[::1]",
            free: &free,
            program: None,
        };
        let options = CompileOptions::default();
        let ir = compile_stage(&src, &Target::Host, "pydev", &options).expect("pydev stage");
        assert!(ir.contains("attributes {pydev.kernel}"), "{ir}");
        let marked = ir.replace("attributes {pydev.kernel}", "attributes {pydev.kernel, pydev.exited_skip_barriers}");
        for (text, skips) in [(ir, false), (marked, true)] {
            let llvm = compile_ir_stage(&text, "kernels.py", kernel, &Target::Host, "llvm", &options, &[])
                .unwrap_or_else(|e| panic!("{e}"));
            let p = host_program_from_text(&llvm, kernel, options.opt_level).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.mode(), mode, "{kernel}");
            let (mut out, mut flag) = (vec![-1i32; 128], vec![0i32; 1]);
            let result = launch(&p, 1, 128, &[array(&mut out, &[128]), array(&mut flag, &[1])]);
            if !skips {
                let e = result.unwrap_err().to_string();
                assert!(e.contains("deadlock") && e.contains("every thread of a block must reach each barrier"), "{e}");
                continue;
            }
            result.unwrap_or_else(|e| panic!("{kernel}: {e}"));
            let count = (0..100).filter(|i| i % 3 == 0).count() as i32;
            for (i, v) in out.iter().enumerate() {
                assert_eq!(*v, if i < 100 { count * 10 + 1 } else { -1 }, "{kernel}: thread {i}");
            }
        }
    }
}

#[test]
fn a_deadlock_among_coroutine_threads_is_an_error() {
    let p = program(FAILING, "early_exit_wait", "int32[::1], int32[::1]", &CompileOptions::default()).unwrap();
    assert_eq!(p.mode(), "coroutines");
    let (mut out, mut flag) = (vec![0i32; 128], vec![0i32; 1]);
    let e = launch(&p, 1, 128, &[array(&mut out, &[128]), array(&mut flag, &[1])]).unwrap_err().to_string();
    assert!(
        e.contains("deadlock: syncthreads was reached by 100 of the block's 128 threads; the other 28 exited"),
        "{e}"
    );
}

#[test]
fn exited_lanes_sit_out_warp_operations_but_not_barriers() {
    // Lanes 100.. exit; the others shuffle without them (as on a GPU), then
    // wait at a barrier the exited threads never reach: a deadlock.
    let p = program(FAILING, "early_exit_warp", "int32[::1]", &CompileOptions::default()).unwrap();
    assert_eq!(p.mode(), "barrier loops");
    let mut out = vec![0i32; 128];
    let e = launch(&p, 1, 128, &[array(&mut out, &[128])]).unwrap_err().to_string();
    assert!(e.contains("(some returned, some waited at barrier 3)"), "{e}");
}

#[test]
fn bounds_checks_name_the_line() {
    let options = CompileOptions { boundscheck: true, ..CompileOptions::default() };
    let p = program(FAILING, "overrun", "int32[::1]", &options).unwrap();
    let mut out = vec![0i32; 100];
    let e = launch(&p, 1, 128, &[array(&mut out, &[100])]).unwrap_err().to_string();
    assert!(
        e.contains("index 100 is out of bounds for an axis of extent 100 at kernels.py:39:5 (thread (100, 0, 0)"),
        "{e}"
    );
}

#[test]
fn launch_arguments_are_checked() {
    let p = build("saxpy", "float32, float32[::1], float32[::1], float32[::1]");
    let e = launch(&p, 1, 32, &[vec![0; 4]]).unwrap_err().to_string();
    assert_eq!(e, "kernel 'saxpy' takes 4 arguments, got 1");
    let e = launch(&p, 1, 2048, &[vec![0; 4], vec![0; 24], vec![0; 24], vec![0; 24]]).unwrap_err().to_string();
    assert!(e.contains("at most 1024 threads"), "{e}");
}

#[test]
fn launch_bounds_refuse_larger_blocks() {
    // A kernel with `nvvm.maxntid` (pydev.numba's launch_bounds): a block of
    // more threads than the bound is refused, as the CUDA driver refuses it;
    // one within runs. A bound above 1024 still allows only 1024.
    use crate::compile::{compile_ir_stage, compile_stage, host_program_from_text, Target};
    let free = FreeNames::new();
    let signature = "float32, float32[::1], float32[::1], float32[::1]";
    let src =
        Source { file_name: "kernels.py", text: KERNELS, function: "saxpy", signature, free: &free, program: None };
    let options = CompileOptions::default();
    let ir = compile_stage(&src, &Target::Host, "pydev", &options).expect("pydev stage");
    assert!(ir.contains("attributes {pydev.kernel}"), "{ir}");
    let bounded = |bound: &str| {
        let text =
            ir.replace("attributes {pydev.kernel}", &format!("attributes {{pydev.kernel, nvvm.maxntid = {bound}}}"));
        let llvm = compile_ir_stage(&text, "kernels.py", "saxpy", &Target::Host, "llvm", &options, &[])
            .unwrap_or_else(|e| panic!("{e}"));
        host_program_from_text(&llvm, "saxpy", options.opt_level).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut rng = Rng(23);
    let n = 1000;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut y: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![f32::NAN; n];
    let a = 0.75f32;
    let args = [
        a.to_le_bytes().to_vec(),
        array(&mut x, &[n as u64]),
        array(&mut y, &[n as u64]),
        array(&mut out, &[n as u64]),
    ];
    let p = bounded("array<i32: 16, 4>");
    let e = launch(&p, 8, 65, &args).unwrap_err().to_string();
    assert_eq!(
        e,
        "kernel 'saxpy': launch bounds allow at most 64 threads per block, got a block of 65 threads [65, 1, 1] \
         (CUDA refuses such a launch: CUDA_ERROR_INVALID_VALUE)"
    );
    assert!(out.iter().all(|v| v.is_nan()), "a refused launch runs nothing");
    launch(&p, 16, 64, &args).unwrap();
    for i in 0..n {
        assert!(out[i] == a.mul_add(x[i], y[i]) || out[i] == a * x[i] + y[i], "element {i}: {}", out[i]);
    }
    let e = launch(&bounded("array<i32: 2048, 1, 1>"), 1, 1500, &args).unwrap_err().to_string();
    assert!(e.contains("at most 1024 threads"), "{e}");
}

#[test]
fn memory_faults_without_bounds_checks_are_errors_not_crashes() {
    for kernel in ["wild", "wild_synced"] {
        let p = program(FAILING, kernel, "int32[::1]", &CompileOptions::default()).unwrap();
        let mut out = vec![0i32; 100];
        let e = launch(&p, 1, 32, &[array(&mut out, &[100])]).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("kernel '{kernel}' failed on the host: an invalid memory access at address 0x")),
            "{e}"
        );
        assert!(e.contains("rerun with PYDEV_BOUNDSCHECK=1") && e.contains("in thread ("), "{e}");
        // The runtime is still usable afterwards.
        let mut ok = vec![0i32; 100];
        let p = program(FAILING, "overrun", "int32[::1]", &CompileOptions::default()).unwrap();
        launch(&p, 1, 100, &[array(&mut ok, &[100])]).unwrap();
        assert!(ok.iter().all(|v| *v == 1));
    }
}

const SEMANTICS: &str = include_str!("../../test/Inputs/host_semantics.py");

fn semantics(kernel: &str, signature: &str) -> HostProgram {
    program(SEMANTICS, kernel, signature, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn three_dimensional_grids_and_blocks() {
    let p = semantics("positions_3d", "int32[:, :, ::1]");
    let (d, h, w) = (3usize, 5usize, 7usize);
    let mut out = vec![-1i32; d * h * w];
    let args = [array(&mut out, &[d as u64, h as u64, w as u64])];
    let refs: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
    // SAFETY: `out` outlives the launch.
    unsafe { p.launch(LaunchConfig { grid: [2, 2, 1], block: [4, 3, 3], shared: 0 }, &refs) }.unwrap();
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let (tx, ty, tz) = (x % 4, y % 3, z % 3);
                let lane = (tx + 4 * (ty + 3 * tz)) % 32;
                assert_eq!(out[(z * h + y) * w + x], (x + 10 * y + 100 * z + 1000 * lane) as i32, "({z}, {y}, {x})");
            }
        }
    }
}

#[test]
fn dynamic_shared_memory_has_the_launch_size() {
    let p = semantics("dyn_reverse", "float32[::1], readonly float32[::1]");
    let mut rng = Rng(17);
    let n = 3 * 64;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![f32::NAN; n];
    let args = [array(&mut out, &[n as u64]), array(&mut x, &[n as u64])];
    let refs: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
    // SAFETY: `out` and `x` outlive the launch.
    unsafe { p.launch(LaunchConfig { grid: [3, 1, 1], block: [64, 1, 1], shared: 64 * 4 }, &refs) }.unwrap();
    for (i, &o) in out.iter().enumerate() {
        let (b, t) = (i / 64, i % 64);
        assert_eq!(o, x[b * 64 + 63 - t] + 64.0, "element {i}");
    }
}

#[test]
fn warp_operations_give_cuda_results() {
    let p = semantics("warp_ops", "int32[:, ::1], readonly int32[::1]");
    let mut rng = Rng(23);
    let n = 128;
    let mut x: Vec<i32> = (0..n).map(|_| (rng.next() % 1000) as i32).collect();
    x[5] = 7;
    for v in &mut x[100..104] {
        *v += 1000; // warp 3 disagrees on v // 1000; block 1 is not all < 1000
    }
    for v in &mut x[64..] {
        if *v == 7 {
            *v = 8;
        }
    }
    let mut out = vec![i32::MIN; n * 12];
    let args = [array(&mut out, &[n as u64, 12]), array(&mut x, &[n as u64])];
    launch(&p, 2, 64, &args).unwrap();
    for i in 0..n {
        let (l, w, b) = (i % 32, i - i % 32, i - i % 64);
        let warp = &x[w..w + 32];
        let block = &x[b..b + 64];
        let row = &out[i * 12..(i + 1) * 12];
        let bits = |f: &dyn Fn(i32) -> bool| {
            warp.iter().enumerate().filter(|(_, v)| f(**v)).fold(0u32, |m, (k, _)| m | 1 << k) as i32
        };
        let all_same = warp.iter().all(|v| v / 1000 == warp[0] / 1000);
        let expected = [
            x[w + (l ^ 1)],
            if l >= 3 { x[i - 3] } else { x[i] },
            x[w + 5],
            bits(&|v| v % 3 == x[i] % 3),
            if all_same { -1 } else { 0 },
            i32::from(all_same),
            ((1u32 << l) - 1) as i32,
            i32::from(warp.iter().any(|v| *v > 900)),
            1,
            block.iter().filter(|v| *v % 2 == 0).count() as i32,
            i32::from(block.iter().all(|v| *v < 1000)),
            i32::from(block.contains(&7)),
        ];
        assert_eq!(row, expected, "thread {i}");
    }
}

#[test]
fn atomic_operations_on_the_host() {
    let p = semantics("atomics", "int32[::1], readonly int32[::1]");
    let mut rng = Rng(29);
    let n = 300;
    let mut x: Vec<i32> = (0..n).map(|_| (rng.next() % 100_000) as i32 - 50_000).collect();
    let mut out = vec![0, i32::MIN, i32::MAX, 0, -1, 0];
    let args = [array(&mut out, &[6]), array(&mut x, &[n as u64])];
    launch(&p, 5, 64, &args).unwrap();
    assert_eq!(out[0], x.iter().sum::<i32>());
    assert_eq!(out[1], *x.iter().max().unwrap());
    assert_eq!(out[2], *x.iter().min().unwrap());
    assert_eq!(out[3], x.iter().fold(0, |a, v| a ^ v));
    assert!(x.contains(&out[4]), "exch leaves one of the values");
    assert!(out[5] >= 1, "the CAS chain starts at thread 0");
}

#[test]
fn local_arrays_are_per_thread() {
    let p = semantics("local_sort", "float64[:, ::1], readonly float64[:, ::1]");
    let mut rng = Rng(31);
    let n = 96;
    let mut x: Vec<f64> = (0..n * 8).map(|_| f64::from(rng.f32())).collect();
    let mut out = vec![f64::NAN; n * 8];
    let args = [array(&mut out, &[n as u64, 8]), array(&mut x, &[n as u64, 8])];
    launch(&p, 3, 32, &args).unwrap();
    for i in 0..n {
        let mut row = x[i * 8..(i + 1) * 8].to_vec();
        row.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(&out[i * 8..(i + 1) * 8], row.as_slice(), "row {i}");
    }
}

#[test]
fn many_blocks_of_coroutines() {
    let p = build("block_sum", "float32[::1], readonly float32[::1]");
    let mut rng = Rng(37);
    let n: usize = 1 << 20;
    let blocks = n / 256;
    let mut x: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut out = vec![f32::NAN; blocks];
    let args = [array(&mut out, &[blocks as u64]), array(&mut x, &[n as u64])];
    launch(&p, blocks as u32, 256, &args).unwrap();
    for b in 0..blocks {
        let expected: f32 = x[b * 256..(b + 1) * 256].iter().sum();
        assert!((out[b] - expected).abs() < 1e-3, "block {b}: {} vs {expected}", out[b]);
    }
}

/// The Rust side of the shared backend (docs/backend.md, "From Rust"): a
/// framework builds a kernel with the API generated from pydev.td (types,
/// attributes and op builders), prints it, and compiles it for the host
/// (run here) and to PTX, through the same driver as Python kernels.
#[test]
fn a_framework_builds_pydev_ir_in_rust_and_runs_it() {
    use crate::compile::{compile_ir_stage, host_program_from_text, Target};
    use melior::{
        dialect::{arith, func},
        ir::{
            attribute::{StringAttribute, TypeAttribute},
            operation::{OperationBuilder, OperationLike},
            r#type::{FunctionType, IntegerType},
            Attribute, Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type,
        },
    };
    use pydev_dialect::{attrs::CmpPredicateAttr, ops, types::ArrayType, CmpPredicate, Layout, MemorySpace};

    let ctx = pydev_dialect::new_context();
    let loc = Location::new(&ctx, "my_framework.py", 12, 4);
    let f32t = Type::float32(&ctx);
    let (si64, i1) = (IntegerType::signed(&ctx, 64).into(), IntegerType::new(&ctx, 1).into());
    let vec: Type =
        ArrayType::new(&ctx, f32t, 1, MemorySpace::Global, Layout::C, false).expect("a valid array type").into();
    let module = Module::new(loc);
    let body = Block::new(&[(f32t, loc), (vec, loc), (vec, loc)]);
    let (a, x, out) =
        (body.argument(0).unwrap().into(), body.argument(1).unwrap().into(), body.argument(2).unwrap().into());
    // i = thread_id.x + block_id.x * block_dim.x, as si64
    // Thread positions are upstream `gpu` ops (melior has no typed builder
    // for them).
    let index = Type::index(&ctx);
    let dim = |name: &str| {
        let op = OperationBuilder::new(name, loc)
            .add_attributes(&[(Identifier::new(&ctx, "dimension"), Attribute::parse(&ctx, "#gpu<dim x>").unwrap())])
            .add_results(&[index])
            .build()
            .unwrap();
        body.append_operation(op).result(0).unwrap().into()
    };
    let (tid, bid, bdim) = (dim("gpu.thread_id"), dim("gpu.block_id"), dim("gpu.block_dim"));
    let base = body.append_operation(arith::muli(bid, bdim, loc)).result(0).unwrap().into();
    let i = body.append_operation(arith::addi(base, tid, loc)).result(0).unwrap().into();
    let i =
        body.append_operation(arith::index_cast(i, IntegerType::new(&ctx, 64).into(), loc)).result(0).unwrap().into();
    let i = body.append_operation(ops::cast(&ctx, si64, i, loc).into()).result(0).unwrap().into();
    let n = body.append_operation(ops::array_size(&ctx, si64, x, loc).into()).result(0).unwrap().into();
    let lt = CmpPredicateAttr::new(&ctx, CmpPredicate::Lt).into();
    let inside = body.append_operation(ops::cmp(&ctx, i1, i, n, lt, loc).into()).result(0).unwrap().into();
    // if inside: out[i] = a * x[i]
    let region = Region::new();
    let then = Block::new(&[]);
    let xi = then.append_operation(ops::array_load(&ctx, f32t, x, &[i], loc).into()).result(0).unwrap().into();
    let y = then.append_operation(ops::mul(&ctx, f32t, a, xi, loc).into()).result(0).unwrap().into();
    then.append_operation(ops::array_store(&ctx, y, out, &[i], loc).into());
    then.append_operation(func::r#return(&[], loc));
    let exit = Block::new(&[]);
    exit.append_operation(func::r#return(&[], loc));
    let then = region.append_block(then);
    let exit_ref = exit;
    body.append_operation(melior::dialect::cf::cond_br(&ctx, inside, &then, &exit_ref, &[], &[], loc));
    region.insert_block_before(then, body);
    region.append_block(exit_ref);
    let kernel = func::func(
        &ctx,
        StringAttribute::new(&ctx, "scale"),
        TypeAttribute::new(FunctionType::new(&ctx, &[f32t, vec, vec], &[]).into()),
        region,
        &[(Identifier::new(&ctx, pydev_dialect::abi::attr::KERNEL), Attribute::unit(&ctx))],
        loc,
    );
    module.body().append_operation(kernel);
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    let text = module.as_operation().to_string();

    let options = CompileOptions::default();
    let ptx = compile_ir_stage(&text, "my_framework.py", "scale", &Target::Cuda("sm_90".into()), "ptx", &options, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(ptx.contains(".visible .entry scale("), "{ptx}");
    let llvm = compile_ir_stage(&text, "my_framework.py", "scale", &Target::Host, "llvm", &options, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    let p = host_program_from_text(&llvm, "scale", options.opt_level).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = Rng(15);
    let n = 1000;
    let mut xs: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let mut ys = vec![f32::NAN; n];
    let (xd, yd) = (array(&mut xs, &[n as u64]), array(&mut ys, &[n as u64]));
    launch(&p, 4, 256, &[2.5f32.to_le_bytes().to_vec(), xd, yd]).unwrap();
    for k in 0..n {
        assert_eq!(ys[k], 2.5 * xs[k], "element {k}");
    }
}

/// What a fresh pipeline context costs (a compile reuses its thread's):
/// `cargo test -p pydev-runtime --lib pipeline_context_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn pipeline_context_cost() {
    drop(pydev_dialect::new_pipeline_context());
    let n = 50;
    let t = std::time::Instant::now();
    for _ in 0..n {
        drop(pydev_dialect::new_pipeline_context());
    }
    eprintln!("new_pipeline_context: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / f64::from(n));
}

#[test]
fn a_reused_context_compiles_as_a_fresh_one() {
    // Compiles share their thread's context (compile::context): a kernel
    // compiled after others, after a failed compile, and after the context
    // was replaced gives the text it gives first.
    use crate::compile::{compile_stage, Target};
    let free = FreeNames::new();
    let src = |function, signature| Source {
        file_name: "kernels.py",
        text: KERNELS,
        function,
        signature,
        free: &free,
        program: None,
    };
    let options = CompileOptions::default();
    let ptx = |function, signature| {
        compile_stage(&src(function, signature), &Target::Cuda("sm_80".into()), "llvm", &options)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let first = ptx("block_sum", "float32[::1], readonly float32[::1]");
    ptx("transpose", "float32[:, ::1], readonly float32[:, ::1]");
    let bad = compile_stage(&src("block_sum", "float32[::1]"), &Target::Cuda("sm_80".into()), "llvm", &options)
        .expect_err("one argument short")
        .to_string();
    assert!(bad.contains("block_sum"), "{bad}");
    assert_eq!(ptx("block_sum", "float32[::1], readonly float32[::1]"), first);
    for _ in 0..70 {
        // past CONTEXT_USES: a fresh context
        ptx("vector_add", "float32[::1], readonly float32[::1], readonly float32[::1]");
    }
    assert_eq!(ptx("block_sum", "float32[::1], readonly float32[::1]"), first);
}

#[test]
fn verifying_once_compiles_what_verifying_after_each_pass_does() {
    // Release compiles verify the module once, before serialization
    // (compile::verify_each): the PTX and host LLVM are the same text.
    use crate::compile::{compile_stage, Target};
    let free = FreeNames::new();
    let kernels = [
        ("vector_add", "float32[::1], readonly float32[::1], readonly float32[::1]"),
        ("block_sum", "float32[::1], readonly float32[::1]"),
        ("push", "Particle[::1], float32"),
        ("python_ints", "int32[:, ::1], readonly int32[::1], readonly int32[::1]"),
    ];
    for (function, signature) in kernels {
        let src = Source { file_name: "kernels.py", text: KERNELS, function, signature, free: &free, program: None };
        for (target, stage) in [(Target::Cuda("sm_90".into()), "ptx"), (Target::Host, "llvm")] {
            let text = |each| {
                compile_stage(&src, &target, stage, &CompileOptions { verify_each: each, ..CompileOptions::default() })
                    .unwrap_or_else(|e| panic!("{function}: {e}"))
            };
            assert_eq!(text(false), text(true), "{function} {stage}");
        }
    }
    // An invalid signature still fails with the frontend's diagnostic.
    let bad = Source {
        file_name: "kernels.py",
        text: KERNELS,
        function: "block_sum",
        signature: "float32[::1]",
        free: &free,
        program: None,
    };
    let e = compile_stage(
        &bad,
        &Target::Cuda("sm_90".into()),
        "ptx",
        &CompileOptions { verify_each: false, ..CompileOptions::default() },
    )
    .expect_err("one argument short")
    .to_string();
    assert!(e.contains("block_sum"), "{e}");
}

#[test]
fn a_kept_pass_manager_compiles_as_a_fresh_one() {
    // A context keeps the pass managers it built, by pipeline, part and
    // options (compile::PipelineContext): each variant compiled again after
    // the others gives the text it gave first, options that change the
    // pipeline never share one, and another thread (its own context and
    // pass managers) agrees. python_ints has integer `**` (math.ipowi), whose
    // helper convert-math-to-funcs makes: that pass keeps the helpers of its
    // last run, so it runs in a pass manager made for each compile; a kept
    // one would call the helper of a module already destroyed here.
    use crate::compile::{compile_stage, Target};
    const RATIO: &str = "import cuda.device as device\n\n@device.kernel\ndef ratio(out, a, b):\n    i = device.tid(1)\n    if i < out.size:\n        out[i] = a[i] / b[i]\n";
    fn all() -> Vec<String> {
        let free = FreeNames::new();
        let ratio = Source {
            file_name: "ratio.py",
            text: RATIO,
            function: "ratio",
            signature: "float32[::1], readonly float32[::1], readonly float32[::1]",
            free: &free,
            program: None,
        };
        let ints = Source {
            file_name: "kernels.py",
            text: KERNELS,
            function: "python_ints",
            signature: "int32[:, ::1], readonly int32[::1], readonly int32[::1]",
            free: &free,
            program: None,
        };
        let base = CompileOptions::default;
        let cuda = Target::Cuda("sm_90".into());
        let variants = [
            (&ratio, &cuda, "ptx", base()),
            (&ratio, &cuda, "ptx", CompileOptions { fast_math: true, ..base() }),
            (&ratio, &cuda, "ptx", CompileOptions { opt_level: 0, ..base() }),
            (&ratio, &cuda, "llvm", base()),
            (&ratio, &cuda, "pydev-opt", base()),
            (&ints, &cuda, "ptx", base()),
            (&ints, &Target::Host, "llvm", base()),
            (&ints, &cuda, "ptx", base()),
            (&ints, &Target::Host, "llvm", base()),
        ];
        variants
            .iter()
            .map(|(src, target, stage, o)| compile_stage(src, target, stage, o).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }
    let first = all();
    assert!(first[0].contains("div.rn.f32"), "{}", first[0]);
    assert!(!first[1].contains("div.rn.f32"), "fast math: {}", first[1]);
    assert_ne!(first[0], first[2], "opt-level 0");
    assert!(first[6].contains("ipowi"), "the helper: {}", first[6]);
    assert_eq!((&first[7], &first[8]), (&first[5], &first[6]), "python_ints compiled again");
    assert_eq!(all(), first);
    assert_eq!(std::thread::spawn(all).join().expect("the other thread's compiles"), first);
}

#[test]
fn errors_render_the_sentences_of_before() {
    use crate::cuda::CudaError;
    use cudarc::driver::sys::CUresult;
    let no_device = |count| CudaError::NoSuchDevice { device: 3, count }.to_string();
    assert_eq!(no_device(1), "there is no cuda device 3: the driver reports 1 device (0)");
    assert_eq!(no_device(2), "there is no cuda device 3: the driver reports 2 devices (0 to 1)");
    let sizes = CudaError::ParamSizes { kernel: "k".into(), params: vec![4, 8], packed: vec![4] };
    assert_eq!(
        sizes.to_string(),
        "kernel 'k' takes 2 parameters of [4, 8] bytes, but the launch packed 1 of [4] bytes"
    );
    let load = |device| {
        CudaError::Load {
            what: "PTX",
            kernel: "k".into(),
            device,
            code: CUresult::CUDA_ERROR_INVALID_PTX,
            log: "ptxas fatal".into(),
        }
        .to_string()
    };
    assert_eq!(load(0), "the CUDA driver could not load the PTX of 'k' (CUDA_ERROR_INVALID_PTX):\nptxas fatal");
    assert_eq!(
        load(1),
        "the CUDA driver could not load the PTX of 'k' on device 1 (CUDA_ERROR_INVALID_PTX):\nptxas fatal"
    );
    let driver = CudaError::Driver {
        call: "cuCtxGetCurrent".into(),
        code: CUresult::CUDA_ERROR_INVALID_VALUE,
        message: "invalid argument".into(),
    };
    assert_eq!(driver.to_string(), "cuCtxGetCurrent failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
    assert_eq!(
        crate::Target::parse("tpu").unwrap_err().to_string(),
        format!("unknown target 'tpu': expected host or one of {}", pydev_passes::pipeline::CHIPS)
    );
    let e = HostError::EmptyExtent { kernel: "k".into(), grid: [0, 1, 1], block: [32, 1, 1] };
    assert_eq!(e.to_string(), "kernel 'k': grid [0, 1, 1] and block [32, 1, 1] must be positive in every dimension");
    let e = CompileError::Diagnostics(vec!["a.py:1:2: error: x".into(), "a.py:3:4: error: y".into()]);
    assert_eq!(e.to_string(), "a.py:1:2: error: x\na.py:3:4: error: y");
}

#[test]
fn the_frontend_ir_printed_with_locations_compiles_as_the_direct_compile() {
    // A kernel's pydev.Program compiles straight from the source; its
    // `text` is the `pydev` stage printed with locations. That text, parsed
    // and compiled as any Program's, gives the same PTX and host module.
    use crate::compile::{compile_ir_stage, compile_stage, Target};
    let free = FreeNames::new();
    let src = Source {
        file_name: "kernels.py",
        text: KERNELS,
        function: "warp_sum",
        signature: "float32[::1], readonly float32[::1]",
        free: &free,
        program: None,
    };
    let with_locations = CompileOptions { debuginfo: true, ..CompileOptions::default() };
    for (target, stage) in [(Target::Cuda("sm_90".into()), "ptx"), (Target::Host, "llvm")] {
        let direct = compile_stage(&src, &target, stage, &CompileOptions::default()).expect("direct");
        let ir = compile_stage(&src, &target, "pydev", &with_locations).expect("frontend");
        assert!(ir.contains("kernels.py"), "the IR carries its locations:\n{ir}");
        let parsed = compile_ir_stage(&ir, "kernels.py", "warp_sum", &target, stage, &CompileOptions::default(), &[])
            .expect("parsed text");
        assert_eq!(parsed, direct, "{stage}: the printed IR's compile and the direct compile differ");
    }
}

/// A Program's external declarations come from its parsed module (name,
/// types, site), and on the host `compile_ir_stage` renames their calls to
/// the C-ABI adapters (`pydev-host-adapters`); the cuda target keeps them.
#[test]
fn ir_kernel_lists_external_declarations_and_the_host_renames_their_calls() {
    use crate::compile::{compile_ir_stage, ir_kernel, IrExternal, Target};
    let text = r#"module {
  func.func private @clamp(si32, si32) -> si32 loc("ext.py":3:1)
  func.func private @"odd.name"(f32)
  func.func private @defined(%x: si32) -> si32 {
    return %x : si32
  }
  func.func @k(%a: si32, %b: f32) attributes {pydev.kernel} {
    %0 = call @clamp(%a, %a) : (si32, si32) -> si32
    call @"odd.name"(%b) : (f32) -> ()
    %1 = call @defined(%0) : (si32) -> si32
    return
  }
}"#;
    let k = ir_kernel(text, None, "ext.mlir").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(k.name, "k");
    assert_eq!(
        k.externals,
        vec![
            IrExternal {
                name: "clamp".into(),
                params: vec!["si32".into(), "si32".into()],
                results: vec!["si32".into()],
                site: Some("ext.py:3".into()),
            },
            IrExternal { name: "odd.name".into(), params: vec!["f32".into()], results: vec![], site: None },
        ]
    );
    let names = vec!["clamp".to_owned(), "odd.name".to_owned()];
    let options = CompileOptions::default();
    let host = compile_ir_stage(text, "ext.mlir", "k", &Target::Host, "pydev", &options, &names)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(host.contains("func.func private @__pydev_cabi_clamp(si32, si32) -> si32"), "{host}");
    assert!(host.contains("call @__pydev_cabi_clamp(%arg0, %arg0)"), "{host}");
    assert!(host.contains("call @__pydev_cabi_odd.name(%arg1)"), "{host}");
    assert!(host.contains("call @defined("), "{host}");
    let cuda = compile_ir_stage(text, "ext.mlir", "k", &Target::Cuda("sm_90".into()), "pydev", &options, &names)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(cuda.contains("call @clamp(") && !cuda.contains("__pydev_cabi_"), "{cuda}");
}

/// `aggregate-atomics=1` on the host: the warp-aggregated atomics
/// (pydev-aggregate-atomics) give the results of the original ones, in full
/// warps (shuffle reductions), partial ones (the last block) and under the
/// divergent `if i < n:`.
#[test]
fn aggregated_atomics_keep_the_results_on_the_host() {
    const REDUCTIONS: &str = r#"
import cuda.device as device


@device.kernel
def reductions(out, x, k):
    i = device.tid(1)
    if i < x.size:
        b = device.block_idx.x
        device.atomic_ref(out, 3 * b).add(x[i], memory="relaxed", scope="device")
        device.atomic_ref(out, 3 * b + 1).max(x[i], memory="relaxed", scope="device")
        device.atomic_ref(out, 3 * b + 2).xor(k, memory="relaxed", scope="device")
"#;
    let on = CompileOptions {
        optimizations: pydev_passes::pipeline::Optimizations { aggregate_atomics: true, vectorize_access: false },
        ..CompileOptions::default()
    };
    let histogram = program(KERNELS, "histogram", "uint32[::1], readonly int32[::1]", &on).unwrap();
    let reductions = program(REDUCTIONS, "reductions", "int64[::1], readonly int64[::1], int64", &on).unwrap();
    // Warp operations run the threads as barrier loops or coroutines: the pass fired.
    assert_ne!(histogram.mode(), "loop");
    assert_ne!(reductions.mode(), "loop");

    let mut rng = Rng(29);
    let n = 5000;
    let mut data: Vec<i32> = (0..n).map(|_| (rng.next() % 1000) as i32).collect();
    let start: Vec<u32> = (0..16).map(|_| (rng.next() % 100) as u32).collect();
    let mut bins = start.clone();
    let args = [array(&mut bins, &[16]), array(&mut data, &[n as u64])];
    launch(&histogram, (n as u32).div_ceil(128), 128, &args).unwrap();
    let mut expected = start;
    for d in &data {
        expected[(*d % 16) as usize] += 1;
    }
    assert_eq!(bins, expected);

    let (n, block) = (1000usize, 128usize);
    let blocks = n.div_ceil(block);
    let mut x: Vec<i64> = (0..n).map(|_| (rng.next() >> 20) as i64 - (1 << 43)).collect();
    let start: Vec<i64> = (0..3 * blocks).map(|_| (rng.next() >> 40) as i64 - (1 << 23)).collect();
    let mut out = start.clone();
    let k = (rng.next() >> 1) as i64;
    let args = [array(&mut out, &[3 * blocks as u64]), array(&mut x, &[n as u64]), k.to_le_bytes().to_vec()];
    launch(&reductions, blocks as u32, block as u32, &args).unwrap();
    for b in 0..blocks {
        let mine = &x[b * block..((b + 1) * block).min(n)];
        let sum = start[3 * b] + mine.iter().sum::<i64>();
        let max = mine.iter().copied().fold(start[3 * b + 1], i64::max);
        let xor = if mine.len() % 2 == 1 { start[3 * b + 2] ^ k } else { start[3 * b + 2] };
        assert_eq!((out[3 * b], out[3 * b + 1], out[3 * b + 2]), (sum, max, xor), "block {b}");
    }
}

/// `vectorize-access=1` on the host: vector loads and stores where the
/// arrays start 16-byte aligned, the scalar accesses where a view starts
/// elsewhere; the same results either way.
#[test]
fn vectorized_accesses_keep_the_results_on_the_host() {
    use crate::compile::{compile_stage, Target};
    const QUADS: &str = r#"
import cuda.device as device


@device.kernel
def reverse_quads(out, x):
    j = 4 * device.tid(1)
    if j + 3 < x.size:
        a = x[j]
        b = x[j + 1]
        c = x[j + 2]
        d = x[j + 3]
        out[j] = d + 1.0
        out[j + 1] = c
        out[j + 2] = b
        out[j + 3] = a
"#;
    let (kernel, signature) = ("reverse_quads", "float32[::1], readonly float32[::1]");
    let on = CompileOptions {
        optimizations: pydev_passes::pipeline::Optimizations { aggregate_atomics: false, vectorize_access: true },
        ..CompileOptions::default()
    };
    let free = FreeNames::new();
    let src = Source { file_name: "quads.py", text: QUADS, function: kernel, signature, free: &free, program: None };
    let llvm = compile_stage(&src, &Target::Host, "llvm", &on).unwrap();
    assert!(llvm.contains("vector<4xf32>"), "{llvm}");
    let p = program(QUADS, kernel, signature, &on).unwrap();

    let mut rng = Rng(31);
    let n = 4 * 300;
    // Room for views that start one element in: one of the two starts is
    // not 16-byte aligned.
    let mut x: Vec<f32> = (0..n + 1).map(|_| rng.f32()).collect();
    for shift in [0, 1] {
        let mut out = vec![f32::NAN; n + 1];
        let view = |v: &mut Vec<f32>| array(&mut v[shift..], &[n as u64]);
        let args = [view(&mut out), view(&mut x)];
        launch(&p, (n as u32 / 4).div_ceil(64), 64, &args).unwrap();
        for q in 0..n / 4 {
            let (o, i) = (&out[shift + 4 * q..shift + 4 * q + 4], &x[shift + 4 * q..shift + 4 * q + 4]);
            assert_eq!(o, [i[3] + 1.0, i[2], i[1], i[0]], "shift {shift}, quad {q}");
        }
        assert!(out[if shift == 0 { n } else { 0 }].is_nan(), "shift {shift}: written outside the view");
    }
}
