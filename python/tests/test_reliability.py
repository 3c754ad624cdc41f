"""Reliability (docs/reliability.md): Ctrl-C during host launches and cuda
synchronizes, buffer exports held for a launch, the DLPack exchange-API
table validated, faults on the (fake) GPU named, concurrent launches and
compiles from many threads, kernels that fail next to ones that do not.

Tests that need a signal, the fake driver or a fresh process run a script
in a child process (PYTHONPATH kept); the device code they run is defined
here, at module level, so that the child imports it."""

import array
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import cuda.device as device
import pydev

HERE = os.path.dirname(os.path.abspath(__file__))


# --- device code (also imported by the child processes) ----------------------------------


@device.kernel
def spin(out, n):
    """Runs until n is 0, which a launch never changes: endless for n > 0."""
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    x = 0
    while n > 0:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if x == -1:
            out[0] = 7  # never: keeps the loop from being removed
    out[i] = x


@device.kernel
def spin_barrier(out, n):
    """As spin, in a kernel with a block barrier (barrier loops)."""
    i = device.thread_idx.x
    device.syncthreads()
    x = 0
    while n > 0:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if x == -1:
            out[0] = 7
    out[i] = x


@device.kernel
def spin_warp(out, n):
    """As spin, after a warp shuffle (each thread a coroutine)."""
    i = device.thread_idx.x
    v = device.shfl_down_sync(-1, i, 1)
    x = 0
    while n > 0:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if x == -1:
            out[0] = 7
    out[i] = x + v


@device.kernel
def spin_print(out, n):
    """As spin, printing now and then (most of its time is in printf)."""
    i = device.thread_idx.x
    x = 0
    k = 0
    while n > 0:
        k += 1
        if k % 200000 == 0 and i == 0:
            print(k)
    out[i] = x + k


@device.kernel
def lcg(out, n):
    """n steps of a linear congruential generator, plus the thread index:
    out[i] - i is the same for every thread (and not foldable by LLVM)."""
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    x = 1
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    if i < out.size:
        out[i] = x + i


@device.kernel
def add1(a):
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    if i < a.size:
        a[i] = a[i] + 1


@device.kernel
def scale_add(out, x, k, c):
    i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
    if i < out.size:
        out[i] = x[i] * k + c


@device.kernel
def write_far(out, offset):
    """Writes far past the end of `out` (an invalid access on the host)."""
    i = device.thread_idx.x
    out[i + offset] = 1.0


@device.kernel
def diverge(out):
    """Only even threads reach the barrier: a deadlock on the host."""
    i = device.thread_idx.x
    if i % 2 == 0:
        device.syncthreads()
    out[i] = 1.0


def make_affine(k):
    """A kernel of its own for each k (the closure constant is compiled in)."""

    @device.kernel
    def affine(out, x):
        i = device.thread_idx.x + device.block_idx.x * device.block_dim.x
        if i < out.size:
            out[i] = x[i] * 3 + k

    return affine


def long_steps(arg, block, seconds=0.6):
    """Steps of `lcg` that keep a launch on `arg` busy about `seconds`."""
    device.launch(lcg, arg, 1, grid=1, block=block, stream=pydev.default_stream())  # compiled
    steps = 1_000_000
    while True:
        t = time.perf_counter()
        device.launch(lcg, arg, steps, grid=1, block=block, stream=pydev.default_stream())
        took = time.perf_counter() - t
        if took > seconds / 4 or steps >= 1 << 30:
            return min(int(steps * seconds / max(took, 1e-6)), (1 << 31) - 1)
        steps *= 8


# --- helpers ---------------------------------------------------------------------------------


def child_env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


# Children take Ctrl-C as an interactive Python does even when this process
# was started with SIGINT ignored (a background job, nohup, some CI runners):
# an ignored SIGINT is inherited, and Python then installs no handler.
SIGINT_DEFAULT = "import signal as _s; _s.signal(_s.SIGINT, _s.default_int_handler)\n"


