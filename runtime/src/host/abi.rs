//! The entry points JIT-compiled kernels call (`pydev_rt_*`, declared by
//! `pydev-lower-simt-host` and `pydev-lower-atomics{target=host}`), and the
//! packed calls into kernels. With `capi.rs`, the only `unsafe` code of the
//! crate: kernels hand over raw pointers to their thread context and data.

use super::{fiber, warp, Launch, ThreadCtx};
use pydev_dialect::abi::{entry, error_code, frame, frame as head, private_kind};
use pydev_dialect::float::{BFLOAT16, FLOAT16};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

pub fn symbols() -> Vec<(&'static str, *mut c_void)> {
    vec![
        (entry::BARRIER, pydev_rt_barrier as *mut c_void),
        (entry::WARP, pydev_rt_warp as *mut c_void),
        (entry::ERROR, pydev_rt_error as *mut c_void),
        (entry::RAISED, pydev_rt_raised as *mut c_void),
        (entry::WAIT, pydev_rt_wait as *mut c_void),
        (entry::BLOCK_RELEASE, pydev_rt_block_release as *mut c_void),
        (entry::ATOMIC_FMAX_F32, pydev_rt_atomic_fmax_f32 as *mut c_void),
        (entry::ATOMIC_FMIN_F32, pydev_rt_atomic_fmin_f32 as *mut c_void),
        (entry::ATOMIC_FMAX_F64, pydev_rt_atomic_fmax_f64 as *mut c_void),
        (entry::ATOMIC_FMIN_F64, pydev_rt_atomic_fmin_f64 as *mut c_void),
        // LLVM's libcalls for float64 -> float16/bfloat16 (no x86 or Arm
        // instruction does it); libgcc has them only from GCC 12, and the
        // JIT must not depend on which libgcc the process loaded.
        ("__truncdfhf2", pydev_truncdfhf2 as *mut c_void),
        ("__truncdfbf2", pydev_truncdfbf2 as *mut c_void),
        // float32 -> float16/bfloat16: the same, from float32 (exact in float64).
        ("__truncsfhf2", pydev_truncsfhf2 as *mut c_void),
        ("__truncsfbf2", pydev_truncsfbf2 as *mut c_void),
    ]
}

// The results are half/bfloat16 values, returned where the C ABI returns a
// float (xmm0 on x86-64, s0/h0 on AArch64): an f32 whose low 16 bits are them.
extern "C" fn pydev_truncdfhf2(x: f64) -> f32 {
    // The one rounding of small floats (pydev_dialect::float).
    f32::from_bits(FLOAT16.round(x) as u32)
}

extern "C" fn pydev_truncdfbf2(x: f64) -> f32 {
    f32::from_bits(BFLOAT16.round(x) as u32)
}

extern "C" fn pydev_truncsfhf2(x: f32) -> f32 {
    pydev_truncdfhf2(f64::from(x))
}

extern "C" fn pydev_truncsfbf2(x: f32) -> f32 {
    pydev_truncdfbf2(f64::from(x))
}

/// 64 bytes aligned to 64: the unit of every buffer the runtime hands to
/// kernels (arguments, shared memory, frames), so that LLVM's loads of
/// wide vectors (a float64x4 argument wants 32-byte alignment) never fault.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Chunk([u8; 64]);

impl Chunk {
    pub const ZERO: Chunk = Chunk([0; 64]);
}

pub fn as_bytes(v: &mut [Chunk]) -> &mut [u8] {
    // SAFETY: Chunk is plain bytes; any byte pattern is valid for u8.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

pub fn erase_launch(launch: &Launch) -> *const Launch<'static> {
    // The context never outlives the launch: workers finish inside it.
    (launch as *const Launch).cast()
}

/// The packed argument vector: one pointer per parameter buffer, then a
/// pointer to the variable holding the context pointer.
pub fn argv(buffers: &[Vec<Chunk>], ctx_slot: *mut *mut ThreadCtx) -> Vec<*mut c_void> {
    let mut v: Vec<*mut c_void> = buffers.iter().map(|b| b.as_ptr() as *mut c_void).collect();
    v.push(ctx_slot.cast());
    v
}

