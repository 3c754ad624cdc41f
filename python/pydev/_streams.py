"""Streams: `pydev.Stream` on either target, and the objects `launch`
accepts as its `stream` (a pydev.Stream, a cuda.core Stream, anything with
the `__cuda_stream__` protocol)."""
from . import _native


class Stream:
    """A stream of a target. On `cuda` it is a driver stream (handle 0 is
    the legacy default stream) and implements `__cuda_stream__`; on `host`
    launches run at once, so `synchronize()` has nothing left to wait for.
    Arguments of launches on the stream stay alive until it synchronizes."""

    def __init__(self, target, handle=0, owned=False):
        self.target = target
        self.handle = int(handle)
        self._owned = owned
        self._keep = []

    def synchronize(self):
        if self.target == "cuda":
            _native.get().cuda_stream_synchronize(self.handle)
        self._keep.clear()

    @property
    def __cuda_stream__(self):
        # A method (`s.__cuda_stream__()` -> (0, handle)), which host streams lack.
        if self.target != "cuda":
            raise AttributeError("a host pydev.Stream has no CUDA stream (__cuda_stream__)")
        return self._cuda_stream

    def _cuda_stream(self):
        return (0, self.handle)

    def __eq__(self, other):
        return isinstance(other, Stream) and (other.target, other.handle) == (self.target, self.handle)

    def __hash__(self):
        return hash((self.target, self.handle))

    def __repr__(self):
        return f"<pydev.Stream {self.target} {self.handle:#x}>"


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
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], int) and not isinstance(value[1], bool)):
        raise TypeError(f"stream.__cuda_stream__() must return (version, handle), got {value!r}")
    if value[0] != 0:
        raise TypeError(f"stream.__cuda_stream__() has version {value[0]}; pydev understands version 0")
    return value[1]


MAX_PENDING = 1024


def keep_alive(stream, arrays):
    """The arguments of an asynchronous launch stay alive until `stream`
    (a pydev.Stream) synchronizes; after MAX_PENDING launches without a
    synchronize, the stream synchronizes to let them go. (Arguments of
    launches on foreign streams are kept alive by their owners, as with
    other CUDA Python libraries.)"""
    if isinstance(stream, Stream) and arrays:
        stream._keep.append(arrays)
        if len(stream._keep) > MAX_PENDING:
            stream.synchronize()
