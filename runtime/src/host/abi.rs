//! The entry points JIT-compiled kernels call (`pydev_rt_*`, declared by
//! `pydev-lower-simt-host` and `pydev-lower-atomics{target=host}`), and the
//! packed calls into kernels. With `capi.rs`, the only `unsafe` code of the
//! crate: kernels hand over raw pointers to their thread context and data.

use super::{fiber, warp, Launch, ThreadCtx};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

pub fn symbols() -> Vec<(&'static str, *mut c_void)> {
    vec![
        ("pydev_rt_barrier", pydev_rt_barrier as *mut c_void),
        ("pydev_rt_warp", pydev_rt_warp as *mut c_void),
        ("pydev_rt_error", pydev_rt_error as *mut c_void),
        ("pydev_rt_wait", pydev_rt_wait as *mut c_void),
        ("pydev_rt_atomic_fmax_f32", pydev_rt_atomic_fmax_f32 as *mut c_void),
        ("pydev_rt_atomic_fmin_f32", pydev_rt_atomic_fmin_f32 as *mut c_void),
        ("pydev_rt_atomic_fmax_f64", pydev_rt_atomic_fmax_f64 as *mut c_void),
        ("pydev_rt_atomic_fmin_f64", pydev_rt_atomic_fmin_f64 as *mut c_void),
    ]
}

pub fn as_bytes(v: &mut [u128]) -> &mut [u8] {
    // Safety: u128 has no padding and any byte pattern is valid for u8.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

pub fn erase_launch(launch: &Launch) -> *const Launch<'static> {
    // The context never outlives the launch: workers finish inside it.
    (launch as *const Launch).cast()
}

/// The packed argument vector: one pointer per parameter buffer, then a
/// pointer to the variable holding the context pointer.
pub fn argv(buffers: &[Vec<u128>], ctx_slot: *mut *mut ThreadCtx) -> Vec<*mut c_void> {
    let mut v: Vec<*mut c_void> = buffers.iter().map(|b| b.as_ptr() as *mut c_void).collect();
    v.push(ctx_slot.cast());
    v
}

/// Calls packed entry `f` with `buffers` and `ctx`.
pub fn run_packed(f: usize, buffers: &[Vec<u128>], ctx: &mut ThreadCtx) {
    let mut slot: *mut ThreadCtx = ctx;
    let mut args = argv(buffers, &mut slot);
    // Safety: `f` is a packed wrapper of a kernel whose parameters are the
    // buffers (sizes checked at launch) and the context.
    unsafe { crate::capi::call_packed(f, args.as_mut_ptr()) }
}

fn launch_of<'a>(ctx: *mut ThreadCtx) -> &'a Launch<'a> {
    // Safety: every context the runtime hands to a kernel points at the
    // launch that is running it.
    unsafe { &*(*ctx).launch.cast::<Launch<'a>>() }
}

fn fiber_of<'a>(ctx: *mut ThreadCtx) -> Option<&'a mut fiber::Fiber> {
    // Safety: `fiber` is null or the coroutine state that owns `ctx`, alive
    // while its thread runs.
    unsafe { (*ctx).fiber.as_mut() }
}

extern "C" fn pydev_rt_barrier(ctx: *mut ThreadCtx, kind: i32, pred: i32) -> i32 {
    match fiber_of(ctx) {
        Some(f) => f.suspend(fiber::Request::Barrier { kind, pred: pred != 0 }) as i32,
        None => {
            launch_of(ctx).fail("a barrier ran outside a coroutine (internal error: please report it)".into());
            0
        }
    }
}

extern "C" fn pydev_rt_warp(ctx: *mut ThreadCtx, op: i32, mask: i32, value: i64, arg: i32) -> i64 {
    match fiber_of(ctx) {
        Some(f) => f.suspend(fiber::Request::Warp(warp::Request { op, mask: mask as u32, value: value as u64, arg })) as i64,
        None => {
            launch_of(ctx).fail("a warp operation ran outside a coroutine (internal error: please report it)".into());
            value
        }
    }
}

extern "C" fn pydev_rt_error(ctx: *mut ThreadCtx, code: i32, loc: i32, a: i64, b: i64) {
    let launch = launch_of(ctx);
    let at = launch.program.locations.get(loc as usize).map_or("an unknown location", String::as_str);
    // Safety: live context of the calling thread.
    let (t, bl) = unsafe { ((*ctx).tid, (*ctx).bid) };
    let what = match i64::from(code) {
        pydev_passes::error_code::ZERO_DIVISION => "integer division by zero".to_owned(),
        pydev_passes::error_code::OUT_OF_BOUNDS => format!("index {a} is out of bounds for an axis of extent {b}"),
        _ => format!("runtime error {code}"),
    };
    launch.fail(format!("{what} at {at} (thread ({}, {}, {}) of block ({}, {}, {}))", t[0], t[1], t[2], bl[0], bl[1], bl[2]));
}

extern "C" fn pydev_rt_wait(ctx: *mut ThreadCtx, ptr: *mut c_void, old: i64, bytes: i32) {
    let current = || -> u64 {
        // Safety: `ptr` is the atomic reference the kernel waits on, aligned
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
    while current() == old {
        if launch_of(ctx).failed.load(Ordering::Acquire) {
            return;
        }
        match fiber_of(ctx) {
            Some(f) => {
                f.suspend(fiber::Request::Yield);
            }
            None => std::thread::yield_now(),
        }
    }
}

macro_rules! float_cas {
    ($name:ident, $f:ty, $atomic:ty, $better:expr) => {
        /// Python's max/min order as a compare-and-swap loop: the stored
        /// value changes only when `val` is strictly better (a NaN stays).
        extern "C" fn $name(ptr: *mut c_void, val: $f) -> $f {
            // Safety: an aligned atomic reference into a kernel argument.
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
