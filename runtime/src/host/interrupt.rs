//! Ctrl-C during a host launch (docs/reliability.md, "Signals").
//!
//! A launch made from the process's main thread arms [`SigintGuard`]: a
//! SIGINT handler (installed at the first launch and kept) that sets
//! [`STOP`] while a launch is armed, wakes the
//! watchdog thread through a pipe (both async-signal-safe) and then calls
//! the handler that was there before (Python's, which trips the flag that
//! `PyErr_CheckSignals` turns into `KeyboardInterrupt`). Nothing changes in
//! the generated code: workers test [`STOP`] where they already test for a
//! failed launch (between blocks, in the coroutine scheduler, in atomic
//! waits), and a thread still inside kernel code (a `while True:` that
//! never reaches a barrier) is stopped by the watchdog, which sends each
//! registered worker [`escape_signal`] every 2 ms until the launch ends.
//! That signal's handler leaves the kernel's coroutine through the trap
//! handler that already turns memory faults into errors, but only when the
//! interrupted instruction is JIT-compiled kernel code (outside every
//! loaded library: never inside printf, malloc or a runtime entry point
//! that holds a lock); otherwise the next signal tries again. So the cost
//! on the launch path is a clock read, a `sigaction` query (is the handler
//! still ours?) at most every 50 ms, and a registry push per worker; none
//! per iteration of a kernel's loops.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Set by the SIGINT handler while an interruptible launch runs; cleared
/// when the next one starts.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Whether an interruptible launch is running (the watchdog's loop).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// How often a launch asks whether the SIGINT handler is still pydev's
/// (a program that installs another with `signal.signal` gets pydev's back
/// at the first launch this long after).
const RECHECK_NS: u64 = 50_000_000;
static START: OnceLock<std::time::Instant> = OnceLock::new();
/// When the handler was last checked (ns after START; 0: never), and
/// whether launches may arm it.
static CHECKED_AT: AtomicU64 = AtomicU64::new(0);
static ARMABLE: AtomicBool = AtomicBool::new(false);

/// Worker threads of the interruptible launch now running.
static WORKERS: Mutex<Vec<libc::pthread_t>> = Mutex::new(Vec::new());

/// Write end of the watchdog's pipe (-1 until it runs).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The SIGINT action replaced by the guard now installed: its handler
/// address and flags, called by ours.
static PREVIOUS_HANDLER: AtomicUsize = AtomicUsize::new(0);
static PREVIOUS_FLAGS: AtomicI32 = AtomicI32::new(0);

/// Executable segments of every loaded object (start, end), refreshed by
/// the watchdog before it signals: an escape only leaves code outside them.
const MAX_RANGES: usize = 1024;
static RANGES: [(AtomicUsize, AtomicUsize); MAX_RANGES] =
    [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; MAX_RANGES];
static RANGE_COUNT: AtomicUsize = AtomicUsize::new(0);

/// Whether the calling thread is the process's main thread (the one that
/// runs Python's signal handlers); asked once per thread.
pub fn on_main_thread() -> bool {
    thread_local! {
        static MAIN: bool = {
            // SAFETY: getpid and gettid take no arguments and cannot fail.
            unsafe { libc::getpid() == libc::gettid() }
        };
    }
    MAIN.with(|m| *m)
}

/// The real-time signal that stops a worker inside kernel code.
pub(super) fn escape_signal() -> c_int {
    libc::SIGRTMIN() + 6
}

/// SIGINT handling for one launch. The handler stays installed after the
/// launch (it only chains to the previous one then); each launch checks
/// with one `sigaction` query that it is still there, and reinstalls it
/// when the program installed another handler since (Python's
/// `signal.signal` does so), chaining to that one.
pub struct SigintGuard {
    armed: bool,
}

impl SigintGuard {
    /// Arms Ctrl-C for a launch, unless SIGINT is ignored or has its
    /// default action (then Ctrl-C keeps doing what it did). Whether the
    /// handler is still pydev's is asked of the kernel (one `sigaction`
    /// query) at most every [`RECHECK_NS`]; launches in between only read
    /// the clock.
    pub fn install() -> Self {
        start_watchdog();
        let now = START.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64;
        let checked = CHECKED_AT.load(Ordering::Relaxed);
        let armable = if checked != 0 && now.wrapping_sub(checked) < RECHECK_NS {
            ARMABLE.load(Ordering::Relaxed)
        } else {
            let armable = Self::check();
            ARMABLE.store(armable, Ordering::Relaxed);
            CHECKED_AT.store(now.max(1), Ordering::Relaxed);
            armable
        };
        if !armable {
            return Self { armed: false };
        }
        STOP.store(false, Ordering::SeqCst);
        ACTIVE.store(true, Ordering::SeqCst);
        Self { armed: true }
    }

