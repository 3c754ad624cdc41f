"""Extra passes at the pipelines' named points (issue 33 items 1 and 2):
`passes={"POINT": "pass-a,pass-b"}` and `plugins=[path.so]` on
`pydev.compile`, `@device.kernel`/`@device.func`, `pydev.Program` and
pydev.numba's `cuda.jit`, and `PYDEV_PASSES`/`PYDEV_PASS_PLUGINS` for a
process; a pass plugin built outside pydev (examples/pass-template), PDL
patterns (pydev-apply-pdl) and transform-dialect scripts run in the JIT.
Unknown points, passes and plugins are ValueErrors naming them; the passes
are part of the cache keys."""

import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _native

pytestmark = pytest.mark.skipif(not _native.available(), reason="needs the native module")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("PYDEV_BIN_DIR", os.path.join(ROOT, "target", "debug"))
TEMPLATE = os.path.join(BIN, "libpydev_pass_template.so")
PDL = os.path.join(ROOT, "examples", "pdl", "mul_pow2.mlir")
SHIFT = {"after-frontend": "example-mul-pow2-to-shift"}

needs_template = pytest.mark.skipif(
    not os.path.exists(TEMPLATE), reason=f"{TEMPLATE} is built by `make build` (cargo build -p pydev-pass-template)"
)

RNG = np.random.default_rng(33)


def _data(n=256):
    x = RNG.integers(-(1 << 20), 1 << 20, n, dtype=np.int32)
    out = np.full(n, -77, np.int32)  # poisoned: an unwritten element shows
    return x, out


def _times8(x, out):
    i = device.tid(1)
    if i < x.size:
        out[i] = x[i] * 8 + 1


plain = device.kernel(_times8)