/// Calls packed entry `f` with `buffers` and `ctx`.
///
/// # Safety
/// `f` is the packed wrapper of a kernel (or block loop) of a live engine
/// whose parameters are `buffers` (one per parameter, each at least the
/// parameter's size) and the context; `ctx` is filled in for the launch
/// that owns `buffers`.
pub unsafe fn run_packed(f: usize, buffers: &[Vec<Chunk>], ctx: &mut ThreadCtx) {
    let mut slot: *mut ThreadCtx = ctx;
    let mut args = argv(buffers, &mut slot);
    // SAFETY: as the caller promises; `args` holds one pointer per buffer
    // and the context slot, all alive during the call.
    unsafe { crate::capi::call_packed(f, args.as_mut_ptr()) }
}

/// The launch running the kernel thread of `ctx`.
///
/// # Safety
/// `ctx` is a context the runtime handed to a kernel of a launch that is
/// still running (its `launch` field points at it).
unsafe fn launch_of<'a>(ctx: *mut ThreadCtx) -> &'a Launch<'a> {
    // SAFETY: as the caller promises.
    unsafe { &*(*ctx).launch.cast::<Launch<'a>>() }
}

/// The coroutine state of the thread of `ctx` (None in loop mode).
///
/// # Safety
/// As [`launch_of`]; `fiber` is then null or the coroutine state that owns
/// `ctx`, alive while its thread runs.
unsafe fn fiber_of<'a>(ctx: *mut ThreadCtx) -> Option<&'a mut fiber::Fiber> {
    // SAFETY: as the caller promises.
    unsafe { (*ctx).fiber.as_mut() }
}

/// The JIT's entry points below are `unsafe`: each takes the raw context
/// pointer of the calling kernel thread.
///
/// # Safety
/// (For every `pydev_rt_*` entry point.) Called only by kernel code of a
/// running launch, with the `ctx` the runtime handed that thread.
unsafe extern "C" fn pydev_rt_barrier(ctx: *mut ThreadCtx, kind: i32, pred: i32) -> i32 {
    // SAFETY: `ctx` is the calling thread's live context (the entry points'
    // contract); a fiber's suspend is called from inside its coroutine.
    unsafe {
        match fiber_of(ctx) {
            Some(f) => f.suspend(fiber::Request::Barrier { kind, pred: pred != 0 }) as i32,
            None => {
                launch_of(ctx).fail("a barrier ran outside a coroutine (internal error: please report it)".into());
                0
            }
        }
    }
}

unsafe extern "C" fn pydev_rt_warp(ctx: *mut ThreadCtx, op: i32, mask: i32, value: i64, arg: i32) -> i64 {
    // SAFETY: as in `pydev_rt_barrier`.
    unsafe {
        match fiber_of(ctx) {
            Some(f) => {
                f.suspend(fiber::Request::Warp(warp::Request { op, mask: mask as u32, value: value as u64, arg }))
                    as i64
            }
            None => {
                launch_of(ctx)
                    .fail("a warp operation ran outside a coroutine (internal error: please report it)".into());
                value
            }
        }
    }
}

