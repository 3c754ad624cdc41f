"""The persistent compile cache: one file per (source, constants, signature,
target, stage, kernel, compiler) in $PYDEV_CACHE_DIR (default
~/.cache/pydev); PYDEV_CACHE=0 turns it off.

Entries are written whole to a temporary file in the same directory and
renamed over the final name (os.replace is atomic), so concurrent
processes see a complete entry or none. Each entry starts with a header
line carrying the SHA-256 of its body; an entry that is truncated,
corrupt or unreadable is ignored (and rewritten by the next compile).

Nothing here raises: a cache that cannot be read or written (a read-only
or full disk, a file where the directory should be, no permission) only
makes things slower, and says so once per process with a RuntimeWarning
(docs/reliability.md, "Cache")."""
import os
import tempfile
import warnings

try:  # CPython's own SHA-256: hashlib would load OpenSSL, 5 ms of `import cuda.device`
    from _sha256 import sha256
except ImportError:  # Python 3.12+ names it _sha2; other Pythons have hashlib's
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256

FORMAT = "pydev-cache-1"


def cache_dir():
    """The cache directory, or None when the disk cache is off."""
    if os.environ.get("PYDEV_CACHE", "1").strip() == "0":
        return None
    return os.environ.get("PYDEV_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "pydev")


def cache_key(source, consts, signature, target, stage, name, compiler, libdevice="", program=(), lineinfo=False):
    """SHA-256 (hex) of everything the compiled text depends on: the
    `program` description holds where each function is and the values its
    free names had (two kernels of one factory are two entries)."""
    h = sha256()
    # A build with bounds checks (read from the environment by the compiler)
    # or with another libdevice is another entry.
    options = f"boundscheck={os.environ.get('PYDEV_BOUNDSCHECK', '0')} libdevice={libdevice}"
    if lineinfo:  # PTX with .file/.loc directives is another entry
        options += " lineinfo=1"
    for part in (FORMAT, source, repr(sorted(consts.items())), signature, target, stage, name, compiler, options, repr(program)):
        b = str(part).encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def entry_path(directory, key, suffix=".txt"):
    return os.path.join(directory, key[:2], key + suffix)


_WARNED = set()


def _warn_once(what, directory, error):
    """One RuntimeWarning per process, for the first failure (never raises,
    even where warnings are errors)."""
    if _WARNED:
        return
    _WARNED.add(what)
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    try:
        warnings.warn(
            f"pydev: cannot {what} the compile cache in {directory!r} ({reason}); kernels compile without it "
            "(set PYDEV_CACHE_DIR to a writable directory, or PYDEV_CACHE=0 to turn the cache off)",
            RuntimeWarning,
            stacklevel=4,
        )
    except Exception:
        pass


def load(key):
    """The cached text for `key`, or None (missing, off, unreadable, corrupt)."""
    body = load_bytes(key)
    try:
        return None if body is None else body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def load_bytes(key, suffix=".txt"):
    """The cached bytes for `key`, or None (missing, off, unreadable, corrupt).
    `suffix`: ".txt" for compiled text, ".image" for host images."""
    try:
        d = cache_dir()
        if d is None:
            return None
        with open(entry_path(d, key, suffix), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:  # no permission, a directory in the way, an odd path
        _warn_once("read", d, e)
        return None
    header, sep, body = data.partition(b"\n")
    parts = header.split(b" ")
    if not sep or len(parts) != 3 or parts[0] != FORMAT.encode() or parts[1] != key.encode():
        return None
    if sha256(body).hexdigest().encode() != parts[2]:
        return None
    return body


def store(key, text, suffix=".txt"):
    """Writes the entry (str or bytes) atomically; True when it was written.
    A cache that cannot be written only makes things slower (one warning)."""
    tmp = d = None
    try:
        d = cache_dir()
        if d is None:
            return False
        body = text if isinstance(text, bytes) else text.encode("utf-8")
        data = f"{FORMAT} {key} {sha256(body).hexdigest()}\n".encode() + body
        path = entry_path(d, key, suffix)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=suffix)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except (OSError, ValueError) as e:  # read-only, full (ENOSPC), no permission, odd path
        _warn_once("write", d, e)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


_host_target = None


def host_program(native, text, symbol, key, libraries=()):
    """The host program of `llvm` stage `text` (cache entry `key`), loaded
    from its host image (object code and the module's metadata) when the
    cache has it: a new process then makes no MLIR context and runs no LLVM
    compile. Else compiled, and its image stored beside the text, keyed
    with the CPU it was compiled for."""
    global _host_target
    if _host_target is None:
        _host_target = native.host_target()
    ikey = sha256(f"{key} image {_host_target}".encode()).hexdigest()
    image = load_bytes(ikey, ".image")
    if image is not None:
        try:
            return native.HostProgram(text, symbol, libraries=list(libraries), object=image)
        except Exception:
            pass  # an unusable entry: compile again and replace it
    image = native.host_object(text, symbol)
    store(ikey, image, ".image")
    return native.HostProgram(text, symbol, libraries=list(libraries), object=image)


def entries():
    """Paths of the complete entries (tests and tools)."""
    d = cache_dir()
    out = []
    if d is None or not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        out += [os.path.join(root, f) for f in files if f.endswith(".txt") and not f.startswith(".tmp-")]
    return sorted(out)
