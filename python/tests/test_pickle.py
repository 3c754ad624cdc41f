"""Pickling (docs/distributed.md): kernels, device functions, structs,
pydev.numba dispatchers and pydev.Programs with `pickle` and cloudpickle, by
reference when importable, by value otherwise (a `__main__` script whose file
is gone when the pickle is loaded: the source travels, the results, cache
keys and CompileError lines are the same); DeviceArray by value; Stream
refuses; spawn and forkserver pools receive kernels, and a forked child
launches what its parent compiled and compiles anew. Host target, fixed
seed, outputs poisoned with NaN."""

import json
import multiprocessing
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _pickling

import pickle_kernels as pk

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261128
N = 200

pytestmark = pytest.mark.usefixtures("native", "host_target")


def picklers():
    out = [pytest.param(pickle, id="pickle")]
    try:
        import cloudpickle

        out.append(pytest.param(cloudpickle, id="cloudpickle"))
    except ImportError:
        out.append(pytest.param(None, id="cloudpickle", marks=pytest.mark.skip(reason="cloudpickle is not installed")))
    return out


@pytest.fixture
def x():
    x = np.random.default_rng(SEED).uniform(-4.0, 4.0, N).astype(np.float32)
    assert np.all(x != 0)
    return x


def launch(k, *args, n=N):
    device.launch(k, *args, grid=(n + 63) // 64, block=64, stream=pydev.default_stream())


def run(k, x):
    out = np.full_like(x, np.nan)
    launch(k, out, x)
    return out


def env():
    """The environment of child processes: this one's, the tests' directory
    on PYTHONPATH (kept: it finds the pydev under test)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))


# --- by reference ---------------------------------------------------------------------------


@pytest.mark.parametrize("mod", picklers())
def test_importable_objects_pickle_by_reference(mod, x):
    for obj in (pk.pair_sum, pk.shifted, pk.Pair, pk.Pair.total, pk.numba_kernel, pk.numba_square):
        data = mod.dumps(obj)
        assert len(data) < 200 and b"pickle_kernels" in data, obj  # a name, not the code
        assert pickle.loads(data) is obj
    np.testing.assert_allclose(run(pickle.loads(mod.dumps(pk.pair_sum)), x), 2 * x + 2, rtol=1e-6)
    value = pickle.loads(mod.dumps(pk.Pair(1.5, -2.0)))
    assert type(value) is pk.Pair and value == pk.Pair(1.5, -2.0) and value.total() == np.float32(-0.5)


def test_modules_cloudpickle_registers_by_value_pickle_by_value(x):
    """cloudpickle.register_pickle_by_value(module): for workers that cannot
    import it (a module of a notebook's directory, say)."""
    cloudpickle = pytest.importorskip("cloudpickle")
    cloudpickle.register_pickle_by_value(pk)
    try:
        data = cloudpickle.dumps(pk.pair_sum)
    finally:
        cloudpickle.unregister_pickle_by_value(pk)
    assert len(data) > 1000  # the code and the file's text
    loaded = pickle.loads(data)
    assert loaded is not pk.pair_sum and loaded.__qualname__ == "pair_sum"
    np.testing.assert_allclose(run(loaded, x), 2 * x + 2, rtol=1e-6)


# --- by value: closures -----------------------------------------------------------------------


@pytest.mark.parametrize("mod", picklers())
def test_closure_kernels_pickle_by_value_without_their_caches(mod, x):
    k = pk.make_scaled(3.0)
    expect = (x + 2) * np.float32(3.0)
    np.testing.assert_allclose(run(k, x), expect, rtol=1e-6)
    data = mod.dumps(k)
    assert b"_thread.lock" not in data and b"HostProgram" not in data
    loaded = pickle.loads(data)
    assert loaded is not k and loaded._dispatch == {} and loaded.__qualname__ == k.__qualname__
    np.testing.assert_allclose(run(loaded, x), expect, rtol=1e-6)
    # The same source key (so the same disk-cache entries) as the original.
    sig = "float32[::1], float32[::1]"
    assert source_key(loaded, sig) == source_key(k, sig)
    # The disk cache serves it: no compile.
    before = pydev.stats()["compiles"]
    np.testing.assert_allclose(run(pickle.loads(data), x), expect, rtol=1e-6)
    assert pydev.stats()["compiles"] == before


def test_a_kernels_compiled_code_travels_with_it(x, tmp_path, monkeypatch):
    """A worker with the same target and compiler (and an empty disk cache)
    launches a received kernel without compiling; a corrupted text is
    compiled again, not launched."""
    k = pk.make_scaled(0.75)
    expect = (x + 2) * np.float32(0.75)
    np.testing.assert_allclose(run(k, x), expect, rtol=1e-6)
    data = pickle.dumps(k)
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "worker"))
    loaded = pickle.loads(data)
    assert loaded._carried and loaded._dispatch == {}
    before = pydev.stats()["compiles"]
    np.testing.assert_allclose(run(loaded, x), expect, rtol=1e-6)
    assert pydev.stats()["compiles"] == before
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "another"))
    broken = pickle.loads(data)
    broken._carried = {key: ("garbage", ikey, b"garbage") for key, (_, ikey, _) in broken._carried.items()}
    np.testing.assert_allclose(run(broken, x), expect, rtol=1e-6)
    assert pydev.stats()["compiles"] == before + 1


