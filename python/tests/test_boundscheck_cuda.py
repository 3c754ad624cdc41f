"""PYDEV_BOUNDSCHECK=1 on the cuda target (issue 19, item 6): the kernels
check every index on the GPU (pydev-cuda-boundscheck), the first failing
thread records kind, index, extent, thread, block and file:line in the
module's error buffer and exits, and the runtime raises pydev.LaunchError
when the stream synchronizes (runtime/src/cuda_check.rs).

Without a GPU: the PTX (ptxas for sm_70/80/90, unchanged without the
option), and the synchronize path on test/fakecuda, where kernels do not
run, so the test writes the record a failing thread would write into the
fake's copy of the module global. With a GPU: a real out-of-bounds write."""

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuda.device as device
import pydev
from toolchain import ptxas

from conftest import gpu_available

HERE = os.path.dirname(os.path.abspath(__file__))


@device.kernel
def shift(out, x):
    i = device.tid(1)
    out[i] = x[i] + 1  # the store


@device.kernel
def plain(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i] * 2


def line_of(tag):
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, 1) if line.rstrip().endswith(f"# {tag}"))


SIG = "float32[::1], float32[::1]"


def ptx(kernel, chip="sm_90"):
    return pydev.compile(kernel, SIG, target=chip, stage="ptx")


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv("PYDEV_BOUNDSCHECK", raising=False)
    monkeypatch.delenv("PYDEV_LINEINFO", raising=False)


