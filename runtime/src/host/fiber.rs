//! Threads of a block as stackful coroutines (corosensei), for kernels with
//! barriers or warp operations.
//!
//! Each worker keeps one coroutine state per thread of a block and a pool of
//! stacks. A block runs in rounds: every runnable thread runs until it
//! suspends (a barrier, a warp operation, a wait) or returns; then the
//! warp operations that can complete are released ([`warp::release`]: a
//! subset of warps, or of a warp's lanes, goes on while the others wait at
//! a barrier), and the block barrier is released when every thread has
//! reached it (for a kernel with `pydev.exited_skip_barriers`, every thread
//! that has not returned, as on GPUs). When nothing can be released, the
//! block is deadlocked: that is an error, not a hang.

use super::{abi, abi::Chunk, block_index, new_ctx, shared_buffer, warp, BlockQueue, Launch, LaunchConfig, ThreadCtx};
use corosensei::{stack::DefaultStack, Coroutine, CoroutineResult, Yielder};
use pydev_dialect::abi::barrier_kind;
use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
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
    ///
    /// # Safety
    /// Called from inside this fiber's running coroutine (its yielder is
    /// set when the coroutine starts).
    pub unsafe fn suspend(&self, request: Request) -> u64 {
        self.request.set(request);
        self.state.set(State::Waiting);
        // SAFETY: the yielder was set when this coroutine started and stays
        // valid while it runs; `suspend` is only called from inside it.
        unsafe { (*self.yielder.get()).suspend(()) };
        self.result.get()
    }
}

/// Stacks kept between launches: allocating one (mmap and a guard page)
/// costs far more than a barrier.
static POOL: std::sync::Mutex<Vec<DefaultStack>> = std::sync::Mutex::new(Vec::new());

/// At most this many stacks stay pooled (256 KiB of address space each;
/// only the pages a thread touched use memory).
const POOL_CAP: usize = 4096;

fn take_stacks(n: usize) -> Vec<DefaultStack> {
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    let at = pool.len().saturating_sub(n);
    pool.split_off(at)
}

fn give_back(mut stacks: Vec<DefaultStack>) {
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    stacks.truncate(POOL_CAP.saturating_sub(pool.len()));
    pool.append(&mut stacks);
}

type Coroutines = Vec<Coroutine<(), (), abi::Trapped, DefaultStack>>;

/// One fiber per thread of a block, each with its own context (`template`
/// at its thread index) and the launch's arguments.
///
/// # Safety
/// As [`worker`] requires of `buffers`.
// Boxed: a coroutine and the thread context hold each fiber's address.
#[allow(clippy::vec_box)]
unsafe fn new_fibers(config: &LaunchConfig, template: ThreadCtx, buffers: &[Vec<Chunk>]) -> Vec<Box<Fiber>> {
    let [bx, by, bz] = config.block;
    let fibers: Vec<Box<Fiber>> = (0..bx * by * bz)
        .map(|i| {
            let ctx = ThreadCtx { tid: [i % bx, (i / bx) % by, i / (bx * by)], ..template };
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
        // SAFETY: nothing runs yet; the boxes never move.
        unsafe {
            (*ctx).fiber = (&**f as *const Fiber).cast_mut();
            *f.ctx_slot.get() = ctx;
            *f.argv.get() = abi::argv(buffers, f.ctx_slot.get());
        }
    }
    fibers
}

/// Runs blocks from `queue` until it is empty, each thread a coroutine.
///
/// # Safety
/// `buffers` are the launch's parameter buffers, one per parameter of the
/// launch's kernel and at least its size, whose array descriptors address
/// live memory for the whole call (as `HostProgram::launch` requires).
pub unsafe fn worker(launch: &Launch, config: &LaunchConfig, buffers: &[Vec<Chunk>], queue: &BlockQueue) {
    let mut shared = shared_buffer(launch, config);
    let template = new_ctx(launch, config, &mut shared);
    // SAFETY: as this function's caller promises.
    let fibers = unsafe { new_fibers(config, template, buffers) };
    let mut stacks = take_stacks(fibers.len());
    'blocks: while let Some(chunk) = queue.next_chunk() {
        for b in chunk {
            if launch.stopped() {
                break 'blocks;
            }
            let bid = block_index(b, config.grid);
            // SAFETY: the fibers' argv point into `buffers` (the caller's
            // promise covers them).
            let result = unsafe { start(launch, &fibers, &mut stacks, bid) }.and_then(|mut coroutines| {
                let r = schedule(launch, &fibers, &mut coroutines);
                finish(coroutines, &mut stacks);
                match r {
                    Ok(Outcome::AtGridBarrier) => {
                        Err(BlockError::Deadlock("grid sync in a kernel not launched cooperatively".to_owned()))
                    }
                    r => r.map(|_| ()),
                }
            });
            if let Err(message) = result {
                launch.fail(format!("{message} in block ({}, {}, {})", bid[0], bid[1], bid[2]));
            }
        }
    }
    give_back(stacks);
}

