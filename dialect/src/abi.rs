//! The host ABI: every fact that the host lowering passes
//! (`pydev-lower-simt-host`, `pydev-lower-arrays{target=host}`,
//! `pydev-host-barrier-fission`) write into a module and the host runtime
//! (`runtime/src/host`) reads back, defined once. Passes and runtime both
//! depend on this crate and name these constants; nothing else spells them.
//!
//! Agreement is tested: `runtime/src/host/mod.rs` checks the offsets of its
//! `#[repr(C)] ThreadCtx` against [`ctx`] with `std::mem::offset_of!` (at
//! compile time), and `runtime/src/tests.rs` checks the frame head and the
//! codes; the attribute names are only ever used through [`attr`].

/// Byte offsets of the fields of the thread context (the runtime's
/// `ThreadCtx`, the trailing `%ctx: !llvm.ptr` of every host function).
/// All `u32` unless said.
pub mod ctx {
    /// `threadIdx.{x,y,z}` at `TID + 4 * d`.
    pub const TID: i64 = 0;
    /// `blockIdx.{x,y,z}`.
    pub const BID: i64 = 12;
    /// `blockDim.{x,y,z}`.
    pub const BDIM: i64 = 24;
    /// `gridDim.{x,y,z}`.
    pub const GDIM: i64 = 36;
    /// The block's shared memory (ptr): static arrays at fixed offsets.
    pub const SHARED: i64 = 48;
    /// The launch's dynamic shared memory (ptr).
    pub const DYN_SHARED: i64 = 56;
    /// Its size in bytes (u64).
    pub const DYN_SHARED_BYTES: i64 = 64;
    /// The runtime's launch (ptr, opaque to kernels).
    pub const LAUNCH: i64 = 72;
    /// The thread's coroutine, or null (ptr, opaque to kernels).
    pub const FIBER: i64 = 80;
    /// Per-thread frames of a kernel split at its barriers (ptr).
    pub const SCRATCH: i64 = 88;
    /// The barrier's running count (syncthreads_count/and/or).
    pub const COUNT: i64 = 96;
    /// The last barrier's total.
    pub const TOTAL: i64 = 100;
    /// Size of the whole context.
    pub const SIZE: i64 = 104;

    /// The offset of dimension `d` (0: x, 1: y, 2: z) of a `u32[3]` field.
    pub const fn dim(field: i64, d: i64) -> i64 {
        field + 4 * d
    }
}

/// The fixed head of a thread's frame in a kernel split at its barriers
/// and warp operations (`pydev-host-barrier-fission`): its block loop keeps
/// each thread's state and readiness here, and the runtime's
/// `pydev_rt_block_release` reads the requests and writes the results.
/// Values that live across a rendezvous follow the head.
pub mod frame {
    /// The state the thread last returned (i32; 0 before it starts, -1 once
    /// it returned).
    pub const STATE: i64 = 0;
    /// Warp operation: the mask (i32).
    pub const MASK: i64 = 4;
    /// Warp operation: the value's bits (i64).
    pub const VALUE: i64 = 8;
    /// Warp operation: the lane argument (source lane, delta, lane mask; i32).
    pub const ARG: i64 = 16;
    /// Warp operation: its code, [`super::warp_op`] (i32).
    pub const OP: i64 = 20;
    /// Warp operation: its result, written when the runtime releases the
    /// lane's group (i64).
    pub const RESULT: i64 = 24;
    /// Whether the thread runs in the block loop's next round of ready
    /// threads (i32: 1 once the runtime released its warp operation).
    pub const READY: i64 = 32;
    /// Size of the head.
    pub const HEAD: u64 = 40;
    /// States of warp operations have this bit set; block barriers' do not.
    pub const WARP_STATE: i64 = 1 << 16;
}

