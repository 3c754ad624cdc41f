"""Compilation caching: cache keys, atomic and corruption-proof disk
entries, concurrent writers, and the dispatch logic of kernels (lazy
compile per signature, memory and disk hits, PYDEV_CACHE=0) driven by a
fake native module, so no compiler is needed."""

import multiprocessing
import os
import types

import numpy as np
import pytest

import cuda.device as device
import pydev
from cuda.device import _kernel
from pydev import _cache, _native

import kernels


def key(**over):
    parts = dict(
        source="src", consts={}, signature="float32[::1]", target="host", stage="llvm", name="k", compiler="c1"
    )
    parts.update(over)
    return _cache.cache_key(**parts)


def test_cache_key_depends_on_everything():
    k = key()
    assert k == key() and len(k) == 64
    for over in [
        dict(source="src2"),
        dict(consts={"N": 1}),
        dict(signature="float64[::1]"),
        dict(target="sm_90"),
        dict(stage="ptx"),
        dict(name="k2"),
        dict(compiler="c2"),
        dict(libdevice="/cuda/libdevice.10.bc"),
    ]:
        assert key(**over) != k, over
    assert key(consts={"N": 1}) != key(consts={"N": 2}) and key(consts={"N": 1}) != key(consts={"N": True})
    assert key(consts={"A": 1, "B": 2}) == key(consts={"B": 2, "A": 1})
    assert key(source="ab", signature="c") != key(source="a", signature="bc")  # parts are delimited


def test_store_and_load_roundtrip():
    k = key()
    assert _cache.load(k) is None
    assert _cache.store(k, "module {\n  llvm.func @k()\n}\n")
    assert _cache.load(k) == "module {\n  llvm.func @k()\n}\n"
    assert _cache.store(k, "replaced")
    assert _cache.load(k) == "replaced"
    entries = _cache.entries()
    assert len(entries) == 1 and entries[0].endswith(k + ".txt")
    leftovers = [f for _, _, fs in os.walk(_cache.cache_dir()) for f in fs if f.startswith(".tmp-")]
    assert leftovers == []


def test_corrupt_or_unreadable_entries_are_ignored():
    k = key()
    _cache.store(k, "x" * 1000)
    path = _cache.entry_path(_cache.cache_dir(), k)
    data = open(path, "rb").read()
    with open(path, "wb") as f:  # truncated
        f.write(data[:500])
    assert _cache.load(k) is None
    with open(path, "wb") as f:  # a flipped byte
        f.write(data[:-1] + b"y")
    assert _cache.load(k) is None
    with open(path, "wb") as f:  # another entry's content
        f.write(data.replace(k.encode(), key(source="other").encode()))
    assert _cache.load(k) is None
    with open(path, "wb") as f:
        f.write(b"\xff\xfe garbage")
    assert _cache.load(k) is None
    os.remove(path)
    os.makedirs(path)  # unreadable: a directory where the file should be
    assert _cache.load(k) is None
    assert not _cache.store(k, "text")  # cannot replace it: only slower


def test_cache_off(monkeypatch, tmp_path):
    monkeypatch.setenv("PYDEV_CACHE", "0")
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "off"))
    assert _cache.cache_dir() is None
    assert not _cache.store(key(), "text") and _cache.load(key()) is None
    assert not (tmp_path / "off").exists()


def test_default_cache_dir(monkeypatch):
    monkeypatch.delenv("PYDEV_CACHE_DIR")
    assert _cache.cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "pydev")


def _hammer(args):
    directory, k, text, rounds = args
    os.environ["PYDEV_CACHE_DIR"] = directory
    seen = set()
    for _ in range(rounds):
        _cache.store(k, text)
        got = _cache.load(k)
        seen.add(got if got is None else len(got))
    return seen


def test_concurrent_writers_never_expose_partial_entries(tmp_path):
    k = key()
    text = "line of llvm\n" * 20000
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(4) as pool:
        results = pool.map(_hammer, [(str(tmp_path / "shared"), k, text, 25)] * 4)
    assert set().union(*results) == {len(text)}
    os.environ["PYDEV_CACHE_DIR"] = str(tmp_path / "shared")
    assert _cache.load(k) == text
    assert len(_cache.entries()) == 1