    /// Makes sure pydev's handler is installed, chaining to the one there
    /// (one query; a second call only when the program installed another
    /// since); false when SIGINT is ignored or has its default action.
    fn check() -> bool {
        // SAFETY: queries the current action into a zeroed, writable sigaction.
        let current = unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current) != 0 {
                return false;
            }
            current
        };
        let ours = on_sigint as *const () as usize;
        if current.sa_sigaction == libc::SIG_DFL || current.sa_sigaction == libc::SIG_IGN {
            return false;
        }
        if current.sa_sigaction != ours {
            PREVIOUS_HANDLER.store(current.sa_sigaction, Ordering::SeqCst);
            PREVIOUS_FLAGS.store(current.sa_flags, Ordering::SeqCst);
            // SAFETY: installs a SA_SIGINFO handler that only does
            // async-signal-safe work and chains to the action just read.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = ours;
                // Python's flags (SA_ONSTACK, no SA_RESTART: its blocking calls expect EINTR).
                action.sa_flags = libc::SA_SIGINFO | (current.sa_flags & (libc::SA_ONSTACK | libc::SA_RESTART));
                action.sa_mask = current.sa_mask;
                if libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) != 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether SIGINT arrived since [`SigintGuard::install`].
    pub fn interrupted(&self) -> bool {
        self.armed && STOP.load(Ordering::SeqCst)
    }

    pub fn armed(&self) -> bool {
        self.armed
    }
}

impl Drop for SigintGuard {
    fn drop(&mut self) {
        if self.armed {
            ACTIVE.store(false, Ordering::SeqCst);
        }
    }
}

extern "C" fn on_sigint(sig: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    STOP.store(true, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: write(2) is async-signal-safe; one byte from a live local.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }
    let handler = PREVIOUS_HANDLER.load(Ordering::SeqCst);
    if handler == libc::SIG_DFL || handler == libc::SIG_IGN || handler == 0 {
        return;
    }
    // SAFETY: `handler` is the function the previous action installed, of
    // the signature its flags declare; it is called as the kernel would.
    unsafe {
        if PREVIOUS_FLAGS.load(Ordering::SeqCst) & libc::SA_SIGINFO != 0 {
            let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) = std::mem::transmute(handler);
            f(sig, info, context);
        } else {
            let f: extern "C" fn(c_int) = std::mem::transmute(handler);
            f(sig);
        }
    }
}

/// A worker of an interruptible launch, registered for the watchdog's
/// signals until dropped.
pub(super) struct Registered(libc::pthread_t);

impl Registered {
    pub(super) fn new() -> Self {
        // SAFETY: pthread_self cannot fail.
        let me = unsafe { libc::pthread_self() };
        WORKERS.lock().unwrap_or_else(|p| p.into_inner()).push(me);
        Self(me)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut w = WORKERS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = w.iter().position(|t| *t == self.0) {
            w.swap_remove(i);
        }
    }
}

/// Whether the watchdog thread runs in this process (cleared in a child
/// made by `fork()`, which has no copy of it).
static WATCHDOG_RUNNING: AtomicBool = AtomicBool::new(false);
static WATCHDOG_START: Mutex<()> = Mutex::new(());

/// In a child made by `fork()`: no watchdog thread and no workers (only
/// the forking thread exists); the next launch starts them again.
extern "C" fn after_fork_in_child() {
    WATCHDOG_RUNNING.store(false, Ordering::SeqCst);
    WAKE.store(-1, Ordering::SeqCst);
    ACTIVE.store(false, Ordering::SeqCst);
    STOP.store(false, Ordering::SeqCst);
    // The only thread of the child runs this: the lock is free unless a
    // parent thread held it at the fork, which leaves the list stale, so
    // it is cleared whenever it can be.
    if let Ok(mut w) = WORKERS.try_lock() {
        w.clear();
    }
}

/// Installs the escape signal's handler and the fork hook (once per
/// process) and starts the watchdog thread (again after a fork).
fn start_watchdog() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // SAFETY: reads the current SIGINT action into a zeroed sigaction:
        // what the handler chains to until a guard stores what it replaced.
        unsafe {
            let mut now: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut now) == 0 {
                PREVIOUS_HANDLER.store(now.sa_sigaction, Ordering::SeqCst);
                PREVIOUS_FLAGS.store(now.sa_flags, Ordering::SeqCst);
            }
        }
        // SAFETY: installs a SA_SIGINFO handler for a real-time signal no
        // one else uses; it only edits the interrupted thread's registers.
        // The fork hook only stores atomics (and try-locks a mutex in the
        // single-threaded child).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_escape as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(escape_signal(), &action, std::ptr::null_mut());
            libc::pthread_atfork(None, None, Some(after_fork_in_child));
        }
    });
    if WATCHDOG_RUNNING.load(Ordering::Acquire) {
        return;
    }
    // Another thread starting it meanwhile is enough (and waiting could
    // deadlock a child forked while a parent thread held the lock).
    let Ok(_starting) = WATCHDOG_START.try_lock() else { return };
    if WATCHDOG_RUNNING.load(Ordering::Acquire) {
        return;
    }
    let mut fds = [0 as c_int; 2];
    // SAFETY: pipe2 writes two descriptors into a live array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    let read_end = fds[0];
    if std::thread::Builder::new().name("pydev-sigint".into()).spawn(move || watchdog(read_end)).is_ok() {
        WAKE.store(fds[1], Ordering::SeqCst);
        WATCHDOG_RUNNING.store(true, Ordering::Release);
    }
}

