#!/usr/bin/env python3
"""Compare two compiler pipelines over the kernel corpus (issue 33).

    python3 bench/passes.py --baseline '' --variant 'before-lowering=cse' \\
        [--json OUT.json] [--plot OUT.png] [--corpus gpu,typical,numba,fuzz] \\
        [--kernels REGEX] [--tolerance T] [--repeat 7] [--fuzz-seeds 24]

PIPELINE-OPTIONS is PYDEV_PASSES's syntax, `point=pass-a,pass-b{opt=1}`
items separated by `;` (points: after-frontend, after-promotion,
before-lowering, llvm, llvm-ir), plus `plugins=a.so:b.so` (pass plugins),
`fmad=0` (no multiply-add contraction) and `tolerance=1e-6` (the relative
difference from the baseline's float results the variant declares, e.g.
for reassociation; `--tolerance` gives it when the options do not). The
empty string is the default pipeline.

Each side runs in subprocesses of its own with PYDEV_PASSES,
PYDEV_PASS_PLUGINS and PYDEV_FMAD set and a private PYDEV_CACHE_DIR, so
every kernel of both frontends compiles with it unchanged; the sides
alternate over chunks of --chunk kernels, so that a change in the machine's
load during the run falls on both. Per kernel
(bench/passes_corpus.py says what the corpus holds), baseline against
variant:

- compile time to each stage (`pydev.compile`, best of three: host `pydev`,
  `pydev-opt`, `llvm`, `llvm-ir`; `ptx` for sm_90), in ms;
- PTX instructions (sm_90), with the count of each opcode in the JSON;
- SASS instructions (ptxas -arch=sm_90, disassembled by nvdisasm or
  cuobjdump from their NVIDIA wheels; no GPU needed), registers, spill
  bytes and stack frame from `ptxas -v`; without a disassembler the SASS
  columns are empty and a note says why;
- host-target run time: the median of --repeat launches after the first
  (which compiles and JIT-compiles; its time is `host_first_ms`);
- correctness: every array argument after one launch on fresh copies of
  the inputs, bit for bit against the baseline's; a float differing by
  more than the tolerance (relative to the larger magnitude, or to the
  array's largest magnitude near zero), an integer or NaN position that
  differs, is a mismatch. A case's own run-to-run spread (float atomics on
  the host's threads) adds to the tolerance (passes_corpus.Case);
- GPU time (CUDA events around --repeat launches, median of 3 trials, µs)
  when a CUDA driver and device are present, each side in a cuda worker,
  its results compared as the host's.

Output: a table on stdout, `--json` (every field above per kernel and side,
and a summary), `--plot` (a PNG of the per-kernel changes, matplotlib).
When any kernel's variant results differ beyond the tolerance, or the
variant fails where the baseline compiles and runs, it prints which and
exits 1 without reporting speed (run times are left out of the table and
the JSON): a faster wrong answer is no result. A benchmark, not a test.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

HOST_STAGES = ("pydev", "pydev-opt", "llvm", "llvm-ir")
ARCH = "sm_90"


# --- pipeline options ---------------------------------------------------------------------


def points():
    from pydev import _passes

    return _passes.POINTS


def parse_options(text, default_tolerance=0.0):
    """{"passes": "point=a,b;...", "plugins": [abs paths], "fmad": bool,
    "tolerance": float} of PIPELINE-OPTIONS (ValueError naming a bad item)."""
    passes, plugins, fmad, tolerance = [], [], True, None
    for item in filter(None, (i.strip() for i in text.split(";"))):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"pipeline option '{item}' must be key=value")
        if key in points():
            passes.append(f"{key}={value}")
        elif key == "plugins":
            plugins += [os.path.abspath(p) for p in value.split(":") if p]
        elif key == "fmad":
            if value not in ("0", "1"):
                raise ValueError(f"pipeline option fmad takes 0 or 1, got '{value}'")
            fmad = value == "1"
        elif key == "tolerance":
            try:
                tolerance = float(value)
            except ValueError:
                raise ValueError(f"pipeline option tolerance takes a number, got '{value}'") from None
            if not tolerance >= 0:
                raise ValueError(f"pipeline option tolerance must be >= 0, got '{value}'")
        else:
            known = ", ".join((*points(), "plugins", "fmad", "tolerance"))
            raise ValueError(f"unknown pipeline option '{key}' (known: {known})")
    return {
        "text": text,
        "passes": ";".join(passes),
        "plugins": plugins,
        "fmad": fmad,
        "tolerance": default_tolerance if tolerance is None else tolerance,
    }


def side_env(opts, cache_dir, target):
    env = dict(os.environ)
    for var, value in (("PYDEV_PASSES", opts["passes"]), ("PYDEV_PASS_PLUGINS", ":".join(opts["plugins"]))):
        if value:
            env[var] = value
        else:
            env.pop(var, None)
    env["PYDEV_FMAD"] = "1" if opts["fmad"] else "0"
    env["PYDEV_CACHE_DIR"] = cache_dir
    env["PYDEV_TARGET"] = target
    return env


# --- tools ----------------------------------------------------------------------------------


def nvidia_tool(name):
    """A CUDA binary (ptxas's siblings: nvdisasm, cuobjdump) from the NVIDIA
    wheels (`nvidia/*/bin`), else on PATH; None when there is none."""
    import glob

    try:
        import nvidia

        roots = list(nvidia.__path__)
    except ImportError:
        roots = []
    for root in roots:
        for hit in sorted(glob.glob(os.path.join(root, "*", "bin", name)), reverse=True):
            if os.access(hit, os.X_OK):
                return hit
    return shutil.which(name)


def ptxas_path():
    sys.path.insert(0, os.path.join(ROOT, "python", "pydev"))
    try:
        import _toolchain  # a leaf module: the package's one search for ptxas

        return _toolchain.ptxas(ARCH) or None
    finally:
        sys.path.pop(0)


PTX_SKIP = re.compile(r"^(\.|//|\{|\}|\)|\(|$)")


def ptx_stats(ptx):
    """Instructions of the PTX text: {"total": n, "mix": {opcode: n}}."""
    mix = {}
    for line in ptx.splitlines():
        s = line.strip()
        if PTX_SKIP.match(s) or s.endswith(":") or not s.endswith(";"):
            continue
        if s.startswith("@"):
            s = s.split(None, 1)[1] if " " in s else s
        op = s.split(None, 1)[0].rstrip(";")
        mix[op] = mix.get(op, 0) + 1
    return {"total": sum(mix.values()), "mix": dict(sorted(mix.items()))}


SASS_LINE = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)")


def sass_stats(text):
    """Instructions of a SASS listing (nvdisasm/cuobjdump), NOP padding left
    out: {"total": n, "mix": {opcode without modifiers: n}}."""
    mix = {}
    for line in text.splitlines():
        m = SASS_LINE.match(line)
        if m and m.group(1) != "NOP":
            mix[m.group(1)] = mix.get(m.group(1), 0) + 1
    return {"total": sum(mix.values()), "mix": dict(sorted(mix.items()))}


def ptxas_info(log):
    """Registers (the largest of the entries), spill and stack bytes (sums) of `ptxas -v`."""
    regs = [int(x) for x in re.findall(r"Used (\d+) registers", log)]
    frame = sum(int(x) for x in re.findall(r"(\d+) bytes stack frame", log))
    stores = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", log))
    loads = sum(int(x) for x in re.findall(r"(\d+) bytes spill loads", log))
    return {"registers": max(regs, default=0), "spill_bytes": stores + loads, "stack_bytes": frame}


def assemble(ptx, ptxas, disasm, work):
    """ptxas -v of the PTX and the SASS listing of its cubin."""
    src, cubin = os.path.join(work, "k.ptx"), os.path.join(work, "k.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    r = subprocess.run([ptxas, f"-arch={ARCH}", "-v", src, "-o", cubin], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"ptxas failed: {r.stderr.strip()[-500:]}")
    out = ptxas_info(r.stdout + r.stderr)
    if disasm:
        cmd = [disasm, "-c", cubin] if os.path.basename(disasm) == "nvdisasm" else [disasm, "-sass", cubin]
        d = subprocess.run(cmd, capture_output=True, text=True)
        if d.returncode:
            raise RuntimeError(f"{os.path.basename(disasm)} failed: {d.stderr.strip()[-500:]}")
        out["sass"] = sass_stats(d.stdout)
    return out


# --- the worker (one side, one target, in a subprocess) ---------------------------------------


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _best_ms(fn, times=3):
    best = None
    for _ in range(times):
        t = time.perf_counter()
        fn()
        ms = (time.perf_counter() - t) * 1e3
        best = ms if best is None else min(best, ms)
    return best


def worker(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    import passes_corpus

    import pydev

    import cuda.device as device

    from pydev import _passes

    try:
        _passes.from_env()  # an unknown point, pass or plugin: the whole side fails, naming it
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    target = spec["target"]
    stream = pydev.create_stream() if target == "cuda" else pydev.default_stream()
    timer = None
    if target == "cuda":
        from gpu import Driver  # bench/gpu.py's CUDA events

        timer = Driver()
    work = tempfile.mkdtemp(prefix="pydev-passes-worker-")
    wanted = dict(spec["cases"])  # name -> index in the whole run
    records = []
    warm = True
    for case in passes_corpus.cases(spec["groups"], spec["fuzz_seeds"]):
        if case.name not in wanted:
            continue
        rec = {"name": case.name, "group": case.group, "frontend": case.frontend}
        records.append(rec)
        try:
            kernel = case.kernel()
            rng = np.random.default_rng(passes_corpus.SEED + zlib.crc32(case.name.encode()))
            args, grid, block = case.make(rng) if case.make else (case.signature, None, None)
            if warm:  # the process's first compile makes the MLIR context and loads the plugins: untimed
                warm = False
                _warm(kernel, args)
            if target == "host":
                _static(rec, kernel, args, spec, work)
            if case.make is None:  # compile-only
                continue
            out_path = os.path.join(spec["outdir"], f"{wanted[case.name]}.npz")
            _run(rec, kernel, args, grid, block, stream, spec["repeat"], target, timer, out_path, device, pydev)
        except Exception as e:  # noqa: BLE001 - a kernel that fails is a result of its side
            rec["error"] = _failed(e)
    with open(spec["result"], "w") as f:
        json.dump(records, f)
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _warm(kernel, args):
    import pydev

    for target, stage in (("host", "llvm-ir"), (ARCH, "ptx")):
        try:
            pydev.compile(kernel, args, target=target, stage=stage)
        except Exception:  # noqa: BLE001 - the timed compile records it
            pass


def _failed(e):
    return f"{type(e).__name__}: {str(e).strip()[:600]}"


def _static(rec, kernel, args, spec, work):
    """Compile times, PTX and SASS figures; a step that fails is recorded
    in rec["errors"] and the others go on (cse may break one target only)."""
    import pydev

    ms, errors, texts = {}, rec.setdefault("errors", {}), {}

    def stage(target, name):
        texts[target, name] = pydev.compile(kernel, args, target=target, stage=name)

    for target, name in [("host", s) for s in HOST_STAGES] + [(ARCH, "ptx")]:
        try:
            ms[f"{target}:{name}"] = _best_ms(lambda t=target, n=name: stage(t, n))
        except Exception as e:  # noqa: BLE001 - recorded, compared with the other side
            errors[f"compile {target}:{name}"] = _failed(e)
    rec["compile_ms"] = ms
    ptx = texts.get((ARCH, "ptx"))
    if ptx is None:
        return
    rec["ptx"] = ptx_stats(ptx)
    if spec["ptxas"]:
        try:
            rec.update(assemble(ptx, spec["ptxas"], spec["disasm"], work))
        except Exception as e:  # noqa: BLE001
            errors["ptxas"] = _failed(e)


def _run(rec, kernel, args, grid, block, stream, repeat, target, timer, out_path, device, pydev):
    def launch(a):
        device.launch(kernel, *a, grid=grid, block=block, stream=stream)

    def prepare():
        a = _copy(args)
        return a if target == "host" else [pydev.to_device(x) if isinstance(x, np.ndarray) else x for x in a]

    arrays = [i for i, x in enumerate(args) if isinstance(x, np.ndarray)]

    def results(a):
        return [pydev.to_host(a[i]) if target == "cuda" else a[i] for i in arrays]

    a = prepare()
    t = time.perf_counter()
    launch(a)
    stream.synchronize()
    first = (time.perf_counter() - t) * 1e3
    outs = results(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a struct dtype's metadata, which no result needs
        np.savez(out_path, *outs)
    again = prepare()
    launch(again)
    stream.synchronize()
    rec["stable"] = all(_identical(x, y) for x, y in zip(outs, results(again)))
    if target == "host":
        rec["host_first_ms"] = first
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            launch(again)
            stream.synchronize()
            times.append((time.perf_counter() - t) * 1e3)
        rec["host_ms"] = statistics.median(times)
    else:
        rec["gpu_us"] = timer.time_us(lambda: launch(again), stream.handle, repeat, 3)


# --- comparing results ------------------------------------------------------------------------


def _fields(a):
    """The plain arrays of `a` (a structured array's fields, recursively;
    padding bytes are no result); complex as pairs of floats."""
    if a.dtype.names:
        for name in a.dtype.names:
            yield from _fields(a[name])
    elif np.iscomplexobj(a):
        yield a.real
        yield a.imag
    else:
        yield a


def _identical(a, b):
    return a.shape == b.shape and all(x.tobytes() == y.tobytes() for x, y in zip(_fields(a), _fields(b)))


def difference(a, b):
    """(bit-identical, largest relative float difference, whether ints and
    NaN positions agree) of two results."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False, float("inf"), False
    worst, exact = 0.0, True
    for x, y in zip(_fields(a), _fields(b)):
        if x.tobytes() == y.tobytes():
            continue
        if not np.issubdtype(x.dtype, np.floating):
            return False, float("inf"), False
        x, y = x.astype(np.float64), y.astype(np.float64)
        if not np.array_equal(np.isnan(x), np.isnan(y)):
            return False, float("inf"), False
        finite = np.isfinite(x) & np.isfinite(y)
        if not np.array_equal(x[~finite], y[~finite], equal_nan=True):
            return False, float("inf"), False
        x, y = x[finite], y[finite]
        scale = np.maximum(np.maximum(np.abs(x), np.abs(y)), np.abs(x).max(initial=0.0) * 1e-3)
        d = np.abs(x - y)
        rel = np.where(d == 0, 0.0, d / np.where(scale == 0, 1.0, scale))
        worst = max(worst, float(rel.max(initial=0.0)))
        exact = False
    return exact, worst, True


def compare(dir_a, dir_b, index, tolerance):
    """'identical', 'within' (the tolerance) or 'differs', and the largest
    relative difference, of the two sides' results of case `index`."""
    pa, pb = os.path.join(dir_a, f"{index}.npz"), os.path.join(dir_b, f"{index}.npz")
    with np.load(pa) as fa, np.load(pb) as fb:
        if sorted(fa.files) != sorted(fb.files):
            return "differs", float("inf")
        worst, exact = 0.0, True
        for key in fa.files:
            same, err, agree = difference(fa[key], fb[key])
            if not agree:
                return "differs", float("inf")
            exact &= same
            worst = max(worst, err)
    if exact:
        return "identical", 0.0
    return ("within" if worst <= tolerance else "differs"), worst


# --- the driver ---------------------------------------------------------------------------------


def run_side(label, opts, target, cases, args, work, chunk):
    """Runs `cases` ([(index, Case)]) on one side and target in a worker:
    {name: record} and the folder of its results (index.npz)."""
    outdir = os.path.join(work, f"{label}-{target}")
    os.makedirs(outdir, exist_ok=True)
    spec = {
        "target": target,
        "cases": [(c.name, i) for i, c in cases],
        "groups": args.groups,
        "fuzz_seeds": args.fuzz_seeds,
        "repeat": args.repeat,
        "outdir": outdir,
        "result": os.path.join(work, f"{label}-{target}-{chunk}.json"),
        "ptxas": args.ptxas,
        "disasm": args.disasm,
    }
    spec_path = os.path.join(work, f"{label}-{target}-{chunk}.spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    env = side_env(opts, os.path.join(work, f"{label}-cache"), target)
    t = time.perf_counter()
    try:
        r = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--worker", spec_path], env=env, timeout=args.worker_timeout
        )
    except subprocess.TimeoutExpired:
        names = ", ".join(c.name for _, c in cases)
        raise SystemExit(
            f"the {label} side ({opts['text']!r}) ran past --worker-timeout on {target} (a kernel hangs?): {names}"
        ) from None
    if r.returncode:
        raise SystemExit(f"the {label} side ({opts['text']!r}) failed on {target} (exit {r.returncode})")
    print(f"# {label} on {target}: {len(cases)} kernels in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    with open(spec["result"]) as f:
        return {rec["name"]: rec for rec in json.load(f)}, outdir


def cuda_present():
    if os.environ.get("PYDEV_TARGET", "").strip().lower() == "host":
        return False
    try:
        import pydev

        return pydev.active_target() == "cuda"
    except Exception:  # noqa: BLE001 - no driver, no device: no GPU columns
        return False


def _delta(b, v):
    if b is None or v is None:
        return None
    return (v - b) / b * 100 if b else (0.0 if v == b else None)


def build_report(args, base_opts, var_opts, cases, sides, gpu):
    tol = var_opts["tolerance"]
    kernels, mismatches, failures = [], [], []
    for index, case in enumerate(cases):
        entry = {"name": case.name, "group": case.group, "frontend": case.frontend}
        targets = ("host", "cuda") if gpu else ("host",)
        for target in targets:
            rb, dir_b = sides["baseline", target][0][case.name], sides["baseline", target][1]
            rv, dir_v = sides["variant", target][0][case.name], sides["variant", target][1]
            if target == "host":
                entry["baseline"], entry["variant"] = rb, rv
            else:
                entry["baseline"]["gpu_us"], entry["variant"]["gpu_us"] = rb.get("gpu_us"), rv.get("gpu_us")
            if "error" in rv and "error" not in rb:
                failures.append(f"{case.name} ({target}): {rv['error']}")
                entry[f"result_{target}"] = "variant fails"
                continue
            for step, msg in rv.get("errors", {}).items():
                if step not in rb.get("errors", {}):  # a stage that only the variant fails to compile
                    failures.append(f"{case.name} ({step}): {msg}")
            if "error" in rb or "error" in rv:
                entry[f"result_{target}"] = "fails in both" if "error" in rv else "baseline fails"
                continue
            if case.make is None:
                entry[f"result_{target}"] = "compile-only"
                continue
            allowed = tol + case.tolerance
            verdict, err = compare(dir_b, dir_v, index, allowed)
            if verdict == "differs" and not rb.get("stable", True) and case.tolerance == 0:
                verdict = "unstable"  # the baseline itself varies from run to run
            entry[f"result_{target}"], entry[f"max_rel_diff_{target}"] = verdict, err
            if verdict == "differs":
                mismatches.append(f"{case.name} ({target}): max relative difference {err:.3g} > {allowed:g}")
        kernels.append(entry)
    refused = bool(mismatches or failures)
    if refused:
        for e in kernels:
            for side in ("baseline", "variant"):
                for key in ("host_ms", "host_first_ms", "gpu_us"):
                    e[side].pop(key, None)
    return {
        "baseline": base_opts,
        "variant": var_opts,
        "arch": ARCH,
        "sass_tool": args.disasm,
        "notes": args.notes,
        "gpu": gpu,
        "refused": refused,
        "mismatches": mismatches,
        "failures": failures,
        "kernels": kernels,
        "summary": summarize(kernels),
    }


def _metric(rec, key):
    if key == "ptx":
        return rec.get("ptx", {}).get("total")
    if key == "sass":
        return rec.get("sass", {}).get("total")
    if key == "compile_ms":
        ms = rec.get("compile_ms")
        return ms and ms.get(f"{ARCH}:ptx")
    return rec.get(key)


METRICS = ("ptx", "sass", "registers", "spill_bytes", "compile_ms", "host_ms", "gpu_us")


def summarize(kernels):
    out = {}
    for key in METRICS:
        pairs = [(_metric(e["baseline"], key), _metric(e["variant"], key)) for e in kernels]
        pairs = [(b, v) for b, v in pairs if b is not None and v is not None]
        if not pairs:
            continue
        s = {"kernels": len(pairs), "fewer": sum(v < b for b, v in pairs), "more": sum(v > b for b, v in pairs)}
        s["baseline_total"], s["variant_total"] = sum(b for b, _ in pairs), sum(v for _, v in pairs)
        ratios = [v / b for b, v in pairs if b]
        if ratios:
            s["geomean_ratio"] = float(np.exp(np.mean(np.log(np.maximum(ratios, 1e-12)))))
        out[key] = s
    results = {}
    for e in kernels:
        r = e.get("result_host", "?")
        results[r] = results.get(r, 0) + 1
    out["results_host"] = results
    return out


def _fmt(x, digits=0):
    if x is None:
        return "-"
    return f"{x:.{digits}f}" if digits else f"{x:.0f}"


def print_table(report, file=sys.stdout):
    speed = not report["refused"]
    gpu = report["gpu"] and speed
    head = ["kernel", "PTX", "SASS", "regs", "spill", "compile ms", "result"]
    if speed:
        head[-1:-1] = ["host ms"] + (["GPU us"] if gpu else [])
    rows = []
    for e in report["kernels"]:
        b, v = e["baseline"], e["variant"]

        def pair(key, digits=0):
            mb, mv = _metric(b, key), _metric(v, key)
            if mb is None and mv is None:
                return "-"
            if mb == mv or (digits == 0 and _fmt(mb) == _fmt(mv)):
                return _fmt(mb, digits)
            return f"{_fmt(mb, digits)} -> {_fmt(mv, digits)}"

        row = [e["name"], pair("ptx"), pair("sass"), pair("registers"), pair("spill_bytes"), pair("compile_ms", 1)]
        if speed:
            row.append(pair("host_ms", 3))
            if gpu:
                row.append(pair("gpu_us", 1))
        result = e.get("result_host", "?")
        if gpu and e.get("result_cuda", result) != result:
            result += f" (cuda: {e['result_cuda']})"
        row.append(result)
        rows.append(row)
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)), file=file)
    print("  ".join("-" * w for w in widths), file=file)
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)), file=file)
    print(file=file)
    for key, s in report["summary"].items():
        if key == "results_host":
            print(f"results (host): {', '.join(f'{k} {n}' for k, n in sorted(s.items()))}", file=file)
            continue
        g = f", geometric mean ratio {s['geomean_ratio']:.4f}" if "geomean_ratio" in s else ""
        print(
            f"{key}: {s['kernels']} kernels, {s['fewer']} fewer, {s['more']} more, "
            f"total {s['baseline_total']:.6g} -> {s['variant_total']:.6g}{g}",
            file=file,
        )
    for note in report["notes"]:
        print(f"note: {note}", file=file)


