//! Threads of a block as stackful coroutines (corosensei), for kernels with
//! barriers or warp operations.
//!
//! Each worker keeps one coroutine state per thread of a block and a pool of
//! stacks. A block runs in rounds: every runnable thread runs until it
//! suspends (a barrier, a warp operation, a wait) or returns; then warps
//! whose operation every named lane has reached are released, and the block
//! barrier is released when every live thread has reached it. When nothing
//! can be released, the block is deadlocked: that is an error, not a hang.

use super::{abi, block_index, new_ctx, shared_buffer, warp, Launch, LaunchConfig, ThreadCtx};
use corosensei::{stack::DefaultStack, Coroutine, CoroutineResult, Yielder};
use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Stack of one thread: local arrays live here.
const STACK_BYTES: usize = 256 * 1024;

/// How long threads may spin in atomic waits with no other progress.
const SPIN_LIMIT: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug)]
pub enum Request {
    Barrier { kind: i32, pred: bool },
    Warp(warp::Request),
    Yield,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    Waiting,
    Done,
}

/// One GPU thread's coroutine state.
pub struct Fiber {
    ctx: UnsafeCell<ThreadCtx>,
    ctx_slot: UnsafeCell<*mut ThreadCtx>,
    argv: UnsafeCell<Vec<*mut c_void>>,
    state: Cell<State>,
    request: Cell<Request>,
    result: Cell<u64>,
    yielder: Cell<*const Yielder<(), ()>>,
}

impl Fiber {
    /// Suspends the calling thread with `request`; returns its result.
    pub fn suspend(&self, request: Request) -> u64 {
        self.request.set(request);
        self.state.set(State::Waiting);
        // Safety: the yielder was set when this coroutine started and stays
        // valid while it runs; `suspend` is only called from inside it.
        unsafe { (*self.yielder.get()).suspend(()) };
        self.result.get()
    }
}

pub fn worker(launch: &Launch, config: &LaunchConfig, buffers: &[Vec<u128>], next: &AtomicU64, blocks: u64) {
    let [bx, by, bz] = config.block;
    let n = (bx * by * bz) as usize;
    let mut shared = shared_buffer(launch, config);
    let template = new_ctx(launch, config, &mut shared);
    let fibers: Vec<Box<Fiber>> = (0..n)
        .map(|i| {
            let i = i as u32;
            let ctx = ThreadCtx { tid: [i % bx, (i / bx) % by, i / (bx * by)], ..template_copy(&template) };
            Box::new(Fiber {
                ctx: UnsafeCell::new(ctx),
                ctx_slot: UnsafeCell::new(std::ptr::null_mut()),
                argv: UnsafeCell::new(Vec::new()),
                state: Cell::new(State::Done),
                request: Cell::new(Request::Yield),
                result: Cell::new(0),
                yielder: Cell::new(std::ptr::null()),
            })
        })
        .collect();
    for f in &fibers {
        let ctx = f.ctx.get();
        // Safety: nothing runs yet; the boxes never move.
        unsafe {
            (*ctx).fiber = (&**f as *const Fiber).cast_mut();
            *f.ctx_slot.get() = ctx;
            *f.argv.get() = abi::argv(buffers, f.ctx_slot.get());
        }
    }
    let mut stacks: Vec<DefaultStack> = Vec::new();
    loop {
        let b = next.fetch_add(1, Ordering::Relaxed);
        if b >= blocks || launch.failed.load(Ordering::Acquire) {
            break;
        }
        let bid = block_index(b, config.grid);
        if let Err(message) = run_block(launch, &fibers, &mut stacks, bid, n) {
            launch.fail(format!("{message} in block ({}, {}, {})", bid[0], bid[1], bid[2]));
        }
    }
}

fn template_copy(t: &ThreadCtx) -> ThreadCtx {
    ThreadCtx { tid: t.tid, bid: t.bid, bdim: t.bdim, gdim: t.gdim, shared: t.shared, dyn_shared: t.dyn_shared, dyn_shared_bytes: t.dyn_shared_bytes, launch: t.launch, fiber: t.fiber }
}

fn run_block(launch: &Launch, fibers: &[Box<Fiber>], stacks: &mut Vec<DefaultStack>, bid: [u32; 3], n: usize) -> Result<(), String> {
    let thread_fn = launch.program.thread_fn;
    let mut coroutines: Vec<Coroutine<(), (), abi::Trapped, DefaultStack>> = Vec::with_capacity(n);
    for f in fibers {
        // Safety: no coroutine of this block runs yet.
        unsafe { (*f.ctx.get()).bid = bid };
        f.state.set(State::Ready);
        let stack = match stacks.pop() {
            Some(s) => s,
            None => DefaultStack::new(STACK_BYTES).map_err(|e| format!("cannot allocate a thread stack: {e}"))?,
        };
        let fiber = &**f as *const Fiber as usize;
        coroutines.push(Coroutine::with_stack(stack, move |y: &Yielder<(), ()>, ()| {
            let fiber = fiber as *const Fiber;
            // Safety: the fiber outlives its coroutine (both live for the
            // block), and its argv matches the kernel's parameters.
            unsafe {
                (*fiber).yielder.set(y);
                crate::capi::call_packed(thread_fn, (*(*fiber).argv.get()).as_mut_ptr());
            }
            false
        }));
    }
    let result = schedule(launch, fibers, &mut coroutines);
    for mut c in coroutines {
        if !c.done() {
            // Safety: a deadlocked or abandoned thread's stack holds only JIT
            // frames and runtime frames without destructors.
            unsafe { c.force_reset() };
        }
        stacks.push(c.into_stack());
    }
    result
}

