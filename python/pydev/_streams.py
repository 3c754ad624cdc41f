"""Streams: `pydev.Stream` on either target, and the objects `launch`
accepts as its `stream` (pydev.Stream, cuda.core Stream, anything with
`__cuda_stream__`)."""


class Stream:
    """A stream of the active target. On `cuda` it is a driver stream and
    implements `__cuda_stream__`; on `host` launches run at once and
    `synchronize()` has nothing left to wait for."""

    def __init__(self, target, handle=0, owned=False):
        self.target = target
        self.handle = handle
        self._owned = owned
        self._keep = []

    def synchronize(self):
        if self.target == "cuda":
            from . import _native

            _native().cuda_stream_synchronize(self.handle)
        self._keep.clear()

    def __cuda_stream__(self):
        if self.target != "cuda":
            raise AttributeError("host streams have no CUDA stream")
        return (0, self.handle)

    def __repr__(self):
        return f"<pydev.Stream {self.target} {self.handle:#x}>"


def stream_handle(stream):
    """The driver handle of `stream` (0 for host streams)."""
    if isinstance(stream, Stream):
        return stream.handle
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is None:
        raise TypeError(f"stream must be a pydev.Stream, a cuda.core Stream or an object with __cuda_stream__, got {type(stream).__name__}")
    value = protocol() if callable(protocol) else protocol
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], int)):
        raise TypeError(f"stream.__cuda_stream__() must return (version, handle), got {value!r}")
    return value[1]


def keep_alive(stream, arrays):
    """Arguments of an asynchronous launch stay alive until the stream syncs."""
    if isinstance(stream, Stream):
        stream._keep.append(arrays)
