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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pydevc", default=os.path.join(ROOT, "target", "debug", "pydevc"))
    ap.add_argument("--llvm", default=os.path.join(os.environ.get("MLIR_SYS_220_PREFIX", "/usr/lib/llvm-22"), "bin"))
    args = ap.parse_args()
    from test_nvvm_ir import _lit_compiles, llvm22_opcodes, typed_byval

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
            a = llvm22_opcodes(args.llvm, ours.stdout, os.path.join(d, "a.ll"))
            b = llvm22_opcodes(
                args.llvm, typed_byval(re.sub(r'target datalayout = ".*"\n', "", nvvm.stdout)), os.path.join(d, "b.ll")
            )
            if a == b:
                same += 1
            else:
                differ.append(
                    (cmd, (dict(a - b), dict(b - a)) if not isinstance(a, str) and not isinstance(b, str) else (a, b))
                )
    for cmd, why in differ:
        print(" ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c for c in cmd[:3]), why)
    print(f"{same} of {same + len(differ)} kernels give the same PTX instructions")


if __name__ == "__main__":
    main()
