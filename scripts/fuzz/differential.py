"""Differential fuzzing of the compiler with gen.py's random kernels.

For each seed: the kernel runs on the host target and its outputs are
compared with gen.py's reference; it is compiled to PTX for sm_70, sm_80
and sm_90 (`--ptx`) and each PTX is assembled by ptxas for that chip.

    nice -n 19 python3 scripts/fuzz/differential.py --seeds 0:500 [--ptx] [--out DIR]

Programs run in a worker process; a worker that dies (signal) or stops
answering (--timeout seconds per program) is a finding too, and a new
worker goes on with the next seed. Findings are printed as JSON lines and
the sources of failing programs are kept in --out (default
/tmp/pydev-fuzz). Exit status 1 when there are findings.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

CHIPS = ("sm_70", "sm_80", "sm_90")


def _ptxas(chip):
    out = subprocess.run(
        [os.path.join(ROOT, "scripts", "find-ptxas.sh"), chip], capture_output=True, text=True
    ).stdout.strip()
    return out or None


def run_one(seed, ptx, out_dir, ptxas_paths):
    """The finding for one seed, or None; and the program's features."""
    import numpy as np

    import gen
    import pydev

    import cuda.device as device

    prog = gen.generate(seed)
    path = os.path.join(out_dir, f"fz_{seed}.py")
    with open(path, "w") as f:
        f.write(prog.source)

    def load(name):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    mod = load(f"fz_{seed}")
    result = {"seed": seed, "features": prog.features}
    # every third program also runs with bounds checks (none may fire)
    for boundscheck in (False, True) if seed % 3 == 0 else (False,):
        what = "host (PYDEV_BOUNDSCHECK=1)" if boundscheck else "host"
        if boundscheck:
            os.environ["PYDEV_BOUNDSCHECK"] = "1"
        args = [a.copy() for a in prog.args]
        try:
            k = load(f"fz_{seed}_bc").k if boundscheck else mod.k
            with np.errstate(all="ignore"):
                device.launch(k, *args, grid=gen.GRID, block=gen.BLOCK, stream=pydev.default_stream())
                pydev.default_stream().synchronize()
        except Exception as e:  # noqa: BLE001 - every failure is a finding
            result["finding"] = f"{what}: {type(e).__name__}: {e}"
            return result
        finally:
            os.environ.pop("PYDEV_BOUNDSCHECK", None)
        bad = gen.compare(prog, args)
        if bad:
            result["finding"] = f"{what}: wrong result: " + "; ".join(m for _, m in bad[:3])
            return result
    if ptx:
        for chip in CHIPS:
            try:
                text = pydev.compile(mod.k, prog.args, target=chip, stage="ptx")
            except Exception as e:  # noqa: BLE001
                result["finding"] = f"{chip}: {type(e).__name__}: {e}"
                return result
            if chip == "sm_90":
                # line info (issue 19, item 7): only .loc/.file (and the line
                # table's labels) differ, and every .file is the program's
                os.environ["PYDEV_LINEINFO"] = "1"
                try:
                    lines = pydev.compile(mod.k, prog.args, target=chip, stage="ptx")
                finally:
                    del os.environ["PYDEV_LINEINFO"]
                why = lineinfo_problem(lines, text, path)
                if why:
                    result["finding"] = f"{chip} lineinfo: {why}"
                    return result
            exe = ptxas_paths.get(chip)
            if exe:
                with tempfile.TemporaryDirectory() as d:
                    p = os.path.join(d, "k.ptx")
                    with open(p, "w") as f:
                        f.write(text)
                    r = subprocess.run(
                        [exe, f"-arch={chip}", p, "-o", os.path.join(d, "k.cubin")],
                        capture_output=True,
                        text=True,
                        timeout=120,
                    )
                    if r.returncode != 0:
                        result["finding"] = f"{chip}: ptxas failed: {r.stderr.strip()[:500]}"
                        return result
    os.unlink(path)
    return result


_NOT_CODE = re.compile(r"^\s*\.(loc|file)\s|^\$L__(func_begin|func_end|tmp)\d+:$|\.section\s+\.debug_macinfo")


def lineinfo_problem(lines, plain, path):
    """Why PTX `lines` (with line info) is not `plain` plus directives, or None."""
    files = set(re.findall(r'^\s*\.file\s+\d+\s+"([^"]*)"', lines, re.M))
    if files != {path}:
        return f".file names {sorted(files)}, expected only {path}"
    if re.search(r"^\.target .*debug", lines, re.M):
        return ".target says debug"
    strip = lambda t: [ln for ln in t.splitlines() if not _NOT_CODE.search(ln)]  # noqa: E731
    if strip(lines) != strip(plain):
        return "the PTX without .loc/.file differs from the PTX without line info"
    return None


def worker(args):
    ptxas_paths = {c: _ptxas(c) for c in CHIPS} if args.ptx else {}
    for line in sys.stdin:
        seed = int(line)
        try:
            res = run_one(seed, args.ptx, args.out, ptxas_paths)
        except Exception as e:  # noqa: BLE001 - a generator failure, reported as such
            res = {"seed": seed, "generator": f"{type(e).__name__}: {e}"}
        print(json.dumps(res), flush=True)


def campaign(seeds, ptx=False, out=None, timeout=120, log=print):
    """Runs `seeds` through workers; returns (results, findings)."""
    out = out or os.path.join(tempfile.gettempdir(), "pydev-fuzz")
    os.makedirs(out, exist_ok=True)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--out", out] + (["--ptx"] if ptx else [])
    env = dict(os.environ, PYDEV_CACHE="0", PYDEV_TARGET="host")  # no disk cache entries for throwaway programs
    results, findings = [], []
    todo = list(seeds)
    while todo:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
        seed = None
        try:
            while todo:
                seed = todo.pop(0)
                p.stdin.write(f"{seed}\n")
                p.stdin.flush()
                line = _readline(p, timeout)
                if line is None:
                    p.kill()
                    f = {
                        "seed": seed,
                        "finding": f"hang or crash: no answer in {timeout} s"
                        if p.poll() is None or p.returncode == -9
                        else f"worker died with status {p.returncode}",
                    }
                    findings.append(f)
                    log(json.dumps(f))
                    break
                res = json.loads(line)
                results.append(res)
                if "finding" in res or "generator" in res:
                    findings.append(res)
                    log(json.dumps(res))
        finally:
            stop_worker(p)
    return results, findings


def stop_worker(p):
    """Ends a worker process: it exits when its input closes; killed if it
    does not within 30 s."""
    if p.poll() is None:
        p.stdin.close()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def _readline(p, timeout):
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return None
        if sel.select(left):
            line = p.stdout.readline()
            if not line:
                p.wait()
                return None
            return line
        if p.poll() is not None:
            return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0:100", help="a:b (half-open range)")
    ap.add_argument("--ptx", action="store_true", help="also compile for sm_70/80/90 and run ptxas")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "pydev-fuzz"))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    a, b = (int(x) for x in args.seeds.split(":"))
    t0 = time.time()
    results, findings = campaign(range(a, b), args.ptx, args.out, args.timeout)
    feats = {}
    for r in results:
        for f in r.get("features", ()):
            feats[f] = feats.get(f, 0) + 1
    print(
        json.dumps(
            {
                "programs": len(results),
                "findings": len(findings),
                "seconds": round(time.time() - t0, 1),
                "features": feats,
            }
        )
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
