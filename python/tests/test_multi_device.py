"""Every GPU of a node (issue 18), against test/fakecuda's two devices of
different architectures (device 0 sm_90, device 1 sm_80): launches run on
the device of the calling thread's current CUDA context (pydev.Device,
cuda.core, CuPy and PyTorch set it), programs are compiled for each
device's architecture and loaded in its context, arrays and streams
remember their device, and an argument on another device is an error
naming it and both devices. Also the driver calls a launch makes per
argument kind (docs/performance.md, "Driver calls per launch, by argument
kind"), so that they cannot grow unseen."""

import textwrap

import pytest

from test_fake_driver import PRELUDE, fake_driver, run  # noqa: F401  (fixtures)

KERNELS = """
import cuda.device as device

@device.kernel
def fill(out, v):
    i = device.tid(1)
    if i < out.shape[0]:
        out[i] = v

@device.kernel
def scalars(a, b):
    c = a + b
"""

# A kernel file of its own (the fixtures run scripts from python/tests).
SETUP = (
    """
import os, sys, tempfile
_dir = tempfile.mkdtemp()
with open(os.path.join(_dir, "md_kernels.py"), "w") as _f:
    _f.write(%r)
sys.path.insert(0, _dir)
import md_kernels
n = 64
def arrays(**kw):
    return (pydev.to_device(rng.random(n, dtype=np.float32), **kw) for _ in range(3))
def refused(fn, *words, error=ValueError):
    try:
        fn()
    except error as e:
        for w in words:
            assert w in str(e), (w, str(e))
        return str(e)
    raise AssertionError(f"not refused: {words}")
"""
    % KERNELS
)


def script(body):
    return SETUP + textwrap.dedent(body)


def test_launches_run_on_the_selected_device_with_its_architecture(run):
    run(
        script("""
        assert pydev.device_count() == 2 and pydev.current_device() == 0
        assert pydev.Device(0).arch == "sm_90" and pydev.Device(1).arch == "sm_80"
        assert pydev.Device(1).compute_capability == (8, 0)
        x, y, out = arrays()
        s = pydev.create_stream()
        assert (x.device, s.device, x.__dlpack_device__()) == (0, 0, (2, 0))
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=s)
        with pydev.Device(1) as d:
            assert d.id == 1 and pydev.current_device() == 1 and fakecuda.current_device() == 1
            x1, y1, out1 = arrays()
            s1 = pydev.create_stream()
            assert (x1.device, s1.device, x1.__dlpack_device__()) == (1, 1, (2, 1)), (x1.device, s1.device)
            assert fakecuda.pointer_device(x1._ptr) == 1 and fakecuda.pointer_device(x._ptr) == 0
            assert pydev.default_stream().device == 1 and pydev.default_stream() is not None
            for _ in range(3):
                device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=s1)
        # the context that was current before the block is current again
        assert pydev.current_device() == 0 and fakecuda.current_device() == 0
        ls = fakecuda.launches()
        assert [(l.device, l.arch, l.stream) for l in ls] == [(0, 90, s.handle)] + [(1, 80, s1.handle)] * 3, [(l.device, l.arch) for l in ls]
        assert [l.descriptor(1)[0] for l in ls] == [x._ptr] + [x1._ptr] * 3
        assert fast() == 2, pydev.stats()  # the second and third launch on device 1
        # one program per architecture
        assert pydev.stats()["compiles"] == 2, pydev.stats()

        # set_current() (and use(), CuPy's name) switches the thread's device
        pydev.Device(1).set_current()
        device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=s1)
        assert fakecuda.launches()[-1].device == 1 and fast() == 3
        pydev.Device(0).use()
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=s)
        assert fakecuda.launches()[-1].device == 0 and fast() == 4

        # device= puts new arrays and streams on a device from anywhere
        z = pydev.zeros(n, np.float32, device=1)
        e = pydev.device_array(8, np.float32, device=pydev.Device(1))
        t = pydev.create_stream(device=1)
        assert (z.device, e.device, t.device, pydev.current_device()) == (1, 1, 1, 0)
        assert fakecuda.pointer_device(z._ptr) == 1 and (z.copy_to_host() == 0).all()
        h = rng.random((3, 5), dtype=np.float32)
        w = pydev.to_device(h, stream=t)
        assert w.device == 1 and np.array_equal(w.copy_to_host(), h)
        refused(lambda: pydev.to_device(h, stream=t, device=0), "device=0", "stream is a stream of cuda device 1")
        refused(lambda: pydev.Device(2), "there is no cuda device 2", "2 devices")
        t.synchronize()
        pydev.Device(1).synchronize()
        before = fakecuda.live_allocations()
        del z, e, w
        gc.collect()
        assert fakecuda.live_allocations() == before - 3
    """)
    )