# --- kernel dispatch with a fake native module -------------------------------------------------


class FakeNative(types.ModuleType):
    """Records compiles and launches; 'compiles' to the signature text."""

    class CompileError(Exception):
        pass

    class LaunchError(RuntimeError):
        pass

    def __init__(self):
        super().__init__("fake_pydev")
        self.compiled, self.launched, self.loaded = [], [], []
        fake = self

        class HostProgram:
            def __init__(self, text, kernel, libraries=(), object=None):
                assert object == fake.host_object(text, kernel)
                if text.startswith("BROKEN"):
                    raise fake.CompileError("cannot load")
                fake.loaded.append((text, kernel))
                self.text = text

            def launch(self, grid, block, shared, args, keep=()):
                fake.launched.append((self.text, grid, block, shared, [bytes(a) for a in args]))

        self.HostProgram = HostProgram

    def version(self):
        return "0.0-fake"

    def host_target(self):
        return "fake-cpu"

    def host_object(self, text, kernel, opt_level=3):
        return f"object of {kernel}: {text}".encode()

    def cuda_status(self):
        return (False, "no CUDA driver (fake)")

    def compile(
        self,
        filename,
        source,
        function,
        signature,
        consts,
        target,
        stage,
        boundscheck=None,
        libdevice=None,
        program=None,
        line_info=False,
        debuginfo=False,
        fmad=True,
    ):
        assert os.path.isfile(filename) and "def " + function in source
        self.compiled.append((function, signature, dict(consts), target, stage))
        return f"module // {function}({signature}) {sorted(consts.items())} {target} {stage}"

    def stats(self):
        return {"native_compiles": len(self.compiled)}


@pytest.fixture
def fake(monkeypatch):
    f = FakeNative()
    monkeypatch.setattr(_native, "_MODULE", f)
    monkeypatch.setattr(_native, "_FINGERPRINT", None)
    monkeypatch.setattr(_native, "_STATUS", None)
    monkeypatch.setenv("PYDEV_TARGET", "host")
    kernels.vector_add._dispatch.clear()
    kernels.times_global._dispatch.clear()
    yield f
    kernels.vector_add._dispatch.clear()
    kernels.times_global._dispatch.clear()
    monkeypatch.setattr(_native, "_FINGERPRINT", None)


def test_second_launch_compiles_nothing(fake):
    x = np.zeros(8, np.float32)
    s = pydev.default_stream()
    before = pydev.stats()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    mid = pydev.stats()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    after = pydev.stats()
    assert mid["compiles"] == before["compiles"] + 1 and after["compiles"] == mid["compiles"]
    assert after["memory_hits"] == mid["memory_hits"] + 1
    assert after["launches"] == before["launches"] + 2
    assert after["native_compiles"] == 1
    assert fake.compiled == [
        ("vector_add", "float32[::1], float32[::1], float32[::1]", {"TILE": 256, "SCALE": 3}, "host", "llvm")
    ]
    # another signature compiles again
    y = np.zeros(8, np.float64)
    device.launch(kernels.vector_add, y, y, y, grid=1, block=8, stream=s)
    assert pydev.stats()["compiles"] == mid["compiles"] + 1


def test_disk_cache_survives_the_dispatch_cache(fake):
    x = np.zeros(8, np.float32)
    s = pydev.default_stream()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    assert len(_cache.entries()) == 1
    kernels.vector_add._dispatch.clear()  # as in a new process
    before = pydev.stats()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    after = pydev.stats()
    assert after["compiles"] == before["compiles"] and after["disk_hits"] == before["disk_hits"] + 1
    assert len(fake.compiled) == 1 and len(fake.loaded) == 2


def test_unusable_disk_entries_are_recompiled(fake):
    x = np.zeros(8, np.float32)
    s = pydev.default_stream()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    (path,) = _cache.entries()
    k = os.path.basename(path)[:-4]
    _cache.store(k, "BROKEN text that no longer loads")
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=s)
    assert len(fake.compiled) == 2 and _cache.load(k).startswith("module")