def _launch(k, x, out):
    device.launch(k, x, out, grid=(x.size + 127) // 128, block=128, stream=pydev.default_stream())


def _ir(k, x, out, **kw):
    return pydev.compile(k, [x, out], target="host", stage="pydev-opt", **kw)


def _shifted(ir, x, out):
    """Whether `ir` (the pydev-opt stage) has the `* 8` as a shift: a shli,
    and one muli fewer than the plain kernel (the thread index has its own)."""
    return "arith.shli" in ir and ir.count("arith.muli") == _ir(plain, x, out).count("arith.muli") - 1


@needs_template
def test_a_plugin_pass_on_a_kernel_rewrites_it_and_keeps_its_results():
    shifted = device.kernel(passes=SHIFT, plugins=[TEMPLATE])(_times8)
    x, out = _data()
    assert _shifted(_ir(shifted, x, out), x, out)
    assert "arith.shli" not in _ir(plain, x, out)
    _launch(shifted, x, out)
    np.testing.assert_array_equal(out, x * 8 + 1)
    # The PTX too: the same pass runs in the cuda pipeline.
    ptx = pydev.compile(shifted, [x, out], target="sm_90", stage="ptx")
    assert "shl.b32" in ptx


@needs_template
def test_pydev_compile_takes_passes_instead_of_the_objects_own():
    x, out = _data()
    assert _shifted(_ir(plain, x, out, passes=SHIFT, plugins=[TEMPLATE]), x, out)

    # A device function: every stage from the frontend, with the passes.
    @device.func
    def f(a):
        return a * 8

    text = pydev.compile(f, "int32", target="host", stage="pydev-opt", passes=SHIFT, plugins=[TEMPLATE])
    assert "arith.shli" in text


@needs_template
def test_a_plugin_pass_on_a_program_and_a_numba_kernel():
    from pydev.numba import cuda

    x, out = _data()
    text = pydev.compile(plain, [x, out], target="host", stage="pydev")
    prog = pydev.Program(text, passes=SHIFT, plugins=[TEMPLATE])
    assert _shifted(prog.compile("host", "pydev-opt"), x, out)
    _launch(prog, x, out)
    np.testing.assert_array_equal(out, x * 8 + 1)

    @cuda.jit(passes=SHIFT, plugins=[TEMPLATE])
    def nb(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * 8 + 1

    x, out = _data()
    nb[(x.size + 127) // 128, 128](x, out)
    np.testing.assert_array_equal(out, x * 8 + 1)
    assert "arith.shli" in pydev.compile(nb, [x, out], target="host", stage="pydev-opt")


def test_pdl_patterns_and_a_transform_script_run_in_the_jit(tmp_path):
    x, out = _data()
    k = device.kernel(passes={"after-frontend": f"pydev-apply-pdl{{patterns={PDL}}}"})(_times8)
    assert _shifted(_ir(k, x, out), x, out)
    _launch(k, x, out)
    np.testing.assert_array_equal(out, x * 8 + 1)
    # Core transform ops match upstream ops as well: after promotion the
    # multiplication is arith.muli, and the mark survives to the stage's end.
    script = tmp_path / "mark.mlir"
    script.write_text(
        textwrap.dedent("""\
            module attributes {transform.with_named_sequence} {
              transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
                transform.match.operation_name %op ["arith.muli"] : !transform.any_op
                transform.yield %op : !transform.any_op
              }
              transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
                %m = transform.collect_matching @match in %root : (!transform.any_op) -> !transform.any_op
                transform.annotate %m "research.marked" : !transform.any_op
                transform.yield
              }
            }
            """)
    )
    passes = {"after-promotion": f"transform-preload-library{{transform-library-paths={script}}},transform-interpreter"}
    ir = _ir(plain, x, out, passes=passes)
    muls = [line for line in ir.splitlines() if "arith.muli" in line]
    assert muls and all("research.marked" in line for line in muls)


def test_upstream_passes_at_every_point_keep_the_results():
    passes = {
        "after-frontend": "cse",
        "after-promotion": "canonicalize,cse",
        "before-lowering": "loop-invariant-code-motion,sccp",
        "llvm": "cse,canonicalize",
        "llvm-ir": "instcombine,gvn",
    }
    k = device.kernel(passes=passes)(_times8)
    x, out = _data()
    _launch(k, x, out)
    np.testing.assert_array_equal(out, x * 8 + 1)


@pytest.mark.parametrize(
    "passes, plugins, needle",
    [
        ({"nowhere": "cse"}, None, "unknown pass point 'nowhere'"),
        ({"before-lowering": "no-such-pass"}, None, "'no-such-pass' does not refer to a registered pass"),
        (
            {"before-lowering": "pydev-promote-types{bogus=1}"},
            None,
            "unknown option 'bogus' of pass 'pydev-promote-types'",
        ),
        ({"llvm-ir": "no-such-llvm-pass"}, None, "unknown pass name 'no-such-llvm-pass'"),
        (None, ["/no/such/plugin.so"], "pass plugin '/no/such/plugin.so' does not exist"),
    ],
)
def test_unknown_points_passes_and_plugins_are_value_errors_naming_them(passes, plugins, needle):
    from pydev.numba import cuda

    x, out = _data(8)
    text = pydev.compile(plain, [x, out], target="host", stage="pydev")
    attempts = {
        "@device.kernel": lambda: device.kernel(passes=passes, plugins=plugins)(_times8),
        "@device.func": lambda: device.func(passes=passes, plugins=plugins)(lambda a: a),
        "pydev.Program": lambda: pydev.Program(text, passes=passes, plugins=plugins),
        "cuda.jit": lambda: cuda.jit(passes=passes, plugins=plugins)(lambda a: None),
        "pydev.compile": lambda: pydev.compile(plain, [x, out], "host", "llvm", passes=passes, plugins=plugins),
    }
    for what, attempt in attempts.items():
        with pytest.raises(ValueError) as e:
            attempt()
        assert needle in str(e.value), (what, str(e.value))


def test_a_plugin_that_is_no_pydev_plugin_is_refused(tmp_path):
    lib = os.path.join(os.path.dirname(sys.executable), "..", "lib")
    candidates = [os.path.join(lib, n) for n in os.listdir(lib) if n.startswith("libpython") and ".so" in n]
    if not candidates:
        pytest.skip("no shared library to try")
    with pytest.raises(ValueError, match="is not a pydev pass plugin"):
        device.kernel(plugins=[candidates[0]])(_times8)


def test_llvm_ir_passes_are_host_only():
    k = device.kernel(passes={"llvm-ir": "instcombine"})(_times8)
    x, out = _data(8)
    with pytest.raises(pydev.CompileError, match="passes at 'llvm-ir' run on the host target only"):
        pydev.compile(k, [x, out], target="sm_90", stage="ptx")


def test_the_passes_are_part_of_the_cache_keys(tmp_path):
    script = tmp_path / "k.py"
    script.write_text(
        textwrap.dedent("""\
            import numpy as np, pydev, cuda.device as device

            def times8(x, out):
                i = device.tid(1)
                if i < x.size:
                    out[i] = x[i] * 8 + 1

            x = np.arange(64, dtype=np.int32) - 9
            for passes in (None, {"before-lowering": "cse"}, {"before-lowering": "cse,sccp"}, None):
                k = device.kernel(passes=passes)(times8)
                out = np.full(64, -77, np.int32)
                device.launch(k, x, out, grid=1, block=64, stream=pydev.default_stream())
                assert (out == x * 8 + 1).all()
            print(pydev.stats()["compiles"], pydev.stats()["disk_hits"])
            """)
    )
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    # Three pipelines, three compiles; the fourth kernel is the first's program.
    compiles, hits = map(int, first.stdout.split())
    assert compiles == 3 and hits == 1
    again = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert list(map(int, again.stdout.split())) == [0, 4]


@needs_template
def test_pydev_passes_and_pydev_pass_plugins_set_them_for_a_process(tmp_path):
    script = tmp_path / "k.py"
    script.write_text(
        textwrap.dedent("""\
            import numpy as np, pydev, cuda.device as device
            from pydev.numba import cuda

            @device.kernel
            def k(x, out):
                i = device.tid(1)
                if i < x.size:
                    out[i] = x[i] * 8

            @cuda.jit
            def nb(x, out):
                i = cuda.grid(1)
                if i < x.size:
                    out[i] = x[i] * 8

            x = np.arange(64, dtype=np.int32) - 9
            for f in (k, nb):
                out = np.full(64, -77, np.int32)
                device.launch(f, x, out, grid=1, block=64, stream=pydev.default_stream())
                assert (out == x * 8).all()
                assert "arith.shli" in pydev.compile(f, [x, out], target="host", stage="pydev-opt")
            print("ok")
            """)
    )
    env = dict(
        os.environ,
        PYDEV_TARGET="host",
        PYDEV_CACHE_DIR=str(tmp_path / "cache"),
        PYDEV_PASSES="after-frontend=example-mul-pow2-to-shift",
        PYDEV_PASS_PLUGINS=TEMPLATE,
    )
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    bad = dict(env, PYDEV_PASSES="nowhere=cse")
    r = subprocess.run([sys.executable, str(script)], env=bad, capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "PYDEV_PASSES: unknown pass point 'nowhere'" in r.stderr


@needs_template
def test_a_program_with_passes_pickles_with_them():
    x, out = _data()
    text = pydev.compile(plain, [x, out], target="host", stage="pydev")
    prog = pydev.Program(text, passes=SHIFT, plugins=[TEMPLATE])
    back = pickle.loads(pickle.dumps(prog))
    assert back.passes == prog.passes
    assert "arith.shli" in back.compile("host", "pydev-opt")
    shifted = device.kernel(passes=SHIFT, plugins=[TEMPLATE])(_times8)
    _launch(shifted, x, out)
    assert pickle.loads(pickle.dumps(shifted)).passes == shifted.passes


# --- the optimization passes, inserted with passes= (issue 33 item 4) -----------------------------


def _histogram(bins, data):
    i = device.tid(1)
    if i < data.size:
        device.atomic_ref(bins, data[i] % 16).add(1, memory="relaxed", scope="device")


def _swap_pairs(x, out):
    i = device.tid(1) * 2
    if i + 1 < x.size:
        a = x[i]
        b = x[i + 1]
        out[i] = b
        out[i + 1] = a


def test_aggregate_atomics_keeps_a_histogram_and_aggregates_in_the_ptx():
    k = device.kernel(passes={"before-lowering": "pydev-aggregate-atomics"})(_histogram)
    data = RNG.integers(0, 1 << 20, 5000, dtype=np.int32)
    bins = np.full(16, 0, np.int32)
    device.launch(k, bins, data, grid=40, block=128, stream=pydev.default_stream())
    np.testing.assert_array_equal(bins, np.bincount(data % 16, minlength=16))
    ptx = pydev.compile(k, [bins, data], target="sm_90", stage="ptx")
    assert "match.any.sync" in ptx and "match.any" not in pydev.compile(
        device.kernel(_histogram), [bins, data], "sm_90", "ptx"
    )


def test_vectorize_access_keeps_results_and_vectorizes_the_ptx():
    k = device.kernel(passes={"before-lowering": "pydev-vectorize-access"})(_swap_pairs)
    x = RNG.standard_normal(1026).astype(np.float32)
    for view in (x[:1024], x[1:1025]):  # aligned, and one element in (the scalar path)
        out = np.full(1024, np.nan, np.float32)
        device.launch(k, view, out, grid=4, block=128, stream=pydev.default_stream())
        np.testing.assert_array_equal(out, view.reshape(-1, 2)[:, ::-1].ravel())
    ptx = pydev.compile(k, [x[:1024], out], target="sm_90", stage="ptx")
    assert ".v2." in ptx and ".v2." not in pydev.compile(device.kernel(_swap_pairs), [x[:1024], out], "sm_90", "ptx")
