"""The kernel corpus of bench/passes.py: every kernel with its launch
arguments (fresh random inputs from a fixed seed, never all zeros; outputs
poisoned with NaN or a sentinel so unwritten elements show), grid and block.

Groups (`--corpus`):

- `gpu`: test/gpu/kernels.py (cuda.device), every kernel test/gpu/run.py
  runs, at its sizes;
- `typical`: bench/numba_kernels.py, the typical and compute-bound kernels
  written for Numba-CUDA, jitted by pydev.numba (the same algorithms as
  `gpu`'s, in the other frontend, on the same arguments);
- `numba`: the Numba ports of python/tests/numba_kernels.py that need no
  host-side objects (random states, printing and records are left out) and
  give the same results on every run (atomics_all's exchanges depend on
  the threads' order);
- `fuzz`: the random programs of scripts/fuzz/gen.py (`fuzz:SEED`, seeds
  0 to `FUZZ_SEEDS - 1`), each with its generated arguments;
- `fuzz-corpus`: the mutation fuzzer's corpus, scripts/fuzz/corpus/
  kernels.jsonl (python/tests/kernels.py and conformance_kernels.py, each
  kernel with the signatures the tests compile it for), compiled only: it
  records no arguments, so compile time, PTX and SASS but no run.

A case's `tolerance` is its own run-to-run spread (float atomics whose order
the host's threads decide); a variant's declared tolerance adds to it.
"""

import importlib.util
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GROUPS = ("gpu", "typical", "numba", "fuzz", "fuzz-corpus")
FUZZ_SEEDS = 24
SEED = 2026


class Case:
    """One kernel of the corpus: `kernel()` loads it (in the worker that
    runs it), `make(rng)` gives (args, grid, block); a compile-only case
    has `signature` (pydevc's syntax) instead and `make` None."""

    def __init__(self, name, group, frontend, kernel, make, tolerance=0.0, signature=None):
        self.name, self.group, self.frontend = name, group, frontend
        self.kernel, self.make, self.tolerance = kernel, make, tolerance
        self.signature = signature