@pytest.mark.parametrize("chip", ["sm_70", "sm_80", "sm_90"])
def test_checked_ptx_assembles(chip, monkeypatch, tmp_path):
    exe = ptxas(chip)
    if not exe:
        pytest.skip(f"no ptxas for {chip}")
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    text = ptx(shift, chip)
    assert ".visible .global .align 8 .b8 __pydev_error[64];" in text
    assert "__pydev_error_locations" in text and "atom" in text and "exit;" in text
    src = tmp_path / "k.ptx"
    src.write_text(text)
    r = subprocess.run(
        [exe, f"-arch={chip}", str(src), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr


def locations(text):
    """The NUL-separated texts of __pydev_error_locations in PTX `text`."""
    m = re.search(r"__pydev_error_locations\[(\d+)\] = \{([^}]*)\}", text)
    data = bytes(int(b) for b in m.group(2).split(",")).ljust(int(m.group(1)), b"\0")
    return data.rstrip(b"\0").decode().split("\0")


def test_the_location_table_names_each_access():
    os.environ["PYDEV_BOUNDSCHECK"] = "1"
    try:
        table = locations(ptx(shift))
    finally:
        del os.environ["PYDEV_BOUNDSCHECK"]
    line = line_of("the store")
    assert all(t.startswith(f"{__file__}:{line}:") for t in table), table
    assert len(table) == 2, table  # the load of x[i] and the store to out[i]


def test_without_boundscheck_the_ptx_has_no_checks(monkeypatch):
    plain_text = ptx(plain)
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "0")
    assert ptx(plain) == plain_text
    for word in ("__pydev_error", "atom", "exit;", "membar"):
        assert word not in plain_text, word
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    checked = ptx(plain)
    assert checked != plain_text and "__pydev_error" in checked


def test_pydev_boundscheck_on_cuda_compiles_checks_without_a_warning():
    """Before device-side checks, PYDEV_BOUNDSCHECK=1 on cuda warned that it
    checked on the host only; now it compiles the checks, silently."""
    code = """
    import warnings
    import pydev
    from test_boundscheck_cuda import shift, SIG
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "__pydev_error" in pydev.compile(shift, SIG, target="sm_90", stage="ptx")
    print("ok")
    """
    env = dict(os.environ, PYDEV_BOUNDSCHECK="1", PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=HERE, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0 and "ok" in r.stdout, f"{r.stdout}\n{r.stderr}"


# --- the synchronize path on the fake driver ------------------------------------------------

from test_fake_driver import fake_driver, run  # noqa: E402,F401  (fixtures)

RECORD = """
import ctypes, struct
from test_boundscheck_cuda import shift, plain, line_of, locations, SIG
LIB = fakecuda.LIB
LIB.fakecuda_module_global.restype = ctypes.c_uint64
LIB.fakecuda_module_global.argtypes = [ctypes.c_char_p]

def table():
    return locations(pydev.compile(shift, SIG, target="sm_90", stage="ptx"))

def fail(kind, axis, loc, thread, block, index, extent):
    # What the first failing thread writes (pydev_passes::error_record).
    at = LIB.fakecuda_module_global(b"__pydev_error")
    assert at, "no __pydev_error in the loaded module"
    words = [1, 1, kind, axis, loc, *thread, *block, 0]
    ctypes.memmove(at, struct.pack("<12I2q", *words, index, extent), 64)

def buffer():
    return ctypes.string_at(LIB.fakecuda_module_global(b"__pydev_error"), 64)
"""


def test_a_recorded_failure_is_a_launch_error_at_synchronize(run):
    out = run(
        RECORD
        + textwrap.dedent("""
        n = 100
        s = pydev.create_stream()
        x = pydev.to_device(rng.random(128, dtype=np.float32))
        y = pydev.to_device(np.full(n, np.nan, np.float32))
        device.launch(shift, y, x, grid=1, block=128, stream=s)
        locs = table()
        store = locs.index("%s:%d:5" % (shift.underlying.__code__.co_filename, line_of("the store")))
        fail(2, 0, store, (100, 0, 0), (0, 0, 0), 100, 100)
        try:
            s.synchronize()
        except pydev.LaunchError as e:
            msg = str(e)
        else:
            raise AssertionError("synchronize did not raise")
        print(msg)
        assert msg.startswith("kernel 'shift' failed on the GPU: index 100 is out of bounds for axis 0 of extent 100 (a store) at "), msg
        assert "test_boundscheck_cuda.py:%d:5 " % line_of("the store") in msg, msg
        assert "(thread (100, 0, 0) of block (0, 0, 0))" in msg and "the CUDA context is still usable" in msg, msg
        # Read once: the buffer is reset, the next synchronize is clean and
        # the context works.
        assert buffer() == bytes(64)
        s.synchronize()
        device.launch(shift, y, x, grid=1, block=100, stream=s)
        s.synchronize()
        # copy_to_host waits for the stream too: a failure recorded by the
        # last launch is raised there (a load this time, axis 0, block 3).
        device.launch(shift, y, x, grid=1, block=128, stream=s)
        load = next(i for i, t in enumerate(locs) if i != store)
        fail(1, 0, load, (7, 0, 0), (3, 0, 0), -1, 128)
        try:
            y.copy_to_host()
        except pydev.LaunchError as e:
            msg = str(e)
        else:
            raise AssertionError("copy_to_host did not raise")
        assert "index -1 is out of bounds for axis 0 of extent 128 (a load)" in msg and "(thread (7, 0, 0) of block (3, 0, 0))" in msg, msg
        assert y.copy_to_host().shape == (n,)
        print("ok")
    """),
        PYDEV_BOUNDSCHECK="1",
    )
    assert out.rstrip().endswith("ok"), out


def test_only_the_streams_that_launched_the_kernel_read_its_buffer(run):
    out = run(
        RECORD
        + textwrap.dedent("""
        s, t = pydev.create_stream(), pydev.create_stream()
        x = pydev.to_device(rng.random(128, dtype=np.float32))
        y = pydev.to_device(np.full(100, np.nan, np.float32))
        device.launch(shift, y, x, grid=1, block=128, stream=t)
        fail(2, 0, 0, (101, 0, 0), (0, 0, 0), 101, 100)
        s.synchronize()                      # nothing of shift ran on s
        assert buffer()[:4] == struct.pack("<I", 1)
        try:
            t.synchronize()
        except pydev.LaunchError as e:
            assert "kernel 'shift'" in str(e) and "index 101" in str(e), e
        else:
            raise AssertionError("t.synchronize did not raise")
        # A record still being written (claimed, not ready) is left for later.
        device.launch(shift, y, x, grid=1, block=128, stream=s)
        at = LIB.fakecuda_module_global(b"__pydev_error")
        ctypes.memmove(at, struct.pack("<I", 1), 4)
        s.synchronize()
        print("ok")
    """),
        PYDEV_BOUNDSCHECK="1",
    )
    assert out.rstrip().endswith("ok"), out


def test_kernels_without_checks_never_read_a_buffer(run):
    # No PYDEV_BOUNDSCHECK: no error buffer in the module, nothing read at
    # synchronize (the fake would return the global's address if one existed).
    out = run(
        """
        import ctypes
        from test_boundscheck_cuda import plain
        fakecuda.LIB.fakecuda_module_global.restype = ctypes.c_uint64
        s = pydev.create_stream()
        x = pydev.to_device(rng.random(64, dtype=np.float32))
        y = pydev.to_device(np.full(64, np.nan, np.float32))
        device.launch(plain, y, x, grid=1, block=64, stream=s)
        s.synchronize()
        assert fakecuda.LIB.fakecuda_module_global(b"__pydev_error") == 0
        print("ok")
    """,
        PYDEV_BOUNDSCHECK="0",
    )
    assert out.rstrip().endswith("ok"), out


def test_boundscheck_is_part_of_the_cache_keys(run):
    # The same kernel and types with and without checks are two programs,
    # in memory and on disk.
    out = run(
        """
        import os
        from test_boundscheck_cuda import plain
        s = pydev.create_stream()
        x = pydev.to_device(rng.random(64, dtype=np.float32))
        y = pydev.to_device(np.full(64, np.nan, np.float32))
        device.launch(plain, y, x, grid=1, block=64, stream=s)
        plain._dispatch.clear() if hasattr(plain, "_dispatch") else None
        os.environ["PYDEV_BOUNDSCHECK"] = "1"
        device.launch(plain, y, x, grid=1, block=64, stream=s)
        s.synchronize()
        import ctypes
        fakecuda.LIB.fakecuda_module_global.restype = ctypes.c_uint64
        assert fakecuda.LIB.fakecuda_module_global(b"__pydev_error") != 0
        print(pydev.stats()["compiles"])
    """,
        PYDEV_BOUNDSCHECK="0",
    )
    assert out.rstrip().endswith("2"), out


def test_a_program_with_checks_is_another_program(monkeypatch):
    # pydev.Program's in-memory caches (per object and per text) key the
    # checks too: the same IR text compiled without them first is not
    # served once PYDEV_BOUNDSCHECK=1 (host target: the check fires).
    import kernels

    monkeypatch.setenv("PYDEV_TARGET", "host")
    monkeypatch.setenv("PYDEV_CACHE", "0")
    text = pydev.compile(kernels.overrun, "int32[::1]", target="host", stage="pydev")
    big = np.full(64, -7, np.int32)
    device.launch(pydev.Program(text, kernel="overrun"), big, grid=1, block=64, stream=pydev.default_stream())
    assert (big == 1).all()
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    out = np.full(40, -7, np.int32)
    with pytest.raises(pydev.LaunchError, match=r"index 40 is out of bounds for an axis of extent 40"):
        device.launch(pydev.Program(text, kernel="overrun"), out, grid=1, block=64, stream=pydev.default_stream())


# --- on a GPU ---------------------------------------------------------------------------------


@pytest.mark.skipif(not gpu_available(), reason="no CUDA driver or device (pydev._pydev.cuda_status()[0] is False)")
def test_an_out_of_bounds_write_on_the_gpu_names_kernel_and_line(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    rng = np.random.default_rng(11)
    xs = rng.random(128, dtype=np.float32)
    x = pydev.to_device(xs)
    y = pydev.to_device(np.full(100, np.nan, np.float32))
    s = pydev.create_stream()
    device.launch(shift, y, x, grid=1, block=128, stream=s)
    with pytest.raises(pydev.LaunchError) as e:
        s.synchronize()
    msg = str(e.value)
    m = re.search(
        r"index (\d+) is out of bounds for axis 0 of extent 100 \(a store\) at (.*?) \(thread \((\d+), 0, 0\) of block \(0, 0, 0\)\)",
        msg,
    )
    assert msg.startswith("kernel 'shift' failed on the GPU") and m, msg
    assert m.group(1) == m.group(3) and 100 <= int(m.group(1)) < 128, msg
    assert m.group(2).startswith(f"{__file__}:{line_of('the store')}:"), msg
    # The threads in bounds wrote; the context is usable.
    np.testing.assert_array_equal(y.copy_to_host(), xs[:100] + 1)
    z = pydev.to_device(np.full(128, np.nan, np.float32))
    device.launch(plain, z, x, grid=1, block=128, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(z.copy_to_host(), xs * 2)
