#!/usr/bin/env python3
"""numba-cuda's own test suite, run unchanged against `pydev.numba`.

    python3 scripts/numba_compat/run.py                 # every in-scope module
    python3 scripts/numba_compat/run.py --slice         # the fixed slice of `make test`
    python3 scripts/numba_compat/run.py -m cudapy.test_sm -m 'cudapy.test_atomic*' -v
    python3 scripts/numba_compat/run.py --json out.json --fetch-only ...

Downloads the numba-cuda wheel (scope.toml: package, version) with
`pip download --no-deps` into a private cache directory and extracts only its
test directories (the package is never installed or imported). Each test
module runs in its own process (_child.py) with the shim package (shim/) first
on the path, which maps `numba.cuda` to pydev.numba's cuda; a module that
hangs or crashes costs its unfinished tests, not the run. Prints a
pass/fail/skip/out table per module (out: tests of in-scope modules that
scope.toml puts out of scope, not run) and the pass rate, pass / (pass + fail).
See docs/numba.md, "numba-cuda's test suite".
"""

import argparse
import ast
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
UNAVAILABLE = 3  # exit status when the package cannot be fetched


def load_scope():
    with open(os.path.join(HERE, "scope.toml"), "rb") as f:
        return tomllib.load(f)


def cache_root():
    base = os.environ.get("PYDEV_NUMBA_COMPAT_CACHE")
    if base:
        return base
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "pydev", "numba_compat")


def fetch(scope, root):
    """The extracted tests directory of the wheel; downloads it once."""
    dest = os.path.join(root, f"{scope['package']}-{scope['version']}")
    tests = os.path.join(dest, "tests")
    if os.path.exists(os.path.join(dest, "complete")):
        return tests
    os.makedirs(root, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "-d",
            tmp,
            f"{scope['package']}=={scope['version']}",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheels = [w for w in os.listdir(tmp) if w.endswith(".whl")]
        if proc.returncode != 0 or not wheels:
            raise RuntimeError(
                f"cannot download {scope['package']}=={scope['version']}: {(proc.stderr or proc.stdout).strip()[-500:]}"
            )
        prefix = "numba_cuda/numba/cuda/tests/"
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as z:
            for name in z.namelist():
                if name.startswith(prefix) and not name.endswith("/"):
                    target = os.path.join(tests, name[len(prefix) :])
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with z.open(name) as src, open(target, "wb") as out:
                        out.write(src.read())
    with open(os.path.join(dest, "complete"), "w") as f:
        f.write(wheels[0] + "\n")
    return tests


def all_modules(scope, tests):
    mods = []
    for d in scope["directories"]:
        for f in sorted(os.listdir(os.path.join(tests, d))):
            if f.startswith("test_") and f.endswith(".py"):
                mods.append(f"{d}.{f[:-3]}")
    return mods


def static_count(tests, module):
    """Test methods defined in the module's classes: the count charged when
    the module cannot even list its tests (an import error or a crash)."""
    path = os.path.join(tests, *module.split(".")) + ".py"
    with open(path) as f:
        tree = ast.parse(f.read())
    return max(
        1,
        sum(
            1
            for c in tree.body
            if isinstance(c, ast.ClassDef)
            for n in c.body
            if isinstance(n, ast.FunctionDef) and n.name.startswith("test")
        ),
    )


def run_module(module, tests, timeout, env):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out.jsonl")
        start = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, os.path.join(HERE, "_child.py"), module, out],
                env=env,
                cwd=work,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            ended = None if proc.returncode == 0 else f"crashed (exit status {proc.returncode}): {proc.stderr[-2000:]}"
        except subprocess.TimeoutExpired:
            ended = f"timed out after {timeout} s"
        elapsed = time.monotonic() - start
        lines = []
        if os.path.exists(out):
            with open(out) as f:
                lines = [json.loads(ln) for ln in f if ln.strip().endswith("}")]
    ids, results, import_error = None, {}, None
    for ln in lines:
        if "tests" in ln:
            ids = ln["tests"]
        elif "import_error" in ln:
            import_error = ln["import_error"]
        else:
            results[ln["id"]] = (ln["outcome"], ln["detail"])
    if ids is None:
        reason = f"import error: {import_error}" if import_error else (ended or "listed no tests")
        n = static_count(tests, module)
        results = {f"{module}[{i}]": ("fail", reason) for i in range(n)}
    else:
        for t in ids:
            results.setdefault(t, ("fail", f"did not finish: {ended or 'no result'}"))
    return {"module": module, "seconds": round(elapsed, 1), "tests": results}


def summarize(rec):
    counts = {"pass": 0, "fail": 0, "skip": 0, "out": 0}
    for outcome, _ in rec["tests"].values():
        counts[outcome] += 1
    return counts


def last_line(detail):
    """The exception line of a traceback (a CompileError's first line, not its caret)."""
    lines = [ln.strip() for ln in detail.strip().splitlines() if ln.strip()]
    exc = [ln for ln in lines if re.match(r"^[\w.]+(Error|Exception|Exit|Warning)\b", ln)]
    return (exc or lines or [""])[-1]