/// The blocks a cooperative launch may have with `threads` threads per
/// block: all of them run at once (one coroutine per thread), so the host
/// target allows what a GPU with one streaming multiprocessor per core
/// would, each holding at most 2048 threads in at most 32 blocks (sm_90's
/// limits). A larger grid is refused, as CUDA refuses a cooperative launch
/// larger than the device can hold (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`).
pub fn max_cooperative_blocks(threads: u64) -> u64 {
    super::cores() * (2048 / threads.max(1)).min(32)
}

/// Where the workers of a cooperative launch meet at each grid barrier:
/// each brings how many of its blocks wait at the grid barrier, how many
/// have returned, and whether it is stopping; each leaves with the sums.
pub struct Rendezvous {
    state: std::sync::Mutex<RendezvousState>,
    wake: std::sync::Condvar,
    workers: usize,
}

#[derive(Default)]
struct RendezvousState {
    arrived: usize,
    generation: u64,
    sums: (u64, u64, bool),
    last: (u64, u64, bool),
}

impl Rendezvous {
    pub fn new(workers: usize) -> Self {
        Self { state: Default::default(), wake: Default::default(), workers }
    }

    fn meet(&self, parked: u64, returned: u64, stop: bool) -> (u64, u64, bool) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.sums = (s.sums.0 + parked, s.sums.1 + returned, s.sums.2 || stop);
        s.arrived += 1;
        if s.arrived == self.workers {
            s.last = std::mem::take(&mut s.sums);
            s.arrived = 0;
            s.generation += 1;
            self.wake.notify_all();
            return s.last;
        }
        let generation = s.generation;
        while s.generation == generation {
            s = self.wake.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.last
    }
}

/// A block of a cooperative launch: its threads, their coroutines and its
/// shared memory, kept from one grid barrier to the next.
struct ResidentBlock {
    bid: [u32; 3],
    #[allow(clippy::vec_box)] // boxed, as `new_fibers` makes them
    fibers: Vec<Box<Fiber>>,
    coroutines: Coroutines,
    _shared: Vec<Chunk>,
    returned: bool,
}

/// Worker `w` of `workers` of a cooperative launch (a kernel that
/// synchronizes its grid): it holds its share of the grid's blocks, all
/// started at once, and runs each until its threads wait at a grid barrier
/// or return; then the workers meet ([`Rendezvous`]) and release the
/// barrier once every block waits at it. A block that returned while
/// others wait at a grid barrier is a deadlock on a GPU: it is reported.
///
/// # Safety
/// As [`worker`].
pub unsafe fn grid_worker(
    launch: &Launch,
    config: &LaunchConfig,
    buffers: &[Vec<Chunk>],
    w: usize,
    workers: usize,
    rendezvous: &Rendezvous,
) {
    let blocks: u64 = config.grid.iter().map(|&d| u64::from(d)).product();
    let share = |w: usize| blocks * w as u64 / workers as u64;
    let mut resident: Vec<ResidentBlock> = Vec::new();
    let mut stacks = Vec::new();
    let mut failed = false;
    for b in share(w)..share(w + 1) {
        let bid = block_index(b, config.grid);
        let mut shared = shared_buffer(launch, config);
        let template = new_ctx(launch, config, &mut shared);
        // SAFETY: as this function's caller promises.
        let fibers = unsafe { new_fibers(config, template, buffers) };
        stacks.append(&mut take_stacks(fibers.len()));
        // SAFETY: the fibers' argv point into `buffers`.
        match unsafe { start(launch, &fibers, &mut stacks, bid) } {
            Ok(coroutines) => {
                resident.push(ResidentBlock { bid, fibers, coroutines, _shared: shared, returned: false })
            }
            Err(message) => {
                launch.fail(format!("{message} in block ({}, {}, {})", bid[0], bid[1], bid[2]));
                failed = true;
                break;
            }
        }
    }
    loop {
        let (mut parked, mut returned) = (0u64, 0u64);
        for block in resident.iter_mut().filter(|b| !b.returned) {
            if failed || launch.stopped() {
                break;
            }
            match schedule(launch, &block.fibers, &mut block.coroutines) {
                Ok(Outcome::AtGridBarrier) => parked += 1,
                Ok(Outcome::Returned) => block.returned = true,
                Err(message) => {
                    let bid = block.bid;
                    launch.fail(format!("{message} in block ({}, {}, {})", bid[0], bid[1], bid[2]));
                    failed = true;
                }
            }
        }
        returned += resident.iter().filter(|b| b.returned).count() as u64;
        let (parked, returned, stop) = rendezvous.meet(parked, returned, failed || launch.stopped());
        if stop || parked == 0 {
            break;
        }
        if returned > 0 {
            if w == 0 {
                launch.fail(format!(
                    "deadlock: grid sync was reached by {parked} of the grid's {blocks} blocks; the other {returned} returned without reaching it (every block of a cooperative launch must reach each grid sync)"
                ));
            }
            break;
        }
        for block in &resident {
            for f in block.fibers.iter().filter(|f| f.state.get() == State::Waiting) {
                f.result.set(0);
                f.state.set(State::Ready);
            }
        }
    }
    for block in resident {
        finish(block.coroutines, &mut stacks);
    }
    give_back(stacks);
}

