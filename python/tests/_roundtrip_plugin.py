"""A pytest plugin (`-p _roundtrip_plugin`, used by test_program.py) that
checks the backend API's round trip on every kernel launch a test suite
makes: each `device.launch(kernel, *args)` on the host target is also run
as `pydev.Program(pydev.compile(kernel, args, stage="pydev"), kernel=name)`
from the same inputs, and the arrays both leave must be equal. The
original launch's results are what the test then sees. What happened to
each launch goes, one JSON object per line, to $PYDEV_ROUNDTRIP_LOG:
{"test", "kernel", "status": ok | differs | nondeterministic | skipped | error, "why"}."""

import json
import os

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _launch
from cuda.device import _kernel

_ORIGINAL = device.launch
_CURRENT = {"test": None}


def _log(kernel, status, why=""):
    with open(os.environ["PYDEV_ROUNDTRIP_LOG"], "a") as f:
        f.write(json.dumps({"test": _CURRENT["test"], "kernel": kernel, "status": status, "why": why}) + "\n")


def _views(args):
    """Writable NumPy views of the array arguments, or None when one has none."""
    views = []
    for a in args:
        if isinstance(a, (np.ndarray, pydev.DeviceArray)):
            views.append(np.asarray(a))
        elif hasattr(a, "__dlpack__"):
            try:
                views.append(np.from_dlpack(a))  # a host producer's memory
            except Exception:  # noqa: BLE001 - not host memory NumPy can view
                return None
        elif hasattr(a, "__cuda_array_interface__"):
            return None
    return views


def _snapshot(views):
    return [v.copy() for v in views]


def _values(v):
    """The bytes of an array's values (padding of structured elements left out)."""
    if v.dtype.fields:
        return b"".join(_values(v[n]) for n in v.dtype.names)
    return np.ascontiguousarray(v).tobytes()


def _restore(views, saved):
    for v, s in zip(views, saved):
        if v.flags.writeable:
            v[...] = s


def _same(a, b):
    return all(_values(x) == _values(y) for x, y in zip(a, b))


def launch(f, *args, grid, block, stream, shared=0):
    kernel = f
    while not isinstance(kernel, _kernel._Function) and callable(kernel) and hasattr(kernel, "__wrapped__"):
        kernel = kernel.__wrapped__
    if not isinstance(kernel, _kernel.Kernel) or pydev.active_target() != "host":
        return _ORIGINAL(f, *args, grid=grid, block=block, stream=stream, shared=shared)
    name = kernel.underlying.__code__.co_name
    views = _views(args)
    if views is None:
        _log(name, "skipped", "a foreign (DLPack/CAI-only) array argument: its memory has no NumPy view here")
        return _ORIGINAL(f, *args, grid=grid, block=block, stream=stream, shared=shared)
    before = _snapshot(views)
    result = _ORIGINAL(f, *args, grid=grid, block=block, stream=stream, shared=shared)  # raises as the test expects
    if stream is not None and hasattr(stream, "synchronize"):
        stream.synchronize()
    after = _snapshot(views)
    stats = dict(_launch.STATS)  # the suite's counters see its own launches only
    try:
        if any(a is None for a in args):
            _log(
                name,
                "skipped",
                "a None argument is no parameter of the IR function (device.launch skips it; a Program takes exactly its parameters)",
            )
            return result
        text = pydev.compile(kernel, list(args), target="host", stage="pydev")
        program = pydev.Program(text, kernel=name)
        _restore(views, before)
        _ORIGINAL(program, *args, grid=grid, block=block, stream=pydev.default_stream(), shared=shared)
        again = _snapshot(views)
        if _same(after, again):
            _log(name, "ok")
        else:
            # Is the kernel itself deterministic? Run the original again.
            _restore(views, before)
            _ORIGINAL(f, *args, grid=grid, block=block, stream=pydev.default_stream(), shared=shared)
            if _same(after, _snapshot(views)):
                _log(name, "differs", f"the Program's results differ from the kernel's (kernel IR:\n{text})")
            else:
                _log(name, "nondeterministic", "the kernel's own results differ from run to run (races or atomics)")
    except Exception as e:  # noqa: BLE001 - recorded, and the test file checks it
        _log(name, "error", f"{type(e).__name__}: {e}")
    finally:
        _restore(views, after)
        _launch.STATS.update(stats)
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _CURRENT["test"] = item.nodeid
    device.launch = launch


def pytest_runtest_teardown(item):
    device.launch = _ORIGINAL