def spawn(code, env):
    """A child running `code` with Python's SIGINT handler; killed after 180 s
    if it is still running, so that no test waits for ever."""
    p = subprocess.Popen(
        [sys.executable, "-c", SIGINT_DEFAULT + textwrap.dedent(code)],
        cwd=HERE,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    timer = threading.Timer(180, lambda: p.poll() is None and p.kill())
    timer.daemon = True
    timer.start()
    return p


def interrupt_child(code, env, wait_for="ready", delay=1.0, timeout=60):
    """Runs `code` in a child; once it prints `wait_for`, waits `delay`
    seconds and sends SIGINT. Returns (stdout, stderr, returncode)."""
    p = spawn(code, env)
    try:
        lines = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.strip() == wait_for:
                break
        assert lines and lines[-1].strip() == wait_for, (
            f"the child never got ready:\n{''.join(lines)}\n{p.stderr.read()}"
        )
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=timeout)
        return "".join(lines) + out, err, p.returncode
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


# --- Ctrl-C (item 2) -------------------------------------------------------------------------


ENDLESS = """
import numpy as np, time
import cuda.device as device, pydev
from test_reliability import {kernel} as k, add1
s = pydev.default_stream()
out = np.full(128, -1, np.int32)
device.launch(k, out, 0, grid=4, block=32, stream=s)   # compiled, and it ends
print("ready", flush=True)
t = time.time()
try:
    device.launch(k, out, 1, grid=4, block=32, stream=s)
    print("the endless kernel ended")
except KeyboardInterrupt:
    print("KeyboardInterrupt after %.1f s" % (time.time() - t), flush=True)
b = np.arange(1000, dtype=np.int32)
device.launch(add1, b, grid=8, block=128, stream=s)
assert (b == np.arange(1, 1001)).all(), b
print("second launch ok", flush=True)
"""


@pytest.mark.parametrize(
    "kernel,threads", [("spin", ""), ("spin", "1"), ("spin_barrier", ""), ("spin_warp", ""), ("spin_print", "")]
)
def test_ctrl_c_stops_an_endless_host_kernel(native, kernel, threads):
    """SIGINT during a host launch that never ends: KeyboardInterrupt at
    once (loop mode, one worker thread, barrier loops, coroutines, a kernel
    in printf most of the time), and the process launches correctly
    afterwards."""
    env = child_env(PYDEV_TARGET="host", **({"PYDEV_HOST_THREADS": threads} if threads else {}))
    out, err, rc = interrupt_child(ENDLESS.format(kernel=kernel), env)
    assert rc == 0, f"{out}\n{err}"
    assert "KeyboardInterrupt after" in out and "second launch ok" in out, f"{out}\n{err}"
    seconds = float(out.split("KeyboardInterrupt after ")[1].split()[0])
    assert seconds < 5, out


