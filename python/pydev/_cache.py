"""The persistent compile cache: one file per (source, constants, signature,
target, stage, kernel, compiler) in $PYDEV_CACHE_DIR (default
~/.cache/pydev); PYDEV_CACHE=0 turns it off. $PYDEV_CACHE_PATH, when set,
lists caches instead (os.pathsep between them): the first is written, the
others are only read (a cache an admin or the user prepared for others).

Entries are written whole to a temporary file in the same directory and
renamed over the final name (os.replace is atomic), so concurrent
processes see a complete entry or none. Each entry starts with a header
line carrying the SHA-256 of its body; an entry that is truncated,
corrupt or unreadable is ignored (and rewritten by the next compile).

Every entry becomes code (PTX, cubins, host object code, linked
libraries), and a header is no defence against another writer: an entry
is used only when it and each directory from it up to its cache's root
are owned by this user or root and writable by nobody else
(`PYDEV_CACHE_TRUST_GROUP=1` also trusts the members of the file's group).
The directories are checked once per process (one stat each), the entry
on the descriptor it is read from. Directories are made 0700, entries
0600 (docs/reliability.md, "Security").

Nothing here raises: a cache that cannot be read, written or trusted only
makes things slower, and says so once per process with a RuntimeWarning
(docs/reliability.md, "Cache")."""