def test_a_context_another_library_made_current_picks_the_device(run):
    # As cuda.core's Device(1).set_current() or CuPy's / PyTorch's device
    # selection: the primary context of device 1 made current before pydev
    # ever used that device, then switched back and forth.
    run(
        script("""
        fakecuda.set_current(1)
        assert pydev.current_device() == 1
        x1, y1, out1 = arrays()
        assert x1.device == 1
        device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=pydev.default_stream())
        device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=pydev.default_stream())
        fakecuda.set_current(0)
        x, y, out = arrays()
        assert x.device == 0
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=pydev.default_stream())
        fakecuda.set_current(1)
        device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=pydev.default_stream())
        assert [(l.device, l.arch) for l in fakecuda.launches()] == [(1, 80), (1, 80), (0, 90), (1, 80)]
        assert fast() == 2
        # pydev retained each device's primary context once (the test's
        # fakecuda.set_current retains too: once for device 0, twice for 1)
        assert (fakecuda.LIB.fakecuda_retains(0), fakecuda.LIB.fakecuda_retains(1)) == (2, 3)
    """)
    )


def test_a_process_on_device_1_holds_no_context_on_device_0(run):
    run(
        script("""
        assert pydev.active_target() == "cuda"
        pydev.Device(1).set_current()
        x, y, out = arrays()
        for _ in range(2):
            device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=pydev.default_stream())
        s = pydev.create_stream()
        s.synchronize()
        pydev.default_stream().synchronize()
        assert (fakecuda.LIB.fakecuda_retains(0), fakecuda.LIB.fakecuda_retains(1)) == (0, 1)
        assert [(l.device, l.arch) for l in fakecuda.launches()] == [(1, 80)] * 2
    """)
    )


def test_the_fast_path_never_launches_a_function_of_another_device(run):
    run(
        script("""
        # arguments that say nothing of their device (numbers): the same key
        # on both devices, so the entry must be per device
        s0 = pydev.default_stream()
        for _ in range(2):
            device.launch(md_kernels.scalars, 1, 2.0, grid=1, block=32, stream=s0)
        assert fast() == 1
        with pydev.Device(1):
            s1 = pydev.default_stream()
            for _ in range(2):
                device.launch(md_kernels.scalars, 1, 2.0, grid=1, block=32, stream=s1)
        assert fast() == 2
        device.launch(md_kernels.scalars, 3, 4.0, grid=1, block=32, stream=s0)
        assert fast() == 3
        assert [(l.device, l.arch) for l in fakecuda.launches()] == [(0, 90)] * 2 + [(1, 80)] * 2 + [(0, 90)]

        # same architecture on two devices shares one program, loaded in each
        # device's context (PYDEV_ARCH forces sm_80 for both)
        import os
        os.environ["PYDEV_ARCH"] = "sm_80"
        out = pydev.device_array(n, np.float32)
        device.launch(md_kernels.fill, out, 1.5, grid=1, block=n, stream=s0)
        device.launch(md_kernels.fill, out, 1.5, grid=1, block=n, stream=s0)
        with pydev.Device(1):
            out1 = pydev.device_array(n, np.float32)
            device.launch(md_kernels.fill, out1, 2.5, grid=1, block=n, stream=pydev.default_stream())
            device.launch(md_kernels.fill, out1, 2.5, grid=1, block=n, stream=pydev.default_stream())
        assert [(l.device, l.arch) for l in fakecuda.launches()[-4:]] == [(0, 80), (0, 80), (1, 80), (1, 80)]
        prog = next(p for k, p in md_kernels.fill._dispatch.items() if isinstance(k, tuple))
        assert prog.device == 0 and fakecuda.LIB.fakecuda_live_modules() >= 4  # loaded on device 1 as well
        # a program of a newer architecture than the device does not load there
        del os.environ["PYDEV_ARCH"]
        native = _native.get()
        ptx = native.compile("kernels.py", open("kernels.py").read(), "vector_add", "float32[::1], float32[::1], float32[::1]", {}, "sm_90", "ptx")
        with pydev.Device(1):
            refused(lambda: native.CudaProgram(ptx, "vector_add"), "could not load the PTX of 'vector_add' on device 1", "sm_90", error=RuntimeError)
    """)
    )


