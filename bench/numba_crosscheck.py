"""Runs the test kernels (python/tests/numba_kernels.py) under Numba-CUDA's
simulator and under pydev.numba on pydev's host target, checks that the
results agree, and prints the times (pydev warm: the second launch).

    python3 bench/numba_crosscheck.py          # needs numba-cuda importable

Numba runs in a subprocess with NUMBA_ENABLE_CUDASIM=1, on a copy of the
kernels whose import line says `from numba import cuda, ...`."""

import os
import pickle
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "python", "tests", "numba_kernels.py")

RUNNER = r"""
import os, sys, time, pickle, numpy as np
which = sys.argv[1]
import nk as K
if which == "numba":
    from numba import cuda
else:
    from pydev.numba import cuda
rng = np.random.default_rng(3)
N = 4096
res, times = {}, {}
def run(name, fn):
    try:
        if which != "numba":
            fn(); cuda.synchronize()
        t = time.perf_counter(); r = fn(); cuda.synchronize(); times[name] = time.perf_counter() - t; res[name] = r
    except Exception as e:
        print(name, "failed:", str(e).splitlines()[-1][:150], file=sys.stderr)
a, b = rng.random(N), rng.random(N)
x32 = rng.random(N, dtype=np.float32)
A = rng.random((64, 64)).astype(np.float32)
xi = rng.integers(-20, 20, 64).astype(np.int32)
ai = rng.integers(-10, 10, 50).astype(np.int64)
xm = rng.random(100) + 0.01
xb = rng.integers(0, 2**31, 64).astype(np.uint32)
def vec_add():
    out = np.full(N, np.nan); K.vec_add[N // 256, 256](a, b, out); return out
def block_sum():
    out = np.full(N // 128, np.nan, np.float32); K.block_sum[N // 128, 128](x32, out); return out
def warp_sum():
    out = np.full(N // 32, np.nan); K.warp_sum[N // 128, 128](a, out); return out
def histogram():
    h = np.zeros(10, np.int32); K.histogram[16, 128](a, 10, h); return h
def transpose():
    out = np.full((64, 64), np.nan, np.float32); K.transpose[(4, 4), (16, 16)](A, out); return out
def stencil():
    out = np.full((64, 64), np.nan); K.stencil[(8, 8), (8, 8)](A.astype(np.float64), out); return out
def warp_vote():
    out = np.full((64, 11), -12345, np.int64); K.warp_vote[1, 64](xi, out); return out
def control_flow():
    out = np.full(50, np.nan); qr = np.full((50, 5), -999, np.int64); K.control_flow[1, 64](ai, out, qr); return out, qr
def math_kernel():
    out = np.full((100, 8), np.nan); K.math_kernel[1, 128](xm, out); return out
def bits():
    out = np.zeros((64, 4), np.uint32); K.bits_kernel[1, 64](xb, out); return out
def mc_pi():
    hits = np.zeros(1, np.int64); K.mc_pi[N // 128, 128](N, hits); return hits
for f in (vec_add, block_sum, warp_sum, histogram, transpose, stencil, warp_vote, control_flow, math_kernel, bits, mc_pi):
    run(f.__name__, f)
pickle.dump((res, times), open(sys.argv[2], "wb"))
"""


def main():
    d = tempfile.mkdtemp()
    src = open(KERNELS).read()
    for which, line in (("pydev", None), ("numba", "from numba import cuda")):
        text = src if line is None else src.replace("from pydev.numba import cuda", line)
        sub = os.path.join(d, which)
        os.makedirs(sub)
        open(os.path.join(sub, "nk.py"), "w").write(text)
        open(os.path.join(sub, "run.py"), "w").write(RUNNER)
        env = dict(os.environ)
        if which == "numba":
            env["NUMBA_ENABLE_CUDASIM"] = "1"
            env.pop("PYDEV_TARGET", None)
        else:
            env["PYDEV_TARGET"] = "host"
        subprocess.run([sys.executable, "run.py", which, os.path.join(d, which + ".pkl")], cwd=sub, env=env, check=True)
    rp, tp = pickle.load(open(os.path.join(d, "pydev.pkl"), "rb"))
    rn, tn = pickle.load(open(os.path.join(d, "numba.pkl"), "rb"))
    print("| kernel | same results | Numba simulator (ms) | pydev host, warm (ms) | ratio |")
    print("|---|---|---|---|---|")
    for k in rp:
        if k not in rn:
            print(f"| {k} | (the simulator cannot run it) | - | {tp[k] * 1e3:.2f} | - |")
            continue
        a, b = rp[k], rn[k]
        pairs = zip(a, b) if isinstance(a, tuple) else [(a, b)]
        same = all(np.allclose(x, y, rtol=1e-6, equal_nan=True) for x, y in pairs)
        print(f"| {k} | {same} | {tn[k] * 1e3:.0f} | {tp[k] * 1e3:.2f} | {tn[k] / tp[k]:.0f}x |")


if __name__ == "__main__":
    main()