def test_ctrl_c_in_a_forked_child(native):
    """A process that launched, then forked: Ctrl-C stops an endless launch
    in the child too (its watchdog thread is started again there)."""
    code = """
    import os, sys, numpy as np
    import cuda.device as device, pydev
    from test_reliability import spin, add1
    s = pydev.default_stream()
    out = np.full(64, -1, np.int32)
    device.launch(spin, out, 0, grid=2, block=32, stream=s)   # compiled; the watchdog runs
    pid = os.fork()
    if pid == 0:
        print("ready", os.getpid(), flush=True)
        try:
            device.launch(spin, out, 1, grid=2, block=32, stream=s)
            print("the endless kernel ended", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt in the child", flush=True)
        b = np.arange(100, dtype=np.int32)
        device.launch(add1, b, grid=1, block=128, stream=s)
        print("child launch ok" if (b == np.arange(1, 101)).all() else "child launch wrong", flush=True)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))
    """
    p = spawn(code, child_env(PYDEV_TARGET="host"))
    child = None
    try:
        line = p.stdout.readline()
        assert line.startswith("ready"), f"{line}{p.stderr.read()}"
        child = int(line.split()[1])
        time.sleep(1.0)
        os.kill(child, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            if child is not None:  # the forked child too, or it spins on
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    assert p.returncode == 0 and "KeyboardInterrupt in the child" in out and "child launch ok" in out, f"{out}\n{err}"


def test_a_program_with_its_own_sigint_handler_keeps_it(native):
    """A SIGINT handler that does not raise still stops the launch (its
    outputs are incomplete), as a LaunchError saying so; the handler ran."""
    code = """
    import signal, numpy as np
    import cuda.device as device, pydev
    from test_reliability import spin
    seen = []
    signal.signal(signal.SIGINT, lambda *a: seen.append(1))
    s = pydev.default_stream()
    out = np.full(64, -1, np.int32)
    device.launch(spin, out, 0, grid=2, block=32, stream=s)
    print("ready", flush=True)
    try:
        device.launch(spin, out, 1, grid=2, block=32, stream=s)
    except pydev.LaunchError as e:
        print("LaunchError:", e, "handler ran:", seen == [1], flush=True)
    """
    out, err, rc = interrupt_child(code, child_env(PYDEV_TARGET="host"))
    assert rc == 0, f"{out}\n{err}"
    assert (
        "LaunchError: kernel 'spin' was interrupted by SIGINT before it finished" in out and "handler ran: True" in out
    ), out


# --- buffer exports held for a launch (item 3) -----------------------------------------------


def _address(buf):
    a = np.frombuffer(buf, np.uint8)
    address = a.ctypes.data
    del a  # the export NumPy held is released: only pydev holds one now
    return address


class IntBytes(bytearray):
    """A bytearray that is also an array of int32 (`__array_interface__`
    with the address of its own bytes): an argument whose memory moves when
    it is resized, unless its buffer is exported."""

    @property
    def __array_interface__(self):
        return {"shape": (len(self) // 4,), "typestr": "<i4", "data": (_address(self), False), "version": 3}


class IntArray(array.array):
    @property
    def __array_interface__(self):
        return {"shape": (len(self),), "typestr": "<i4", "data": (self.buffer_info()[0], False), "version": 3}


@pytest.mark.parametrize(
    "make", [lambda n: IntBytes(4 * n), lambda n: IntArray("i", [0] * n)], ids=["bytearray", "array.array"]
)
def test_an_argument_cannot_be_resized_while_a_launch_runs(native, host_target, make):
    """Another thread resizing a bytearray / array.array argument during a
    long launch gets BufferError (the launch holds the buffer export), and
    the kernel's writes land in the argument."""
    n = 64
    buf = make(n)
    n = len(np.asarray(buf))
    steps = long_steps(make(n), n)  # compiled for its type, and timed
    started, outcome = threading.Event(), []

    def resize():
        started.wait()
        time.sleep(0.05)
        try:
            buf.extend(b"\0" * (1 << 22) if isinstance(buf, bytearray) else [0] * (1 << 20))
            outcome.append("resized")
        except BufferError as e:
            outcome.append(e)

    t = threading.Thread(target=resize)
    t.start()
    began = time.time()
    started.set()
    device.launch(lcg, buf, steps, grid=1, block=n, stream=pydev.default_stream())
    took = time.time() - began
    t.join()
    assert len(outcome) == 1 and isinstance(outcome[0], BufferError), (outcome, took)
    got = np.frombuffer(bytes(buf), np.uint8) if isinstance(buf, bytearray) else np.frombuffer(buf.tobytes(), np.int32)
    ref = np.zeros(len(got), got.dtype)  # NumPy reads a bytearray as uint8 (its buffer)
    device.launch(lcg, ref, steps, grid=1, block=len(got), stream=pydev.default_stream())
    assert (got == ref).all() and len(set((ref - np.arange(len(ref), dtype=ref.dtype)).tolist())) == 1, (got, ref)
    # after the launch the argument resizes again
    buf.extend(b"\0" * 8 if isinstance(buf, bytearray) else [0, 0])


def test_the_fast_path_holds_numpy_buffers_for_the_launch(native, host_target):
    """A NumPy argument on the fast path: its export is held while the
    kernel runs, so resizing it (refcheck) is refused meanwhile."""
    n = 64
    a = np.zeros(n, np.int32)
    s = pydev.default_stream()
    for _ in range(2):
        device.launch(lcg, a, 10, grid=1, block=n, stream=s)
    steps = long_steps(a, n)
    fast = pydev.stats()["fast_launches"]
    started, outcome = threading.Event(), []

    def resize():
        started.wait()
        time.sleep(0.05)
        try:
            a.resize(1 << 20)
            outcome.append("resized")
        except (ValueError, BufferError) as e:
            outcome.append(e)

    t = threading.Thread(target=resize)
    t.start()
    started.set()
    device.launch(lcg, a, steps, grid=1, block=n, stream=s)
    t.join()
    assert pydev.stats()["fast_launches"] == fast + 1
    assert len(outcome) == 1 and not isinstance(outcome[0], str), outcome
    assert a.shape == (n,) and (a - np.arange(n) == a[0]).all(), a


# --- the cuda target on the fake driver (items 2, 3, 6) --------------------------------------

from test_fake_driver import PRELUDE, fake_driver, prepend, run  # noqa: E402,F401  (fixtures)


def fake_env(fake_driver, tmp_path):
    env = child_env(
        LD_LIBRARY_PATH=prepend(fake_driver, os.environ.get("LD_LIBRARY_PATH")), PYDEV_CACHE_DIR=str(tmp_path / "cache")
    )
    for k in ("PYDEV_TARGET", "PYDEV_ARCH", "PYDEV_CACHE"):
        env.pop(k, None)
    return env


def test_ctrl_c_during_a_cuda_synchronize(fake_driver, tmp_path):
    """A stream whose work never ends (the fake driver keeps it busy):
    Stream.synchronize(), copy_to_host(), to_device() and a launch waiting
    for a pydev.Stream's oldest fence poll the driver and raise
    KeyboardInterrupt on SIGINT; once the work is done all work."""
    code = PRELUDE + textwrap.dedent("""
    s = pydev.create_stream()
    x = pydev.to_device(rng.random(100, dtype=np.float32))
    out = pydev.device_array(100, np.float32)
    device.launch(kernels.saxpy, 2.0, x, x, out, grid=1, block=100, stream=s)
    fakecuda.LIB.fakecuda_busy.argtypes = [ctypes.c_double]
    fakecuda.LIB.fakecuda_busy(1e6)           # the kernel "runs" for days
    print("ready", flush=True)
    try:
        s.synchronize()
        print("synchronize returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt in synchronize", flush=True)
    print("ready", flush=True)
    try:
        out.copy_to_host()
        print("copy returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt in copy_to_host", flush=True)
    print("ready", flush=True)
    try:
        pydev.to_device(np.ones(100, np.float32))
        print("to_device returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt in to_device", flush=True)
    from pydev import _streams
    launches = (_streams.MAX_FENCES + 1) * (_native.get().STREAM_GENERATION + 1)  # the last waits for a fence
    print("ready", flush=True)
    try:
        for _ in range(launches):
            device.launch(kernels.saxpy, 2.0, x, x, out, grid=1, block=100, stream=s)
        print("launches returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt in a launch waiting for a fence", flush=True)
    fakecuda.LIB.fakecuda_busy(0.0)
    s.synchronize()
    assert out.copy_to_host().shape == (100,)
    device.launch(kernels.saxpy, 3.0, x, x, out, grid=1, block=100, stream=s)
    s.synchronize()
    print("usable afterwards", flush=True)
    """)
    code = code.replace("import gc, struct", "import gc, struct, ctypes")
    env = fake_env(fake_driver, tmp_path)
    p = spawn(code, env)
    try:
        lines = []
        for _ in range(4):
            while True:
                line = p.stdout.readline()
                assert line, f"{''.join(lines)}\n{p.stderr.read()}"
                lines.append(line)
                if line.strip() == "ready":
                    break
            time.sleep(0.5)
            p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    out = "".join(lines) + out
    assert p.returncode == 0, f"{out}\n{err}"
    assert "KeyboardInterrupt in synchronize" in out and "KeyboardInterrupt in copy_to_host" in out, out
    assert "KeyboardInterrupt in to_device" in out and "usable afterwards" in out, out
    assert "KeyboardInterrupt in a launch waiting for a fence" in out, out


def test_the_exchange_api_table_must_be_a_capsule(run):
    """DLPack 1.3 publishes `__dlpack_c_exchange_api__` as a capsule named
    "dlpack_exchange_api": an int (even the address of a good table), a
    capsule of another name, or a table older than 1.2 is not called; the
    launch exports through `__dlpack__` and runs."""
    run("""
        import ctypes
        import dlpack_exchange
        from dlpack_exchange import exchange_type
        n = 32
        s = pydev.create_stream()
        for how in ("address", "garbage", "wrong name", "old"):
            T = exchange_type("T" + how.replace(" ", "_"))
            table = dlpack_exchange._keep[-1]
            if how == "address":
                T.__dlpack_c_exchange_api__ = ctypes.addressof(table)
            elif how == "garbage":
                T.__dlpack_c_exchange_api__ = 8
            elif how == "wrong name":
                name = ctypes.create_string_buffer(b"not_dlpack_exchange_api")
                dlpack_exchange._keep.append(name)
                T.__dlpack_c_exchange_api__ = dlpack_exchange._CapsuleNew(ctypes.addressof(table), ctypes.addressof(name), None)
            else:
                table.version.minor = 1
            x, y = (T(pydev.to_device(rng.random(n, dtype=np.float32))) for _ in range(2))
            out = T(pydev.device_array(n, np.float32))
            for k in range(3):
                device.launch(kernels.saxpy, float(k), x, y, out, grid=1, block=n, stream=s)
            assert T.exports == 0 and T.dunder >= 9, (how, T.exports, T.dunder)  # __dlpack__ at every launch
            l = fakecuda.launches()[-1]
            assert [l.descriptor(i) for i in (1, 2, 3)] == [(a.arr._ptr, (n,), (1,)) for a in (x, y, out)]
        s.synchronize()
    """)


def test_a_fault_on_the_gpu_names_the_kernel_and_says_the_context_is_lost(run):
    """After a kernel faults (the fake driver's sticky
    CUDA_ERROR_ILLEGAL_ADDRESS), synchronize, the next launch of another
    kernel and every copy raise pydev.LaunchError naming the kernel that
    was launched last on the stream, saying the context is unusable and
    what to do."""
    run("""
        n = 64
        s = pydev.create_stream()
        x = pydev.to_device(rng.random(n, dtype=np.float32))
        out = pydev.device_array(n, np.float32)
        device.launch(kernels.vector_add, out, x, x, grid=1, block=n, stream=s)
        s.synchronize()
        fakecuda.LIB.fakecuda_fault_next_launch(700)
        device.launch(kernels.saxpy, 2.0, x, x, out, grid=1, block=n, stream=s)   # "faults" on the GPU
        errors = []
        for what in ("synchronize", "launch", "load", "copy", "allocate"):
            try:
                if what == "synchronize":
                    s.synchronize()
                elif what == "launch":
                    device.launch(kernels.vector_add, out, x, x, grid=1, block=n, stream=s)
                elif what == "load":  # a kernel not loaded before the fault
                    device.launch(kernels.scaled, out, x, 2.0, grid=1, block=n, stream=s)
                elif what == "copy":
                    out.copy_to_host()
                else:
                    pydev.to_device(np.ones(4, np.float32))
            except pydev.LaunchError as e:
                errors.append((what, str(e)))
            else:
                raise AssertionError(what + " did not fail")
        for what, e in errors:
            assert "kernel 'saxpy'" in e and "CUDA_ERROR_ILLEGAL_ADDRESS" in e, (what, e)
            assert "unusable" in e and "restart the process" in e and "PYDEV_BOUNDSCHECK=1" in e, (what, e)
        assert "the last launched on stream" in errors[0][1], errors[0]
        print(errors[0][1])
    """)


# --- concurrency (item 4) --------------------------------------------------------------------


def run_threads(n, work):
    """Runs work(t) on n threads started together; re-raises the first error."""
    errors, barrier = [], threading.Barrier(n)

    def body(t):
        try:
            barrier.wait()
            work(t)
        except BaseException as e:  # noqa: BLE001  (reported below)
            errors.append((t, e))

    threads = [threading.Thread(target=body, args=(t,)) for t in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=600)
    assert not any(th.is_alive() for th in threads), "a thread hung"
    if errors:
        raise AssertionError(f"thread {errors[0][0]} failed: {errors[0][1]!r}") from errors[0][1]


def test_eight_threads_compile_and_launch_different_kernels_on_the_host(native, host_target):
    """8 Python threads, each with its own kernel (compiled concurrently,
    for two argument types) and its own stream, launching 25 times with
    fixed-seed inputs; every result checked."""
    kernels_ = [make_affine(100 + t) for t in range(8)]

    def work(t):
        rng = np.random.default_rng(1000 + t)
        s = pydev.create_stream()
        k = kernels_[t]
        for it in range(25):
            n = int(rng.integers(1, 3000))
            if it % 2:
                x = rng.integers(-1000, 1000, n).astype(np.int32)
                out = np.full(n, -7777777, np.int32)
            else:
                x = rng.random(n, dtype=np.float32)
                out = np.full(n, np.nan, np.float32)
            device.launch(k, out, x, grid=(n + 127) // 128, block=128, stream=s)
            s.synchronize()
            expect = x * 3 + (100 + t)
            assert out.dtype == x.dtype and np.allclose(out, expect, rtol=1e-6, atol=1e-4), (t, it, out[:4], expect[:4])

    run_threads(8, work)


def test_the_gil_is_released_while_compiling(native, host_target):
    """Another Python thread keeps running while a kernel compiles."""
    k = make_affine(4242)
    ticks, done = [0], threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    x = np.arange(100, dtype=np.float64)
    out = np.full(100, np.nan, np.float64)
    t.start()
    time.sleep(0.05)
    before, start = ticks[0], time.perf_counter()
    compiles = pydev.stats()["compiles"]
    device.launch(k, out, x, grid=1, block=128, stream=pydev.default_stream())
    took, during = time.perf_counter() - start, ticks[0] - before
    done.set()
    t.join()
    assert pydev.stats()["compiles"] == compiles + 1
    assert (out == x * 3 + 4242).all()
    # the other thread ticked for most of the compile (1 ms sleeps)
    assert during >= 0.3 * took / 0.0015, (during, took)


def test_a_kernel_that_fails_leaves_the_other_threads_running(native, host_target):
    """While two threads launch kernels that fail on the host (a write far
    out of bounds, a barrier some threads never reach), six others launch
    correct kernels: theirs finish with correct results, the failing ones
    raise LaunchError naming their kernel, and the process goes on."""

    def work(t):
        rng = np.random.default_rng(77 + t)
        s = pydev.create_stream()
        for it in range(6):
            if t == 0:
                out = np.zeros(32, np.float32)
                with pytest.raises(pydev.LaunchError, match="kernel 'write_far'.*invalid memory access"):
                    device.launch(write_far, out, np.int64(1 << 40), grid=1, block=32, stream=s)
            elif t == 1:
                out = np.zeros(64, np.float32)
                with pytest.raises(pydev.LaunchError, match="kernel 'diverge'.*deadlock"):
                    device.launch(diverge, out, grid=1, block=64, stream=s)
            else:
                n = 5000
                x = rng.random(n, dtype=np.float32)
                out = np.full(n, np.nan, np.float32)
                device.launch(
                    scale_add, out, x, np.float32(t), np.float32(it), grid=(n + 255) // 256, block=256, stream=s
                )
                assert np.allclose(out, x * t + it, rtol=1e-6, atol=1e-5), (t, it)

    run_threads(8, work)
    out = np.zeros(10, np.int32)
    device.launch(add1, out, grid=1, block=32, stream=pydev.default_stream())
    assert (out == 1).all()


def test_eight_threads_on_the_cuda_target_fake_driver(run):
    """8 threads compile and launch their own kernels on their own cuda
    streams (the fake driver records every launch): each launch reached the
    driver on its thread's stream with its thread's arguments."""
    run("""
        import threading
        from test_reliability import make_affine, run_threads
        ks = [make_affine(500 + t) for t in range(8)]
        streams = [pydev.create_stream() for _ in range(8)]
        arrays = [(pydev.to_device(np.arange(256, dtype=np.float32) + t), pydev.device_array(256, np.float32)) for t in range(8)]
        def work(t):
            x, out = arrays[t]
            for it in range(20):
                device.launch(ks[t], out, x, grid=2, block=128, stream=streams[t])
            streams[t].synchronize()
        run_threads(8, work)
        launches = fakecuda.launches()
        assert len(launches) == 160, len(launches)
        for t in range(8):
            mine = [l for l in launches if l.stream == streams[t].handle]
            assert len(mine) == 20, (t, len(mine))
            x, out = arrays[t]
            for l in mine:
                assert l.kernel == mine[0].kernel and l.grid == (2, 1, 1) and l.block == (128, 1, 1)
                assert l.descriptor(0) == (out._ptr, (256,), (1,)) and l.descriptor(1) == (x._ptr, (256,), (1,)), (t, l.descriptor(0))
        assert len({l.kernel for l in launches}) >= 1
        assert pydev.stats()["fast_launches"] >= 8 * 18
    """)


# --- environment variables -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "0", "-2", "1.5"])
def test_a_bad_pydev_host_threads_is_an_error_naming_it(native, host_target, monkeypatch, value):
    out = np.zeros(8, np.int32)
    device.launch(add1, out, grid=1, block=8, stream=pydev.default_stream())
    monkeypatch.setenv("PYDEV_HOST_THREADS", value)
    with pytest.raises(
        pydev.LaunchError,
        match=f"kernel 'add1': PYDEV_HOST_THREADS must be a positive number of worker threads, got '{value}'",
    ):
        device.launch(add1, out, grid=1, block=8, stream=pydev.default_stream())
    monkeypatch.setenv("PYDEV_HOST_THREADS", "3")
    device.launch(add1, out, grid=4, block=8, stream=pydev.default_stream())
    assert (out == [2] * 8).all()


def test_a_bad_pydev_arch_and_target_are_errors(native, monkeypatch):
    from pydev import _launch

    monkeypatch.setenv("PYDEV_ARCH", "gpu9000")
    with pytest.raises(ValueError, match="PYDEV_ARCH must look like sm_90, got 'gpu9000'"):
        _launch.cuda_arch()
    monkeypatch.setenv("PYDEV_TARGET", "tpu")
    with pytest.raises(ValueError, match="PYDEV_TARGET must be 'cuda' or 'host'"):
        pydev.active_target()


def test_pydev_cache_0_writes_nothing(native, host_target, monkeypatch, tmp_path):
    from pydev import _cache

    monkeypatch.setenv("PYDEV_CACHE", "0")
    k = make_affine(31337)
    out = np.zeros(16, np.float32)
    device.launch(k, out, np.ones(16, np.float32), grid=1, block=16, stream=pydev.default_stream())
    assert (out == 31340).all() and _cache.entries() == [] and not (tmp_path / "cache").exists()


def test_pydev_mlir_timing_reports_every_pass_of_each_compile(native, tmp_path):
    # The report comes from the compiling process (warm caches), one per
    # pipeline run, on standard error; without the variable, none.
    code = """
        import pydev, kernels
        for target in ("sm_90", "host"):
            assert pydev.compile(kernels.vector_add, "float32[::1], float32[::1], float32[::1]", target=target, stage="llvm")
    """
    timed = spawn(code, child_env(PYDEV_MLIR_TIMING="1", PYDEV_CACHE="0"))
    out, err = timed.communicate()
    assert timed.returncode == 0, err
    reports = err.split("Execution time report")[1:]
    assert len(reports) == 2, err
    assert "pydev-lower-arrays" in reports[0] and "ConvertGpuOpsToNVVMOps" in reports[0], reports[0]
    assert "pydev-lower-simt-host" in reports[1], reports[1]
    quiet = spawn(code, child_env(PYDEV_MLIR_TIMING="0", PYDEV_CACHE="0"))
    out, err = quiet.communicate()
    assert quiet.returncode == 0 and "Execution time report" not in err, err


# PYDEV_BOUNDSCHECK=1 on cuda compiles device-side checks (it used to warn
# that it checked on the host only): test_boundscheck_cuda.py.