/// Errors of running one block of a kernel on fibers: each becomes the
/// launch's failure, with the block's index after it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BlockError {
    #[error("cannot allocate a thread stack: {message}")]
    Stack { message: String },
    /// A thread trapped (`fault`: what, as the trap handler recorded it).
    #[error("{fault} in thread ({}, {}, {})", .thread[0], .thread[1], .thread[2])]
    Trapped { fault: String, thread: [u32; 3] },
    #[error("threads waited {seconds} s in atomic waits that no thread satisfied (a deadlock)")]
    AtomicWait { seconds: u64 },
    /// Threads wait at a barrier or warp operation that the others never
    /// reach (the sentence says which threads wait where).
    #[error("{0}")]
    Deadlock(String),
}

/// How far [`schedule`] ran a block.
enum Outcome {
    /// Every thread returned.
    Returned,
    /// Every thread that has not returned waits at a grid barrier.
    AtGridBarrier,
}

/// Starts one coroutine per fiber for block `bid`.
///
/// # Safety
/// Each fiber's argv holds the pointers of the launch's parameter buffers,
/// as [`worker`] requires of them.
unsafe fn start(
    launch: &Launch,
    fibers: &[Box<Fiber>],
    stacks: &mut Vec<DefaultStack>,
    bid: [u32; 3],
) -> Result<Coroutines, BlockError> {
    let thread_fn = launch.program.thread_fn;
    let mut coroutines: Coroutines = Vec::with_capacity(fibers.len());
    for f in fibers {
        // SAFETY: no coroutine of this block runs yet.
        unsafe { (*f.ctx.get()).bid = bid };
        f.state.set(State::Ready);
        let stack = match stacks.pop() {
            Some(s) => s,
            None => match DefaultStack::new(STACK_BYTES) {
                Ok(s) => s,
                Err(e) => {
                    finish(coroutines, stacks);
                    return Err(BlockError::Stack { message: e.to_string() });
                }
            },
        };
        let fiber = &**f as *const Fiber as usize;
        coroutines.push(Coroutine::with_stack(stack, move |y: &Yielder<(), ()>, ()| {
            let fiber = fiber as *const Fiber;
            // SAFETY: the fiber outlives its coroutine (both live for the
            // block), and its argv matches the kernel's parameters.
            unsafe {
                (*fiber).yielder.set(y);
                crate::capi::call_packed(thread_fn, (*(*fiber).argv.get()).as_mut_ptr());
            }
            false
        }));
    }
    Ok(coroutines)
}

/// Returns the coroutines' stacks to `stacks`, abandoning unfinished ones.
fn finish(coroutines: Coroutines, stacks: &mut Vec<DefaultStack>) {
    for mut c in coroutines {
        if !c.done() {
            // SAFETY: a deadlocked or abandoned thread's stack holds only JIT
            // frames and runtime frames without destructors.
            unsafe { c.force_reset() };
        }
        stacks.push(c.into_stack());
    }
}