def test_arguments_on_another_device_are_refused_naming_them(run):
    run(
        script("""
        from dlpack_exchange import exchange_type
        x, y, out = arrays()
        with pydev.Device(1):
            x1, y1, out1 = arrays()
            s1 = pydev.create_stream()
        s = pydev.create_stream()

        # DeviceArrays, by their remembered device: general path, then fast path
        m = refused(lambda: device.launch(kernels.vector_add, out, x, y1, grid=1, block=n, stream=s),
                    "argument 2 ('b')", "cuda device 1", "launch runs on device 0", "pydev.Device(1)")
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=s)
        device.launch(kernels.vector_add, out, x, y, grid=1, block=n, stream=s)
        assert fast() == 1
        assert refused(lambda: device.launch(kernels.vector_add, out, x, y1, grid=1, block=n, stream=s)) == m
        with pydev.Device(1):
            refused(lambda: device.launch(kernels.vector_add, out1, x1, y, grid=1, block=n, stream=s1),
                    "argument 2 ('b') is on cuda device 0", "launch runs on device 1")
            # a stream of another device
            refused(lambda: device.launch(kernels.vector_add, out1, x1, y1, grid=1, block=n, stream=s),
                    "stream is a stream of cuda device 0", "launch runs on device 1")
        assert fast() == 1

        # DLPack producers, by __dlpack_device__ / the exported device
        from producers import DLPackOnly as DL
        for _ in range(2):
            device.launch(kernels.vector_add, DL(out), DL(x), DL(y), grid=1, block=n, stream=s)
        assert fast() == 2
        refused(lambda: device.launch(kernels.vector_add, DL(out), DL(x1), DL(y), grid=1, block=n, stream=s),
                "argument 1 ('a') is on cuda device 1", "launch runs on device 0")
        Torch = exchange_type("Torch", stream=s.handle)
        for _ in range(2):
            device.launch(kernels.vector_add, Torch(out), Torch(x), Torch(y), grid=1, block=n, stream=s)
        assert fast() == 3
        refused(lambda: device.launch(kernels.vector_add, Torch(out1), Torch(x), Torch(y), grid=1, block=n, stream=s),
                "argument 0 ('out') is on cuda device 1")

        # CUDA Array Interface producers, by the driver's word on the pointer
        from producers import CAIOnly as CAI
        for _ in range(2):
            device.launch(kernels.vector_add, CAI(out), CAI(x), CAI(y), grid=1, block=n, stream=s)
        assert fast() == 4
        refused(lambda: device.launch(kernels.vector_add, CAI(out), CAI(x), CAI(y1), grid=1, block=n, stream=s),
                "argument 2 ('b') is on cuda device 1", "launch runs on device 0")
        with pydev.Device(1):
            refused(lambda: device.launch(kernels.vector_add, CAI(out1), CAI(x), CAI(y1), grid=1, block=n, stream=s1),
                    "argument 1 ('a') is on cuda device 0", "launch runs on device 1")
        assert fast() == 4
        assert len(fakecuda.launches()) == 8  # nothing refused reached the driver
    """)
    )


def test_one_device(run):
    run(
        script("""
        assert pydev.device_count() == 1
        refused(lambda: pydev.Device(1), "there is no cuda device 1", "1 device (0)")
        from producers import CAIOnly as CAI
        x, y, out = arrays()
        s = pydev.create_stream()
        for _ in range(3):
            device.launch(kernels.vector_add, CAI(out), CAI(x), CAI(y), grid=1, block=n, stream=s)
        # with one device every pointer is on it: the driver is not asked
        assert fakecuda.calls("cuPointerGetAttributes", "cuPointerGetAttribute") == {"cuPointerGetAttributes": 0, "cuPointerGetAttribute": 0}
        assert fast() == 2
    """),
        FAKECUDA_DEVICES="1",
    )


