"""The backend API (docs/backend.md): pydev.Program (pydev IR, verified when
made, errors at the IR's locations), Program.compile's stages, launches
with the arrays, streams, fast path and caches of Python kernels and the
arguments checked against the IR signature, the pydev.ir builder, the
docs' toy framework (extracted from the markdown, run on the host, under
the fake CUDA driver and on a GPU where there is one), and the round trip
of every kernel the host suites launch. Fixed-seed inputs, poisoned outputs."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import ir

import kernels
from conftest import gpu_available
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEED = 20260515


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def saxpy_program():
    text = pydev.compile(
        kernels.saxpy, "float32, float32[::1], float32[::1], float32[::1]", target="host", stage="pydev"
    )
    return pydev.Program(text, kernel="saxpy")


def toy_source():
    doc = open(os.path.join(ROOT, "docs", "backend.md")).read()
    return re.search(r"## Example: a toy array framework.*?```python\n(.*?)```", doc, re.S).group(1)


# --- Program: parsing, verifying, diagnostics ----------------------------------------------


def test_verifier_errors_carry_the_frameworks_locations(native):
    text = """module {
  func.func @k(%a: f32) attributes {pydev.kernel} {
    %0 = "pydev.cmp"(%a) <{predicate = #pydev<cmp_predicate lt>}> : (f32) -> i1 loc("its_file.py":12:4)
    return
  }
}"""
    with pytest.raises(
        pydev.CompileError, match=r"^its_file\.py:12:4: error: 'pydev.cmp' op expected 2 operands, but found 1"
    ):
        pydev.Program(text, kernel="k")


def test_syntax_errors_name_the_text(native):
    with pytest.raises(pydev.CompileError, match=r"^frame\.mlir:1:\d+: error: "):
        pydev.Program("module { func.func @k( }", kernel="k", filename="frame.mlir")


def test_kernel_lookup(native):
    text = saxpy_program().text
    with pytest.raises(pydev.CompileError, match="no function 'nope' in the module \\(functions: saxpy\\)"):
        pydev.Program(text, kernel="nope")
    plain = text.replace(" attributes {pydev.kernel}", "")
    with pytest.raises(pydev.CompileError, match="'saxpy' is not a kernel"):
        pydev.Program(plain, kernel="saxpy")
    assert pydev.Program(text).kernel == "saxpy"  # the only kernel
    with pytest.raises(TypeError, match="MLIR text"):
        pydev.Program(42)


def test_compile_stages(native):
    p = saxpy_program()
    assert "pydev.array_load" in p.compile("host", "pydev")
    assert "func.func @saxpy" in p.compile("host", "pydev-opt")
    assert "llvm.func" in p.compile("host")
    assert "define" in p.compile("host", "llvm-ir")
    ptx = p.compile("sm_90")
    assert ".visible .entry saxpy(" in ptx and ".target sm_90" in ptx
    assert "define" in p.compile("sm_80", "llvm-ir")
    with pytest.raises(ValueError, match="python-ast.*has none"):
        p.compile("host", "python-ast")
    with pytest.raises(ValueError, match="needs an sm_XX target"):
        p.compile("host", "ptx")
    with pytest.raises(ValueError, match="target must be"):
        p.compile("gfx90a")


def test_compile_matches_the_python_kernels_stages(native):
    sig = "float32, float32[::1], float32[::1], float32[::1]"
    p = saxpy_program()
    for target, stage in (("sm_90", "ptx"), ("host", "llvm")):
        assert p.compile(target, stage) == pydev.compile(kernels.saxpy, sig, target=target, stage=stage)


# --- launching -------------------------------------------------------------------------------


def test_launch_host_fast_path_and_caches(native, host_target, rng):
    p = saxpy_program()
    x, y = rng.random(5000, dtype=np.float32), rng.random(5000, dtype=np.float32)
    before = pydev.stats()
    for k, a in enumerate((2.5, 1.25, -3.0)):
        out = np.full_like(x, np.nan)
        device.launch(p, a, x, y, out, grid=20, block=256, stream=pydev.default_stream())
        np.testing.assert_allclose(out, np.float32(a) * x + y, rtol=1e-6)
    after = pydev.stats()
    assert after["compiles"] - before["compiles"] == 1
    assert after["fast_launches"] - before["fast_launches"] == 2
    # Another Program of the same text: the in-memory cache.
    q = pydev.Program(p.text, kernel="saxpy")
    out = np.full_like(x, np.nan)
    device.launch(q, 0.5, pydev.to_device(x), pydev.to_device(y), out, grid=20, block=256, stream=pydev.create_stream())
    np.testing.assert_allclose(out, np.float32(0.5) * x + y, rtol=1e-6)
    assert pydev.stats()["compiles"] == after["compiles"]


def test_the_native_entry_launches_a_program_with_no_python_call(native, host_target, rng):
    """A Program's later launches are the native entry's, as a kernel's
    (python/src/dispatch.rs): sys.setprofile sees no Python function run
    beyond device.launch itself (before, a Program detoured through
    _launch._general_launch and Program._launch)."""
    import sys

    p = saxpy_program()
    x, y = rng.random(3000, dtype=np.float32), rng.random(3000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    s = pydev.default_stream()
    device.launch(p, 1.5, x, y, out, grid=12, block=256, stream=s)  # the general path registers it
    calls = []
    before = pydev.stats()["fast_launches"]
    sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_qualname) if event == "call" else None)
    try:
        for a in (2.0, -0.5, 4.0):
            device.launch(p, a, x, y, out, grid=12, block=256, stream=s)
    finally:
        sys.setprofile(None)
    assert [c for c in calls if c != "<lambda>"] == ["launch"] * 3, calls  # device.launch itself, then native
    assert pydev.stats()["fast_launches"] - before == 3
    np.testing.assert_allclose(out, np.float32(4.0) * x + y, rtol=1e-6)


def test_the_shared_program_cache_is_bounded(native, host_target, rng, monkeypatch):
    # Programs of one text share what they loaded, up to _LOADED_MAX entries
    # (least recently used first out); each Program keeps its own.
    from pydev import _program

    monkeypatch.setattr(_program, "_LOADED", type(_program._LOADED)())
    monkeypatch.setattr(_program, "_LOADED_MAX", 2)
    base = saxpy_program().text
    x, y = rng.random(256, dtype=np.float32), rng.random(256, dtype=np.float32)
    programs = []
    for k in range(3):  # three texts: a comment makes each its own entry
        p = pydev.Program(f"// variant {k}\n{base}", kernel="saxpy")
        out = np.full_like(x, np.nan)
        device.launch(p, float(k + 1), x, y, out, grid=1, block=256, stream=pydev.default_stream())
        np.testing.assert_allclose(out, np.float32(k + 1) * x + y, rtol=1e-6)
        programs.append(p)
        assert len(_program._LOADED) == min(k + 1, 2)
    # The first text's entry went; its Program still launches what it loaded.
    assert not any(key[0] == programs[0].text for key in _program._LOADED)
    before = pydev.stats()["compiles"]
    out = np.full_like(x, np.nan)
    device.launch(programs[0], 4.0, x, y, out, grid=1, block=256, stream=pydev.default_stream())
    np.testing.assert_allclose(out, np.float32(4.0) * x + y, rtol=1e-6)
    assert pydev.stats()["compiles"] == before


def test_disk_cache_serves_another_process(native, tmp_path, rng):
    code = (
        "import numpy as np, pydev, cuda.device as device, kernels\n"
        "t = pydev.compile(kernels.saxpy, 'float32, float32[::1], float32[::1], float32[::1]', target='host', stage='pydev')\n"
        "p = pydev.Program(t, kernel='saxpy')\n"
        "x = np.arange(300, dtype=np.float32); out = np.full_like(x, np.nan)\n"
        "n = pydev.stats()['compiles']\n"
        "device.launch(p, 2.0, x, x, out, grid=3, block=128, stream=pydev.default_stream())\n"
        "assert np.array_equal(out, 3 * x)\n"
        "print(pydev.stats()['compiles'] - n, pydev.stats()['disk_hits'])\n"
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
    assert first.stdout.split() == ["1", "0"] and second.stdout.split() == ["0", "1"], (first.stdout, second.stdout)


def test_arguments_are_checked_against_the_ir_signature(native, host_target, rng):
    p = saxpy_program()
    x = rng.random(64, dtype=np.float32)
    out = np.full_like(x, np.nan)
    s = pydev.default_stream()
    with pytest.raises(
        TypeError,
        match=r"argument 2 of kernel 'saxpy' does not match parameter 2 \(%arg2: !pydev.array<f32, 1, c>\).*f64",
    ):
        device.launch(p, 1.0, x, x.astype(np.float64), out, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match=r"parameter 1 .*C-contiguous"):
        device.launch(p, 1.0, np.repeat(x, 2)[::2], x, out, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match=r"parameter 0 \(%arg0: f32\).*Python float"):
        device.launch(p, np.float64(1.0), x, x, out, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match=r"parameter 0 .*it is not an array"):
        device.launch(p, x, x, x, out, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match=r"parameter 3 .*read-only"):
        ro = x.copy()
        ro.flags.writeable = False
        device.launch(p, 1.0, x, x, ro, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match=r"takes 4 arguments"):
        device.launch(p, 1.0, x, x, grid=1, block=64, stream=s)
    with pytest.raises(TypeError, match="stream"):
        device.launch(p, 1.0, x, x, out, grid=1, block=64, stream=None)
    # An int converts to the float parameter, as a signature-typed launch does.
    device.launch(p, 2, x, x, out, grid=1, block=64, stream=s)
    np.testing.assert_array_equal(out, np.float32(3) * x)


def test_integer_parameters_convert_python_ints(native, host_target):
    m = ir.Module()
    k = m.kernel("put", [ir.array(ir.si64, 1, "c"), ir.si64, ir.ui8])
    out, a, b = k.args
    out[0] = a
    out[1] = k.cast(b, ir.si64)
    p = pydev.Program(m)
    res = np.full(2, -7, np.int64)
    device.launch(p, res, 1 << 40, 200, grid=1, block=1, stream=pydev.default_stream())
    assert res.tolist() == [1 << 40, 200]
    with pytest.raises(OverflowError, match="256 does not fit parameter 2"):
        device.launch(p, res, 1, 256, grid=1, block=1, stream=pydev.default_stream())
    with pytest.raises(TypeError, match="parameter 1 .*int64"):
        device.launch(p, res, np.int32(1), 2, grid=1, block=1, stream=pydev.default_stream())


# --- pydev.ir -------------------------------------------------------------------------------


def test_ir_builder_loops_and_locations(native, host_target, rng):
    m = ir.Module()
    k = m.kernel("rowsum", [ir.array(ir.f32, 2, "c"), ir.array(ir.f32, 1, "c")], loc=ir.loc("frame.py", 1))
    a, out = k.args
    with k.at("frame.py", 7, 2):
        r = k.global_id()
        with k.if_(r < a.extent(0)):
            out[r] = 0.0
            with k.for_range(0, k.cast(a.extent(1), ir.si32)) as j:
                out[r] = out[r] + a[r, j]
    text = str(m)
    assert 'loc("frame.py":7:2)' in text
    p = pydev.Program(text)
    x = rng.random((37, 19), dtype=np.float32)
    res = np.full(37, np.nan, np.float32)
    device.launch(p, x, res, grid=2, block=32, stream=pydev.default_stream())
    np.testing.assert_allclose(res, x.sum(1), rtol=1e-5)
    # A type error the verifier finds is reported at the builder's location.
    m = ir.Module()
    k = m.kernel("bad", [ir.array(ir.f32, 1, "c")])
    with k.at("frame.py", 9, 4):
        k.ops.array_store(k.constant(1, ir.si32), k.args[0], k.constant(0, ir.si32))
    with pytest.raises(pydev.CompileError, match=r"^frame\.py:9:4: error: 'pydev.array_store' op"):
        pydev.Program(m)


# --- the toy framework of docs/backend.md -----------------------------------------------------


def test_toy_framework_runs_on_the_host(native, tmp_path):
    script = tmp_path / "toy.py"
    script.write_text(toy_source())
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert "toy ok on host" in r.stdout


def test_toy_framework_compiles_to_ptx_and_reports_user_lines(native):
    ns = {"__name__": "toy"}
    src = toy_source().split("\nrng = ")[0]
    exec(compile(src, "toy.py", "exec"), ns)
    for name in ("saxpy", "block_sum"):
        ptx = ns[name].program.compile("sm_90")
        assert f".visible .entry {name}(" in ptx
    assert "bar.sync" in ns["block_sum"].program.compile("sm_90")
    assert ".shared" in ns["block_sum"].program.compile("sm_90")
    line = next(i for i, ln in enumerate(src.splitlines(), 1) if "out[i] = a * x[i] + y[i]" in ln)
    assert f'loc("toy.py":{line}:0)' in ns["saxpy"].program.text


def test_toy_framework_under_the_fake_driver(native, fake_driver, tmp_path):
    import test_fake_driver

    fake = fake_driver
    code = (
        toy_source().split("\nrng = ")[0]
        + """
import fakecuda
rng = np.random.default_rng(5)
x = pydev.to_device(rng.random(1000, dtype=np.float32))
out, sums = pydev.device_array(1000, np.float32), pydev.device_array(4, np.float32)
saxpy(2.5, x, x, out)
block_sum(x, sums)
block_sum(x, sums)
l = fakecuda.launches()
assert [a.kernel for a in l] == ["saxpy", "block_sum", "block_sum"], [a.kernel for a in l]
assert l[0].grid == (4, 1, 1) and l[0].block == (256, 1, 1) and l[0].sizes == [4, 24, 24, 24]
assert struct.unpack("<f", l[0].params[0]) == (2.5,)
assert l[0].descriptor(1) == (x.__cuda_array_interface__["data"][0], (1000,), (1,))
assert pydev.stats()["fast_launches"] == 1
print("fake ok")
"""
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH", "PYDEV_CACHE")}
    env.update(
        LD_LIBRARY_PATH=test_fake_driver.prepend(fake, env.get("LD_LIBRARY_PATH")),
        PYTHONPATH=test_fake_driver.prepend(HERE, env.get("PYTHONPATH")),
        PYDEV_CACHE_DIR=str(tmp_path / "cache"),
    )
    r = subprocess.run(
        [sys.executable, "-c", "import struct\n" + code], cwd=HERE, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fake ok" in r.stdout


@pytest.mark.skipif(not gpu_available(), reason="no CUDA driver and device")
def test_toy_framework_on_a_gpu(native, tmp_path):
    script = tmp_path / "toy.py"
    script.write_text(toy_source())
    env = dict(os.environ, PYDEV_TARGET="cuda", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert "toy ok on cuda" in r.stdout


# --- the round trip ---------------------------------------------------------------------------

# Kernels a Program cannot take as they are launched, with the reason.
EXCLUDED = {
    "none_argument": "launched with a None argument, which a Python kernel drops and a Program has no parameter for",
    "none_argument_interop": "launched with a None argument, which a Python kernel drops and a Program has no parameter for",
}


def test_round_trip(native, tmp_path):
    """Every kernel launch of test_host.py and test_conformance_host.py is
    also run as pydev.Program(pydev.compile(fn, args, stage="pydev")) from
    the same inputs (python/tests/_roundtrip_plugin.py); both must leave the
    same arrays. The suites' own verdicts are theirs (their compile counters
    see the extra compiles of the plugin), so only the log is checked here."""
    log = tmp_path / "roundtrip.jsonl"
    env = dict(
        os.environ,
        PYDEV_TARGET="host",
        PYDEV_ROUNDTRIP_LOG=str(log),
        PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]),
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "_roundtrip_plugin",
            "-p",
            "no:cacheprovider",
            "test_host.py",
            "test_conformance_host.py",
        ],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    by_status = {}
    for row in rows:
        by_status.setdefault(row["status"], []).append(row)
    problems = [row for row in by_status.get("differs", []) + by_status.get("error", [])]
    problems += [row for row in by_status.get("skipped", []) if row["kernel"] not in EXCLUDED]
    assert not problems, "\n".join(f"{p['status']} {p['kernel']} ({p['test']}): {p['why']}" for p in problems)
    ok = {row["kernel"] for row in by_status.get("ok", [])}
    assert len(ok) >= 80, (len(ok), r.stdout[-2000:])
    print(
        f"round trip: {len(by_status.get('ok', []))} launches of {len(ok)} kernels equal; "
        f"{len(by_status.get('nondeterministic', []))} nondeterministic; {len(by_status.get('skipped', []))} excluded"
    )
