"""Your own passes in pydev's pipeline, without forking pydev:

- a pass plugin built outside pydev (examples/pass-template:
  `example-mul-pow2-to-shift`, in Rust, `make build` builds it) inserted
  after the frontend with `passes=` and `plugins=`;
- the same rewrite as a PDL pattern (examples/pdl/mul_pow2.mlir), applied by
  `pydev-apply-pdl` with no Rust compiled;
- upstream MLIR passes at the other points of the pipeline, and LLVM passes
  on the host's LLVM IR.

Each variant must give NumPy's results; the IR shows what the pass did.

Run: python3 examples/custom_pass.py (docs/research.md)
"""

import os
import sys

import numpy as np

import cuda.device as device
import pydev

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PLUGIN = os.path.join(
    os.environ.get("PYDEV_BIN_DIR", os.path.join(ROOT, "target", "debug")), "libpydev_pass_template.so"
)
PATTERNS = os.path.join(HERE, "pdl", "mul_pow2.mlir")


def scaled_sum(x, y, out):
    """out = x * 8 + y, and a grid-stride loop for the upstream passes to chew on."""
    for i in range(device.tid(1), x.size, device.grid_size(1)):
        out[i] = x[i] * 8 + y[i]


VARIANTS = {
    "plain": {},
    "PDL pattern after the frontend": {"passes": {"after-frontend": f"pydev-apply-pdl{{patterns={PATTERNS}}}"}},
    "upstream passes at every point": {
        "passes": {
            "after-promotion": "cse,canonicalize",
            "before-lowering": "loop-invariant-code-motion,sccp",
            "llvm": "cse",
            **({"llvm-ir": "instcombine,gvn"} if pydev.active_target() == "host" else {}),
        }
    },
}
if os.path.exists(PLUGIN):
    VARIANTS["plugin pass after the frontend"] = {
        "passes": {"after-frontend": "example-mul-pow2-to-shift"},
        "plugins": [PLUGIN],
    }


def report(what, good):
    print(("ok: " if good else "MISMATCH: ") + what)
    return good


def main():
    rng = np.random.default_rng(33)
    n = 10_000
    x = rng.integers(-(1 << 20), 1 << 20, n, dtype=np.int32)
    y = rng.integers(-(1 << 20), 1 << 20, n, dtype=np.int32)
    expect = x * 8 + y
    stream = pydev.default_stream()
    ok = True
    if not os.path.exists(PLUGIN):
        print(f"skipped the plugin variant: {PLUGIN} is not built (make build)")
    for name, options in VARIANTS.items():
        k = device.kernel(**options)(scaled_sum)
        out = pydev.to_device(np.full(n, np.iinfo(np.int32).min, np.int32))  # poisoned: an unwritten element shows
        device.launch(k, pydev.to_device(x), pydev.to_device(y), out, grid=16, block=128, stream=stream)
        stream.synchronize()
        got = out.copy_to_host()
        ir = pydev.compile(k, [x, y, got], target="host", stage="pydev-opt")
        shifts = ir.count("arith.shli")
        ok &= report(f"{name}: NumPy's results, {shifts} shift(s) in the pydev-opt stage", (got == expect).all())
        if "pow2" in str(options):
            ok &= report(f"{name}: x * 8 became a shift", shifts >= 1)
    try:
        device.kernel(passes={"before-lowering": "no-such-pass"})(scaled_sum)
        ok &= report("an unknown pass is refused", False)
    except ValueError as e:
        ok &= report(f"an unknown pass is refused: {e}", "no-such-pass" in str(e))
    print("custom_pass", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
