"""Mutation fuzzing: kernels (Python source) and pydev-opt's MLIR inputs.

    nice -n 19 python3 scripts/fuzz/mutate.py kernels --count 2000 --seed 1
    nice -n 19 python3 scripts/fuzz/mutate.py mlir --count 2000 --seed 1

`kernels`: each mutant is a kernel of corpus/kernels.jsonl (the compiles the
tests make, recorded by record.py) or of gen.py, with one to three random
edits inside its function (token deletions, swaps, odd literals, operators,
names and dtypes exchanged, duplicated, dropped or re-indented lines); it
is compiled for the host (down to the JIT) and for sm_90 (PTX).
`mlir`: each mutant is a lit file under test/ with a pydev-opt RUN line,
edited the same way at the MLIR token level (SSA names, types, attributes,
integers, lines), then run through target/debug/pydev-opt with that RUN
line's flags.

Either may reject a mutant, with a diagnostic: that is the point. A finding
is a mutant that makes the compiler panic, crash (signal), hang (no answer
within --timeout seconds), raise anything but CompileError / TypeError /
ValueError, or say "internal error" (or print an LLVM assertion, a stack
dump, "UNREACHABLE"). Findings are printed as JSON lines and their mutants
kept in --out; exit status 1 when there are any.
"""

import argparse
import io
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

BAD = re.compile(
    r"internal error|panicked|LLVM ERROR|Assertion .* failed|Stack dump|UNREACHABLE|RUST_BACKTRACE|stack overflow|Segmentation fault|Aborted"
)
ODD_NUMBERS = [
    "0",
    "-1",
    "1",
    "2147483647",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775809",
    "18446744073709551616",
    "1e308",
    "-0.0",
    "1e-45",
    "3.5",
    "255",
    "-128",
    "65536",
    "0x7f",
    "1_000",
    "True",
    "None",
    "float('nan')",
    "1j",
]
OPERATORS = [
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "<",
    "<=",
    "==",
    "!=",
    ">",
    ">=",
    "and",
    "or",
    "not",
    "is",
    "in",
    "@",
    "~",
]
DTYPES = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "float32x4",
    "int8x3",
    "WarpMask",
    "bool",
]


# -- Python kernels --------------------------------------------------------------------------