/// After a round of the block loop of a kernel split at its rendezvous
/// (`pydev-host-barrier-fission`) that the loop could not settle itself:
/// releases what can complete. Each thread's frame head
/// (`pydev_dialect::abi::frame`, `frame` bytes apart in the worker's scratch
/// buffer) holds the state it returned and, at a warp operation, its
/// request. First the warp operations that can complete ([`warp::release`]:
/// results into each lane's `RESULT`, the lane marked `READY`; returns 0);
/// if none, the block barrier, when every thread waits at the same one
/// (threads that returned count as absent with `exited_skip`, as on GPUs;
/// otherwise they are the spec's violation, reported): returns its state,
/// from which every live thread resumes. -1: leave the block (every thread
/// returned; a deadlock, reported here; or the launch stopped: a thread
/// failed, or Ctrl-C).
unsafe extern "C" fn pydev_rt_block_release(ctx: *mut ThreadCtx, frame: i64, exited_skip: i32) -> i32 {
    // SAFETY: the frames of the block's threads are `frame` bytes apart in
    // the worker's scratch buffer, sized for the block; the block loop runs
    // no thread during the call.
    unsafe {
        let launch = launch_of(ctx);
        if launch.stopped() {
            return -1; // a thread failed or Ctrl-C: leave the block
        }
        let c = &mut *ctx;
        let d = c.bdim;
        let n = (d[0] * d[1] * d[2]) as usize;
        let at = |t: usize, off: i64| c.scratch.add(t * frame as usize + off as usize);
        let state = |t: usize| *at(t, head::STATE).cast::<i32>();
        let mut released = false;
        for base in (0..n).step_by(32) {
            let here = (n - base).min(32);
            let mut lanes = [warp::Lane::Gone; 32];
            let mut any = false;
            for (l, lane) in lanes.iter_mut().enumerate().take(here) {
                let s = i64::from(state(base + l));
                *lane = if s < 0 {
                    warp::Lane::Gone
                } else if s & frame::WARP_STATE != 0 {
                    any = true;
                    warp::Lane::Warp(warp::Request {
                        mask: *at(base + l, head::MASK).cast::<u32>(),
                        value: *at(base + l, head::VALUE).cast::<u64>(),
                        arg: *at(base + l, head::ARG).cast::<i32>(),
                        op: *at(base + l, head::OP).cast::<i32>(),
                    })
                } else {
                    warp::Lane::Other
                };
            }
            if !any {
                continue;
            }
            let (group, results) = warp::release(&lanes[..here]);
            for (l, r) in results.iter().enumerate().take(here) {
                if group & (1 << l) != 0 {
                    *at(base + l, head::RESULT).cast::<u64>() = *r;
                    *at(base + l, head::READY).cast::<i32>() = 1;
                }
            }
            released |= group != 0;
        }
        if released {
            return 0;
        }
        let (mut exited, mut lo, mut hi, mut in_warp) = (0usize, i64::MAX, i64::MIN, Vec::new());
        for t in 0..n {
            let s = i64::from(state(t));
            if s < 0 {
                exited += 1;
            } else {
                (lo, hi) = (lo.min(s), hi.max(s));
                if s & frame::WARP_STATE != 0 {
                    in_warp.push(t);
                }
            }
        }
        if exited == n {
            return -1;
        }
        let b = c.bid;
        let what = |s: i64| match s {
            s if s < 0 => "returned".to_owned(),
            s if s & frame::WARP_STATE != 0 => format!("waited at warp operation {}", s & (frame::WARP_STATE - 1)),
            s => format!("waited at barrier {s}"),
        };
        let divergence = |a: i64, z: i64| {
            format!(
                "deadlock: the threads of block ({}, {}, {}) did not all reach the same syncthreads (some {}, some {}); every thread of a block must reach each barrier",
                b[0], b[1], b[2], what(a), what(z)
            )
        };
        if !in_warp.is_empty() {
            let threads = in_warp.iter().take(8).map(|t| format!("thread {t}")).collect::<Vec<_>>().join(", ")
                + if in_warp.len() > 8 { ", ..." } else { "" };
            launch.fail(format!(
                "deadlock: {} threads wait in warp operations whose mask names lanes that never arrive ({threads}), {} wait at syncthreads, {exited} exited in block ({}, {}, {})",
                in_warp.len(),
                n - exited - in_warp.len(),
                b[0],
                b[1],
                b[2]
            ));
            return -1;
        }
        if lo != hi {
            launch.fail(divergence(lo, hi));
            return -1;
        }
        if exited > 0 && exited_skip == 0 {
            launch.fail(divergence(-1, lo));
            return -1;
        }
        c.total = c.count;
        c.count = 0;
        lo as i32
    }
}

unsafe extern "C" fn pydev_rt_error(ctx: *mut ThreadCtx, code: i32, loc: i32, a: i64, b: i64) {
    // SAFETY: live context of the calling thread (the entry points' contract).
    let (launch, t, bl) = unsafe { (launch_of(ctx), (*ctx).tid, (*ctx).bid) };
    if i64::from(code) == error_code::EXCEPTION {
        launch.raise(a, t, bl);
        return;
    }
    let at = launch.program.locations.get(loc as usize).map_or("an unknown location", String::as_str);
    let what = match i64::from(code) {
        error_code::ZERO_DIVISION => "integer division by zero".to_owned(),
        error_code::OUT_OF_BOUNDS => format!("index {a} is out of bounds for an axis of extent {b}"),
        _ => format!("runtime error {code}"),
    };
    launch.fail(format!(
        "{what} at {at} (thread ({}, {}, {}) of block ({}, {}, {}))",
        t[0], t[1], t[2], bl[0], bl[1], bl[2]
    ));
}

unsafe extern "C" fn pydev_rt_raised(ctx: *mut ThreadCtx) -> i32 {
    // SAFETY: live context of the calling thread (the entry points' contract).
    let (launch, t, bl) = unsafe { (launch_of(ctx), (*ctx).tid, (*ctx).bid) };
    i32::from(launch.raised_by(t, bl))
}

