#!/usr/bin/env python3
"""LLVM 22 as the oracle of the NVVM IR writer (runtime/src/nvvm_ir.rs) over
the whole lit suite: for every sm_90 kernel the lit tests compile, LLVM 22
reads the `nvvm-ir` stage back (upgrading typed pointers and LLVM 7's
intrinsic names), and `opt -O3 -unroll-runtime=false | llc` of it is
compared with the same of the `llvm-ir` stage, by the multiset of PTX
instructions. Prints the kernels that differ and how (docs/interop.md
quotes its summary; python/tests/test_nvvm_ir.py asserts it for the
test/gpu kernels).

    python3 scripts/nvvm-ir-oracle.py [--pydevc target/debug/pydevc] [--llvm /usr/lib/llvm-22/bin]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))


def typed_byval(text):
    """LLVM 7's `T* byval align A` as LLVM 22 spells it: `T* byval(T) align A`."""
    out, i = [], 0
    while True:
        j = text.find("* byval align", i)
        if j < 0:
            return "".join(out) + text[i:]
        k, depth = j - 1, 0
        while k >= 0:
            c = text[k]
            if c in "}]>":
                depth += 1
            elif c in "{[<":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 0 and c in " (,":
                k += 1
                break
            k -= 1
        out.append(text[i : j + len("* byval")] + f"({text[k:j]})")
        i = j + len("* byval")


def opcodes(llvm, ll, path):
    with open(path, "w") as f:
        f.write(ll)
    r = subprocess.run(f"{llvm}/opt -O3 -unroll-runtime=false {path} | {llvm}/llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -O3 -o -", shell=True, capture_output=True, text=True)
    if r.returncode or r.stderr:
        return "error: " + r.stderr.strip()[:300]
    lines = (l.strip() for l in re.sub(r"//.*", "", r.stdout).splitlines())
    return Counter(l.split()[0] for l in lines if l and not l.startswith((".", "$", "{", "}", ")")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pydevc", default=os.path.join(ROOT, "target", "debug", "pydevc"))
    ap.add_argument("--llvm", default=os.path.join(os.environ.get("MLIR_SYS_220_PREFIX", "/usr/lib/llvm-22"), "bin"))
    args = ap.parse_args()
    from test_nvvm_ir import _lit_compiles

    same, differ = 0, []
    with tempfile.TemporaryDirectory() as d:
        for cmd in _lit_compiles():
            base = [args.pydevc, *cmd]
            ours = subprocess.run(base + ["--emit", "llvm-ir"], capture_output=True, text=True)
            if ours.returncode:
                continue  # a compile the lit test expects to fail
            nvvm = subprocess.run(base + ["--emit", "nvvm-ir"], capture_output=True, text=True)
            if nvvm.returncode:
                differ.append((cmd, "nvvm-ir: " + nvvm.stderr.strip()[-300:]))
                continue
            a = opcodes(args.llvm, ours.stdout, os.path.join(d, "a.ll"))
            b = opcodes(args.llvm, typed_byval(re.sub(r'target datalayout = ".*"\n', "", nvvm.stdout)), os.path.join(d, "b.ll"))
            if a == b:
                same += 1
            else:
                differ.append((cmd, (dict(a - b), dict(b - a)) if not isinstance(a, str) and not isinstance(b, str) else (a, b)))
    for cmd, why in differ:
        print(" ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c for c in cmd[:3]), why)
    print(f"{same} of {same + len(differ)} kernels give the same PTX instructions")


if __name__ == "__main__":
    main()