/// Warp operation codes (`pydev_rt_warp(ctx, op, ...)` and the frame's
/// [`frame::OP`]).
pub mod warp_op {
    pub const SYNCWARP: i64 = 0;
    pub const ACTIVEMASK: i64 = 1;
    pub const ALL: i64 = 2;
    pub const ANY: i64 = 3;
    pub const UNI: i64 = 4;
    pub const BALLOT: i64 = 5;
    pub const SHFL_IDX: i64 = 6;
    pub const SHFL_UP: i64 = 7;
    pub const SHFL_DOWN: i64 = 8;
    pub const SHFL_XOR: i64 = 9;
    pub const MATCH_ANY: i64 = 10;
    pub const MATCH_ALL: i64 = 11;
}

/// Block barrier kinds (`pydev_rt_barrier(ctx, kind, pred)`): what the
/// barrier returns to each thread.
pub mod barrier_kind {
    /// `syncthreads`: 0.
    pub const PLAIN: i64 = 0;
    /// `syncthreads_count`: how many threads passed a true predicate.
    pub const COUNT: i64 = 1;
    /// `syncthreads_and`: 1 when all did.
    pub const AND: i64 = 2;
    /// `syncthreads_or`: 1 when any did.
    pub const OR: i64 = 3;
    /// `grid_sync`: 0, once every thread of every block of the grid has
    /// reached it (only in [`super::attr::HOST_COOPERATIVE`] kernels).
    pub const GRID: i64 = 4;
}

/// Runtime error codes (`pydev_rt_error(ctx, code, loc, a, b)`).
pub mod error_code {
    pub const ZERO_DIVISION: i64 = 1;
    /// a = the index, b = the extent.
    pub const OUT_OF_BOUNDS: i64 = 2;
    /// A Python exception raised in device code ([`super::RAISE`]): a =
    /// the exception's id in the frontend's table (negative: not to be
    /// reported). The launch records the first one and goes on (the raising
    /// thread returns), as on GPUs.
    pub const EXCEPTION: i64 = 3;
}

/// The function through which device code raises a Python exception:
/// `func.func @__pydev_raise(%id: i32)`, which a frontend defines with an
/// empty body and calls, `id` indexing its own table of exception classes
/// and arguments (pydev.numba, `debug=True`), or -1 for an exception not to
/// report (without `debug=True`, in a device function: its callers return
/// too, [`RAISED`]). The host lowering turns each
/// call into `pydev_rt_error(ctx, EXCEPTION, loc, id, 0)`
/// (`pydev-lower-simt-host`); on cuda `pydev-cuda-boundscheck` gives it a
/// body that records the failure in the module's error buffer and ends the
/// thread.
pub const RAISE: &str = "__pydev_raise";

/// `func.func @__pydev_raised() -> i1`: whether the calling thread raised an
/// exception ([`RAISE`]) in this launch, which a frontend defines returning
/// false and calls after calls of device functions that may raise, to
/// return from their callers too. The host lowering turns each call into
/// `pydev_rt_raised(ctx) != 0`; on cuda a raising thread has ended, so false
/// is right there.
pub const RAISED: &str = "__pydev_raised";

/// Element kinds of privatized arrays ([`attr::HOST_PRIVATE`]).
pub mod private_kind {
    pub const I32: i64 = 1;
    pub const I64: i64 = 2;
    pub const F32: i64 = 3;
    pub const F64: i64 = 4;

    /// The element's size in bytes.
    pub const fn size(kind: i64) -> usize {
        if kind == I32 || kind == F32 {
            4
        } else {
            8
        }
    }
}