def source_key(k, sig):
    program = k._program()[0]
    return k._specialize(sig, "host", "host", k._consts(), program)._frontend[0]


LOCK = __import__("threading").Lock()


def kernels_reading(value):
    """A cuda.device kernel whose closure cell holds `value`, and a
    pydev.numba kernel whose global LOCK does (both by value)."""
    from pydev.numba import cuda

    @device.kernel
    def holds(out):
        if value:
            out[0] = 1

    @cuda.jit
    def numba_holds(out):
        if LOCK:
            out[0] = 1

    return holds, numba_holds


@pytest.mark.parametrize("mod", picklers())
def test_an_unpicklable_free_value_is_named_with_the_kernel(mod):
    holds, numba_holds = kernels_reading(LOCK)
    for k, owner, name in ((holds, "kernel", "value"), (numba_holds, "pydev.numba kernel", "LOCK")):
        with pytest.raises(
            TypeError, match=rf"cannot pickle {owner} '.*holds': its free name '{name}' holds a _thread.lock"
        ):
            mod.dumps(k)


def test_a_free_value_only_cloudpickle_stores_travels_with_plain_pickle_too(tmp_path):
    """An open file (cloudpickle stores its contents; plain pickle cannot)."""
    pytest.importorskip("cloudpickle", reason="cloudpickle is not installed")
    (tmp_path / "notes.txt").write_text("kept")
    with open(tmp_path / "notes.txt") as f:
        holds, _ = kernels_reading(f)
        loaded = pickle.loads(pickle.dumps(holds))
    (cell,) = loaded.underlying.__closure__
    assert cell.cell_contents.read() == "kept"


def test_a_pickle_of_another_version_is_refused():
    with pytest.raises(RuntimeError, match=r"pickled by pydev 0\.0\.1 on Python 3\.0.*this is pydev"):
        _pickling.check_version(("0.0.1", (3, 0)), "kernel 'k'")
    args = list(pk.make_scaled(2.0).__reduce_ex__(4)[1])
    args[1] = (("0.0.1", (3, 0)),) + tuple(args[1][1:])
    with pytest.raises(RuntimeError, match="pydev 0.0.1"):
        pk.make_scaled.__globals__["device"]._pickling._new(*args)


# --- by value: a __main__ script whose file is gone -------------------------------------------

PRODUCER = r"""
import pickle, sys, json
import numpy as np
import cuda.device as device
import pydev
from pydev.numba import cuda

mod = __import__(sys.argv[1])
OFFSET = 3


@device.struct
class Pair:
    a: device.float32
    b: device.float32

    @device.func
    def total(self):
        return self.a + self.b


@device.func
def twice(x):
    return x * 2 + OFFSET


@device.kernel
def k(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = Pair(x[i], twice(x[i])).total()


def make(scale):
    @device.func
    def scaled(x):
        return x * scale

    @device.kernel
    def kc(out, x):
        i = device.tid(1)
        if i < out.size:
            out[i] = scaled(twice(x[i]))

    return kc


@cuda.jit(device=True)
def nsq(x):
    return x * x + OFFSET


@cuda.jit
def nk(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = nsq(x[i])


@device.kernel
def bad(out, x):
    i = device.tid(1)
    out[i] = undefined_thing(x[i])


def source_key(k, sig):
    program = k._program()[0]
    return k._specialize(sig, "host", "host", k._consts(), program)._frontend[0]


def main():
    x = np.load(sys.argv[2])
    kernels = {"k": k, "kc": make(1.5), "nk": nk}
    results, keys = {}, {}
    for name, kern in kernels.items():
        out = np.full_like(x, np.nan)
        if name == "nk":
            kern[(x.size + 63) // 64, 64](out, x)
        else:
            device.launch(kern, out, x, grid=(x.size + 63) // 64, block=64, stream=pydev.default_stream())
            keys[name] = source_key(kern, "float32[::1], float32[::1]")
        results[name] = out.tolist()
    try:
        device.launch(bad, np.zeros(4, np.float32), np.zeros(4, np.float32), grid=1, block=4, stream=pydev.default_stream())
    except pydev.CompileError as e:
        error = str(e)
    objects = dict(kernels, bad=bad, Pair=Pair, pair=Pair(1.5, 2.25), twice=twice, nsq=nsq)
    blobs = {name: mod.dumps(obj) for name, obj in objects.items()}
    with open(sys.argv[3], "wb") as f:
        pickle.dump(blobs, f)
    print(json.dumps({"results": results, "keys": keys, "error": error}))


if __name__ == "__main__":
    main()
"""

