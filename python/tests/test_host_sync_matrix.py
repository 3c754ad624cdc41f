"""The host target runs every synchronization pattern that is valid on a GPU
(issue 35 item 3, issue 31 item 3): a generated matrix of block-barrier and
warp-operation placements, each kernel written for both frontends
(`@device.kernel` and pydev.numba's `cuda.jit`) and run in both of the host's
schedulers (barrier loops, and coroutines: the barrier called through a
device function), checked against a NumPy model of what a GPU computes.

Valid placements give the model's numbers: warp collectives executed by a
subset of warps (warp 0, the odd warps, after a barrier) then a block
barrier; warp-uniform branches around shuffles, votes and matches with
partial masks; syncwarp with masks; barriers inside loops whose trip count
is block-uniform. Invalid ones (divergent barriers, a return before a
barrier in a `@device.kernel`) keep their error. In pydev.numba kernels,
threads that returned do not hold up later barriers, as on GPUs; a
`pydev.ir` kernel chooses (`Module.kernel(..., exited_skip_barriers=True)`).

Inputs are fresh random numbers from a fixed seed; outputs start poisoned."""

import importlib
import re
import sys
import textwrap

import numpy as np
import pytest

SEED = 20261128
GRID = 2
BLOCKS = (64, 128, 80)  # 80: a last warp of 16 lanes
# Placements whose masks name lanes a partial last warp lacks (undefined on
# a GPU): not run with it.
FULL_WARPS_ONLY = ("all", "after")
POISON = -1234567
INIT = -7  # r of a thread outside the placement's branch

pytestmark = pytest.mark.usefixtures("native", "host_target")


# --- the matrix ---------------------------------------------------------------------------

# Placement: (condition of the branch that holds the collective, its mask,
# the lowest lane of that mask). "loop" repeats barrier / warp-0 collective /
# barrier `iters` times (a block-uniform trip count); "after" puts a barrier
# before the branch; "high_half" runs the collective in the else branch.
PLACEMENTS = {
    "all": ("True", 0xFFFFFFFF, 0),
    "warp0": ("t < 32", 0xFFFFFFFF, 0),
    "warp0_activemask": ("t < 32", "activemask", 0),
    "odd_warps": ("w % 2 == 1", 0xFFFFFFFF, 0),
    "low_half": ("lane < 16", 0x0000FFFF, 0),
    "high_half": ("lane < 16", 0xFFFF0000, 16),
    "loop": ("t < 32", 0xFFFFFFFF, 0),
    "after": ("w >= 1", 0xFFFFFFFF, 0),
}

# Collective: statements (device, numba) setting r and r2 from the mask M
# and the value v; {src} is the placement's lowest lane.
OPS = {
    "shfl_down": ("r = device.shfl_down_sync(M, v, 1)", "r = cuda.shfl_down_sync(M, v, 1)"),
    "shfl_up": ("r = device.shfl_up_sync(M, v, 2)", "r = cuda.shfl_up_sync(M, v, 2)"),
    "shfl_xor": ("r = device.shfl_xor_sync(M, v, 1)", "r = cuda.shfl_xor_sync(M, v, 1)"),
    "shfl_idx": ("r = device.shfl_sync(M, v, {src})", "r = cuda.shfl_sync(M, v, {src})"),
    "ballot": ("r = device.int32(device.ballot_sync(M, lambda: v > 50))", "r = cuda.ballot_sync(M, v > 50)"),
    "all": ("r = 1 if device.all_sync(M, lambda: v > 5) else 0", "r = 1 if cuda.all_sync(M, v > 5) else 0"),
    "any": ("r = 1 if device.any_sync(M, lambda: v > 90) else 0", "r = 1 if cuda.any_sync(M, v > 90) else 0"),
    "eq": (
        "r = 1 if device.eq_sync(M, lambda: v >= 0) else 0\nr2 = 1 if device.eq_sync(M, lambda: v > 50) else 0",
        "r = 1 if cuda.eq_sync(M, v >= 0) else 0\nr2 = 1 if cuda.eq_sync(M, v > 50) else 0",
    ),
    "match_any": ("r = device.int32(device.match_any_sync(M, v % 4, 0))", "r = cuda.match_any_sync(M, v % 4)"),
    "match_all": (
        "mm, pp = device.match_all_sync(M, v // 128, 0)\nr = device.int32(mm)\nr2 = 1 if pp else 0",
        "mm, pp = cuda.match_all_sync(M, v // 128)\nr = mm\nr2 = 1 if pp else 0",
    ),
    "syncwarp": ("device.syncwarp(M)\nr = v + 1", "cuda.syncwarp(M)\nr = v + 1"),
    "activemask": ("r = device.int32(device.activemask())", "r = cuda.activemask()"),
}