unsafe extern "C" fn pydev_rt_wait(ctx: *mut ThreadCtx, ptr: *mut c_void, old: i64, bytes: i32) {
    let current = || -> u64 {
        // SAFETY: `ptr` is the atomic reference the kernel waits on, aligned
        // to its size (4 or 8 bytes).
        unsafe {
            if bytes == 8 {
                (*ptr.cast::<AtomicU64>()).load(Ordering::SeqCst)
            } else {
                u64::from((*ptr.cast::<AtomicU32>()).load(Ordering::SeqCst))
            }
        }
    };
    let old = if bytes == 8 { old as u64 } else { u64::from(old as u32) };
    // SAFETY: live context of the calling thread (the entry points' contract).
    let (launch, fiber) = unsafe { (launch_of(ctx), fiber_of(ctx)) };
    while current() == old {
        if launch.stopped() {
            return;
        }
        match &fiber {
            // SAFETY: called from inside the thread's coroutine.
            Some(f) => unsafe {
                f.suspend(fiber::Request::Yield);
            },
            None => std::thread::yield_now(),
        }
    }
}

macro_rules! float_cas {
    ($name:ident, $f:ty, $atomic:ty, $better:expr) => {
        /// Python's max/min order as a compare-and-swap loop: the stored
        /// value changes only when `val` is strictly better (a NaN stays).
        extern "C" fn $name(ptr: *mut c_void, val: $f) -> $f {
            // SAFETY: an aligned atomic reference into a kernel argument.
            let a = unsafe { &*ptr.cast::<$atomic>() };
            let mut old = a.load(Ordering::Relaxed);
            loop {
                let o = <$f>::from_bits(old);
                if !$better(val, o) {
                    return o;
                }
                match a.compare_exchange_weak(old, val.to_bits(), Ordering::SeqCst, Ordering::Relaxed) {
                    Ok(_) => return o,
                    Err(now) => old = now,
                }
            }
        }
    };
}

float_cas!(pydev_rt_atomic_fmax_f32, f32, AtomicU32, |v: f32, o: f32| v > o);
float_cas!(pydev_rt_atomic_fmin_f32, f32, AtomicU32, |v: f32, o: f32| v < o);
float_cas!(pydev_rt_atomic_fmax_f64, f64, AtomicU64, |v: f64, o: f64| v > o);
float_cas!(pydev_rt_atomic_fmin_f64, f64, AtomicU64, |v: f64, o: f64| v < o);

/// What a coroutine running kernel code returns: whether it trapped.
pub type Trapped = bool;

thread_local! {
    /// The trap handler of the coroutine this thread is running, if any.
    static TRAP: std::cell::Cell<Option<corosensei::trap::CoroutineTrapHandler<Trapped>>> = const { std::cell::Cell::new(None) };
    /// Signal and faulting address of the last trap on this thread.
    static FAULT: std::cell::Cell<(i32, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// Resumes `co` so that a memory fault or arithmetic trap in the kernel
/// code it runs makes it return `true` instead of killing the process.
pub fn resume_guarded<Y>(
    co: &mut corosensei::Coroutine<(), Y, Trapped, corosensei::stack::DefaultStack>,
) -> corosensei::CoroutineResult<Y, Trapped> {
    install_trap_handler();
    TRAP.with(|t| t.set(Some(co.trap_handler())));
    let r = co.resume(());
    TRAP.with(|t| t.set(None));
    r
}

/// The last trap of this thread, as a sentence.
pub fn last_fault() -> String {
    let (sig, addr) = FAULT.with(|f| f.get());
    match sig {
        s if s == super::interrupt::escape_signal() => "an interrupt (SIGINT)".into(),
        libc::SIGFPE => "an arithmetic trap (integer division overflow)".into(),
        _ => format!("an invalid memory access at address {addr:#x} (an index out of bounds? rerun with PYDEV_BOUNDSCHECK=1 for the file and line)"),
    }
}

const TRAPPED_SIGNALS: [i32; 3] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE];

static PREVIOUS: std::sync::OnceLock<Vec<(i32, libc::sigaction)>> = std::sync::OnceLock::new();

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn install_trap_handler() {
    PREVIOUS.get_or_init(|| {
        let mut previous = Vec::new();
        for sig in TRAPPED_SIGNALS {
            // SAFETY: installs a SA_SIGINFO handler; the previous action is
            // kept to restore for faults that are not the kernels'.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_trap as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut old) == 0 {
                    previous.push((sig, old));
                }
            }
        }
        previous
    });
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn install_trap_handler() {}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
extern "C" fn on_trap(sig: i32, info: *mut libc::siginfo_t, context: *mut c_void) {
    // SAFETY: called by the kernel with valid siginfo and ucontext; only
    // async-signal-safe work (thread-local reads, register edits) happens.
    unsafe {
        if escape(sig, (*info).si_addr() as usize, context) {
            return;
        }
        // Not a kernel's fault: put the previous handler back; the faulting
        // instruction runs again and reaches it.
        if let Some((_, old)) = PREVIOUS.get().and_then(|p| p.iter().find(|(s, _)| *s == sig)) {
            libc::sigaction(sig, old, std::ptr::null_mut());
        }
    }
}