CONSUMER = r"""
import json, pickle, sys
import numpy as np
import cuda.device as device
import pydev


def source_key(k, sig):
    program = k._program()[0]
    return k._specialize(sig, "host", "host", k._consts(), program)._frontend[0]


x = np.load(sys.argv[1])
with open(sys.argv[2], "rb") as f:
    blobs = pickle.load(f)
objs = {name: pickle.loads(data) for name, data in blobs.items()}
before = pydev.stats()["compiles"]
results, keys = {}, {}
for name in ("k", "kc", "nk"):
    kern = objs[name]
    out = np.full_like(x, np.nan)
    if name == "nk":
        kern[(x.size + 63) // 64, 64](out, x)
    else:
        device.launch(kern, out, x, grid=(x.size + 63) // 64, block=64, stream=pydev.default_stream())
        keys[name] = source_key(kern, "float32[::1], float32[::1]")
    results[name] = out.tolist()
compiles = pydev.stats()["compiles"] - before
try:
    device.launch(objs["bad"], np.zeros(4, np.float32), np.zeros(4, np.float32), grid=1, block=4, stream=pydev.default_stream())
except pydev.CompileError as e:
    error = str(e)
pair = objs["pair"]
print(json.dumps({
    "results": results, "keys": keys, "error": error, "compiles": compiles,
    "pair": [type(pair).__name__, float(pair.total()), type(pair) is objs["Pair"]],
    "twice": float(objs["twice"](np.float32(2.0))),
    "reprs": [repr(objs[n]) for n in ("k", "kc", "nk", "nsq", "twice")],
}))
"""