# (argument kind, driver calls per fast-path launch with two devices, with
# one device): the table "Driver calls per launch, by argument kind" of
# docs/performance.md. Three array arguments and a float, on a pydev.Stream.
CALLS = {
    "DeviceArray": ({"cuCtxGetCurrent": 1, "cuLaunchKernel": 1}, None),
    "CAI, no stream": (
        {"cuCtxGetCurrent": 1, "cuPointerGetAttributes": 3, "cuLaunchKernel": 1},
        {"cuCtxGetCurrent": 1, "cuLaunchKernel": 1},
    ),
    "CAI, the launch's stream": (
        {"cuCtxGetCurrent": 1, "cuPointerGetAttributes": 3, "cuLaunchKernel": 1},
        {"cuCtxGetCurrent": 1, "cuLaunchKernel": 1},
    ),
    "CAI, another stream": (
        {
            "cuCtxGetCurrent": 1,
            "cuPointerGetAttributes": 3,
            "cuEventRecord": 1,
            "cuStreamWaitEvent": 1,
            "cuLaunchKernel": 1,
        },
        {"cuCtxGetCurrent": 1, "cuEventRecord": 1, "cuStreamWaitEvent": 1, "cuLaunchKernel": 1},
    ),
    "CAI, one array twice": (
        {"cuCtxGetCurrent": 1, "cuPointerGetAttributes": 2, "cuLaunchKernel": 1},
        {"cuCtxGetCurrent": 1, "cuLaunchKernel": 1},
    ),
    "DLPack, no pending work": ({"cuCtxGetCurrent": 1, "cuLaunchKernel": 1}, None),
    "DLPack, pending work on another stream": (
        {"cuCtxGetCurrent": 4, "cuEventRecord": 3, "cuStreamWaitEvent": 3, "cuLaunchKernel": 1},
        None,
    ),
    "DLPack and CAI (CuPy-like)": ({"cuCtxGetCurrent": 1, "cuLaunchKernel": 1}, None),
    "DLPack exchange API, the launch's stream": ({"cuCtxGetCurrent": 1, "cuLaunchKernel": 1}, None),
    "DLPack exchange API, another stream": (
        {"cuCtxGetCurrent": 1, "cuEventRecord": 1, "cuStreamWaitEvent": 1, "cuLaunchKernel": 1},
        None,
    ),
}

COUNT_SCRIPT = """
from dlpack_exchange import exchange_type
NAMES = ("cuCtxGetCurrent", "cuCtxSetCurrent", "cuCtxGetDevice", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2", "cuDevicePrimaryCtxRetain",
         "cuPointerGetAttributes", "cuPointerGetAttribute", "cuEventCreate", "cuEventRecord", "cuStreamWaitEvent", "cuEventDestroy_v2",
         "cuStreamQuery", "cuStreamSynchronize", "cuLaunchKernel")
s, other = pydev.create_stream(), pydev.create_stream()

from producers import CAIOnly, DLPackOnly as DL
def CAI(arr, stream=None):
    return CAIOnly(arr, stream)
class Both(DL):  # CuPy: DLPack wins
    @property
    def __cuda_array_interface__(self):
        return self.arr.__cuda_array_interface__

def pending(arrays):
    for a in arrays:  # the producer's own work is queued on `other`
        a.arr._last_stream = other.handle
    return arrays

Torch = exchange_type("Torch", stream=s.handle)
TorchOther = exchange_type("TorchOther", stream=other.handle)
cases = {
    "DeviceArray": lambda: list(arrays()),
    "CAI, no stream": lambda: [CAI(a) for a in arrays()],
    "CAI, the launch's stream": lambda: [CAI(a, s.handle) for a in arrays()],
    "CAI, another stream": lambda: [CAI(a, other.handle) for a in arrays()],
    "CAI, one array twice": lambda: (lambda x, y, o: [CAI(o), CAI(x), CAI(x)])(*arrays()),
    "DLPack, no pending work": lambda: [DL(a) for a in arrays()],
    "DLPack, pending work on another stream": lambda: [DL(a) for a in arrays()],
    "DLPack and CAI (CuPy-like)": lambda: [Both(a) for a in arrays()],
    "DLPack exchange API, the launch's stream": lambda: [Torch(a) for a in arrays()],
    "DLPack exchange API, another stream": lambda: [TorchOther(a) for a in arrays()],
}
N = 8
out = {}
for name, make in cases.items():
    a, b, c = make()
    for _ in range(2):  # the general path, then the fast path's entry
        device.launch(kernels.saxpy, 1.5, a, b, c, grid=1, block=n, stream=s)
    f = fast()
    fakecuda.reset_calls()
    for _ in range(N):
        if name.startswith("DLPack, pending"):
            pending([a, b, c])
        device.launch(kernels.saxpy, 1.5, a, b, c, grid=1, block=n, stream=s)
    assert fast() - f == N, (name, fast() - f)
    counts = fakecuda.calls(*NAMES)
    assert all(v % N == 0 for v in counts.values()), (name, counts)
    out[name] = {k: v // N for k, v in counts.items() if v}
    s.synchronize()
print(repr(out))
"""