def kernel_corpus():
    """[(file, source, function, signature, consts)] of the recorded
    compiles (host only: sm_90 is compiled for each mutant too)."""
    out, seen = [], set()
    path = os.path.join(HERE, "corpus", "kernels.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                e = json.loads(line)
                key = (e["file"], e["function"], e["signature"])
                if key in seen or e["target"] != "host":
                    continue
                seen.add(key)
                full = os.path.join(ROOT, e["file"])
                if os.path.exists(full):
                    with open(full) as g:
                        src = g.read()
                    if re.search(rf"^(async )?def {re.escape(e['function'])}\(", src, re.M):  # top level
                        consts = {k: tuple(v) if isinstance(v, list) else v for k, v in e["consts"].items()}
                        out.append((full, src, e["function"], e["signature"], consts))
    return out


def gen_entry(seed):
    import gen

    prog = gen.generate(seed)
    sig = ", ".join(_sig_of(a) for a in prog.args)
    return (os.path.join(tempfile.gettempdir(), f"pydev_gen_{seed}.py"), prog.source, "k", sig, {})


def _sig_of(a):
    dims = [":"] * a.ndim
    dims[0 if a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous else -1] = "::1"
    return f"{a.dtype}[{', '.join(dims)}]"


def function_lines(src, name):
    """(first, end) line indices (0-based, end exclusive) of top-level def `name`."""
    lines = src.splitlines(True)
    start = next(i for i, ln in enumerate(lines) if re.match(rf"(async )?def {re.escape(name)}\(", ln))
    while start > 0 and lines[start - 1].startswith("@"):
        start -= 1
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        end += 1
    return start, end


POOL = []  # statements of the corpus's kernels, for "splice" edits


def fill_pool(corpus):
    for _, src, name, _, _ in corpus:
        try:
            lo, hi = function_lines(src, name)
        except StopIteration:
            continue
        POOL.extend(
            ln for ln in src.splitlines()[lo + 1 : hi] if ln.strip() and not ln.strip().startswith(("#", "@", "def "))
        )


def tokens_of(text):
    try:
        return [
            t
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type in (tokenize.NAME, tokenize.NUMBER, tokenize.OP, tokenize.STRING)
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


def mutate_python(src, name, r):
    """`src` with 1-3 random edits inside function `name` (sometimes at module level)."""
    for _ in range(edits(r)):
        lines = src.splitlines(True)
        try:
            lo, hi = function_lines(src, name)
        except StopIteration:
            lo, hi = 0, len(lines)
        if r.random() < 0.1:
            lo, hi = 0, len(lines)
        lo = min(lo + 1, hi - 1)  # keep the decorator/def line mostly
        k = r.choice(
            ["del", "swap", "num", "op", "name", "dtype", "dup", "drop", "indent", "num", "op", "splice", "splice"]
        )
        i = r.randrange(lo, hi) if hi > lo else lo
        if k == "splice" and not POOL:
            k = "dup"
        if k in ("dup", "drop", "indent", "splice"):
            if k == "splice":
                # a statement of another kernel, at this line's indentation
                line = r.choice(POOL)
                indent = re.match(r"[ \t]*", lines[i]).group() if i < len(lines) else "    "
                lines.insert(i, indent + line.strip() + "\n")
            elif k == "dup":
                lines.insert(i, lines[i])
            elif k == "drop":
                del lines[i]
            else:
                lines[i] = (
                    r.choice(["    ", "", "\t"]) + lines[i].lstrip(" ") if r.random() < 0.5 else "    " + lines[i]
                )
            src = "".join(lines)
            continue
        body = "".join(lines[lo:hi])
        toks = tokens_of(body)
        if not toks:
            continue
        base = sum(len(ln) for ln in lines[:lo])
        offs = _offsets(body)

        def span(t):
            return offs[t.start[0] - 1] + t.start[1], offs[t.end[0] - 1] + t.end[1]

        t = r.choice(toks)
        a, b = span(t)
        if k == "del":
            new = ""
        elif k == "swap":
            j = toks.index(t)
            if j + 1 >= len(toks):
                continue
            u = toks[j + 1]
            c, d = span(u)
            if c < b:
                continue
            body = body[:a] + u.string + body[b:c] + t.string + body[d:]
            src = "".join(lines[:lo]) + body + "".join(lines[hi:])
            continue
        elif k == "num":
            nums = [x for x in toks if x.type == tokenize.NUMBER] or toks
            t = r.choice(nums)
            a, b = span(t)
            new = r.choice(ODD_NUMBERS)
        elif k == "op":
            ops = [x for x in toks if x.type == tokenize.OP or x.string in ("and", "or", "not", "is", "in")] or toks
            t = r.choice(ops)
            a, b = span(t)
            new = r.choice(OPERATORS)
        elif k == "name":
            names = [x for x in toks if x.type == tokenize.NAME]
            if not names:
                continue
            t = r.choice(names)
            a, b = span(t)
            new = (
                r.choice(names).string
                if r.random() < 0.7
                else r.choice(["device", "i", "x", "None", "range", "len", "self", "lambda", "print", "math", "np"])
            )
        else:  # dtype
            names = [x for x in toks if x.string in DTYPES]
            if not names:
                continue
            t = r.choice(names)
            a, b = span(t)
            new = r.choice(DTYPES)
        body = body[:a] + new + body[b:]
        src = "".join(lines[:lo]) + body + "".join(lines[hi:])
        del base
    return src


def edits(r):
    """How many edits a mutant gets: mostly one, so that many still compile."""
    x = r.random()
    return 1 if x < 0.6 else 2 if x < 0.9 else 3


def _offsets(text):
    offs, n = [], 0
    for line in text.splitlines(True):
        offs.append(n)
        n += len(line)
    offs.append(n)
    return offs


def check_kernel(entry, src, outcome=None):
    """None, or why the compile of mutant `src` is a finding; `outcome`
    (a dict) gets "compiled" or "rejected" per target."""
    from pydev import _native

    native = _native.get()
    path, _, function, signature, consts = entry
    from pydev import _toolchain

    lib = _toolchain.libdevice()
    for target, stage in (("host", "llvm"), ("sm_90", "ptx")):
        try:
            text = native.compile(
                path, src, function, signature, consts, target, stage, libdevice=lib if target != "host" else ""
            )
            if target == "host":
                native.HostProgram(text, function)
            else:
                # with line info: the same PTX plus .loc/.file of this file
                from differential import lineinfo_problem

                lines = native.compile(
                    path, src, function, signature, consts, target, stage, libdevice=lib, line_info=True
                )
                why = lineinfo_problem(lines, text, path)
                if why:
                    return f"{target} lineinfo: {why}"
            if outcome is not None:
                outcome[target] = "compiled"
        except (TypeError, ValueError) as e:
            if BAD.search(str(e)):
                return f"{target}: {type(e).__name__}: {e}"
        except Exception as e:  # noqa: BLE001 - CompileError is fine unless internal
            if outcome is not None:
                outcome[target] = "rejected"
            name = type(e).__name__
            if name != "CompileError" or BAD.search(str(e)):
                return f"{target}: {name}: {e}"
    return None


# -- MLIR --------------------------------------------------------------------------------------


def mlir_corpus():
    """[(path, text, [pydev-opt flags])] of the lit files under test/."""
    out = []
    for d, _, files in os.walk(os.path.join(ROOT, "test")):
        if "lit-out" in d or "Inputs" in d:
            continue
        for f in sorted(files):
            if not f.endswith(".mlir"):
                continue
            p = os.path.join(d, f)
            with open(p) as g:
                text = g.read()
            for m in re.finditer(r"^//\s*RUN:\s*(?:not\s+)?pydev-opt\s+(.*)$", text, re.M):
                cmd = m.group(1).split("|")[0]
                cmd = re.sub(r"2>&1|-o\s+\S+|%t\S*", "", cmd)
                try:
                    args = shlex.split(cmd)
                except ValueError:
                    continue
                if "%s" not in args:
                    continue
                cut = next((i for i, a in enumerate(args) if a[:1] in "<>" or a[:2] in ("2>", "1>", "&>")), len(args))
                args = [
                    a
                    for a in args[:cut]
                    if a not in ("%s", "--verify-diagnostics", "-verify-diagnostics") and not a.startswith("%")
                ]
                if any(a.startswith("--print-plugin") or a.startswith("--help") for a in args):
                    continue
                out.append((p, text, args))
    return out


MLIR_TOKEN = re.compile(
    r"%[\w.#]+|\^\w+|@[\w.$]+|!?[a-z_]+\.[\w.]+|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|\b(?:si|ui|i|f|bf)\d+\b|\w+|[<>(){}\[\],:=]|->"
)
MLIR_TYPES = [
    "i1",
    "i8",
    "i32",
    "i64",
    "si8",
    "si32",
    "si64",
    "ui32",
    "f16",
    "bf16",
    "f32",
    "f64",
    "index",
    "!pydev.warp_mask",
    "!pydev.array<f32, 1, c>",
    "!pydev.array<si32, 2, strided>",
    "tuple<si32, f32>",
    "none",
    "vector<4xf32>",
    "complex<f32>",
    "!llvm.ptr",
    "memref<4xf32>",
]
MLIR_NUMS = [
    "0",
    "-1",
    "1",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999999",
    "0.5",
    "1.0e+308",
    "-0",
    "3",
]


def mutate_mlir(text, r):
    lines = text.splitlines(True)
    body = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("//")]
    if not body:
        return text
    for _ in range(edits(r)):
        k = r.choice(["num"] * 3 + ["type"] * 3 + ["ssa"] * 2 + ["dup", "drop", "del", "swap", "tok"])
        i = r.choice(body) if body else 0
        if i >= len(lines):
            continue
        line = lines[i]
        if k == "dup":
            lines.insert(i, line)
            continue
        if k == "drop":
            lines[i] = "\n"
            continue
        toks = list(MLIR_TOKEN.finditer(line))
        if not toks:
            continue
        m = r.choice(toks)
        a, b = m.span()
        if k == "del":
            new = ""
        elif k == "swap":
            j = toks.index(m)
            if j + 1 >= len(toks):
                continue
            n = toks[j + 1]
            line = line[:a] + n.group() + line[b : n.start()] + m.group() + line[n.end() :]
            lines[i] = line
            continue
        elif k == "num":
            nums = [t for t in toks if re.fullmatch(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", t.group())] or toks
            m = r.choice(nums)
            a, b = m.span()
            new = r.choice(MLIR_NUMS)
        elif k == "type":
            tys = [t for t in toks if re.fullmatch(r"(?:si|ui|i|f|bf)\d+|index|!\S+", t.group())] or toks
            m = r.choice(tys)
            a, b = m.span()
            new = r.choice(MLIR_TYPES)
        elif k == "ssa":
            ssa = [t for t in toks if t.group().startswith("%")]
            if not ssa:
                continue
            m = r.choice(ssa)
            a, b = m.span()
            new = r.choice(ssa).group() if r.random() < 0.5 else f"%{r.randint(0, 40)}"
        else:
            other = r.choice(list(MLIR_TOKEN.finditer(r.choice(lines))) or [m])
            new = other.group()
        lines[i] = line[:a] + new + line[b:]
    return "".join(lines)


def pydev_opt():
    """$PYDEV_OPT, else pydev-opt of $PYDEV_BIN_DIR, target/debug or target/release (None: not built)."""
    if os.environ.get("PYDEV_OPT"):
        return os.environ["PYDEV_OPT"]
    dirs = [
        os.environ.get("PYDEV_BIN_DIR"),
        os.path.join(ROOT, "target", "debug"),
        os.path.join(ROOT, "target", "release"),
    ]
    return next(
        (os.path.join(d, "pydev-opt") for d in dirs if d and os.path.exists(os.path.join(d, "pydev-opt"))), None
    )


def check_mlir(args, text, timeout, workdir, stats=None):
    p = os.path.join(workdir, "mutant.mlir")
    with open(p, "w") as f:
        f.write(text)
    opt = pydev_opt()
    try:
        r = subprocess.run(
            [opt, p, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=workdir,
            env=dict(os.environ, RUST_BACKTRACE="0"),
        )
    except subprocess.TimeoutExpired:
        return f"hang: no result in {timeout} s"
    if stats is not None:
        stats["accepted" if r.returncode == 0 else "rejected"] += 1
    if r.returncode < 0:
        return f"crash: signal {-r.returncode}: {r.stderr[-600:]}"
    if r.returncode not in (0, 1):
        return f"exit status {r.returncode}: {r.stderr[-600:]}"
    m = BAD.search(r.stderr)
    if m:
        i = m.start()
        return f"{m.group()}: {r.stderr[max(0, i - 300) : i + 300]}"
    return None


# -- driver -----------------------------------------------------------------------------------


def kernel_worker(args):
    corpus = kernel_corpus()
    fill_pool(corpus)
    for line in sys.stdin:
        n = int(line)
        r = random.Random(args.seed * 1_000_003 + n)
        entry = r.choice(corpus) if corpus and r.random() < 0.75 else gen_entry(r.randrange(10**6))
        src = mutate_python(entry[1], entry[2], r)
        outcome = {}
        why = check_kernel(entry, src, outcome)
        res = {
            "n": n,
            "file": os.path.relpath(entry[0], ROOT),
            "function": entry[2],
            "compiled": sorted(t for t, o in outcome.items() if o == "compiled"),
        }
        if why:
            res["finding"] = why
            res["mutant"] = _keep(args.out, f"kernel_{args.seed}_{n}.py", src)
        print(json.dumps(res), flush=True)


def _keep(out, name, text):
    os.makedirs(out, exist_ok=True)
    p = os.path.join(out, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def run_kernels(count, seed, out, timeout, log=print, start=0):
    """Mutants start..start+count of the kernels; returns (tried, findings)."""
    cmd = [sys.executable, os.path.abspath(__file__), "kernels", "--worker", "--seed", str(seed), "--out", out]
    todo = list(range(start, start + count))
    tried, findings = 0, []
    stats = {"host compiled": 0, "sm_90 compiled": 0}
    from differential import _readline, stop_worker

    while todo:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        try:
            while todo:
                n = todo.pop(0)
                p.stdin.write(f"{n}\n")
                p.stdin.flush()
                line = _readline(p, timeout)
                tried += 1
                if line is None:
                    hung = p.poll() is None
                    p.kill()
                    p.wait()
                    f = {
                        "n": n,
                        "seed": seed,
                        "finding": f"hang: no answer in {timeout} s"
                        if hung
                        else f"crash: the compiler process died (status {p.returncode})",
                    }
                    findings.append(f)
                    log(json.dumps(f))
                    break
                res = json.loads(line)
                for t in res.get("compiled", ()):
                    stats[f"{t} compiled"] += 1
                if "finding" in res:
                    findings.append(res)
                    log(json.dumps(res))
        finally:
            stop_worker(p)
    log(json.dumps(stats))
    return tried, findings


def run_mlir(count, seed, out, timeout, log=print, start=0):
    corpus = mlir_corpus()
    findings = []
    stats = {"accepted": 0, "rejected": 0}
    with tempfile.TemporaryDirectory() as d:
        for n in range(start, start + count):
            r = random.Random(seed * 1_000_003 + n)
            path, text, args = r.choice(corpus)
            mutant = mutate_mlir(text, r)
            why = check_mlir(args, mutant, timeout, d, stats)
            if why:
                f = {
                    "n": n,
                    "seed": seed,
                    "file": os.path.relpath(path, ROOT),
                    "args": args,
                    "finding": why,
                    "mutant": _keep(out, f"mlir_{seed}_{n}.mlir", mutant),
                }
                findings.append(f)
                log(json.dumps(f))
    log(json.dumps(stats))
    return count, findings


PASSES = [
    "--pydev-specialize-target",
    "--pydev-specialize-target=target=host",
    "--pydev-promote-types",
    "--pydev-outline-kernels",
    "--pydev-lower-arrays",
    "--pydev-lower-arrays=target=host",
    "--pydev-lower-atomics",
    "--pydev-lower-atomics=target=host",
    "--pydev-lower-sync-nvvm",
    "--pydev-lower-aggregates",
    "--pydev-check-lowered",
    "--pydev-lower-simt-host",
    "--pydev-host-barrier-fission",
    "--pydev-lower-math-libm",
    "--pydev-align-params",
    "--pydev-drop-c-wrappers",
    "--pydev-raise-ptx",
    "--pydev-lower-float8",
    "--canonicalize",
    "--cse",
    "--pydev-pipeline=cuda",
    "--pydev-pipeline=host",
    "--pydev-cuda-boundscheck",
    "--pydev-pipeline=cuda{boundscheck=1}",
]


def run_passes(count, seed, out, timeout, log=print, start=0):
    """Lit inputs (half of them mutated) through 1-4 random pydev passes in
    a random order: a pass meets IR it does not expect and must answer with
    a diagnostic, never a crash."""
    corpus = mlir_corpus()
    findings = []
    stats = {"accepted": 0, "rejected": 0}
    with tempfile.TemporaryDirectory() as d:
        for n in range(start, start + count):
            r = random.Random(seed * 1_000_033 + n)
            path, text, args = r.choice(corpus)
            if r.random() < 0.5:
                text = mutate_mlir(text, r)
            passes = [r.choice(PASSES) for _ in range(r.randint(1, 4))]
            pipes = [f for f in passes if f.startswith("--pydev-pipeline")]
            passes = [f for f in passes if not f.startswith("--pydev-pipeline")] + pipes[:1]  # pydev-opt takes one
            flags = [f for f in args if f.startswith("--split-input-file")] + passes
            why = check_mlir([_flag(f) for f in flags], text, timeout, d, stats)
            if why:
                f = {
                    "n": n,
                    "seed": seed,
                    "file": os.path.relpath(path, ROOT),
                    "args": flags,
                    "finding": why,
                    "mutant": _keep(out, f"passes_{seed}_{n}.mlir", text),
                }
                findings.append(f)
                log(json.dumps(f))
    log(json.dumps(stats))
    return count, findings


def _flag(f):
    """`--pass=opt=v` as pydev-opt spells a pass option: `--pass{opt=v}`."""
    if "{" in f or f.startswith("--pydev-pipeline"):
        return f
    if f.count("=") == 2:
        name, opt, v = f.split("=")
        return f"{name}{{{opt}={v}}}"
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["kernels", "mlir", "passes"])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "pydev-fuzz-mutants"))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return kernel_worker(args)
    t0 = time.time()
    run = {"kernels": run_kernels, "mlir": run_mlir, "passes": run_passes}[args.what]
    tried, findings = run(args.count, args.seed, args.out, args.timeout, start=args.start)
    print(
        json.dumps(
            {"what": args.what, "mutants": tried, "findings": len(findings), "seconds": round(time.time() - t0, 1)}
        )
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
