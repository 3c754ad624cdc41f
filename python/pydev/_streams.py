"""Streams: `pydev.Stream` on either target, and the objects `launch`
accepts as its `stream` (a pydev.Stream, a cuda.core Stream, anything with
the `__cuda_stream__` protocol); devices: `pydev.Device`."""

import threading

from . import _native


class Stream:
    """A stream of a target. On `cuda` it is a driver stream (handle 0 is
    the legacy default stream) and implements `__cuda_stream__`; on `host`
    launches run at once, so `synchronize()` has nothing left to wait for.
    Arguments of launches on the stream stay alive until the stream has run
    those launches (`keep_alive`). `device`: the ordinal of the cuda device
    it belongs to (0 on host); launches on it must run on that device."""

    def __init__(self, target, handle=0, owned=False, device=0):
        self.target = target
        self.handle = int(handle)
        self.device = int(device)
        self._owned = owned
        self._keep = []  # the arguments of each launch since the last fence
        self._fences = []  # (fence, the arguments of the launches before it), oldest first
        self._lock = threading.Lock()

    def synchronize(self):
        """Waits until everything launched or copied on this stream has run
        (Ctrl-C raises KeyboardInterrupt while it waits)."""
        if self.target == "cuda":
            _native.get().cuda_stream_synchronize(self.handle, self.device)
        with self._lock:
            self._keep.clear()
            self._release_fences()

    def auto_synchronize(self):
        """A context manager that synchronizes the stream when its block
        ends (Numba's `Stream.auto_synchronize()`): `with s.auto_synchronize():`."""
        return _AutoSynchronize(self)

    def _release_fences(self):
        fences, self._fences = self._fences, []
        if fences:
            native = _native.get()
            for fence, _ in fences:
                native.cuda_fence_release(fence, self.device)

    def _fence(self):
        """Closes the current generation of kept arguments with a fence and
        lets go of those of every generation the GPU has passed; with more
        than MAX_FENCES generations in flight, waits for the oldest (the CPU
        is then thousands of launches ahead of the GPU)."""
        native = _native.get()
        with self._lock:
            # The list is swapped before the fence is recorded: a launch of
            # another thread that lands in the old list was queued before it.
            keep, self._keep = self._keep, []
            try:
                fence = native.cuda_fence(self.handle, self.device)
            except BaseException:
                self._keep[:0] = keep  # still unfenced: kept until a synchronize
                raise
            self._fences.append((fence, keep))
            while self._fences:
                fence = self._fences[0][0]
                if not native.cuda_fence_done(fence, self.device, wait=len(self._fences) > MAX_FENCES):
                    break
                del self._fences[0]

    def __del__(self):
        try:
            self._release_fences()
        except Exception:  # interpreter shutdown: the process lets go of everything
            pass

    @property
    def __cuda_stream__(self):
        # A method (`s.__cuda_stream__()` -> (0, handle)), which host streams lack.
        if self.target != "cuda":
            raise AttributeError("a host pydev.Stream has no CUDA stream (__cuda_stream__)")
        return self._cuda_stream

    def _cuda_stream(self):
        return (0, self.handle)

    def __eq__(self, other):
        return isinstance(other, Stream) and (other.target, other.handle, other.device) == (
            self.target,
            self.handle,
            self.device,
        )

    def __hash__(self):
        return hash((self.target, self.handle, self.device))

    def __repr__(self):
        on = f" device {self.device}" if self.target == "cuda" and self.device else ""
        return f"<pydev.Stream {self.target}{on} {self.handle:#x}>"

    def __reduce__(self):
        raise TypeError(
            f"cannot pickle pydev.Stream {self.handle:#x} of the {self.target} target: a stream is a queue of "
            "work in this process's device context, which does not exist in another process; pass the data and "
            "make the stream where the kernel runs (pydev.default_stream() or pydev.create_stream())"
        )


class _AutoSynchronize:
    __slots__ = ("stream",)

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return self.stream

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:  # as Numba's: an exception leaves the stream as it is
            self.stream.synchronize()
        return False


def stream_handle(stream):
    """The driver handle of a launch's `stream` (0 for host streams);
    TypeError naming `stream` for anything that is no stream."""
    if isinstance(stream, Stream):
        return stream.handle
    try:
        protocol = getattr(stream, "__cuda_stream__", None)
    except Exception:
        protocol = None
    if protocol is None:
        raise TypeError(
            "stream must be a pydev.Stream, a cuda.core Stream or an object with __cuda_stream__ "
            f"(e.g. pydev.default_stream()), got {'None' if stream is None else type(stream).__name__}"
        )
    value = protocol() if callable(protocol) else protocol
    if not (
        isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], int) and not isinstance(value[1], bool)
    ):
        raise TypeError(f"stream.__cuda_stream__() must return (version, handle), got {value!r}")
    if value[0] != 0:
        raise TypeError(f"stream.__cuda_stream__() has version {value[0]}; pydev understands version 0")
    return value[1]


