"""The disk cache under faults (docs/reliability.md, "Cache"): corrupted,
truncated and tampered entries, a cache directory that cannot be created
or written, a full disk (ENOSPC), a path with spaces and non-ASCII
characters, and eight processes racing to fill one directory while it is
read. In every case kernels compile and run correctly, the cache never
raises, and it warns at most once per process.

Each run is a fresh process (a process keeps what it compiled in memory);
`RUN` launches two kernels on the host target, checks their results
against NumPy and prints the counters and the warnings it saw."""

import json
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

RUN = """
import json, os, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    import numpy as np
    import cuda.device as device, pydev
    from test_reliability import scale_add, lcg
    rng = np.random.default_rng(11)
    s = pydev.default_stream()
    x = rng.random(1000, dtype=np.float32)
    out = np.full(1000, np.nan, np.float32)
    device.launch(scale_add, out, x, np.float32(2.5), np.float32(-1.0), grid=8, block=128, stream=s)
    assert np.allclose(out, x * 2.5 - 1.0, rtol=1e-6, atol=1e-6), out  # fma: one rounding
    o = np.full(64, -1, np.int32)
    device.launch(lcg, o, 100, grid=1, block=64, stream=s)
    v = 1
    for _ in range(100):
        v = (v * 1103515245 + 12345) & 0x7FFFFFFF
    # the kernel's int32 arithmetic: same low 31 bits
    assert ((o - np.arange(64)) == o[0]).all() and o[0] & 0x7FFFFFFF == v & 0x7FFFFFFF, (o[:4], v)
st = pydev.stats()
print(json.dumps({"compiles": st["compiles"], "disk_hits": st["disk_hits"],
                  "warnings": [str(w.message) for w in seen if "cache" in str(w.message)]}))
"""


def run(cache, *, prelude="", extra_env=None, background=False):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.update(PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(cache))
    env.pop("PYDEV_CACHE", None)
    env.update(extra_env or {})
    cmd = [sys.executable, "-c", textwrap.dedent(prelude) + textwrap.dedent(RUN)]
    if background:
        return subprocess.Popen(cmd, cwd=HERE, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    r = subprocess.run(cmd, cwd=HERE, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"the run failed:\n{r.stdout}\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def entries(cache):
    out = []
    for root, _, files in os.walk(cache):
        out += [os.path.join(root, f) for f in files]
    return sorted(out)


def valid(path):
    import hashlib

    data = open(path, "rb").read()
    header, _, body = data.partition(b"\n")
    return header.split(b" ")[-1] == hashlib.sha256(body).hexdigest().encode()


@pytest.fixture
def filled(native, tmp_path):
    cache = tmp_path / "cache"
    first = run(cache)
    assert first["compiles"] == 2 and first["disk_hits"] == 0 and first["warnings"] == [], first
    files = entries(cache)
    # two kernels: each one's compiled text and host image (keyed by the
    # kernel's source key: a hit runs no frontend)
    assert len(files) == 4 and sorted(os.path.splitext(f)[1] for f in files) == [
        ".image",
        ".image",
        ".txt",
        ".txt",
    ], files
    assert all(valid(f) for f in files), files
    return cache, files


def flip(path):
    data = bytearray(open(path, "rb").read())
    middle = len(data) // 2
    data[middle : middle + 16] = bytes(b ^ 0x5A for b in data[middle : middle + 16])
    open(path, "wb").write(bytes(data))


def truncate(path):
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 3])


def empty(path):
    open(path, "wb").close()


def tamper(path):
    """A well-formed entry (its hash matches) whose text is not a module:
    loading it fails, so it is compiled again."""
    import hashlib

    header = open(path, "rb").read().partition(b"\n")[0].split(b" ")
    body = b"this is not MLIR"
    open(path, "wb").write(b" ".join(header[:2] + [hashlib.sha256(body).hexdigest().encode()]) + b"\n" + body)


@pytest.mark.parametrize("damage", [flip, truncate, empty, tamper], ids=["corrupted", "truncated", "empty", "tampered"])
def test_damaged_entries_are_compiled_again_and_rewritten(filled, damage):
    cache, files = filled
    for f in files:
        damage(f)
    again = run(cache)
    assert again["compiles"] == 2 and again["disk_hits"] == 0 and again["warnings"] == [], again
    assert all(valid(f) for f in entries(cache)), "the damaged entries were rewritten"
    third = run(cache)
    assert third["compiles"] == 0 and third["disk_hits"] == 2, third


def test_an_entry_that_cannot_be_read_is_skipped_with_one_warning(filled):
    """A directory where an entry file should be (unreadable whatever the
    user's permissions, root's included): compiled, one warning."""
    cache, files = filled
    for f in files:
        os.unlink(f)
        os.mkdir(f)
    r = run(cache)
    assert r["compiles"] == 2 and len(r["warnings"]) == 1 and "cannot read" in r["warnings"][0], r