fn schedule(
    launch: &Launch,
    fibers: &[Box<Fiber>],
    coroutines: &mut [Coroutine<(), (), abi::Trapped, DefaultStack>],
) -> Result<Outcome, BlockError> {
    let n = fibers.len();
    let mut spinning_since: Option<Instant> = None;
    loop {
        // Run every runnable thread until it suspends, counting where each
        // thread stands in the same pass.
        let (mut done, mut at_barrier, mut at_grid, mut at_warp, mut yielding, mut count) =
            (0usize, 0usize, 0usize, 0usize, 0usize, 0u64);
        for (f, c) in fibers.iter().zip(coroutines.iter_mut()) {
            if f.state.get() == State::Ready {
                if let CoroutineResult::Return(trapped) = abi::resume_guarded(c) {
                    f.state.set(State::Done);
                    if trapped {
                        // SAFETY: the thread is no longer running.
                        let t = unsafe { (*f.ctx.get()).tid };
                        return Err(BlockError::Trapped { fault: abi::last_fault(), thread: t });
                    }
                }
            }
            match (f.state.get(), f.request.get()) {
                (State::Done, _) => done += 1,
                (_, Request::Barrier { pred, kind }) => {
                    at_barrier += 1;
                    at_grid += usize::from(i64::from(kind) == barrier_kind::GRID);
                    count += u64::from(pred);
                }
                (_, Request::Warp(_)) => at_warp += 1,
                (_, Request::Yield) => yielding += 1,
            }
        }
        if launch.stopped() {
            return Ok(Outcome::Returned); // the error is recorded; stop this block
        }
        if at_warp > 0 && release_warps(fibers) {
            spinning_since = None;
            continue;
        }
        if yielding > 0 {
            for f in fibers {
                if f.state.get() == State::Waiting && matches!(f.request.get(), Request::Yield) {
                    f.state.set(State::Ready);
                }
            }
            let since = *spinning_since.get_or_insert_with(Instant::now);
            if since.elapsed() > SPIN_LIMIT {
                return Err(BlockError::AtomicWait { seconds: SPIN_LIMIT.as_secs() });
            }
            continue;
        }
        let live = n - done;
        if live == 0 {
            return Ok(Outcome::Returned);
        }
        // Every thread at the barrier; with `exited_skip` (a pydev.numba
        // kernel) every thread that has not returned, as on GPUs.
        let exited_skip = launch.program.exited_skip;
        let all_arrived = at_barrier == n || (exited_skip && at_barrier == live);
        if all_arrived && at_grid > 0 {
            if at_grid < at_barrier {
                return Err(BlockError::Deadlock(format!(
                    "deadlock: {at_grid} threads wait at a grid sync, {} at syncthreads",
                    at_barrier - at_grid
                )));
            }
            return Ok(Outcome::AtGridBarrier); // the grid's workers release it
        }
        if all_arrived {
            let arrived = at_barrier as u64;
            for f in fibers.iter().filter(|f| f.state.get() != State::Done) {
                let Request::Barrier { kind, .. } = f.request.get() else {
                    unreachable!("every live thread is at the barrier")
                };
                f.result.set(match i64::from(kind) {
                    barrier_kind::COUNT => count,
                    barrier_kind::AND => u64::from(count == arrived),
                    barrier_kind::OR => u64::from(count > 0),
                    _ => 0,
                });
                f.state.set(State::Ready);
            }
            spinning_since = None;
            continue;
        }
        return Err(BlockError::Deadlock(deadlock(fibers, at_barrier, live)));
    }
}

/// Releases what can complete in each warp ([`warp::release`]); whether
/// anything did.
fn release_warps(fibers: &[Box<Fiber>]) -> bool {
    let n = fibers.len();
    let mut released = false;
    let mut lanes = [warp::Lane::Gone; 32];
    for warp_start in (0..n).step_by(32) {
        let warp_fibers = &fibers[warp_start..(warp_start + 32).min(n)];
        let mut any = false;
        for (lane, f) in lanes.iter_mut().zip(warp_fibers) {
            *lane = match (f.state.get(), f.request.get()) {
                (State::Done, _) => warp::Lane::Gone,
                (State::Waiting, Request::Warp(r)) => {
                    any = true;
                    warp::Lane::Warp(r)
                }
                _ => warp::Lane::Other,
            };
        }
        if !any {
            continue;
        }
        let (group, results) = warp::release(&lanes[..warp_fibers.len()]);
        for (l, f) in warp_fibers.iter().enumerate() {
            if group & (1 << l) != 0 {
                f.result.set(results[l]);
                f.state.set(State::Ready);
            }
        }
        released |= group != 0;
    }
    released
}

fn deadlock(fibers: &[Box<Fiber>], at_barrier: usize, live: usize) -> String {
    let n = fibers.len();
    let exited = n - live;
    if at_barrier == live {
        return format!(
            "deadlock: syncthreads was reached by {at_barrier} of the block's {n} threads; the other {exited} exited without reaching it (every thread of a block must reach each barrier)"
        );
    }
    let in_warp: Vec<usize> = (0..n)
        .filter(|&i| fibers[i].state.get() == State::Waiting && matches!(fibers[i].request.get(), Request::Warp(_)))
        .collect();
    let lanes = |v: &[usize]| {
        v.iter().take(8).map(|i| format!("thread {i}")).collect::<Vec<_>>().join(", ")
            + if v.len() > 8 { ", ..." } else { "" }
    };
    format!(
        "deadlock: {} threads wait in warp operations whose mask names lanes that never arrive ({}), {at_barrier} wait at syncthreads, {exited} exited",
        in_warp.len(),
        lanes(&in_warp)
    )
}