@pytest.mark.parametrize("mod", picklers())
def test_main_script_objects_travel_by_value(mod, x, tmp_path):
    """A script's kernels (module-level and closure-made), device functions,
    struct class and value, and pydev.numba kernel and device function,
    pickled in __main__ and loaded by another process after the script's
    file is deleted: the same results, the same source keys (the loader
    finds the script's disk-cache entries: no compile), the same
    CompileError at the same lines."""
    app = tmp_path / "app.py"
    app.write_text(PRODUCER)
    np.save(tmp_path / "x.npy", x)
    made = subprocess.run(
        [sys.executable, str(app), mod.__name__, str(tmp_path / "x.npy"), str(tmp_path / "objs.pkl")],
        env=env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    first = json.loads(made.stdout)
    app.unlink()  # the worker has no file: the source travels
    (tmp_path / "consumer.py").write_text(CONSUMER)
    other = tmp_path / "elsewhere"
    other.mkdir()
    got = subprocess.run(
        [sys.executable, str(tmp_path / "consumer.py"), str(tmp_path / "x.npy"), str(tmp_path / "objs.pkl")],
        env=env(),
        cwd=other,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr
    second = json.loads(got.stdout)
    xs = x.astype(np.float32)
    expect = {
        "k": xs + (xs * 2 + 3),
        "kc": (xs * 2 + 3) * np.float32(1.5),
        "nk": xs * xs + 3,
    }
    for name, want in expect.items():
        np.testing.assert_allclose(np.array(first["results"][name], np.float32), want, rtol=1e-5, err_msg=name)
        np.testing.assert_array_equal(np.array(second["results"][name]), np.array(first["results"][name]), name)
    assert second["keys"] == first["keys"]
    assert second["compiles"] == 0  # the code the script compiled, under the same keys
    assert "app.py:" in first["error"] and "undefined_thing" in first["error"]
    assert second["error"] == first["error"]  # the same file, lines and excerpt
    assert second["pair"] == ["Pair", 3.75, True]
    assert second["twice"] == 7.0
    assert second["reprs"] == [
        "<cuda.device.kernel k>",
        "<cuda.device.kernel make.<locals>.kc>",
        "<pydev.numba kernel nk>",
        "<pydev.numba device function nsq>",
        "<cuda.device.func twice>",
    ]


@pytest.mark.parametrize("mod", picklers())
def test_struct_classes_made_in_functions_pickle_by_value(mod):
    def make():
        @device.struct
        class Local:
            u: device.int32
            v: device.float64

        return Local

    cls = make()
    data = mod.dumps((cls, cls(3, 0.25)))
    loaded, value = pickle.loads(data)
    assert loaded.__qualname__ == cls.__qualname__ and loaded.dtype == cls.dtype
    assert type(value) is loaded and value.u == 3 and value.v == 0.25
    assert pickle.loads(data)[0] is loaded  # loaded twice, one class


# --- pydev.Program --------------------------------------------------------------------------


def saxpy_program():
    import kernels

    text = pydev.compile(
        kernels.saxpy, "float32, float32[::1], float32[::1], float32[::1]", target="host", stage="pydev"
    )
    return pydev.Program(text, kernel="saxpy", fastmath=False, boundscheck=True)


@pytest.mark.parametrize("mod", picklers())
def test_program_pickles_by_value_with_its_compiled_code(mod, x, tmp_path, monkeypatch):
    import collections

    from pydev import _program

    # Its code compiled here (not shared with an earlier test's Program):
    # what travels is what the disk cache holds.
    monkeypatch.setattr(_program, "_LOADED", collections.OrderedDict())
    p = saxpy_program()
    y = np.random.default_rng(SEED + 1).uniform(1.0, 2.0, N).astype(np.float32)
    out = np.full_like(x, np.nan)
    launch(p, np.float32(2.5), x, y, out)
    expect = np.float32(2.5) * x + y
    np.testing.assert_allclose(out, expect, rtol=1e-6)
    data = mod.dumps(p)
    loaded = pickle.loads(data)
    assert (loaded.text, loaded.kernel, loaded.boundscheck, loaded.fastmath) == (p.text, "saxpy", True, False)
    assert loaded._loaded == {} and loaded._carried  # the compiled text, no loaded code
    # A worker (no loaded code shared with `p`, another, empty, disk cache)
    # launches it without compiling.
    monkeypatch.setattr(_program, "_LOADED", collections.OrderedDict())
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "elsewhere"))
    before = pydev.stats()["compiles"]
    out = np.full_like(x, np.nan)
    launch(loaded, np.float32(2.5), x, y, out)
    np.testing.assert_allclose(out, expect, rtol=1e-6)
    assert pydev.stats()["compiles"] == before
    # A corrupted compiled text is compiled again, not launched.
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "third"))
    monkeypatch.setattr(_program, "_LOADED", collections.OrderedDict())
    broken = pickle.loads(data)
    broken._carried = {key: ("this is not LLVM IR", None, None) for key in broken._carried}
    out = np.full_like(x, np.nan)
    launch(broken, np.float32(2.5), x, y, out)
    np.testing.assert_allclose(out, expect, rtol=1e-6)
    assert pydev.stats()["compiles"] == before + 1


# --- arrays and streams ---------------------------------------------------------------------


@pytest.mark.parametrize("mod", picklers())
def test_device_arrays_pickle_by_value_and_streams_refuse(mod, x):
    f = np.asfortranarray(x[:120].reshape(10, 12))
    for host in (x, f):
        d = pydev.to_device(host)
        loaded = pickle.loads(mod.dumps(d))
        assert isinstance(loaded, pydev.DeviceArray) and loaded is not d
        assert loaded.strides == d.strides and loaded.target == "host"
        np.testing.assert_array_equal(loaded.copy_to_host(), host)
    for s in (pydev.default_stream(), pydev.create_stream()):
        with pytest.raises(TypeError, match=r"cannot pickle pydev.Stream .*make the stream where the kernel runs"):
            mod.dumps(s)