FRONTENDS = ("device", "numba")
MODES = ("inline", "func")  # func: the barrier is a device function's (coroutines)


def _mask_text(frontend, mask):
    if mask == "activemask":
        return "device.activemask()" if frontend == "device" else "cuda.activemask()"
    if frontend == "device":  # an int32 literal
        return str(mask - (1 << 32) if mask >= 1 << 31 else mask)
    return hex(mask)


def _kernel_source(frontend, mode, placement, op):
    cond, mask, src = PLACEMENTS[placement]
    ns = "device" if frontend == "device" else "cuda"
    sync = "block_sync()" if mode == "func" else f"{ns}.syncthreads()"
    stmts = OPS[op][0 if frontend == "device" else 1].format(src=src)
    head = f"M = {_mask_text(frontend, mask)}\n{stmts}"
    if placement == "loop":
        body = (
            f"acc = 0\nacc2 = 0\nfor k in range(iters):\n    {sync}\n    if {cond}:\n        v = x[i] + k\n"
            + textwrap.indent(head, " " * 8)
            + f"\n        acc += r\n        acc2 += r2\n    {sync}\nr = acc\nr2 = acc2"
        )
    elif placement == "high_half":
        body = f"if {cond}:\n    r2 = 0\nelse:\n" + textwrap.indent(head, " " * 4)
    else:
        before = f"{sync}\n" if placement == "after" else ""
        body = before + f"if {cond}:\n" + textwrap.indent(head, " " * 4)
    if frontend == "device":
        lines = [
            "@device.kernel",
            f"def {_name(frontend, mode, placement, op)}(x, out, iters):",
            "    t = device.thread_idx.x",
            "    n = device.block_dim.x",
            "    i = device.block_idx.x * n + t",
            "    sh = device.shared_array(256, device.int32)",
        ]
    else:
        lines = [
            "@cuda.jit",
            f"def {_name(frontend, mode, placement, op)}(x, out, iters):",
            "    t = cuda.threadIdx.x",
            "    n = cuda.blockDim.x",
            "    i = cuda.blockIdx.x * n + t",
            "    sh = cuda.shared.array(256, int32)",
        ]
    lines += [
        "    lane = t % 32",
        "    w = t // 32",
        "    v = x[i]",
        f"    r = {INIT}",
        "    r2 = 0",
        textwrap.indent(body, "    "),
        "    sh[t] = r",
        f"    {sync}",
        "    out[i, 0] = r",
        "    out[i, 1] = r2",
        "    out[i, 2] = sh[n - 1 - t]",
    ]
    return "\n".join(lines) + "\n"


def _name(frontend, mode, placement, op):
    return f"{frontend}_{mode}_{placement}_{op}"


PRELUDE = {
    "device": ("import cuda.device as device\n\n\n@device.func\ndef block_sync():\n    device.syncthreads()\n\n\n"),
    "numba": (
        "from pydev.numba import cuda, int32\n\n\n@cuda.jit(device=True)\ndef block_sync():\n    cuda.syncthreads()\n\n\n"
    ),
}