def _load(path, name):
    """The module at `path` under a name of its own (test/gpu, bench and
    python/tests have modules of the same names)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _gpu_kernels():
    return _load(os.path.join(ROOT, "test", "gpu", "kernels.py"), "passes_corpus_gpu_kernels")


def _bench_numba_kernels():
    """bench/numba_kernels.py with `numba` standing for pydev.numba, its
    plain functions jitted."""
    import pydev.numba

    name = "passes_corpus_bench_numba"
    if name not in sys.modules:
        saved = sys.modules.get("numba")
        sys.modules["numba"] = pydev.numba
        try:
            mod = _load(os.path.join(HERE, "numba_kernels.py"), name)
        finally:
            if saved is None:
                del sys.modules["numba"]
            else:
                sys.modules["numba"] = saved
        mod.jitted = {}
    return sys.modules[name]


def _numba_jit(fname):
    mod = _bench_numba_kernels()
    if fname not in mod.jitted:
        mod.jitted[fname] = pydev_numba_cuda().jit(getattr(mod, fname))
    return mod.jitted[fname]


def pydev_numba_cuda():
    from pydev.numba import cuda

    return cuda


def _test_numba_kernels():
    return _load(os.path.join(ROOT, "python", "tests", "numba_kernels.py"), "passes_corpus_test_numba")


# --- arguments --------------------------------------------------------------------------


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def _u32(rng, *shape):
    return rng.random(shape, dtype=np.float32)


def _nan(*shape):
    return np.full(shape, np.nan, np.float32)


N = 1 << 16


def _vector_add(rng):
    a, b = _f32(rng, N - 3), _f32(rng, N - 3)
    return [_nan(N - 3), a, b], (N + 255) // 256, 256


def _saxpy(rng):
    return [np.float32(2.5), _f32(rng, N), _f32(rng, N), _nan(N)], 64, 256


def _histogram(rng):
    return [np.zeros(97, np.uint32), rng.integers(0, 1 << 20, N, dtype=np.int32)], N // 256, 256


def _warp_sum(rng):
    return [np.zeros(1, np.float32), _u32(rng, N)], N // 256, 256


def _block_votes(rng):
    return [np.full(16, -7, np.int32), np.full(128, -7, np.int32), _f32(rng, 4096)], 16, 256


def _python_ints(rng):
    a = rng.integers(-1000, 1000, 4096, dtype=np.int32)
    b = rng.integers(1, 50, 4096, dtype=np.int32) * rng.choice([-1, 1], 4096).astype(np.int32)
    return [np.full((4096, 5), -12345, np.int32), a, b], 16, 256


def _block_sum(rng):
    return [_nan(N // 256), _f32(rng, N)], N // 256, 256


def _transpose(rng):
    return [_nan(200, 300), _f32(rng, 300, 200)], (7, 10), (32, 32)


def _local_scan(rng):
    return [_nan(4096), _f32(rng, 4096)], 4, 256


def _push(rng):
    ps = np.zeros(N, dtype=_gpu_kernels().Particle.dtype)
    ps["pos"] = rng.random((N, 4), dtype=np.float32)
    ps["mass"] = rng.random(N, dtype=np.float32)
    return [ps, np.float32(0.5)], N // 256, 256


def _stencil(rng):
    return [_nan(130, 70), _f32(rng, 130, 70)], (9, 5), (16, 16)


def _float_extrema(rng):
    w = _f32(rng, 5000)
    w[rng.choice(5000, 50, replace=False)] = np.nan
    return [np.array([-np.inf, np.inf, -np.inf, np.inf], np.float32), w], 20, 256


def _handoff(rng):
    return [np.zeros(1, np.int32), np.full(2, -1, np.int32)], 2, 32


def _views(rng):
    return [_nan(128, 5), _f32(rng, 101), _f32(rng, 12, 9)], 1, 128


def _complex_math(rng):
    def c64():
        return (rng.standard_normal(3000) + 1j * rng.standard_normal(3000)).astype(np.complex64)

    return [_nan(3000, 3), c64(), c64(), _u32(rng, 3000) * 4], 12, 256


def _shuffle_aggregates(rng):
    return [_nan(128, 8), _f32(rng, 128)], 2, 64


def _array_args(rng):
    return [_nan(500), _f32(rng, 500), np.int32(3)], 4, 128


def _row_sums(rng):
    return [_nan(300), _f32(rng, 300, 7)], 3, 128


def _float8_round_trip(rng):
    x = np.concatenate([_f32(rng, 500) * 10, np.float32([0, -0.0, 448, 460, 1e-3, 2.0**-9, 57344])])
    return [_nan(x.size, 3), x], 3, 256


def _nbody(rng):
    pos = rng.uniform(-1, 1, (1024, 4)).astype(np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.0, 1024)
    return [_nan(1024, 3), pos], 4, 256


def _matmul(rng):
    return [_nan(130, 100), _f32(rng, 130, 90), _f32(rng, 90, 100)], (7, 9), (16, 16)


def _mandelbrot(rng):
    h, w = 96, 128
    return (
        [np.full((h, w), -1, np.int32), np.float32(-2.0), np.float32(-0.9375), np.float32(2.5 / w), np.int32(200)],
        (
            8,
            6,
        ),
        (16, 16),
    )


def _softmax(rng):
    return [_nan(16, 509), 4 * _f32(rng, 16, 509)], 16, 256


GPU = {
    "vector_add": _vector_add,
    "saxpy": _saxpy,
    "histogram": _histogram,
    "warp_sum": (_warp_sum, 1e-5),
    "block_votes": _block_votes,
    "python_ints": _python_ints,
    "block_sum": _block_sum,
    "transpose": _transpose,
    "local_scan": _local_scan,
    "push": _push,
    "stencil": _stencil,
    "float_extrema": _float_extrema,
    "handoff": _handoff,
    "views": _views,
    "complex_math": _complex_math,
    "shuffle_aggregates": _shuffle_aggregates,
    "array_args": _array_args,
    "row_sums": _row_sums,
    "float8_round_trip": _float8_round_trip,
    "nbody": _nbody,
    "matmul": _matmul,
    "mandelbrot": _mandelbrot,
    "softmax": _softmax,
}
TYPICAL = ("vector_add", "saxpy", "histogram", "warp_sum", "block_sum", "transpose", "stencil")
TYPICAL += ("nbody", "matmul", "mandelbrot", "softmax")


# python/tests/numba_kernels.py: kernel -> arguments
def _n_vec_add(rng):
    return [_f32(rng, N), _f32(rng, N), _nan(N)], N // 256, 256


def _n_saxpy(rng):
    return [np.float32(1.5), _f32(rng, N), _f32(rng, N), _nan(N)], N // 256, 256


def _n_block_sum_early_return(rng):
    n = 1000
    return [_f32(rng, n), _nan(8), np.full(8, -1, np.int32), np.int32(n)], 8, 128


def _n_block_sum(rng):
    return [_f32(rng, N), _nan(N // 128)], N // 128, 128


def _n_warp_sum(rng):
    return [_f32(rng, 4096), _nan(128)], 16, 256


def _n_histogram(rng):
    return [_u32(rng, N).astype(np.float64), np.int32(64), np.zeros(64, np.int32)], 32, 256


def _n_transpose(rng):
    return [_f32(rng, 100, 70), _nan(70, 100)], (5, 7), (16, 16)


def _n_stencil(rng):
    return [rng.standard_normal((130, 70)), np.full((130, 70), np.nan)], (9, 5), (16, 16)


def _n_fast_matmul(rng):
    return [_f32(rng, 64, 64), _f32(rng, 64, 64), _nan(64, 64)], (4, 4), (16, 16)


def _n_sum_reduce(rng):
    return [rng.standard_normal(N), np.zeros(1)], 32, 256


def _n_mc_pi(rng):
    return [np.int32(N - 100), np.zeros(1, np.int32)], N // 256, 256


def _n_warp_vote(rng):
    return [rng.integers(-50, 200, 256, dtype=np.int32), np.full((256, 11), -7, np.int32)], 2, 128


def _n_control_flow(rng):
    a = rng.integers(0, 12, 1000, dtype=np.int64)
    return [a, np.full(1000, np.nan), np.full((1000, 5), -7, np.int64)], 4, 256


def _n_math_kernel(rng):
    return [rng.random(2000) * 3, np.full((2000, 8), np.nan)], 8, 256


def _n_bits_kernel(rng):
    return [rng.integers(1, 1 << 31, 2000, dtype=np.int64).astype(np.int32), np.full((2000, 4), -7, np.int32)], 8, 256


def _n_grid3(rng):
    return [np.full((6, 10, 12), -7, np.int64)], (2, 2, 2), (8, 8, 4)


def _n_syncs(rng):
    return [rng.integers(-50, 200, 128, dtype=np.int32), np.full(3, -7, np.int32)], 1, 128


def _n_views(rng):
    return [rng.standard_normal((64, 8)), rng.standard_normal(16), np.full((64, 3), np.nan)], 1, 64


def _n_local_across_barrier(rng):
    return [np.full(128, np.nan)], 1, 128


def _n_complex_kernel(rng):
    a = (rng.standard_normal(1000) + 1j * rng.standard_normal(1000)).astype(np.complex128)
    return [a, np.full(1000, np.nan), 0.5 - 0.25j], 4, 256


def _n_control_flow2(rng):
    return [rng.integers(0, 20, 50, dtype=np.int64), np.full(11, -7, np.int64)], 1, 32


def _n_bools_and_small_ints(rng):
    return (
        [
            np.zeros(1000, np.bool_),
            rng.random(1000),
            np.full(1000, np.nan),
            rng.integers(-100, 100, 1000, dtype=np.int16),
        ],
        4,
        256,
    )


def _n_slice_assign(rng):
    return [rng.standard_normal(20), rng.standard_normal(20)], 1, 32


def _n_int_powers(rng):
    return [rng.integers(-5, 6, 64, dtype=np.int64), rng.integers(0, 6, 64, dtype=np.int64), np.zeros(65)], 1, 1


NUMBA = {
    "vec_add": _n_vec_add,
    "saxpy": _n_saxpy,
    "block_sum_early_return": _n_block_sum_early_return,
    "block_sum": _n_block_sum,
    "warp_sum": _n_warp_sum,
    "histogram": _n_histogram,
    "transpose": _n_transpose,
    "stencil": _n_stencil,
    "fast_matmul": _n_fast_matmul,
    "sum_reduce": (_n_sum_reduce, 1e-10),
    "mc_pi": _n_mc_pi,
    "warp_vote": _n_warp_vote,
    "control_flow": _n_control_flow,
    "math_kernel": _n_math_kernel,
    "bits_kernel": _n_bits_kernel,
    "grid3": _n_grid3,
    "syncs": _n_syncs,
    "views": _n_views,
    "local_across_barrier": _n_local_across_barrier,
    "complex_kernel": _n_complex_kernel,
    "control_flow2": _n_control_flow2,
    "bools_and_small_ints": _n_bools_and_small_ints,
    "slice_assign": _n_slice_assign,
    "int_powers": _n_int_powers,
}


def _split(entry):
    return entry if isinstance(entry, tuple) else (entry, 0.0)


def _fuzz_case(seed):
    def program():
        sys.path.insert(0, os.path.join(ROOT, "scripts", "fuzz"))
        import gen

        return gen, gen.generate(seed)

    def kernel():
        import tempfile

        _, prog = program()
        d = tempfile.mkdtemp(prefix="pydev-passes-fuzz-")
        path = os.path.join(d, f"fz_{seed}.py")
        with open(path, "w") as f:
            f.write(prog.source)
        return _load(path, f"passes_corpus_fz_{seed}").k

    def make(rng):
        gen, prog = program()
        return [a.copy() if isinstance(a, np.ndarray) else a for a in prog.args], gen.GRID, gen.BLOCK

    return Case(f"fuzz:{seed}", "fuzz", "cuda.device", kernel, make)


def _fuzz_corpus():
    """The compile-only cases of the mutation fuzzer's corpus: one per
    (file, kernel, signature), files of kernels only (not test modules)."""
    import json

    out, seen = [], set()
    with open(os.path.join(ROOT, "scripts", "fuzz", "corpus", "kernels.jsonl")) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        path, fn, sig = row["file"], row["function"], row["signature"]
        if os.path.basename(path).startswith("test_") or (path, fn, sig) in seen:
            continue
        seen.add((path, fn, sig))
        stem = os.path.splitext(os.path.basename(path))[0]
        name = f"fuzz-corpus:{stem}.{fn}"
        n = sum(c.name.split("#")[0] == name for c in out)
        mod = f"passes_corpus_{stem}"
        kernel = lambda p=path, m=mod, k=fn: getattr(_load(os.path.join(ROOT, p), m), k)  # noqa: E731
        out.append(Case(name + (f"#{n + 1}" if n else ""), "fuzz-corpus", "cuda.device", kernel, None, signature=sig))
    return out


def cases(groups=GROUPS, fuzz_seeds=FUZZ_SEEDS):
    """The corpus's cases of `groups`, in order."""
    out = []
    for group in groups:
        if group == "gpu":
            for name, entry in GPU.items():
                make, tol = _split(entry)
                out.append(
                    Case(f"gpu:{name}", group, "cuda.device", lambda n=name: getattr(_gpu_kernels(), n), make, tol)
                )
        elif group == "typical":
            for name in TYPICAL:
                make, tol = _split(GPU[name])
                out.append(Case(f"typical:{name}", group, "pydev.numba", lambda n=name: _numba_jit(n), make, tol))
        elif group == "numba":
            for name, entry in NUMBA.items():
                make, tol = _split(entry)
                k = lambda n=name: getattr(_test_numba_kernels(), n)  # noqa: E731
                out.append(Case(f"numba:{name}", group, "pydev.numba", k, make, tol))
        elif group == "fuzz":
            out += [_fuzz_case(seed) for seed in range(fuzz_seeds)]
        elif group == "fuzz-corpus":
            out += _fuzz_corpus()
        else:
            raise ValueError(f"unknown corpus group '{group}' (known: {', '.join(GROUPS)})")
    return out