# --- processes ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_a_pool_receives_kernels_and_launches_them(method, x):
    """spawn and forkserver pools: each task carries its kernel pickled."""
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this platform has no {method} start method")
    ctx = multiprocessing.get_context(method)
    jobs = [
        (pk.pair_sum, x, 2 * x + 2),  # by reference
        (pk.make_scaled(0.5), x, (x + 2) * np.float32(0.5)),  # by value
        (pk.make_scaled(-2.0), x[::-1].copy(), (x[::-1] + 2) * np.float32(-2.0)),
    ]
    with ctx.Pool(2) as pool:
        got = pool.starmap(pk.launch_in_worker, [(k, a) for k, a, _ in jobs], chunksize=1)
    for (out, target), (_, _, want) in zip(got, jobs):
        assert target == "host"
        np.testing.assert_allclose(out, want, rtol=1e-6)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform")
def test_a_fork_after_compiling_and_launching_works_in_the_child(x, tmp_path):
    """A fork after the parent compiled and launched: the child launches the
    kernels it inherited (compiled in memory: no compile) and compiles and
    launches a new one, with correct results; then the parent launches
    again."""
    k = pk.make_scaled(1.25)
    np.testing.assert_allclose(run(k, x), (x + 2) * np.float32(1.25), rtol=1e-6)
    np.testing.assert_allclose(run(pk.pair_sum, x), 2 * x + 2, rtol=1e-6)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()

    def child():
        try:
            # Its own disk cache: the new kernel is compiled in the child.
            os.environ["PYDEV_CACHE_DIR"] = str(tmp_path / "child")
            before = pydev.stats()["compiles"]
            inherited = [run(k, x), run(pk.pair_sum, x)]
            after_inherited = pydev.stats()["compiles"]
            fresh = run(pk.make_scaled(-0.5), x)
            queue.put((inherited, fresh, after_inherited - before, pydev.stats()["compiles"] - after_inherited))
        except BaseException as e:  # the parent reports it
            queue.put(repr(e))

    p = ctx.Process(target=child)
    p.start()
    try:
        got = queue.get(timeout=120)
    finally:
        p.join(timeout=60)
        if p.is_alive():
            p.kill()
    assert not isinstance(got, str), got
    (scaled, summed), fresh, inherited_compiles, fresh_compiles = got
    np.testing.assert_allclose(scaled, (x + 2) * np.float32(1.25), rtol=1e-6)
    np.testing.assert_allclose(summed, 2 * x + 2, rtol=1e-6)
    np.testing.assert_allclose(fresh, (x + 2) * np.float32(-0.5), rtol=1e-6)
    assert (inherited_compiles, fresh_compiles) == (0, 1)
    assert p.exitcode == 0
    np.testing.assert_allclose(run(k, x), (x + 2) * np.float32(1.25), rtol=1e-6)


def test_numba_dispatchers_with_signatures_compile_again_on_load(x):
    from pydev.numba import cuda

    def make(c):
        @cuda.jit("void(float32[:], float32[:])")
        def plus(out, a):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = a[i] + c

        return plus

    k = make(np.float32(4.0))
    loaded = pickle.loads(pickle.dumps(k))
    assert [str(s) for s in loaded.signatures] == [str(s) for s in k.signatures]
    assert len(loaded.overloads) == 1  # compiled on load, as at decoration
    out = np.full_like(x, np.nan)
    loaded[(N + 63) // 64, 64](out, x)
    np.testing.assert_allclose(out, x + 4, rtol=1e-6)


def test_link_files_travel_by_content(tmp_path):
    src = tmp_path / "twice.c"
    src.write_text("long long twice(long long x) { return 2 * x; }\n")

    def make():
        @device.func(interop=True, link=[str(src)])
        def twice(x: device.int64) -> device.int64: ...

        return twice

    f = make()
    data = pickle.dumps(f)
    # Where the file is still there with the same bytes, its own path (the cache keys name it).
    assert pickle.loads(data).link == (str(src),)
    src.unlink()
    loaded = pickle.loads(data)
    (path,) = loaded.link
    assert path != str(src) and os.path.basename(path) == "twice.c"
    assert open(path).read() == "long long twice(long long x) { return 2 * x; }\n"
    assert loaded.interop and loaded._is_declaration()


def test_the_docs_spawn_pool_example_runs_as_a_script(tmp_path):
    """docs/distributed.md's example: a kernel of a script's __main__ sent
    to a spawn pool (by value, with plain pickle)."""
    import re

    doc = open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "distributed.md")).read()
    code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    script = tmp_path / "pool_example.py"
    script.write_text(code)
    out = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "spawn pool ok"