# Invalid on a GPU for @device.kernel (the spec: every thread reaches each
# barrier), valid for pydev.numba (exited threads do not hold up barriers):
# a return before the barrier, a barrier only warp 0 reaches.
EXITS = {
    "early_return": "if i >= limit:\n    return\nsh[t] = x[i]\nSYNC\nout[i, 0] = sh[t] + sh[(t + 1) % live]",
    "warp0_only": "if w != 0:\n    return\nsh[t] = x[i]\nSYNC\nout[i, 0] = sh[t] + sh[(t + 1) % live]",
    "count": "if i >= limit:\n    return\nc = COUNT(x[i] > 50)\nout[i, 0] = c",
    "and": "if i >= limit:\n    return\nc = AND(x[i] >= 0)\nd = AND(x[i] > 50)\nout[i, 0] = (1 if c else 0) + (2 if d else 0)",
    "or": "if i >= limit:\n    return\nc = OR(x[i] > 90)\nd = OR(x[i] > 500)\nout[i, 0] = (1 if c else 0) + (2 if d else 0)",
}


def _exit_source(frontend, mode, case):
    ns = "device" if frontend == "device" else "cuda"
    sync = "block_sync()" if mode == "func" else f"{ns}.syncthreads()"
    body = EXITS[case].replace("SYNC", sync)
    if frontend == "device":
        for k in ("COUNT", "AND", "OR"):
            body = re.sub(rf"{k}\((.*?)\)\n", rf"device.syncthreads_{k.lower()}(lambda: \1)\n", body)
        head = [
            "@device.kernel",
            f"def {frontend}_{mode}_exit_{case}(x, out, limit):",
            "    t = device.thread_idx.x",
            "    n = device.block_dim.x",
            "    i = device.block_idx.x * n + t",
            "    sh = device.shared_array(256, device.int32)",
        ]
    else:
        for k in ("COUNT", "AND", "OR"):
            body = re.sub(rf"{k}\((.*?)\)\n", rf"cuda.syncthreads_{k.lower()}(\1)\n", body)
        head = [
            "@cuda.jit",
            f"def {frontend}_{mode}_exit_{case}(x, out, limit):",
            "    t = cuda.threadIdx.x",
            "    n = cuda.blockDim.x",
            "    i = cuda.blockIdx.x * n + t",
            "    sh = cuda.shared.array(256, int32)",
        ]
    live = "min(32, n)" if case == "warp0_only" else "min(n, limit - cuda.blockIdx.x * n)"
    if frontend == "device":
        live = live.replace("cuda.blockIdx.x", "device.block_idx.x")
    head += ["    w = t // 32", f"    live = {live}"]
    return "\n".join(head + [textwrap.indent(body, "    ")]) + "\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generated kernels: one module per frontend, imported from files
    (both frontends read a kernel's source)."""
    d = tmp_path_factory.mktemp("sync_matrix")
    mods = {}
    for fe in FRONTENDS:
        src = PRELUDE[fe]
        for mode in MODES:
            for p in PLACEMENTS:
                for op in OPS:
                    src += _kernel_source(fe, mode, p, op) + "\n\n"
            for case in EXITS:
                src += _exit_source(fe, mode, case) + "\n\n"
        name = f"sync_matrix_{fe}"
        (d / f"{name}.py").write_text(src)
        mods[fe] = name
    sys.path.insert(0, str(d))
    try:
        yield {fe: importlib.import_module(name) for fe, name in mods.items()}
    finally:
        sys.path.remove(str(d))
        for name in mods.values():
            sys.modules.pop(name, None)


# --- the GPU model ------------------------------------------------------------------------


def _collective(op, lanes, group, vals, src):
    """(r, r2, defined) of each lane of `lanes` (a converged set of one warp
    executing `op` with `group` the lanes its mask names), as a GPU gives
    them; `defined` is False where CUDA leaves the result undefined (a
    shuffle from a lane outside the mask)."""
    out = {}
    members = [m for m in range(32) if group >> m & 1]
    for lane in lanes:
        v = int(vals[lane])
        r2, ok = 0, True
        if op.startswith("shfl"):
            s = {"shfl_down": lane + 1, "shfl_up": lane - 2, "shfl_xor": lane ^ 1, "shfl_idx": src}[op]
            if op in ("shfl_down", "shfl_up") and not 0 <= s < 32:
                r = v  # beyond the warp: the lane's own value
            elif group >> s & 1:
                r = int(vals[s])
            else:
                r, ok = v, False
        elif op == "ballot":
            r = sum(1 << m for m in members if vals[m] > 50)
        elif op == "all":
            r = int(all(vals[m] > 5 for m in members))
        elif op == "any":
            r = int(any(vals[m] > 90 for m in members))
        elif op == "eq":
            r = int(len({bool(vals[m] >= 0) for m in members}) == 1)
            r2 = int(len({bool(vals[m] > 50) for m in members}) == 1)
        elif op == "match_any":
            r = sum(1 << m for m in members if vals[m] % 4 == v % 4)
        elif op == "match_all":
            same = len({int(vals[m]) // 128 for m in members}) == 1
            r, r2 = (group, 1) if same else (0, 0)
        elif op == "syncwarp":
            r = v + 1
        elif op == "activemask":
            r = sum(1 << m for m in lanes)
        out[lane] = (r, r2, ok)
    return out


def _expected(placement, op, x_block, iters):
    """(r, r2, defined) per thread of one block."""
    n = len(x_block)
    cond, mask, src = PLACEMENTS[placement]
    r = np.full(n, INIT, dtype=np.int64)
    r2 = np.zeros(n, dtype=np.int64)
    defined = np.ones(n, dtype=bool)
    rounds = iters if placement == "loop" else 1
    if placement == "loop":
        r[:] = 0
    for k in range(rounds):
        for w0 in range(0, n, 32):
            ts = range(w0, min(w0 + 32, n))
            inside = [t - w0 for t in ts if eval(cond, {}, {"t": t, "lane": t % 32, "w": t // 32})]
            if placement == "high_half":
                inside = [lane for lane in range(len(ts)) if lane not in inside]
            if not inside:
                continue
            group = sum(1 << lane for lane in inside) if mask == "activemask" else mask
            vals = x_block[w0 : w0 + 32].astype(np.int64) + (k if placement == "loop" else 0)
            for lane, (a, b, ok) in _collective(op, inside, group, vals, src).items():
                if placement == "loop":
                    r[w0 + lane] += a
                    r2[w0 + lane] += b
                else:
                    r[w0 + lane], r2[w0 + lane] = a, b
                defined[w0 + lane] &= ok
    return r, r2, defined


def _i32(a):
    return (np.asarray(a, dtype=np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def _launch(frontend, kernel, args, block):
    if frontend == "device":
        import cuda.device as device
        import pydev

        device.launch(kernel, *args, grid=GRID, block=block, stream=pydev.default_stream())
    else:
        kernel[GRID, block](*args)


def _scheduler(frontend, kernel, args):
    """How the host runs the kernel: "barrier loops" or "coroutines"."""
    import pydev

    text = pydev.compile(kernel, list(args), target="host", stage="llvm")
    return "barrier loops" if "pydev.host_frames" in text else "coroutines"


# --- the tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("placement", list(PLACEMENTS))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("frontend", FRONTENDS)
def test_valid_placement_gives_the_gpu_result(generated, frontend, mode, placement, op, block):
    if block % 32 and placement in FULL_WARPS_ONLY:
        pytest.skip("a full mask in a partial warp is undefined on a GPU")
    kernel = getattr(generated[frontend], _name(frontend, mode, placement, op))
    rng = np.random.default_rng([SEED, block, len(placement), len(op), FRONTENDS.index(frontend)])
    x = rng.integers(0, 100, GRID * block, dtype=np.int32)
    out = np.full((GRID * block, 3), POISON, dtype=np.int32)
    iters = int(rng.integers(2, 5))
    _launch(frontend, kernel, (x, out, np.int32(iters)), block)
    for b in range(GRID):
        rows = slice(b * block, (b + 1) * block)
        r, r2, defined = _expected(placement, op, x[rows], iters)
        got = out[rows]
        where = f"{frontend} {mode} {placement} {op} block {block}, block index {b}"
        np.testing.assert_array_equal(got[defined, 0], _i32(r)[defined], err_msg=where)
        np.testing.assert_array_equal(got[defined, 1], _i32(r2)[defined], err_msg=where)
        # After the last barrier each thread reads another's r from shared memory.
        assert not (got[:, 0] == POISON).any() and not (got[:, 2] == POISON).any(), where
        np.testing.assert_array_equal(got[:, 2], got[::-1, 0], err_msg=where)


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_both_schedulers_are_covered(generated, frontend):
    x = np.zeros(64, np.int32)
    out = np.zeros((64, 3), np.int32)
    for mode, want in (("inline", "barrier loops"), ("func", "coroutines")):
        kernel = getattr(generated[frontend], _name(frontend, mode, "warp0_activemask", "shfl_down"))
        assert _scheduler(frontend, kernel, (x, out, np.int32(1))) == want, mode


def _exit_expected(case, x, block, limit):
    out = np.full((len(x), 3), POISON, dtype=np.int64)
    for b in range(GRID):
        base = b * block
        live = [t for t in range(block) if (t // 32 == 0 if case == "warp0_only" else base + t < limit)]
        n_live = len(live)
        for t in live:
            i = base + t
            xs = x[base : base + block].astype(np.int64)
            if case in ("early_return", "warp0_only"):
                out[i, 0] = xs[t] + xs[(t + 1) % n_live]
            elif case == "count":
                out[i, 0] = sum(xs[u] > 50 for u in live)
            elif case == "and":
                out[i, 0] = int(all(xs[u] >= 0 for u in live)) + 2 * int(all(xs[u] > 50 for u in live))
            elif case == "or":
                out[i, 0] = int(any(xs[u] > 90 for u in live)) + 2 * int(any(xs[u] > 500 for u in live))
    return _i32(out)


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("case", list(EXITS))
@pytest.mark.parametrize("mode", MODES)
def test_numba_threads_that_returned_do_not_hold_up_barriers(generated, mode, case, block):
    kernel = getattr(generated["numba"], f"numba_{mode}_exit_{case}")
    rng = np.random.default_rng([SEED, block, len(case), 31])
    x = rng.integers(0, 100, GRID * block, dtype=np.int32)
    out = np.full((GRID * block, 3), POISON, dtype=np.int32)
    limit = GRID * block - int(rng.integers(1, block - 1))  # the last block is partly out of range
    kernel[GRID, block](x, out, np.int32(limit))
    np.testing.assert_array_equal(out, _exit_expected(case, x, block, limit), err_msg=f"{mode} {case}")


@pytest.mark.parametrize("case", ["early_return", "warp0_only", "count"])
@pytest.mark.parametrize("mode", MODES)
def test_device_kernel_return_before_a_barrier_keeps_its_error(generated, mode, case):
    import pydev

    kernel = getattr(generated["device"], f"device_{mode}_exit_{case}")
    block = 64
    x = np.zeros(GRID * block, np.int32)
    out = np.full((GRID * block, 3), POISON, dtype=np.int32)
    with pytest.raises(pydev.LaunchError, match="deadlock.*every thread of a block must reach each barrier"):
        _launch("device", kernel, (x, out, np.int32(GRID * block - 5)), block)


def test_device_kernel_early_return_message_names_the_barrier(generated):
    import pydev

    kernel = generated["device"].device_inline_exit_early_return
    x = np.zeros(128, np.int32)
    out = np.full((128, 3), POISON, dtype=np.int32)
    with pytest.raises(pydev.LaunchError) as e:
        _launch("device", kernel, (x, out, np.int32(120)), 64)
    assert "did not all reach the same syncthreads (some returned, some waited at barrier 1)" in str(e.value)


DIVERGENT = {
    "device": """
import cuda.device as device


@device.kernel
def different_barriers(out):
    t = device.thread_idx.x
    if t < 32:
        device.syncthreads()
    else:
        device.syncthreads()
    out[t] = 1


@device.kernel
def stuck_shuffle(out):
    t = device.thread_idx.x
    v = 0
    if t % 32 < 16:
        v = device.shfl_down_sync(-1, t, 1)
    device.syncthreads()
    out[t] = v
""",
    "numba": """
from pydev.numba import cuda


@cuda.jit
def different_barriers(out):
    t = cuda.threadIdx.x
    if t < 32:
        cuda.syncthreads()
    else:
        cuda.syncthreads()
    out[t] = 1


@cuda.jit
def stuck_shuffle(out):
    t = cuda.threadIdx.x
    v = 0
    if t % 32 < 16:
        v = cuda.shfl_down_sync(0xFFFFFFFF, t, 1)
    cuda.syncthreads()
    out[t] = v
""",
}


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_invalid_patterns_are_reported(tmp_path, monkeypatch, frontend):
    """Threads at different barriers, and a shuffle whose mask names lanes
    that wait at a barrier, are deadlocks on a GPU too: reported by name,
    never hung."""
    import pydev

    (tmp_path / f"divergent_{frontend}.py").write_text(DIVERGENT[frontend])
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module(f"divergent_{frontend}")
    out = np.zeros(64, np.int32)
    with pytest.raises(pydev.LaunchError, match=r"did not all reach the same syncthreads \(some waited at barrier"):
        _launch(frontend, mod.different_barriers, (out,), 64)
    with pytest.raises(pydev.LaunchError, match="deadlock: 32 threads wait in warp operations whose mask names lanes"):
        _launch(frontend, mod.stuck_shuffle, (out,), 64)


def _ir_kernel(skip, early_return):
    """pydev.ir: warp 0 shuffles (activemask), then every thread meets at a
    barrier; with `early_return` threads 40.. return first."""
    from pydev import ir

    m = ir.Module()
    k = m.kernel("warp0", [ir.array(ir.si32, 1, "c")], exited_skip_barriers=skip)
    x = k.args[0]
    t = k.thread_id()
    if early_return:
        with k.if_(t >= 40):
            k.ret()
    with k.if_(t < 32):
        mask = k.ops.activemask(result=ir.warp_mask())
        v = x[t]
        x[t] = v + k.ops.shfl(mask, v, k.constant(1, ir.si32), kind="down", result=ir.si32)
    k.syncthreads()
    x[t] = x[t] + 1
    return str(m)


@pytest.mark.parametrize("skip", [False, True])
def test_pydev_ir_warp0_reduction_then_barrier(skip):
    import cuda.device as device
    import pydev

    program = pydev.Program(_ir_kernel(skip, early_return=False), kernel="warp0")
    x0 = np.random.default_rng(SEED).integers(-1000, 1000, 64, dtype=np.int32)
    x = x0.copy()
    device.launch(program, x, grid=1, block=64, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    want = x0 + 1
    want[:31] += x0[1:32]
    want[31] += x0[31]
    np.testing.assert_array_equal(x, want)


def test_pydev_ir_exited_skip_barriers_is_the_kernels_choice():
    import cuda.device as device
    import pydev

    x0 = np.random.default_rng(SEED + 1).integers(-1000, 1000, 64, dtype=np.int32)
    strict = pydev.Program(_ir_kernel(False, early_return=True), kernel="warp0")
    with pytest.raises(pydev.LaunchError, match=r"some returned, some waited at barrier"):
        device.launch(strict, x0.copy(), grid=1, block=64, stream=pydev.default_stream())
    gpu = pydev.Program(_ir_kernel(True, early_return=True), kernel="warp0")
    assert "pydev.exited_skip_barriers" in gpu.text
    x = x0.copy()
    device.launch(gpu, x, grid=1, block=64, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    want = x0.copy()
    want[:31] += x0[1:32]
    want[31] += x0[31]
    want[:40] += 1
    np.testing.assert_array_equal(x, want)