def plot(report, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("--plot needs matplotlib (scripts/setup.sh installs it)") from None
    keys = [k for k in ("ptx", "sass", "registers", "compile_ms", "host_ms", "gpu_us") if k in report["summary"]]
    names = [e["name"] for e in report["kernels"]]
    fig, axes = plt.subplots(len(keys), 1, figsize=(max(8, 0.16 * len(names) + 2), 2.2 * len(keys)), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, key in zip(axes, keys):
        d = [_delta(_metric(e["baseline"], key), _metric(e["variant"], key)) for e in report["kernels"]]
        vals = [0.0 if x is None else x for x in d]
        ax.bar(range(len(names)), vals, color=["tab:green" if x < 0 else "tab:red" for x in vals])
        ax.axhline(0, color="black", linewidth=0.5)
        ax.set_ylabel(f"{key}\n% change")
    axes[-1].set_xticks(range(len(names)))
    axes[-1].set_xticklabels(names, rotation=90, fontsize=6)
    fig.suptitle(f"variant {report['variant']['text']!r} against baseline {report['baseline']['text']!r}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline", default="", metavar="PIPELINE-OPTIONS")
    p.add_argument("--variant", required="--worker" not in (argv or sys.argv), metavar="PIPELINE-OPTIONS")
    p.add_argument("--json", metavar="OUT")
    p.add_argument("--plot", metavar="OUT.png")
    p.add_argument("--corpus", default=",".join(__import__("passes_corpus").GROUPS), help="groups, comma-separated")
    p.add_argument("--kernels", metavar="REGEX", help="only the kernels whose name (group:kernel) matches")
    p.add_argument("--tolerance", type=float, default=0.0, help="the variant's tolerance when its options give none")
    p.add_argument("--repeat", type=int, default=7, help="timed launches per kernel")
    p.add_argument("--fuzz-seeds", type=int, default=__import__("passes_corpus").FUZZ_SEEDS)
    p.add_argument("--chunk", type=int, default=16, help="kernels per worker (the sides alternate by chunks)")
    p.add_argument("--worker-timeout", type=float, default=1800, help="seconds for one worker's chunk")
    p.add_argument("--no-gpu", action="store_true", help="no GPU timing even when a GPU is present")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return worker(args.worker)

    import passes_corpus

    try:
        base_opts = parse_options(args.baseline)
        var_opts = parse_options(args.variant, args.tolerance)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    args.groups = [g.strip() for g in args.corpus.split(",") if g.strip()]
    try:
        cases = passes_corpus.cases(args.groups, args.fuzz_seeds)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    if args.kernels:
        cases = [c for c in cases if re.search(args.kernels, c.name)]
    if not cases:
        raise SystemExit("error: no kernel of the corpus matches")
    args.notes = []
    args.ptxas = ptxas_path()
    if not args.ptxas:
        args.notes.append("no ptxas for sm_90 (scripts/setup.sh installs nvidia-cuda-nvcc): no SASS columns")
    args.disasm = nvidia_tool("nvdisasm") or nvidia_tool("cuobjdump")
    if args.ptxas and not args.disasm:
        args.notes.append(
            "no nvdisasm or cuobjdump (scripts/setup.sh installs nvidia-cuda-nvdisasm): SASS counts left out"
        )
    gpu = not args.no_gpu and cuda_present()
    if not gpu:
        args.notes.append("no GPU time: " + ("--no-gpu" if args.no_gpu else "no CUDA driver and device here"))
    work = tempfile.mkdtemp(prefix="pydev-passes-")
    try:
        # The sides alternate over chunks of the corpus, so that the load of
        # the machine drifting during the run falls on both alike.
        sides = {}
        numbered = list(enumerate(cases))
        for target in ("host", "cuda") if gpu else ("host",):
            for start in range(0, len(numbered), args.chunk):
                for label, opts in (("baseline", base_opts), ("variant", var_opts)):
                    got, outdir = run_side(label, opts, target, numbered[start : start + args.chunk], args, work, start)
                    sides.setdefault((label, target), ({}, outdir))[0].update(got)
        report = build_report(args, base_opts, var_opts, cases, sides, gpu)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"baseline {args.baseline!r} against variant {args.variant!r} (tolerance {var_opts['tolerance']:g})\n")
    print_table(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.plot:
        plot(report, args.plot)
    if report["refused"]:
        sys.stdout.flush()
        print(
            f"\nrefused: no speed reported, the variant's results differ beyond its tolerance "
            f"({var_opts['tolerance']:g}) or it fails:",
            file=sys.stderr,
        )
        for line in report["mismatches"] + report["failures"]:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
