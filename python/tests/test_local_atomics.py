"""Atomics on local memory (issue 14): pydev-lower-atomics makes them plain
load/op/store, since PTX defines `atom` only on .global and .shared. Every
AtomicInterface method on a thread's local arrays returns what the spec says
(fetch ops and cas the old value) and leaves the right value behind.

Runs on the host target; on a machine with a GPU,
  PYDEV_CONFORMANCE_TARGET=cuda python3 -m pytest python/tests/test_local_atomics.py
runs it there."""

import os

import numpy as np
import pytest

pytest.importorskip("pydev._pydev")

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402

import local_atomics_kernels as K  # noqa: E402

TARGET = os.environ.get("PYDEV_CONFORMANCE_TARGET", "host")
if TARGET == "cuda" and not pydev._native.cuda_status()[0]:
    pytest.skip(f"PYDEV_CONFORMANCE_TARGET=cuda, but no GPU: {pydev._native.cuda_status()[1]}", allow_module_level=True)


@pytest.fixture(autouse=True)
def target(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", TARGET)


def launch(kernel, *args, block):
    s = pydev.default_stream()
    if TARGET == "cuda":
        on_device = [pydev.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
        device.launch(kernel, *on_device, grid=1, block=block, stream=s)
        s.synchronize()
        for a, d in zip(args, on_device):
            if isinstance(a, np.ndarray) and a.flags.writeable:
                a[...] = d.copy_to_host()
        return
    device.launch(kernel, *args, grid=1, block=block, stream=s)
    s.synchronize()


def expected_ints(i):
    # The int32 object starts at i; each entry is what the call returns.
    a, out = i, []

    def op(new):
        nonlocal a
        out.append(a)
        a = new

    op(a + 5)  # add
    op(a - 2)  # sub
    op(a & 6)  # and_
    op(a | 8)  # or_
    op(a ^ 3)  # xor
    op(max(a, i))  # max
    op(min(a, -i))  # min
    op(max(a, 4))  # nanmax
    op(min(a, -7))  # nanmin
    op(3 * i)  # exch
    op(11 if a == 3 * i else a)  # cas that matches
    op(12 if a == 0 else a)  # cas that does not
    out += [i - 9, i - 9]  # store, load; the array after
    out += [3, -4, 9]  # int8 exch, cas, the array after
    return out


@pytest.mark.parametrize("n", [0, 6])
def test_local_atomics_every_kind(n):
    threads = 32
    out = np.full((threads, 17), -12345, np.int64)
    uout = np.zeros((threads, 4), np.uint64)
    fout = np.full((threads, 13), -1.0)
    special = np.array([np.nan], np.float32)
    launch(K.local_every_kind, out, uout, fout, special, n, block=threads)
    np.testing.assert_array_equal(out, [expected_ints(i) for i in range(threads)])
    # uint64 max/min compare unsigned: 2**63 is the larger.
    np.testing.assert_array_equal(uout, np.tile(np.array([5, 2**63, 7, 8], np.uint64), (threads, 1)))
    # float32 from 1.5: add 1, sub 0.25, max(NaN) and nanmin(NaN) keep 2.25,
    # min(-1), nanmax(3), exch(NaN), max(5) keeps NaN (Python's order),
    # nanmax(5) replaces it, cas(5, 6) matches, load; complex128 store/load.
    nan = np.nan
    floats = [1.5, 2.5, 2.25, 2.25, 2.25, -1.0, 3.0, nan, nan, 5.0, 6.0]
    for i in range(threads):
        np.testing.assert_array_equal(fout[i], floats + [float(i), -1.0])