@pytest.mark.parametrize("devices", ["2", "1"])
def test_driver_calls_per_launch_by_argument_kind(run, devices):
    """The fast path's driver calls per launch: one cuCtxGetCurrent (the
    launch's device) and the launch; what a protocol requires on top (a
    wait for a producer's other stream: one event record and one stream
    wait per distinct stream, with a pooled event; with several devices,
    one pointer query per distinct CAI pointer); no cuCtxSetCurrent, no
    event create/destroy."""
    import ast

    got = ast.literal_eval(run(SETUP + COUNT_SCRIPT, FAKECUDA_DEVICES=devices).strip().splitlines()[-1])
    for name, (two, one) in CALLS.items():
        want = two if devices == "2" or one is None else one
        assert got[name] == want, (name, got[name], want)


def _real_gpu():
    from conftest import gpu_available

    return gpu_available()


@pytest.mark.skipif(not _real_gpu(), reason="no CUDA driver or device (the fake-driver tests above run everywhere)")
def test_every_gpu_of_the_machine_runs_kernels(monkeypatch):
    """On a real machine: the vector add on each GPU, selected by
    pydev.Device and, where installed, by CuPy's and PyTorch's own device
    selection; results checked against NumPy, outputs poisoned."""
    import numpy as np

    import cuda.device as device
    import kernels
    import pydev

    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    rng = np.random.default_rng(7)
    n = 1 << 16
    for d in range(pydev.device_count()):
        with pydev.Device(d):
            a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
            x, y = pydev.to_device(a), pydev.to_device(b)
            out = pydev.to_device(np.full(n, np.nan, np.float32))
            s = pydev.create_stream()
            assert (x.device, out.device, s.device, pydev.current_device()) == (d, d, d, d)
            device.launch(kernels.vector_add, out, x, y, grid=n // 256, block=256, stream=s)
            s.synchronize()
            assert np.array_equal(out.copy_to_host(), a + b), d
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:
        for d in range(pydev.device_count()):
            with cupy.cuda.Device(d):
                assert pydev.current_device() == d
                a, b = cupy.asarray(rng.random(n, dtype=np.float32)), cupy.asarray(rng.random(n, dtype=np.float32))
                out = cupy.full(n, np.nan, np.float32)
                device.launch(
                    kernels.vector_add, out, a, b, grid=n // 256, block=256, stream=cupy.cuda.get_current_stream()
                )
                cupy.cuda.get_current_stream().synchronize()
                assert bool((out == a + b).all()), d
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        for d in range(pydev.device_count()):
            with torch.cuda.device(d):
                t = torch.rand(n, device=f"cuda:{d}")
                out = torch.full((n,), float("nan"), device=f"cuda:{d}")
                torch.cuda.synchronize(d)
                assert pydev.current_device() == d
                device.launch(kernels.vector_add, out, t, t, grid=n // 256, block=256, stream=pydev.default_stream())
                pydev.default_stream().synchronize()
                assert bool((out == t + t).all()), d
    if pydev.device_count() > 1:
        with pydev.Device(1):
            other = pydev.device_array(n, np.float32)
        x = pydev.device_array(n, np.float32)
        with pytest.raises(
            ValueError, match="argument 0 \\('out'\\) is on cuda device 1, but the launch runs on device 0"
        ):
            device.launch(kernels.vector_add, other, x, x, grid=n // 256, block=256, stream=pydev.default_stream())