def failure_classes(records, n):
    """The most frequent last lines of the in-scope failures, numbers masked."""
    counts = {}
    for rec in records:
        if rec["in_scope"]:
            for outcome, detail in rec["tests"].values():
                if outcome == "fail":
                    key = re.sub(r"\b0x[0-9a-f]+|\b\d+\b", "N", last_line(detail))[:160]
                    counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])[:n]


def rate(p, f):
    return 100.0 * p / (p + f) if p + f else 100.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "-m",
        "--module",
        action="append",
        default=[],
        help="a module (cudapy.test_sm) or a glob; repeatable (default: every in-scope module)",
    )
    ap.add_argument("--slice", action="store_true", help="the fixed slice of scope.toml (make test)")
    ap.add_argument("--out-of-scope", action="store_true", help="run the out-of-scope modules too")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per module (default 600)")
    ap.add_argument(
        "--target",
        default=os.environ.get("PYDEV_TARGET", "host"),
        help="PYDEV_TARGET for the tests (default: $PYDEV_TARGET, else host)",
    )
    ap.add_argument("--json", metavar="OUT", help="write every test's outcome and detail to OUT")
    ap.add_argument("--fetch-only", action="store_true", help="download and extract the tests, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure's last line")
    ap.add_argument(
        "--classes",
        type=int,
        default=0,
        metavar="N",
        help="print the N most frequent failure messages (the classes of failure)",
    )
    args = ap.parse_args(argv)

    scope = load_scope()
    try:
        tests = fetch(scope, cache_root())
    except (RuntimeError, OSError) as e:
        print(f"numba_compat: {e}", file=sys.stderr)
        return UNAVAILABLE
    if args.fetch_only:
        print(f"numba_compat: {scope['package']} {scope['version']} tests in {tests}")
        return 0

    every = all_modules(scope, tests)
    out_of_scope = scope["out_of_scope"]
    if args.slice:
        chosen = list(scope["slice"])
    elif args.module:
        chosen = [m for m in every if any(fnmatch.fnmatch(m, p) for p in args.module)]
    else:
        chosen = [m for m in every if args.out_of_scope or m not in out_of_scope]
    if not chosen:
        print("numba_compat: no module matches", file=sys.stderr)
        return 2

    env = dict(
        os.environ,
        PYDEV_TARGET=args.target,
        PYDEV_NUMBA_COMPAT_TESTS=tests,
        PYDEV_NUMBA_COMPAT_EXCLUDE=json.dumps(scope.get("out_of_scope_tests", {})),
    )
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    # The tests' own subprocesses (`python -c` programs) import numba too: the shim.
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (shim, os.environ.get("PYTHONPATH")) if p)
    records = []
    print(f"{'module':48} {'pass':>5} {'fail':>5} {'skip':>5} {'out':>5} {'rate':>7} {'time':>7}")
    for m in chosen:
        rec = run_module(m, tests, args.timeout, env)
        rec["in_scope"] = m not in out_of_scope
        records.append(rec)
        c = summarize(rec)
        mark = "" if rec["in_scope"] else "  (out of scope)"
        print(
            f"{m:48} {c['pass']:5} {c['fail']:5} {c['skip']:5} {c['out']:5} {rate(c['pass'], c['fail']):6.1f}% "
            f"{rec['seconds']:6.1f}s{mark}",
            flush=True,
        )
        if args.verbose:
            for tid, (outcome, detail) in rec["tests"].items():
                if outcome == "fail":
                    print(f"    FAIL {tid}: {last_line(detail)[:200]}")

    tot = {"pass": 0, "fail": 0, "skip": 0, "out": 0}
    for rec in records:
        if rec["in_scope"]:
            for k, v in summarize(rec).items():
                tot[k] += v
    print(
        f"{'in scope, total':48} {tot['pass']:5} {tot['fail']:5} {tot['skip']:5} {tot['out']:5} "
        f"{rate(tot['pass'], tot['fail']):6.1f}%"
    )
    print(
        f"pass rate (in scope): {tot['pass']}/{tot['pass'] + tot['fail']} = "
        f"{rate(tot['pass'], tot['fail']):.1f}% ({tot['skip']} skipped, {tot['out']} tests out of scope), "
        f"target {args.target}, {scope['package']} {scope['version']}"
    )
    if args.classes:
        print("most frequent failures (in scope):")
        for msg, k in failure_classes(records, args.classes):
            print(f"{k:6}  {msg}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "package": scope["package"],
                    "version": scope["version"],
                    "target": args.target,
                    "total": tot,
                    "rate": rate(tot["pass"], tot["fail"]),
                    "modules": [
                        {
                            **r,
                            "counts": summarize(r),
                            "tests": {k: {"outcome": o, "detail": d} for k, (o, d) in r["tests"].items()},
                        }
                        for r in records
                    ],
                },
                f,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