/// The runtime's entry points that host kernels call (`runtime/src/host/abi.rs`).
pub mod entry {
    /// `(ctx, kind, pred: i32) -> i32`: a block barrier.
    pub const BARRIER: &str = "pydev_rt_barrier";
    /// `(ctx, op, mask: i32, value: i64, arg: i32) -> i64`: a warp operation.
    pub const WARP: &str = "pydev_rt_warp";
    /// `(ctx, frame: i64, exited_skip: i32) -> i32`: after a round of a split
    /// kernel's block loop that the loop could not settle itself, release
    /// what can complete: warp operations (0: the threads it marked
    /// [`super::frame::READY`] run next), else the block barrier (its state,
    /// from which every live thread resumes); -1: leave the block (all
    /// returned; a deadlock, reported; or the launch stopped).
    /// `exited_skip`: threads that returned do not hold up a barrier
    /// ([`super::attr::EXITED_SKIP_BARRIERS`]).
    pub const BLOCK_RELEASE: &str = "pydev_rt_block_release";
    /// `(ctx, code, loc: i32, a, b: i64)`: report a failure ([`super::error_code`]).
    pub const ERROR: &str = "pydev_rt_error";
    /// `(ctx) -> i32`: 1 when the calling thread raised an exception in this
    /// launch ([`super::RAISED`]).
    pub const RAISED: &str = "pydev_rt_raised";
    /// `(ctx, ptr, old: i64, bytes: i32)`: wait until `*ptr != old`.
    pub const WAIT: &str = "pydev_rt_wait";
    /// `(ptr, value) -> old`: floating-point atomic max/min (no thread context).
    pub const ATOMIC_FMAX_F32: &str = "pydev_rt_atomic_fmax_f32";
    pub const ATOMIC_FMIN_F32: &str = "pydev_rt_atomic_fmin_f32";
    pub const ATOMIC_FMAX_F64: &str = "pydev_rt_atomic_fmax_f64";
    pub const ATOMIC_FMIN_F64: &str = "pydev_rt_atomic_fmin_f64";

    /// The floating-point atomic max (`max`) or min of `bits` (32 or 64).
    pub const fn atomic_fminmax(max: bool, bits: u32) -> Option<&'static str> {
        match (max, bits) {
            (true, 32) => Some(ATOMIC_FMAX_F32),
            (false, 32) => Some(ATOMIC_FMIN_F32),
            (true, 64) => Some(ATOMIC_FMAX_F64),
            (false, 64) => Some(ATOMIC_FMIN_F64),
            _ => None,
        }
    }
}

/// The symbol prefix of the host's C-ABI adapters of external functions:
/// on the host target a call of declared function `@f` (a C function that
/// link files define) goes to `@__pydev_cabi_f`, an adapter that pydev
/// builds around it (python/pydev/_interop.py `host_adapters`). The Python
/// frontend calls adapters directly (frontends/python/src/interop.rs), and
/// `pydev-host-adapters` renames the calls of a `pydev.Program`'s
/// declarations.
pub const HOST_ADAPTER_PREFIX: &str = "__pydev_cabi_";

