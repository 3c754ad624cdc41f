"""Multi-kernel pydev.Programs (docs/backend.md, "Several kernels"):
`pydev.Program(m)` compiles a module of several kernels once (one host
object, one PTX module) and `program.kernel(name)` launches each kernel of
it; `kernel=` compiles only what that kernel reaches; device functions are
internal. Fixed-seed inputs, poisoned outputs."""

import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import ir

from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261128
N = 1000
KERNELS = 8
VEC = ir.array(ir.f32, 1, "c")


def module():
    """Eight kernels `k<i>`: out = twice(x) * (i + 1) + y for even i,
    out = x * (i + 1) - y for odd i; `twice` is a device function the even
    kernels call, `unused` one that no kernel calls. (Programs of it take
    fmad=False: each op rounds as NumPy's, so results are exact.)"""
    m = ir.Module()
    twice = m.func("twice", [ir.f32], [ir.f32])
    twice.ret(twice.args[0] + twice.args[0])
    unused = m.func("unused", [ir.f32], [ir.f32])
    unused.ret(unused.args[0] * 3.0)
    for i in range(KERNELS):
        k = m.kernel(f"k{i}", [VEC, VEC, VEC])
        x, y, out = k.args
        j = k.global_id()
        with k.if_(j < x.size):
            if i % 2 == 0:
                out[j] = k.call(twice, x[j]) * float(i + 1) + y[j]
            else:
                out[j] = x[j] * float(i + 1) - y[j]
    return m