@pytest.mark.parametrize("where", ["a file", "not creatable"])
def test_a_cache_directory_that_cannot_be_written(native, tmp_path, where):
    """PYDEV_CACHE_DIR names a file, or a directory that cannot be created
    (under /proc, refused even to root): every kernel compiles and runs,
    with exactly one warning per process."""
    if where == "a file":
        cache = tmp_path / "cache"
        cache.write_text("not a directory")
    else:
        cache = "/proc/pydev-cache-that-cannot-exist"
    for _ in range(2):
        r = run(cache)
        assert r["compiles"] == 2 and r["disk_hits"] == 0, r
        assert len(r["warnings"]) == 1 and "the compile cache" in r["warnings"][0], r


FULL_DISK = """
import errno, os
from pydev import _cache
real = os.fdopen
class Full:
    # a file whose writes fail as on a full disk
    def __init__(self, fd, *a, **kw):
        self.f = real(fd, *a, **kw)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.f.close()
    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
_cache.os = type("os_with_a_full_disk", (), {**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")}, "fdopen": staticmethod(Full)})
"""


def test_a_full_disk_warns_once_and_leaves_no_temporary_files(native, tmp_path):
    """ENOSPC while writing entries (simulated: each write fails as on a
    full disk): the kernels run, one warning, no half-written files."""
    cache = tmp_path / "cache"
    r = run(cache, prelude=FULL_DISK)
    assert r["compiles"] == 2, r
    assert len(r["warnings"]) == 1 and "No space left on device" in r["warnings"][0], r
    assert not any(os.path.basename(f).startswith(".tmp-") for f in entries(cache)), entries(cache)
    assert not any(f.endswith(".txt") for f in entries(cache)), entries(cache)


def test_warnings_as_errors_do_not_make_the_cache_raise(native, host_target, tmp_path, monkeypatch):
    from pydev import _cache

    monkeypatch.setattr(_cache, "_WARNED", set())
    monkeypatch.setenv("PYDEV_CACHE_DIR", "/proc/pydev-cache-that-cannot-exist")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _cache.store("ab" * 32, "text") is False
        assert _cache.load("ab" * 32) is None


def test_a_cache_path_with_spaces_and_non_ascii_names(native, tmp_path):
    cache = tmp_path / "my cache dir ü 日本 ☃"
    first = run(cache)
    assert first["compiles"] == 2 and first["warnings"] == [], first
    second = run(cache)
    assert second["compiles"] == 0 and second["disk_hits"] == 2, second


def test_eight_processes_racing_to_fill_the_cache(native, tmp_path):
    """Eight processes compile the same two kernels at once into one empty
    cache directory (they start together once all have imported pydev),
    while a reader reads every entry it sees: each process runs correctly,
    the reader never sees a partial entry, and the directory ends with one
    complete entry per kernel and stage and no temporary file, which the
    next process hits."""
    import threading
    import time

    cache, go = tmp_path / "cache", tmp_path / "go"
    ready = tmp_path / "ready"
    ready.mkdir()
    barrier = f"""
        import os, time
        open(os.path.join({str(ready)!r}, str(os.getpid())), "w").close()
        while not os.path.exists({str(go)!r}):
            time.sleep(0.005)
    """
    seen, partial, done = set(), [], threading.Event()

    def reader():
        while not done.is_set():
            for path in entries(cache):
                if os.path.basename(path).startswith(".tmp-"):
                    continue  # a writer's temporary file: never looked up
                try:
                    if not valid(path):
                        partial.append(path)
                    seen.add(path)
                except FileNotFoundError:
                    pass
            time.sleep(0.001)

    procs = [run(cache, prelude=barrier, background=True) for _ in range(8)]
    watcher = threading.Thread(target=reader, daemon=True)
    watcher.start()
    try:
        deadline = time.monotonic() + 240
        while len(os.listdir(ready)) < len(procs) and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs):
                break  # one failed before the start: reported below
            time.sleep(0.01)
        go.touch()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0, f"{out}\n{err}"
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        done.set()
        watcher.join(timeout=10)
        for p in procs:
            if p.poll() is None:
                p.kill()
    for r in results:
        assert r["warnings"] == [] and r["compiles"] + r["disk_hits"] == 2, r
    assert partial == [] and seen, (partial, seen)
    files = entries(cache)
    # text and object of each kernel, each whole; no temporary file left
    assert len(files) == 4 and all(valid(f) for f in files), files
    assert sorted(os.path.splitext(f)[1] for f in files) == [".image", ".image", ".txt", ".txt"], files
    last = run(cache)
    assert last["compiles"] == 0 and last["disk_hits"] == 2, last