def test_cache_off_compiles_every_process(fake, monkeypatch):
    monkeypatch.setenv("PYDEV_CACHE", "0")
    x = np.zeros(8, np.float32)
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=pydev.default_stream())
    kernels.vector_add._dispatch.clear()
    device.launch(kernels.vector_add, x, x, x, grid=1, block=8, stream=pydev.default_stream())
    assert len(fake.compiled) == 2 and _cache.entries() == []


def test_module_constants_are_read_at_launch(fake, monkeypatch):
    x = np.zeros(8, np.float32)
    s = pydev.default_stream()
    device.launch(kernels.times_global, x, x, grid=1, block=8, stream=s)
    assert fake.compiled[-1][2]["SCALE"] == 3
    monkeypatch.setattr(kernels, "SCALE", 4)
    device.launch(kernels.times_global, x, x, grid=1, block=8, stream=s)
    assert len(fake.compiled) == 2 and fake.compiled[-1][2]["SCALE"] == 4
    monkeypatch.setattr(kernels, "SCALE", 3)
    device.launch(kernels.times_global, x, x, grid=1, block=8, stream=s)
    assert len(fake.compiled) == 2  # back to a signature + constants seen before


def test_consts_are_the_file_constants_device_code_names():
    consts = kernels.vector_add._consts()
    assert consts["TILE"] == 256 and consts["SCALE"] == 3  # read by block_sum / times_global in the same file
    assert "np" not in consts and "device" not in consts and "Particle" not in consts
    assert (
        _kernel.is_constant((1, 2.0, "a", True))
        and not _kernel.is_constant(np.float32(1))
        and not _kernel.is_constant([1])
    )


def test_launch_packs_the_kernel_abi(fake):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    s = pydev.default_stream()
    device.launch(kernels.affine, a, a[:, ::-1], (3, 0.5), grid=(2, 3), block=(4, 1), stream=s, shared=16)
    text, grid, block, shared, args = fake.launched[-1]
    assert "affine(float32[:, ::1], float32[:, :], (int32, float32))" in text
    assert (grid, block, shared) == ((2, 3, 1), (4, 1, 1), 16)
    assert args[0] == np.array([a.ctypes.data, 2, 3, 3, 1], np.uint64).tobytes()
    assert args[1] == np.array([a[:, ::-1].ctypes.data, 2, 3, 3, -1 & (2**64 - 1)], np.uint64).tobytes()
    assert args[2] == np.int32(3).tobytes() + np.float32(0.5).tobytes()


def test_compile_api_with_the_fake(fake):
    text = pydev.compile(kernels.vector_add, "float32[::1], float32[::1], float32[::1]", target="host", stage="pydev")
    assert "host pydev" in text
    x = np.zeros(3, np.float64)
    text = pydev.compile(kernels.vector_add, [x, x, x], target="sm_80")
    assert "vector_add(float64[::1], float64[::1], float64[::1])" in text and "sm_80 ptx" in text
    text = pydev.compile(kernels.saxpy, ["float32", x, x, x], target="sm_90", stage="llvm-ir")
    assert "saxpy(float32, float64[::1], float64[::1], float64[::1])" in text
    with pytest.raises(ValueError, match="stage must be one of"):
        pydev.compile(kernels.vector_add, "float32[::1]", stage="sass")
    with pytest.raises(ValueError, match="needs an sm_XX target"):
        pydev.compile(kernels.vector_add, "float32[::1]", target="host", stage="ptx")
    with pytest.raises(ValueError, match="target must be"):
        pydev.compile(kernels.vector_add, "float32[::1]", target="gpu")
    with pytest.raises(TypeError, match="@device.kernel or @device.func"):
        pydev.compile(print, "float32[::1]")
    assert pydev.compile(kernels.scale, [1.0, 2.0], target="host", stage="pydev").startswith(
        "module // scale(float32, float32)"
    )