/// Discardable attributes that passes exchange with each other and with the
/// runtime. Producer => consumers.
pub mod attr {
    /// Unit, on a `func.func`: a kernel (frontend => outline-kernels,
    /// lower-simt-host, lower-aggregates, host-barrier-fission).
    pub const KERNEL: &str = "pydev.kernel";
    /// Unit, on a `func.func`: an interoperable device function with a C
    /// signature (frontend => outline-kernels, lower-simt-host).
    pub const INTEROP: &str = "pydev.interop";
    /// Unit, on an atomic op: its integer operands are unsigned
    /// (promote-types => lower-atomics).
    pub const UNSIGNED: &str = "pydev.unsigned";
    /// i64, on an atomic op: the element's alignment in bytes
    /// (lower-atomics, between its own steps).
    pub const ALIGN: &str = "pydev.align";
    /// i64, on a `gpu.module`: the PTX ISA (e.g. 83) an instruction of it
    /// needs (lower-atomics => raise-ptx, which removes it).
    pub const MIN_PTX: &str = "pydev.min_ptx";
    /// `array<i64: ...>`, on a kernel `gpu.func`: the CUDA C++ alignment of
    /// each parameter, 0 for LLVM's own (lower-aggregates => align-params).
    pub const PARAM_ALIGNS: &str = "pydev.param_aligns";
    /// Unit, on a `func.func`: it takes the trailing thread context
    /// (lower-simt-host => lower-arrays, host-barrier-fission).
    pub const HOST_CTX: &str = "pydev.host_ctx";
    /// `{kernel = array<i64: param sizes..>}`, on the module: the host
    /// kernels and the byte size of each parameter (lower-simt-host => runtime).
    pub const HOST_KERNELS: &str = "pydev.host_kernels";
    /// `{kernel = array<i64: param, kind, ...>}`, on the module: arrays a
    /// kernel only adds to with relaxed atomics, privatized per worker
    /// (lower-simt-host => runtime).
    pub const HOST_PRIVATE: &str = "pydev.host_private";
    /// Unit, on the module: some kernel has warp operations or waits and
    /// runs as coroutines unless split (lower-simt-host => runtime).
    pub const HOST_FIBERS: &str = "pydev.host_fibers";
    /// Unit, on the module: a kernel calls printf (lower-simt-host => runtime).
    pub const HOST_PRINTS: &str = "pydev.host_prints";
    /// `array<string>`, on the module: the source locations that
    /// `pydev_rt_error`'s `loc` indexes (lower-simt-host, lower-arrays => runtime).
    pub const HOST_LOCATIONS: &str = "pydev.host_locations";
    /// i64, on the module: bytes of static shared memory per block
    /// (lower-arrays{target=host} => runtime).
    pub const HOST_SHARED_BYTES: &str = "pydev.host_shared_bytes";
    /// `{kernel = frame bytes : i64}`, on the module: kernels split at their
    /// barriers and the size of each thread's frame (host-barrier-fission
    /// => runtime).
    pub const HOST_FRAMES: &str = "pydev.host_frames";
    /// Unit, on a kernel `func.func`: threads that have returned do not hold
    /// up the block barriers that the others reach later, as on GPUs (the
    /// pydev.numba frontend sets it; `pydev.ir`'s
    /// `Module.kernel(..., exited_skip_barriers=True)`). Without it every
    /// thread must reach each barrier (the spec's rule), and the host target
    /// reports a thread that returned before one (frontend =>
    /// lower-simt-host, host-barrier-fission).
    pub const EXITED_SKIP_BARRIERS: &str = "pydev.exited_skip_barriers";
    /// `{kernel = 1 : i64}`, on the module: the kernels with
    /// [`EXITED_SKIP_BARRIERS`] (lower-simt-host => runtime, for kernels
    /// run as coroutines).
    pub const HOST_EXITED_SKIP: &str = "pydev.host_exited_skip";
    /// `{kernel = 1 : i64}`, on the module: the kernels that synchronize
    /// their grid (`pydev.grid_sync`, directly or in a function they call);
    /// the runtime runs every block of their grid at once, as coroutines
    /// (lower-simt-host => host-barrier-fission, runtime).
    pub const HOST_COOPERATIVE: &str = "pydev.host_cooperative";
    /// `{kernel = threads : i64}`, on the module: the kernels with launch
    /// bounds (the NVVM dialect's `nvvm.maxntid` on the kernel `func.func`)
    /// and the most threads a block of theirs may have, the product of the
    /// bound's dimensions; the runtime refuses a launch of a larger block,
    /// as the CUDA driver does (lower-simt-host => runtime).
    pub const HOST_MAX_THREADS: &str = "pydev.host_max_threads";

    /// Every name above.
    pub const ALL: &[&str] = &[
        KERNEL,
        INTEROP,
        UNSIGNED,
        ALIGN,
        MIN_PTX,
        PARAM_ALIGNS,
        HOST_CTX,
        HOST_KERNELS,
        HOST_PRIVATE,
        HOST_FIBERS,
        HOST_PRINTS,
        HOST_LOCATIONS,
        HOST_SHARED_BYTES,
        HOST_FRAMES,
        EXITED_SKIP_BARRIERS,
        HOST_EXITED_SKIP,
        HOST_COOPERATIVE,
        HOST_MAX_THREADS,
    ];
}
