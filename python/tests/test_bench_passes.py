"""bench/passes.py, the pass-evaluation harness, on a small slice of its
corpus: a variant that changes code (the template plugin's
example-mul-pow2-to-shift on a kernel that multiplies by 4, with
before-lowering=cse), the JSON it writes, and the refusal to report speed
for a variant whose results differ (fmad=0 moves saxpy's results by a
rounding on a CPU with FMA) unless it declares a tolerance."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from test_fake_driver import fake_driver, prepend  # noqa: F401 - the fixture (builds test/fakecuda)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench", "passes.py")
TEMPLATE = os.path.join(ROOT, "target", "debug", "libpydev_pass_template.so")


def harness(*args, tmp_path, name="out", gpu=False, env=None):
    out = tmp_path / f"{name}.json"
    r = subprocess.run(
        [sys.executable, BENCH, "--json", str(out), "--repeat", "3", *([] if gpu else ["--no-gpu"]), *args],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    report = json.loads(out.read_text()) if out.exists() else None
    return r, report


@pytest.fixture(scope="module")
def bench_module():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        spec = importlib.util.spec_from_file_location("bench_passes_under_test", BENCH)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(os.path.join(ROOT, "bench"))


def test_pipeline_options(bench_module):
    opts = bench_module.parse_options(" before-lowering=cse,canonicalize; llvm=cse ;plugins=a.so:b.so;fmad=0", 1e-3)
    assert opts["passes"] == "before-lowering=cse,canonicalize;llvm=cse"
    assert opts["plugins"] == [os.path.abspath("a.so"), os.path.abspath("b.so")]
    assert opts["fmad"] is False and opts["tolerance"] == 1e-3
    assert bench_module.parse_options("tolerance=1e-6", 1e-3)["tolerance"] == 1e-6
    default = bench_module.parse_options("")
    assert (default["passes"], default["plugins"], default["fmad"], default["tolerance"]) == ("", [], True, 0.0)
    for bad, why in (("before-lowering", "key=value"), ("sideways=cse", "unknown pipeline option 'sideways'")):
        with pytest.raises(ValueError, match=why):
            bench_module.parse_options(bad)
    with pytest.raises(ValueError, match="tolerance"):
        bench_module.parse_options("tolerance=-1")


def test_counts(bench_module):
    ptx = "\n".join(
        [".visible .entry k(", ".param .u64 p", ")", "{", ".reg .b32 %r<3>;", "mov.u32 %r1, %tid.x;"]
        + ["@%p1 bra $L__BB0_2;", "$L__BB0_2:", "// a comment", "ret;", "}"]
    )
    assert bench_module.ptx_stats(ptx) == {"total": 3, "mix": {"bra": 1, "mov.u32": 1, "ret": 1}}
    sass = "\n".join(
        ["        /*0000*/                   LDC R1, c[0x0][0x28] ;", "        /*0010*/              @!P0 EXIT ;"]
        + ["        /*0020*/                   IMAD.WIDE.U32 R4, R7, 0x4, R4 ;", "        /*0030*/   NOP;"]
    )
    assert bench_module.sass_stats(sass) == {"total": 3, "mix": {"EXIT": 1, "IMAD": 1, "LDC": 1}}
    log = "ptxas info    : Used 10 registers, used 0 barriers\n    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads"
    assert bench_module.ptxas_info(log) == {"registers": 10, "spill_bytes": 8, "stack_bytes": 8}


def test_variant_that_changes_code(tmp_path):
    if not os.path.isfile(TEMPLATE):
        pytest.skip(f"the template pass plugin is not built ({TEMPLATE}: `make test` builds examples/pass-template)")
    variant = f"after-frontend=example-mul-pow2-to-shift;before-lowering=cse;plugins={TEMPLATE}"
    plot = tmp_path / "deltas.png"
    try:
        import matplotlib  # noqa: F401 - --plot needs it

        extra = ["--plot", str(plot)]
    except ImportError:
        extra = []
    r, report = harness(
        "--variant", variant, "--corpus", "gpu,typical,fuzz", "--kernels", r"^(gpu:local_scan|typical:saxpy|fuzz:0)$",
        *extra, tmp_path=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert report["refused"] is False and not report["mismatches"] and not report["failures"]
    assert report["variant"]["passes"] == "after-frontend=example-mul-pow2-to-shift;before-lowering=cse"
    kernels = {k["name"]: k for k in report["kernels"]}
    assert set(kernels) == {"gpu:local_scan", "typical:saxpy", "fuzz:0"}
    for k in kernels.values():
        assert k["result_host"] == "identical", k
        for side in ("baseline", "variant"):
            rec = k[side]
            assert "error" not in rec, rec
            stages = {"host:pydev", "host:pydev-opt", "host:llvm", "host:llvm-ir", "sm_90:ptx"}
            assert set(rec["compile_ms"]) == stages and all(v > 0 for v in rec["compile_ms"].values())
            assert rec["ptx"]["total"] == sum(rec["ptx"]["mix"].values()) > 0
            assert rec["host_ms"] > 0 and rec["host_first_ms"] > 0 and rec["stable"] is True
            if rec.get("registers") is not None:  # ptxas found
                assert rec["registers"] > 0 and rec["spill_bytes"] >= 0
            if report["sass_tool"]:
                assert rec["sass"]["total"] > 0
    # local_scan reads x[i * 4 + k]: the shift the plugin makes changes its PTX
    scan = kernels["gpu:local_scan"]
    assert scan["baseline"]["ptx"]["mix"] != scan["variant"]["ptx"]["mix"]
    assert "summary" in report and report["summary"]["results_host"] == {"identical": 3}
    assert "gpu:local_scan" in r.stdout and "identical" in r.stdout
    if extra:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _has_fma():
    try:
        with open("/proc/cpuinfo") as f:
            return " fma " in f.read()
    except OSError:
        return False


def test_refuses_speed_for_different_results(tmp_path):
    if not _has_fma():
        pytest.skip("this CPU has no FMA: fmad=0 changes no host result")
    select = ["--corpus", "gpu", "--kernels", r"^gpu:saxpy$"]
    r, report = harness("--variant", "fmad=0", *select, tmp_path=tmp_path, name="refused")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "refused" in r.stderr and "gpu:saxpy (host)" in r.stderr
    assert report["refused"] is True and report["mismatches"][0].startswith("gpu:saxpy")
    saxpy = report["kernels"][0]
    assert saxpy["result_host"] == "differs" and 0 < saxpy["max_rel_diff_host"] < 1e-4
    assert "host_ms" not in saxpy["baseline"] and "host_ms" not in saxpy["variant"]
    assert "host ms" not in r.stdout
    # the same variant, declaring the tolerance that reassociation needs
    r, report = harness("--variant", "fmad=0;tolerance=1e-4", *select, tmp_path=tmp_path, name="within")
    assert r.returncode == 0, r.stdout + r.stderr
    assert report["refused"] is False and report["kernels"][0]["result_host"] == "within"
    assert report["kernels"][0]["variant"]["host_ms"] > 0


def test_unknown_pass_names_it(tmp_path):
    r, report = harness("--variant", "before-lowering=no-such-pass", "--kernels", r"^gpu:saxpy$", tmp_path=tmp_path)
    assert r.returncode != 0 and report is None
    assert "no-such-pass" in r.stderr


def test_passes_from_env_without_plugins():
    # the harness sets PYDEV_PASSES alone for a variant without plugins
    code = "from pydev import _passes; e = _passes.from_env(); print(e.text, e.plugins)"
    env = {k: v for k, v in os.environ.items() if k != "PYDEV_PASS_PLUGINS"}
    env["PYDEV_PASSES"] = "before-lowering=cse"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["before-lowering=cse", "()"]


def test_gpu_columns_under_the_fake_driver(fake_driver, tmp_path):  # noqa: F811 - the fixture
    # The cuda workers (device arrays, launches, CUDA events, copies back)
    # against test/fakecuda, whose kernels do not run: both sides get their
    # inputs back, so the comparison has something to agree on.
    env = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH")}
    env["LD_LIBRARY_PATH"] = prepend(fake_driver, env.get("LD_LIBRARY_PATH"))
    r, report = harness(
        "--variant", "before-lowering=cse", "--corpus", "gpu", "--kernels", r"^gpu:(saxpy|push)$",
        tmp_path=tmp_path, gpu=True, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert report["gpu"] is True and "GPU us" in r.stdout
    for k in report["kernels"]:
        assert k["result_cuda"] == "identical" and k["result_host"] == "identical", k
        assert k["baseline"]["gpu_us"] > 0 and k["variant"]["gpu_us"] > 0