MAX_FENCES = 4


def keep_alive(stream, arrays, native):
    """The arguments of an asynchronous cuda launch on `stream` (a
    pydev.Stream) stay alive until the stream has run the launch. They are
    kept in generations of `native.STREAM_GENERATION` launches, each closed
    by a fence (a CUDA event) when the next one starts; a generation is let
    go once the GPU has passed its fence (checked as each generation
    closes), and all of them at a synchronize. So no launch synchronizes
    the stream, and a launch waits only when MAX_FENCES generations are in
    flight, for the oldest. (Arguments of launches on foreign streams are
    kept alive by their owners, as with other CUDA Python libraries.)"""
    if isinstance(stream, Stream) and arrays:
        stream._keep.append(arrays)
        if len(stream._keep) > native.STREAM_GENERATION:
            stream._fence()


# --- devices --------------------------------------------------------------------------------

_SAVED = threading.local()  # per thread: the contexts `with pydev.Device(n):` replaced


def _cuda():
    """The native module when the cuda target is usable, else None."""
    from . import active_target

    return _native.get() if active_target() == "cuda" else None


def current_device():
    """The ordinal of the device a cuda launch on this thread runs on: that
    of the thread's current CUDA context (set by cuda.core's
    `Device(n).set_current()`, CuPy's and PyTorch's device selection, or
    `pydev.Device(n)`), else device 0. 0 on the host target."""
    native = _cuda()
    return native.cuda_current_device() if native is not None else 0


def device_count():
    """How many cuda devices the driver reports (1 on the host target: the CPU)."""
    native = _cuda()
    return native.cuda_device_count() if native is not None else 1


class Device:
    """A cuda device by ordinal, as cuda.core's and CuPy's `Device`:
    `pydev.Device(1).set_current()` makes its primary context current on
    the calling thread (later launches, allocations and streams of the
    thread use it, as they do after cuda.core's `set_current()` or
    `cupy.cuda.Device(1).use()`); `with pydev.Device(1): ...` does so for
    the block and then makes the previous context current again.
    `pydev.Device()` is the current device. `.id`, `.arch` ("sm_80"),
    `.compute_capability` ((8, 0)), `synchronize()`; `int(d)` is the ordinal.
    On the host target only device 0 exists."""

    def __init__(self, device_id=None):
        if device_id is None:
            device_id = current_device()
        if isinstance(device_id, Device):
            device_id = device_id.id
        if isinstance(device_id, bool) or not isinstance(device_id, int) and not hasattr(device_id, "__index__"):
            raise TypeError(f"device must be an int ordinal, got {type(device_id).__name__}")
        device_id = int(device_id.__index__())
        n = device_count()
        if not 0 <= device_id < n:
            raise ValueError(
                f"there is no cuda device {device_id}: {n} device{'s' * (n != 1)} (0{f' to {n - 1}' if n > 1 else ''})"
            )
        self.id = device_id

    def set_current(self):
        """Makes this device's primary context current on the calling thread."""
        native = _cuda()
        if native is not None:
            native.cuda_set_device(self.id)

    use = set_current  # CuPy's name

    def __enter__(self):
        native = _cuda()
        saved = None
        if native is not None:
            saved = native.cuda_current_context()
            native.cuda_set_device(self.id)
        stack = getattr(_SAVED, "stack", None)
        if stack is None:
            stack = _SAVED.stack = []
        stack.append(saved)
        return self

    def __exit__(self, *exc):
        saved = _SAVED.stack.pop()
        if saved is not None:
            _native.get().cuda_set_context(saved)
        return False

    @property
    def arch(self):
        """`sm_XY` of the device ("host" on the host target)."""
        native = _cuda()
        return native.cuda_arch(self.id) if native is not None else "host"

    @property
    def compute_capability(self):
        """(major, minor) of the device, as Numba and CuPy give it; None on the host target."""
        arch = self.arch
        if arch == "host":
            return None
        digits = arch[3:]
        return int(digits[:-1]), int(digits[-1])

    def synchronize(self):
        """Waits for all work queued on the device."""
        native = _cuda()
        if native is not None:
            native.cuda_synchronize(self.id)

    def __index__(self):
        return self.id

    __int__ = __index__

    def __eq__(self, other):
        if isinstance(other, Device):
            return other.id == self.id
        return NotImplemented

    def __hash__(self):
        return hash(("pydev.Device", self.id))

    def __repr__(self):
        return f"<pydev.Device {self.id}>"