def expected(i, x, y):
    f = np.float32(i + 1)
    return (x + x) * f + y if i % 2 == 0 else x * f - y


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def test_a_module_of_eight_kernels_compiles_once_and_launches_each(native, host_target, rng):
    program = pydev.Program(module(), cache=False, fmad=False)  # no disk cache: this process compiles it
    assert program.kernels == tuple(f"k{i}" for i in range(KERNELS))
    assert program.kernel == ""  # no one kernel of its own
    before = pydev.stats()
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    for i in rng.permutation(KERNELS):
        out = np.full(N, np.nan, np.float32)
        k = program.kernel(f"k{i}")
        assert k is program.kernel(f"k{i}") and k.kernel == f"k{i}"
        assert [str(p) for p in k.params] == [str(VEC)] * 3
        device.launch(k, x, y, out, grid=(N + 127) // 128, block=128, stream=pydev.default_stream())
        np.testing.assert_array_equal(out, expected(i, x, y))
    after = pydev.stats()
    assert after["compiles"] - before["compiles"] == 1, (before, after)
    assert after["native_compiles"] - before["native_compiles"] == 1, (before, after)
    assert after["jit_compiles"] - before["jit_compiles"] == 1, (before, after)
    # Launched again (fast path): nothing compiles, the results are fresh.
    out = np.full(N, np.nan, np.float32)
    device.launch(program.kernel("k3"), y, x, out, grid=(N + 127) // 128, block=128, stream=pydev.default_stream())
    np.testing.assert_array_equal(out, expected(3, y, x))
    assert pydev.stats()["compiles"] == after["compiles"]


def test_another_program_of_the_same_module_shares_its_code(native, host_target, rng):
    text = str(module())
    a, b = pydev.Program(text, cache=False, fmad=False), pydev.Program(text, cache=False, fmad=False)
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    before = pydev.stats()["compiles"]
    for p, i in ((a, 0), (b, 5)):
        out = np.full(N, np.nan, np.float32)
        device.launch(p.kernel(f"k{i}"), x, y, out, grid=(N + 255) // 256, block=256, stream=pydev.default_stream())
        np.testing.assert_array_equal(out, expected(i, x, y))
    assert pydev.stats()["compiles"] - before <= 1


def test_unknown_kernels_and_whole_module_launches_are_errors(native, host_target):
    program = pydev.Program(module(), cache=False)
    names = ", ".join(f"k{i}" for i in range(KERNELS))
    with pytest.raises(
        ValueError, match=re.escape(f"no kernel 'nope' in the module of pydev.Program (its kernels: {names})")
    ):
        program.kernel("nope")
    with pytest.raises(ValueError, match=re.escape("no kernel 'twice'")):
        program.kernel("twice")  # a device function is no kernel
    with pytest.raises(TypeError, match="name of a kernel"):
        program.kernel(3)
    x = np.zeros(4, np.float32)
    with pytest.raises(
        TypeError, match=re.escape("pydev.Program has 8 kernels (k0, k1,") + ".*program.kernel\\('k0'\\)"
    ):
        device.launch(program, x, x, x, grid=1, block=4, stream=pydev.default_stream())
    with pytest.raises(ValueError, match="each kernel has its own"):
        program.params
    assert repr(program) == f"<pydev.Program of kernels {names}>"


def test_the_whole_module_compiles_to_every_stage(native):
    program = pydev.Program(module())
    ptx = program.compile("sm_90", "ptx")
    for i in range(KERNELS):
        assert f".visible .entry k{i}(" in ptx
    # Device functions are internal: no .visible, and the one no kernel calls is gone.
    assert not re.search(r"\.visible\s+\.func", ptx)
    assert "unused" not in ptx
    llvm = program.compile("host", "llvm")
    assert all(f"llvm.func @k{i}(" in llvm for i in range(KERNELS))
    assert "llvm.func @unused" not in llvm
    assert "define" in program.compile("host", "llvm-ir")
    assert "pydev.kernel" in program.compile("host", "pydev")
    # A kernel's stages are its module's (it launches the module's code).
    assert program.kernel("k6").compile("sm_90", "ptx") == ptx


def test_kernel_equals_compiles_only_what_it_reaches(native, host_target, rng):
    text = str(module())
    for name in ("k2", "k3"):
        p = pydev.Program(text, kernel=name, fmad=False)
        assert p.kernel == name and p.kernel(name) is p
        assert p.kernels == tuple(f"k{i}" for i in range(KERNELS))
        ptx = p.compile("sm_90", "ptx")
        assert re.findall(r"\.entry (\w+)\(", ptx) == [name]
        assert "unused" not in ptx  # (`twice`, internal, is inlined into k2)
        assert not re.search(r"\.visible\s+\.func", ptx)
        assert re.findall(r"llvm\.func @(k\d)\(", p.compile("host", "llvm")) == [name]
        with pytest.raises(ValueError, match=f"made with kernel='{name}'.*pydev.Program\\(text\\) without kernel="):
            p.kernel("k0")
        x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
        out = np.full(N, np.nan, np.float32)
        device.launch(p, x, y, out, grid=(N + 127) // 128, block=128, stream=pydev.default_stream())
        np.testing.assert_array_equal(out, expected(int(name[1:]), x, y))


def test_kernels_of_a_module_pickle(native, host_target, rng):
    program = pydev.Program(module(), fmad=False)
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    for obj, i in ((program.kernel("k4"), 4), (program, 1)):
        again = pickle.loads(pickle.dumps(obj))
        k = again if i == 4 else again.kernel(f"k{i}")
        assert k.kernel == f"k{i}"
        out = np.full(N, np.nan, np.float32)
        device.launch(k, x, y, out, grid=(N + 127) // 128, block=128, stream=pydev.default_stream())
        np.testing.assert_array_equal(out, expected(i, x, y))
    cloudpickle = pytest.importorskip("cloudpickle")
    k = cloudpickle.loads(cloudpickle.dumps(program.kernel("k7")))
    out = np.full(N, np.nan, np.float32)
    device.launch(k, x, y, out, grid=(N + 127) // 128, block=128, stream=pydev.default_stream())
    np.testing.assert_array_equal(out, expected(7, x, y))


def test_the_disk_cache_serves_the_module_to_another_process(native, tmp_path):
    code = (
        "import numpy as np, pydev, cuda.device as device, test_program_multi as t\n"
        "p = pydev.Program(t.module(), fmad=False)\n"
        "x = np.arange(300, dtype=np.float32); y = np.ones_like(x)\n"
        "s = pydev.stats()\n"
        "for i in range(t.KERNELS):\n"
        "    out = np.full_like(x, np.nan)\n"
        "    device.launch(p.kernel(f'k{i}'), x, y, out, grid=3, block=128, stream=pydev.default_stream())\n"
        "    assert np.array_equal(out, t.expected(i, x, y)), i\n"
        "e = pydev.stats()\n"
        "print(*(e[k] - s[k] for k in ('compiles', 'disk_hits', 'jit_compiles')))\n"
    )
    env = dict(
        os.environ,
        PYDEV_TARGET="host",
        PYDEV_CACHE_DIR=str(tmp_path / "c"),
        PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]),
    )
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=HERE)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=HERE)
    assert second.returncode == 0, second.stderr
    # The first compiles the module once (and JIT-compiles it once); the second reads both.
    assert first.stdout.split() == ["1", "0", "1"] and second.stdout.split() == ["0", "1", "0"], (
        first.stdout,
        second.stdout,
    )


def test_one_cuda_module_under_the_fake_driver(native, fake_driver, tmp_path):
    import test_fake_driver

    code = """
import numpy as np, pydev, cuda.device as device, fakecuda, test_program_multi as t
p = pydev.Program(t.module())
rng = np.random.default_rng(3)
x = pydev.to_device(rng.random(1000, dtype=np.float32))
out = pydev.device_array(1000, np.float32)
fakecuda.reset_calls()
for i in (0, 5, 2, 7):
    device.launch(p.kernel(f"k{i}"), x, x, out, grid=8, block=128, stream=pydev.default_stream())
l = fakecuda.launches()
assert [a.kernel for a in l] == ["k0", "k5", "k2", "k7"], [a.kernel for a in l]
assert all(a.sizes == [24, 24, 24] for a in l)
assert fakecuda.calls("cuModuleLoadDataEx") == {"cuModuleLoadDataEx": 1}
assert pydev.stats()["compiles"] == 1
print("fake ok")
"""
    env = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH", "PYDEV_CACHE")}
    env.update(
        LD_LIBRARY_PATH=test_fake_driver.prepend(fake_driver, env.get("LD_LIBRARY_PATH")),
        PYTHONPATH=test_fake_driver.prepend(HERE, env.get("PYTHONPATH")),
        PYDEV_CACHE_DIR=str(tmp_path / "cache"),
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=HERE, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fake ok" in r.stdout
