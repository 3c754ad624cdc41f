#!/usr/bin/env python3
"""The first launch on a worker of a kernel that travelled by pickle (issue
32): with the code it compiled where it was pickled, or as source only. A
script's `__main__` makes a kernel with a factory (so it goes by value),
launches it once and pickles it (its compiled code travels), and pickles a
second one of the same factory that it never launched (source only). Fresh
processes, each with an empty disk cache (PYDEV_CACHE_DIR), load one of the
pickles, alternately, and time its first launch (NumPy imported and the
arrays made first: the worker's own work):

    python3 bench/travel_first_launch.py [--runs 7] [--target host]

Prints the pickles' sizes and the minimum and median of the load and of
the first launch, in ms.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

PRODUCER = textwrap.dedent("""
    import pickle, sys
    import numpy as np
    import cuda.device as device
    import pydev


    def make(scale):
        @device.func
        def scaled(v):
            return v * scale + 1

        @device.kernel
        def apply(out, x):
            i = device.tid(1)
            if i < out.size:
                out[i] = scaled(x[i])

        return apply


    k = make(1.5)
    x = np.arange(1000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    device.launch(k, out, x, grid=8, block=128, stream=pydev.default_stream())
    assert np.allclose(out, x * 1.5 + 1)
    with open(sys.argv[1], "wb") as f:
        pickle.dump(k, f)
    with open(sys.argv[2], "wb") as f:
        pickle.dump(make(1.5), f)
""")

WORKER = textwrap.dedent("""
    import json, pickle, sys, time
    import numpy as np
    import cuda.device as device
    import pydev
    x = np.arange(1000, dtype=np.float32)
    out = np.full_like(x, np.nan)
    s = pydev.default_stream()
    t0 = time.perf_counter()
    with open(sys.argv[1], "rb") as f:
        k = pickle.load(f)
    t1 = time.perf_counter()
    device.launch(k, out, x, grid=8, block=128, stream=s)
    s.synchronize()
    t2 = time.perf_counter()
    assert np.allclose(out, x * 1.5 + 1)
    print(json.dumps({"load": (t1 - t0) * 1e3, "launch": (t2 - t1) * 1e3, "compiles": pydev.stats()["compiles"]}))
""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--target", default="host")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYDEV_TARGET=args.target, PYDEV_CACHE_DIR=os.path.join(tmp, "producer"))
        env.pop("PYDEV_CACHE", None)
        prod, work = os.path.join(tmp, "producer.py"), os.path.join(tmp, "worker.py")
        open(prod, "w").write(PRODUCER)
        open(work, "w").write(WORKER)
        pickles = {"with compiled code": os.path.join(tmp, "code.pkl"), "source only": os.path.join(tmp, "src.pkl")}
        subprocess.run([sys.executable, prod, *pickles.values()], env=env, cwd=tmp, check=True)
        os.unlink(prod)  # the workers have no file: the source travels
        times = {name: [] for name in pickles}
        for run in range(args.runs):
            for name, path in pickles.items():
                wenv = dict(env, PYDEV_CACHE_DIR=os.path.join(tmp, f"worker-{run}-{len(times[name])}-{name[0]}"))
                r = subprocess.run([sys.executable, work, path], env=wenv, cwd=tmp, capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(r.stderr)
                times[name].append(json.loads(r.stdout.strip().splitlines()[-1]))
        print(
            f"first launch on a fresh worker, empty disk cache, target {args.target}, {args.runs} runs (min / median ms)"
        )
        for name, path in pickles.items():
            t = times[name]
            load = [r["load"] for r in t]
            launch = [r["launch"] for r in t]
            compiles = sorted({r["compiles"] for r in t})
            print(
                f"  {name:>18}: pickle {os.path.getsize(path) / 1000:.1f} kB, load {min(load):.1f} / "
                f"{statistics.median(load):.1f}, first launch {min(launch):.1f} / {statistics.median(launch):.1f}, "
                f"compiles {compiles}"
            )


if __name__ == "__main__":
    main()