fn watchdog(read_end: c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into a live local; the descriptor is ours.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        if n <= 0 {
            return;
        }
        refresh_ranges();
        while STOP.load(Ordering::SeqCst) && ACTIVE.load(Ordering::SeqCst) {
            {
                // Under the lock: a registered thread has not returned yet.
                let workers = WORKERS.lock().unwrap_or_else(|p| p.into_inner());
                for t in workers.iter() {
                    // SAFETY: `t` is a live thread (it deregisters under
                    // this lock before it ends).
                    unsafe { libc::pthread_kill(*t, escape_signal()) };
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Reads the executable segments of every loaded object into [`RANGES`].
fn refresh_ranges() {
    unsafe extern "C" fn each(info: *mut libc::dl_phdr_info, _size: usize, data: *mut c_void) -> c_int {
        // SAFETY: dl_iterate_phdr passes a valid info whose dlpi_phdr holds
        // dlpi_phnum headers; `data` is the counter passed below.
        unsafe {
            let info = &*info;
            let n = &mut *data.cast::<usize>();
            for i in 0..usize::from(info.dlpi_phnum) {
                let ph = &*info.dlpi_phdr.add(i);
                if ph.p_type == libc::PT_LOAD && ph.p_flags & libc::PF_X != 0 && *n < MAX_RANGES {
                    let start = info.dlpi_addr as usize + ph.p_vaddr as usize;
                    RANGES[*n].0.store(start, Ordering::Relaxed);
                    RANGES[*n].1.store(start + ph.p_memsz as usize, Ordering::Relaxed);
                    *n += 1;
                }
            }
        }
        0
    }
    let mut n = 0usize;
    // SAFETY: the callback only reads the headers it is given.
    unsafe { libc::dl_iterate_phdr(Some(each), (&mut n as *mut usize).cast()) };
    RANGE_COUNT.store(n, Ordering::SeqCst);
}

/// Whether `pc` lies in a loaded object's code (not JIT-compiled code).
fn in_library(pc: usize) -> bool {
    let n = RANGE_COUNT.load(Ordering::SeqCst);
    // No ranges read: be safe and never escape.
    n == 0 || RANGES[..n].iter().any(|(s, e)| (s.load(Ordering::Relaxed)..e.load(Ordering::Relaxed)).contains(&pc))
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
extern "C" fn on_escape(sig: c_int, _info: *mut libc::siginfo_t, context: *mut c_void) {
    if !STOP.load(Ordering::SeqCst) {
        return;
    }
    // SAFETY: the kernel passes the interrupted thread's ucontext.
    let pc = unsafe { (*context.cast::<libc::ucontext_t>()).uc_mcontext.gregs[libc::REG_RIP as usize] as usize };
    if in_library(pc) {
        return; // the watchdog signals again in 2 ms
    }
    // SAFETY: as above; the escape only happens inside a guarded coroutine.
    unsafe { super::abi::escape(sig, 0, context) };
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
extern "C" fn on_escape(_sig: c_int, _info: *mut libc::siginfo_t, _context: *mut c_void) {}

#[cfg(test)]
mod tests {
    use super::*;

    extern "C" fn ignore(_: c_int) {}

    /// What arming Ctrl-C costs a launch: `cargo test -p pydev-runtime --lib
    /// sigint_guard_cost -- --ignored --nocapture` (docs/reliability.md).
    #[test]
    #[ignore = "a measurement, not a check"]
    fn sigint_guard_cost() {
        // SAFETY: installs a handler that does nothing, as a program's own.
        unsafe { libc::signal(libc::SIGINT, ignore as *const () as libc::sighandler_t) };
        let n = 1_000_000;
        for (what, register) in [("arm only", false), ("arm + one worker registered", true)] {
            let t = std::time::Instant::now();
            for _ in 0..n {
                let g = SigintGuard::install();
                assert!(g.armed());
                let r = register.then(Registered::new);
                drop(r);
                drop(g);
            }
            println!("{what}: {:.0} ns per launch", t.elapsed().as_nanos() as f64 / n as f64);
        }
        let t = std::time::Instant::now();
        for _ in 0..n / 10 {
            assert!(SigintGuard::check());
        }
        println!("the sigaction query alone: {:.0} ns", t.elapsed().as_nanos() as f64 / (n / 10) as f64);
    }
}