/// Leaves the guarded coroutine this thread is running (if the interrupted
/// stack pointer is on its stack) as if the kernel had trapped: the
/// coroutine returns `true` and [`last_fault`] reports `sig` at `addr`.
/// Returns whether it did.
///
/// # Safety
/// Called from a signal handler with the `ucontext_t` the kernel passed it.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub unsafe fn escape(sig: i32, addr: usize, context: *mut c_void) -> bool {
    // SAFETY: as the caller promises, `context` is the live ucontext of the
    // interrupted thread; the trap handler belongs to the coroutine whose
    // stack holds the interrupted frame, which unwinds nothing (JIT frames
    // and runtime frames without destructors) when it is left.
    unsafe {
        let uc = &mut *context.cast::<libc::ucontext_t>();
        let sp = uc.uc_mcontext.gregs[libc::REG_RSP as usize] as usize;
        let Some(handler) = TRAP.with(|t| t.get()).filter(|h| h.stack_ptr_in_bounds(sp)) else { return false };
        FAULT.with(|f| f.set((sig, addr)));
        let regs = handler.setup_trap_handler(|| true);
        let corosensei::trap::TrapHandlerRegs { rip, rsp, rbp, rdi, rsi } = regs;
        uc.uc_mcontext.gregs[libc::REG_RIP as usize] = rip as i64;
        uc.uc_mcontext.gregs[libc::REG_RSP as usize] = rsp as i64;
        uc.uc_mcontext.gregs[libc::REG_RBP as usize] = rbp as i64;
        uc.uc_mcontext.gregs[libc::REG_RDI as usize] = rdi as i64;
        uc.uc_mcontext.gregs[libc::REG_RSI as usize] = rsi as i64;
        true
    }
}

/// `array += copy` element by element over the array's index space (the
/// copy has the array's element strides from offset 0); plain adds: the
/// workers that wrote the copies have finished.
///
/// # Safety
/// `data` is the address of a live array of element kind `kind` with
/// `shape` and `strides` (in elements), not accessed by anyone else during
/// the call, and `copy` spans every offset those reach.
pub unsafe fn add_private(kind: i64, data: u64, copy: &[Chunk], shape: &[u64], strides: &[i64]) {
    let n = shape.len();
    let mut index = vec![0u64; n];
    let copy = copy.as_ptr().cast::<u8>();
    loop {
        let offset: i64 = index.iter().zip(strides).map(|(i, s)| *i as i64 * s).sum();
        // SAFETY: `offset` addresses an element of the array (its shape and
        // strides came with it) and of the copy (allocated for the span).
        unsafe {
            let real = (data as *mut u8).offset(offset as isize * private_kind::size(kind) as isize);
            let mine = copy.offset(offset as isize * private_kind::size(kind) as isize);
            match kind {
                private_kind::I32 => *real.cast::<i32>() = (*real.cast::<i32>()).wrapping_add(*mine.cast::<i32>()),
                private_kind::I64 => *real.cast::<i64>() = (*real.cast::<i64>()).wrapping_add(*mine.cast::<i64>()),
                // An untouched +0.0 is skipped: it would turn -0.0 into +0.0.
                private_kind::F32 if *mine.cast::<u32>() != 0 => *real.cast::<f32>() += *mine.cast::<f32>(),
                private_kind::F64 if *mine.cast::<u64>() != 0 => *real.cast::<f64>() += *mine.cast::<f64>(),
                _ => {}
            }
        }
        // Next multi-index, last dimension fastest.
        let mut k = n;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
}

/// Flushes C's stdio: a kernel's `print` output (the C library's printf)
/// appears when its launch returns, in order with the caller's output.
pub fn flush_stdout() {
    // SAFETY: fflush(NULL) flushes every open output stream.
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
}
