"""The compile cache is not a way in (docs/reliability.md, "Security"):
an entry becomes code only when it and every directory up to its cache's
root are owned by this user or root and writable by nobody else.

The attack of the issue, replayed: another user replaces `times3`'s two
entries (compiled text and host image) with `times2`'s, renamed, with a
valid key header and digest. In a cache only this user can write, that is
this user's own doing and the planted code runs (the control: it proves
the plant works); wherever another user could have written it, pydev
compiles `times3` itself and says once what is wrong and how to fix it.

Ownership is handed to `nobody` with chown, which needs root (as CI runs);
those cases skip for other users. Each run is a fresh process."""

import hashlib
import json
import os
import stat
import subprocess
import sys
import textwrap
import warnings

import pytest

KERNELS = """
import cuda.device as device


@device.kernel
def times2(out, x):
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    if i < out.size:
        out[i] = x[i] * 2.0


@device.kernel
def times3(out, x):
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    if i < out.size:
        out[i] = x[i] * 3.0
"""

RUN = """
import json, sys, warnings
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    import numpy as np
    import cuda.device as device, pydev
    import trust_kernels
    kernel = getattr(trust_kernels, sys.argv[1])
    rng = np.random.default_rng(34)
    x = rng.random(500, dtype=np.float32) + 0.5
    out = np.full(500, np.nan, np.float32)
    device.launch(kernel, out, x, grid=4, block=128, stream=pydev.default_stream())
    factors = np.unique(np.round(out / x, 5))
st = pydev.stats()
print(json.dumps({"factors": factors.tolist(), "compiles": st["compiles"], "disk_hits": st["disk_hits"],
                  "warnings": [str(w.message) for w in seen if "cache" in str(w.message)]}))
"""

NOBODY = 65534
as_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="handing files to another user (chown) needs root, as CI runs",
)
posix = pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")


@pytest.fixture
def kernels_dir(native, tmp_path):
    d = tmp_path / "src"
    d.mkdir()
    (d / "trust_kernels.py").write_text(KERNELS)
    return d


def run(kernels_dir, kernel, cache=None, **env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYDEV_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(kernels_dir)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    env["PYDEV_TARGET"] = "host"
    if cache is not None:
        env["PYDEV_CACHE_DIR"] = str(cache)
    env.update(env_extra)
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RUN), kernel],
        cwd=str(kernels_dir),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, f"the run failed:\n{r.stdout}\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def files(cache):
    out = []
    for root, _, names in os.walk(cache):
        out += [os.path.join(root, f) for f in names]
    return sorted(out)


def dirs(cache):
    return [str(cache)] + sorted(os.path.join(root, d) for root, ds, _ in os.walk(cache) for d in ds)


def plant(victim, donor):
    """Rewrites the code entries of `victim` (a cache holding times3's: its
    compiled text and host image) with the same kind of entry of `donor`
    (times2's), renamed to times3, with the victim's key in the header and
    a digest that matches: what another user who can write the directory
    can do."""
    by_kind = {os.path.splitext(f)[1]: f for f in files(donor)}
    planted = 0
    for path in files(victim):
        header = open(path, "rb").read().partition(b"\n")[0].split(b" ")
        body = open(by_kind[os.path.splitext(path)[1]], "rb").read().partition(b"\n")[2].replace(b"times2", b"times3")
        with open(path, "wb") as f:
            f.write(b" ".join([header[0], header[1], hashlib.sha256(body).hexdigest().encode()]) + b"\n" + body)
        planted += 1
    assert planted == 2, files(victim)


@pytest.fixture
def planted(kernels_dir, tmp_path):
    """A cache of times3 whose entries now hold times2's code; the control
    run shows the plant works where the cache is trusted."""
    victim, donor = tmp_path / "victim", tmp_path / "donor"
    first = run(kernels_dir, "times3", victim)
    assert first["factors"] == [3.0] and first["compiles"] == 1 and first["warnings"] == [], first
    assert run(kernels_dir, "times2", donor)["factors"] == [2.0]
    plant(victim, donor)
    control = run(kernels_dir, "times3", victim)
    assert control["factors"] == [2.0] and control["disk_hits"] == 1 and control["warnings"] == [], control
    return victim


def chown(paths, uid=NOBODY):
    for p in paths:
        os.chown(p, uid, -1)


@posix
def test_directories_are_made_0700_and_entries_0600(kernels_dir, tmp_path):
    cache = tmp_path / "fresh" / "cache"
    run(kernels_dir, "times3", cache)
    assert files(cache), "nothing was written"
    for d in dirs(cache):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700, d
    for f in files(cache):
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f


@posix
def test_a_planted_entry_in_a_world_writable_cache_is_not_run(kernels_dir, planted):
    for d in dirs(planted):
        os.chmod(d, 0o777)
    r = run(kernels_dir, "times3", planted)
    assert r["factors"] == [3.0] and r["compiles"] == 1 and r["disk_hits"] == 0, r
    (w,) = r["warnings"]
    assert f"'{planted}' is writable by others (mode 0777)" in w and f"chmod -R go-w '{planted}'" in w, w


@as_root
def test_planted_entries_owned_by_another_user_are_not_run(kernels_dir, planted):
    """The issue's case: a world-writable directory, entries owned by nobody."""
    for d in dirs(planted):
        os.chmod(d, 0o777)
    chown(files(planted))
    r = run(kernels_dir, "times3", planted)
    assert r["factors"] == [3.0] and r["compiles"] == 1 and r["disk_hits"] == 0 and len(r["warnings"]) == 1, r