import os
import stat
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
    """The cache directory that is written, or None when the disk cache is off."""
    if os.environ.get("PYDEV_CACHE", "1").strip() == "0":
        return None
    listed = _listed()
    if listed:
        return listed[0]
    return os.environ.get("PYDEV_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "pydev")


def _listed():
    return [os.path.expanduser(p) for p in os.environ.get("PYDEV_CACHE_PATH", "").split(os.pathsep) if p.strip()]


def read_dirs():
    """The caches entries are looked up in, in order: the written one, then
    the read-only ones of $PYDEV_CACHE_PATH ([] when the cache is off)."""
    d = cache_dir()
    if d is None:
        return []
    return [d] + [p for p in _listed()[1:] if p != d]


def trust_group():
    return os.environ.get("PYDEV_CACHE_TRUST_GROUP", "0").strip() == "1"


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
    for part in (
        FORMAT,
        source,
        repr(sorted(consts.items())),
        signature,
        target,
        stage,
        name,
        compiler,
        options,
        repr(program),
    ):
        b = str(part).encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def entry_path(directory, key, suffix=".txt"):
    return os.path.join(directory, key[:2], key + suffix)


_WARNED = set()


def _warn(message):
    try:
        warnings.warn(message, RuntimeWarning, stacklevel=4)
    except Exception:
        pass


def _warn_once(what, directory, error):
    """One RuntimeWarning per process, for the first failure (never raises,
    even where warnings are errors)."""
    if _WARNED:
        return
    _WARNED.add(what)
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    _warn(
        f"pydev: cannot {what} the compile cache in {directory!r} ({reason}); kernels compile without it "
        "(set PYDEV_CACHE_DIR to a writable directory, or PYDEV_CACHE=0 to turn the cache off)"
    )


# ---- trust: who could have written an entry --------------------------------

_TRUSTED_DIRS = {}  # directory -> None (trusted) or what is wrong with it
_WARNED_TRUST = set()


def _owner(uid):
    try:
        import pwd

        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _my_groups():
    try:
        return {os.getgid(), *os.getgroups()}
    except OSError:
        return {os.getgid()}


def problem(st, kind="directory"):
    """What makes a file or directory with this stat untrustworthy, or None:
    it must be owned by this user or root and writable by nobody else
    (with PYDEV_CACHE_TRUST_GROUP=1, its group's members may own and write
    it when the group is one of this user's)."""
    if not hasattr(os, "getuid"):  # no POSIX owners (Windows): the ACLs of the user's profile decide
        return None
    me = os.getuid()
    group = trust_group() and st.st_gid in _my_groups()
    mode = stat.S_IMODE(st.st_mode)
    if kind == "file" and not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if st.st_uid not in (me, 0) and not group:
        return f"is owned by {_owner(st.st_uid)}, not by you ({_owner(me)}) or root"
    if mode & stat.S_IWOTH:
        return f"is writable by others (mode {mode:04o})"
    if mode & stat.S_IWGRP and not group:
        return f"is writable by its group (mode {mode:04o})"
    return None


def _fix(root, what):
    if "owned by" in what:
        return f"use a cache directory of your own (PYDEV_CACHE_DIR), or have root or its owner remove '{root}'"
    if "group" in what:
        return f"run `chmod -R g-w '{root}'`, or set PYDEV_CACHE_TRUST_GROUP=1 to trust every member of its group"
    if "regular file" in what or "directory" in what:
        return "remove it, or use a cache directory of your own (PYDEV_CACHE_DIR)"
    return f"run `chmod -R go-w '{root}'`, or use a cache directory of your own (PYDEV_CACHE_DIR)"


def _distrust(root, path, what):
    """One RuntimeWarning per process for a cache that cannot be trusted:
    it names the path, what is wrong and the fix."""
    if _WARNED_TRUST:
        return
    _WARNED_TRUST.add(path)
    _warn(
        f"pydev: the compile cache path '{path}' {what}, so another user could have written its entries: "
        f"pydev does not use them and compiles without that cache (fix: {_fix(root, what)}; "
        'docs/reliability.md, "Security")'
    )


def _dir_problem(path):
    """Cached per process: one stat per directory. A missing directory is
    not remembered (it may be made later)."""
    if path in _TRUSTED_DIRS:
        return _TRUSTED_DIRS[path]
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "does not exist"
    except OSError as e:
        return f"cannot be examined ({e.strerror or e})"
    what = problem(st) if stat.S_ISDIR(st.st_mode) else "is not a directory"
    _TRUSTED_DIRS[path] = what
    return what


def trusted_dirs(root, path):
    """True when `path` (a directory at or under `root`) and each directory
    from it up to `root` pass the check; else warns once and returns False.
    Checked from the root down, so the warning names the highest culprit."""
    root = os.path.normpath(root)
    d = os.path.normpath(path)
    if os.path.commonpath([root, d]) != root:  # never above the root
        _distrust(root, path, f"is not inside the cache '{root}'")
        return False
    chain = [d]
    while d != root:
        d = os.path.dirname(d)
        chain.append(d)
    for d in reversed(chain):
        what = _dir_problem(d)
        if what is not None:
            if what != "does not exist":
                _distrust(root, d, what)
            return False
    return True


def trusted_file(root, path, st=None):
    """True when the file at `path` (under cache `root`) and its directories
    may be used as code; `st`: its stat, taken from the open descriptor."""
    try:
        st = st if st is not None else os.stat(path)
    except OSError:
        return False
    if not trusted_dirs(root, os.path.dirname(path)):
        return False
    what = problem(st, "file")
    if what is not None:
        _distrust(root, path, what)
        return False
    return True


def find_file(relative):
    """The path of `relative` in the first cache that has it as a trusted
    file, or None (link= libraries, looked up by name)."""
    for d in read_dirs():
        path = os.path.join(d, relative)
        if os.path.isfile(path) and trusted_file(d, path):
            return path
    return None


def make_dirs(root, path):
    """Makes `path` (under `root`) with this cache's modes, and returns
    whether it may be written: False, with one warning, when `root` or a
    directory below it cannot be trusted."""
    mode = 0o770 if trust_group() else 0o700
    root = os.path.normpath(root)
    d = os.path.normpath(path)
    for new in (root, d):
        if not os.path.isdir(new):
            os.makedirs(new, mode=mode, exist_ok=True)
            try:
                os.chmod(new, mode)  # the umask would take the group's write bit
            except PermissionError:
                pass  # another member of the group made it first
    return trusted_dirs(root, d)


# ---- entries -----------------------------------------------------------------


def load(key):
    """The cached text for `key`, or None (missing, off, unreadable, corrupt,
    untrusted)."""
    body = load_bytes(key)
    try:
        return None if body is None else body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def load_bytes(key, suffix=".txt"):
    """The cached bytes for `key`, or None (missing, off, unreadable, corrupt,
    untrusted). `suffix`: ".txt" for compiled text, ".image" for host
    images, ".cubin" for linked cubins."""
    for d in read_dirs():
        body = _load_from(d, key, suffix)
        if body is not None:
            return body
    return None


def _load_from(d, key, suffix):
    path = entry_path(d, key, suffix)
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if not trusted_file(d, path, st):
                return None
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
    A cache that cannot be written or trusted only makes things slower (one
    warning)."""
    tmp = d = None
    try:
        d = cache_dir()
        if d is None:
            return False
        body = text if isinstance(text, bytes) else text.encode("utf-8")
        data = f"{FORMAT} {key} {sha256(body).hexdigest()}\n".encode() + body
        path = entry_path(d, key, suffix)
        if not make_dirs(d, os.path.dirname(path)):
            return False
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=suffix)  # 0600
        with os.fdopen(fd, "wb") as f:
            if trust_group():  # the group's members read each other's entries
                os.fchmod(f.fileno(), 0o640)
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


def host_image_key(native, key):
    """The key of the host image of entry `key`: with the CPU it is for."""
    global _host_target
    if _host_target is None:
        _host_target = native.host_target()
    return sha256(f"{key} image {_host_target}".encode()).hexdigest()


def host_program(native, text, symbol, key, libraries=()):
    """The host program of kernel `symbol` of `llvm` stage `text` (cache
    entry `key`), or with a list of kernels the HostModule of them all (a
    pydev.Program of several kernels), loaded from its host image (object
    code and the module's metadata) when the cache has it: a new process
    then makes no MLIR context and runs no LLVM compile. Else compiled, and
    its image stored beside the text, keyed with the CPU it was compiled for."""
    make = native.HostProgram if isinstance(symbol, str) else native.HostModule
    ikey = host_image_key(native, key)
    image = load_bytes(ikey, ".image")
    if image is not None:
        try:
            return make(text, symbol, libraries=list(libraries), object=image)
        except Exception:
            pass  # an unusable entry: compile again and replace it
    image = native.host_object(text, symbol)
    store(ikey, image, ".image")
    return make(text, symbol, libraries=list(libraries), object=image)


def entries():
    """Paths of the complete entries (tests and tools)."""
    d = cache_dir()
    out = []
    if d is None or not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        out += [os.path.join(root, f) for f in files if f.endswith(".txt") and not f.startswith(".tmp-")]
    return sorted(out)