fn schedule(launch: &Launch, fibers: &[Box<Fiber>], coroutines: &mut [Coroutine<(), (), abi::Trapped, DefaultStack>]) -> Result<(), String> {
    let n = fibers.len();
    let mut spinning_since: Option<Instant> = None;
    loop {
        for (f, c) in fibers.iter().zip(coroutines.iter_mut()) {
            if f.state.get() == State::Ready {
                if let CoroutineResult::Return(trapped) = abi::resume_guarded(c) {
                    f.state.set(State::Done);
                    if trapped {
                        // Safety: the thread is no longer running.
                        let t = unsafe { (*f.ctx.get()).tid };
                        return Err(format!("{} in thread ({}, {}, {})", abi::last_fault(), t[0], t[1], t[2]));
                    }
                }
            }
        }
        if launch.failed.load(Ordering::Acquire) {
            return Ok(()); // the error is recorded; stop this block
        }
        let mut released = false;
        for warp_start in (0..n).step_by(32) {
            let lanes: Vec<warp::Lane> = fibers[warp_start..(warp_start + 32).min(n)]
                .iter()
                .map(|f| match (f.state.get(), f.request.get()) {
                    (State::Done, _) => warp::Lane::Gone,
                    (State::Waiting, Request::Warp(r)) => warp::Lane::Warp(r),
                    _ => warp::Lane::Other,
                })
                .collect();
            if let Some((group, results)) = warp::try_release(&lanes) {
                for (l, f) in fibers[warp_start..(warp_start + 32).min(n)].iter().enumerate() {
                    if group & (1 << l) != 0 {
                        f.result.set(results[l]);
                        f.state.set(State::Ready);
                    }
                }
                released = true;
            }
        }
        if released {
            spinning_since = None;
            continue;
        }
        let mut yielded = false;
        for f in fibers {
            if f.state.get() == State::Waiting && matches!(f.request.get(), Request::Yield) {
                f.state.set(State::Ready);
                yielded = true;
            }
        }
        if yielded {
            let since = *spinning_since.get_or_insert_with(Instant::now);
            if since.elapsed() > SPIN_LIMIT {
                return Err(format!("threads waited {} s in atomic waits that no thread satisfied (a deadlock)", SPIN_LIMIT.as_secs()));
            }
            continue;
        }
        let live: Vec<&Box<Fiber>> = fibers.iter().filter(|f| f.state.get() != State::Done).collect();
        if live.is_empty() {
            return Ok(());
        }
        let at_barrier = live.iter().filter(|f| matches!(f.request.get(), Request::Barrier { .. })).count();
        if at_barrier == live.len() && live.len() == n {
            let preds: Vec<bool> = live.iter().map(|f| matches!(f.request.get(), Request::Barrier { pred: true, .. })).collect();
            let count = preds.iter().filter(|p| **p).count() as u64;
            for f in &live {
                let Request::Barrier { kind, .. } = f.request.get() else { unreachable!() };
                f.result.set(match kind {
                    1 => count,
                    2 => u64::from(count == n as u64),
                    3 => u64::from(count > 0),
                    _ => 0,
                });
                f.state.set(State::Ready);
            }
            spinning_since = None;
            continue;
        }
        return Err(deadlock(fibers, at_barrier, live.len()));
    }
}

fn deadlock(fibers: &[Box<Fiber>], at_barrier: usize, live: usize) -> String {
    let n = fibers.len();
    let exited = n - live;
    if at_barrier == live {
        return format!(
            "deadlock: syncthreads was reached by {at_barrier} of the block's {n} threads; the other {exited} exited without reaching it (every thread of a block must reach each barrier)"
        );
    }
    let in_warp: Vec<usize> = (0..n).filter(|&i| fibers[i].state.get() == State::Waiting && matches!(fibers[i].request.get(), Request::Warp(_))).collect();
    let lanes = |v: &[usize]| v.iter().take(8).map(|i| format!("thread {i}")).collect::<Vec<_>>().join(", ") + if v.len() > 8 { ", ..." } else { "" };
    format!(
        "deadlock: {} threads wait in warp operations whose mask names lanes that never arrive ({}), {at_barrier} wait at syncthreads, {exited} exited",
        in_warp.len(),
        lanes(&in_warp)
    )
}