@as_root
def test_an_entry_owned_by_another_user_in_a_private_cache_is_not_run(kernels_dir, planted):
    chown(files(planted))  # the directories stay 0700 and ours
    r = run(kernels_dir, "times3", planted)
    assert r["factors"] == [3.0] and r["compiles"] == 1 and r["disk_hits"] == 0, r
    (w,) = r["warnings"]
    assert "owned by uid 65534" in w and "not by you" in w, w
    # The compile replaced the other user's entries with this user's.
    assert all(os.stat(f).st_uid == os.getuid() for f in files(planted))
    again = run(kernels_dir, "times3", planted)
    assert again["factors"] == [3.0] and again["disk_hits"] == 1 and again["warnings"] == [], again


@as_root
def test_a_directory_owned_by_another_user_is_not_trusted(kernels_dir, planted):
    """Not writable by others, but its owner could have written anything."""
    sub = [d for d in dirs(planted) if d != str(planted)]
    chown(sub)
    for d in sub:
        os.chmod(d, 0o755)
    r = run(kernels_dir, "times3", planted)
    assert r["factors"] == [3.0] and r["disk_hits"] == 0, r
    (w,) = r["warnings"]
    assert "owned by uid 65534" in w and "PYDEV_CACHE_DIR" in w, w


@posix
def test_a_group_writable_cache_is_neither_used_nor_written_without_opt_in(kernels_dir, tmp_path):
    cache = tmp_path / "team"
    cache.mkdir()
    os.chmod(cache, 0o770)
    r = run(kernels_dir, "times3", cache)
    assert r["factors"] == [3.0] and r["compiles"] == 1, r
    assert files(cache) == [], "a group-writable cache was written without PYDEV_CACHE_TRUST_GROUP=1"
    (w,) = r["warnings"]
    assert (
        "writable by its group (mode 0770)" in w and "PYDEV_CACHE_TRUST_GROUP=1" in w and f"chmod -R g-w '{cache}'" in w
    ), w


@posix
def test_a_group_shared_cache_with_opt_in_is_written_for_the_group_and_hit(kernels_dir, tmp_path):
    cache = tmp_path / "team"
    cache.mkdir()
    os.chmod(cache, 0o770)
    r = run(kernels_dir, "times3", cache, PYDEV_CACHE_TRUST_GROUP="1")
    assert r["factors"] == [3.0] and r["warnings"] == [], r
    assert len(files(cache)) == 2  # the compiled text, the host image
    for f in files(cache):
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o640, f  # the group reads, nobody else writes
    again = run(kernels_dir, "times3", cache, PYDEV_CACHE_TRUST_GROUP="1")
    assert again["factors"] == [3.0] and again["disk_hits"] == 1 and again["compiles"] == 0, again


@posix
def test_a_trusted_read_only_shared_cache_serves_hits_and_is_not_written(kernels_dir, tmp_path):
    shared, mine = tmp_path / "shared", tmp_path / "mine"
    run(kernels_dir, "times3", shared)
    before = {f: os.stat(f).st_mtime_ns for f in files(shared)}
    for d in dirs(shared):
        os.chmod(d, 0o755)  # what an admin publishes: everyone reads, only the owner writes
    for f in files(shared):
        os.chmod(f, 0o644)
    path = os.pathsep.join([str(mine), str(shared)])
    r = run(kernels_dir, "times3", PYDEV_CACHE_PATH=path)
    assert r["factors"] == [3.0] and r["compiles"] == 0 and r["disk_hits"] == 1 and r["warnings"] == [], r
    assert {f: os.stat(f).st_mtime_ns for f in files(shared)} == before
    # A kernel the shared cache lacks is compiled and written to the first cache only.
    r = run(kernels_dir, "times2", PYDEV_CACHE_PATH=path)
    assert r["factors"] == [2.0] and r["compiles"] == 1, r
    assert len(files(mine)) == 2 and len(files(shared)) == 2


@as_root
def test_a_read_only_cache_another_user_owns_is_not_used(kernels_dir, tmp_path, planted):
    chown(files(planted) + dirs(planted))
    for d in dirs(planted):
        os.chmod(d, 0o755)
    mine = tmp_path / "mine"
    r = run(kernels_dir, "times3", PYDEV_CACHE_PATH=os.pathsep.join([str(mine), str(planted)]))
    assert r["factors"] == [3.0] and r["compiles"] == 1 and r["disk_hits"] == 0, r
    assert len(r["warnings"]) == 1 and "owned by uid 65534" in r["warnings"][0], r


@posix
def test_the_check_in_process(native, tmp_path, monkeypatch):
    """The checks' own answers: a planted file in a world-writable directory
    is not found; one warning per process; directories stat'ed once."""
    from pydev import _cache

    root = tmp_path / "c"
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(root))
    monkeypatch.delenv("PYDEV_CACHE_PATH", raising=False)
    monkeypatch.delenv("PYDEV_CACHE", raising=False)
    monkeypatch.setattr(_cache, "_TRUSTED_DIRS", {})
    monkeypatch.setattr(_cache, "_WARNED_TRUST", set())
    key = "cd" * 32
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _cache.store(key, b"object code", ".image")
        assert _cache.load_bytes(key, ".image") == b"object code"
    assert set(_cache._TRUSTED_DIRS) == {str(root), str(root / "cd")}
    os.makedirs(root / "link")
    lib = root / "link" / "x.so"
    lib.write_bytes(b"\x7fELF")
    assert _cache.find_file(os.path.join("link", "x.so")) == str(lib)
    os.chmod(lib, 0o666)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert _cache.find_file(os.path.join("link", "x.so")) is None
        assert _cache.find_file(os.path.join("link", "x.so")) is None
    assert len(seen) == 1 and "writable by others" in str(seen[0].message) and str(lib) in str(seen[0].message)
