"""cuda.device in host Python: the spec's names, decorators, device-only
entities, target descriptions, intrinsics, launch argument checking. No
native module needed."""

import numpy as np
import pytest

import cuda.device as device
import pydev
from cuda import device as device_too

import kernels

SPEC_NAMES = """
Atomic AtomicInterface ConstExpr Dim3 SMSelector TargetDescription Vector WarpMask activemask align all_sync
any_sync any_target atomic_ref ballot_sync block_dim block_idx brev cbrt clz dynamic_shared_array eq_sync ffs fma
func grid_dim grid_size is_device is_exactly is_host kernel lane_id lanemask_lt launch local_array
machine_representation match_all_sync match_any_sync no_target popc provides shared_array shfl_down_sync shfl_sync
shfl_up_sync shfl_xor_sync struct syncthreads syncthreads_and syncthreads_count syncthreads_or syncwarp target
thread_idx threadfence tid warp_size
int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 float64 float8e4m3 float8e5m2
complex64 complex128 sm50 sm60 sm70 sm75 sm80 sm86 sm89 sm90 sm100 sm120
""".split()


def test_every_name_of_the_spec_exists():
    missing = [n for n in SPEC_NAMES if not hasattr(device, n)]
    assert not missing
    assert device_too is device
    assert set(SPEC_NAMES) <= set(device.__all__)


def test_cuda_is_a_namespace_package():
    import cuda

    assert getattr(cuda, "__file__", None) is None  # PEP 420: no cuda/__init__.py


# --- decorators -----------------------------------------------------------------------------


def test_func_is_heterogeneous_and_exposes_underlying():
    def f(x):
        return x + 1

    g = device.func(f)
    assert g.underlying is f and g(1) == 2 and g.__name__ == "f"
    h = device.func(interop=True)(f)
    assert h.underlying is f and h.interop and h(2) == 3
    assert device.func()(f).underlying is f
    assert kernels.scale(2.0, 4.0) == 8.0  # a @func of the test kernels, called on the host


def test_kernel_decorator():
    def k(a):
        pass

    kk = device.kernel(k)
    assert kk.underlying is k and not kk.interop
    assert device.kernel(interop=True)(k).interop
    with pytest.raises(pydev.DeviceOnlyError, match="kernel 'k' is device-only: launch it with device.launch"):
        kk(np.zeros(1))
    assert isinstance(pydev.DeviceOnlyError("x"), RuntimeError)


def test_unknown_decorator_keywords_are_errors_naming_them():
    with pytest.raises(TypeError, match="unexpected keyword argument 'linkage'"):
        device.kernel(linkage="x")
    with pytest.raises(TypeError, match="unexpected keyword argument 'fastmath'"):
        device.func(fastmath=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'maxregs'"):
        device.func(lambda: 0, maxregs=1)
    # link= is pydev's keyword (docs/interop.md): its value is checked.
    with pytest.raises(TypeError, match="link= of @device.func '<lambda>' must be a list of paths"):
        device.func(lambda: 0, link=1)


def test_kernel_and_func_exclude_each_other():
    def f(x):
        return x

    with pytest.raises(TypeError, match="both a @device.kernel and a @device.func"):
        device.func(device.kernel(f))
    with pytest.raises(TypeError, match="both a @device.kernel and a @device.func"):
        device.kernel(device.func(f))
    with pytest.raises(TypeError, match="use @device.struct"):
        device.kernel(type("C", (), {}))
    with pytest.raises(TypeError, match="decorates a Python function"):
        device.func(3)


# --- device-only entities -------------------------------------------------------------------


@pytest.mark.parametrize(
    "use",
    [
        lambda: device.syncthreads(),
        lambda: device.tid(1),
        lambda: device.grid_size(1),
        lambda: device.thread_idx.x,
        lambda: device.block_idx.y,
        lambda: device.shared_array(4, device.float32),
        lambda: device.local_array(4, device.float32),
        lambda: device.dynamic_shared_array(),
        lambda: device.atomic_ref(np.zeros(1), 0),
        lambda: device.threadfence(),
        lambda: device.shfl_down_sync(-1, 1.0, 1),
        lambda: device.ballot_sync(-1, lambda: True),
        lambda: device.activemask(),
        lambda: device.warp_size + 1,
        lambda: int(device.lane_id),
        lambda: range(device.warp_size),
        lambda: device.syncthreads_count(lambda: True),
        lambda: device.match_all_sync(-1, 1, 0),
        lambda: device.Atomic(int).add(1),
        lambda: device.AtomicInterface(),
        # Comparisons too: `if device.lane_id == 0:` in a @func run on the host
        # must not quietly take the False branch.
        lambda: device.lane_id == 0,
        lambda: device.warp_size != 32,
        lambda: abs(device.lane_id),
        lambda: f"{device.warp_size}",
    ],
)
def test_device_only_entities_raise_on_the_host(use):
    with pytest.raises(
        RuntimeError,
        match=r"cuda\.device\..* is device-only: call it from a @device.kernel or @device.func compiled for a target",
    ):
        use()


def test_device_only_message_names_the_entity():
    with pytest.raises(pydev.DeviceOnlyError, match=r"^cuda\.device\.syncthreads is device-only"):
        device.syncthreads()
    with pytest.raises(RuntimeError, match=r"^cuda\.device\.thread_idx\.x is device-only"):
        device.thread_idx.x
    assert "device-only" in repr(device.tid)
    assert {device.lane_id: 1}[device.lane_id] == 1  # hashable by identity


# --- targets ------------------------------------------------------------------------------------


def test_target_on_the_host():
    assert device.target(device.is_host)
    assert not device.target(device.is_device)
    assert device.target(device.any_target) and not device.target(device.no_target)
    assert not device.target(device.provides(device.sm50))
    assert not device.target(device.is_exactly(device.sm90))
    assert device.target(~device.provides(device.sm80))  # "__CUDA_ARCH__ < 800" holds on the host
    assert device.target(device.is_host | device.provides(device.sm80))
    assert not device.target(device.is_host & device.is_device)
    assert not device.target(~device.any_target)
    with pytest.raises(TypeError, match="TargetDescription"):
        device.target(device.sm80)
    with pytest.raises(TypeError, match="SMSelector"):
        device.provides(80)
    with pytest.raises(TypeError, match="truth value"):
        bool(device.is_host)


def test_target_descriptions_on_devices():
    d = device.provides(device.sm80) & ~device.is_exactly(device.sm86)
    assert d.matches("device", 80) and d.matches("device", 90) and not d.matches("device", 86)
    assert not d.matches("device", 75) and not d.matches("host")
    e = device.is_exactly(device.sm70) | device.is_exactly(device.sm90)
    assert e.matches("device", 90) and not e.matches("device", 80)
    assert (~device.provides(device.sm90) | device.is_exactly(device.sm90)).matches("device", 90)
    assert device.is_device.matches("device", 50) and not device.is_host.matches("device", 50)
    assert repr(device.provides(device.sm80) | device.is_host) == "(provides(sm80) | is_host)"
    assert device.sm80 == device.SMSelector(80) and device.sm80.number == 80


def test_machine_representation():
    assert device.machine_representation() == "itanium"


def test_const_expr_hint():
    assert device.ConstExpr[int].type is int
    assert isinstance(device.ConstExpr[int], device.ConstExpr)


def test_atomic_as_a_type():
    a = device.Atomic(int, align=16)
    assert a.dtype == np.int32 and a.alignment == 16

    @device.struct
    class Mutex:
        line: device.Atomic(int, align=16)
        current: device.Atomic(int, align=16)

    assert [Mutex.dtype.fields[n][1] for n in ("line", "current")] == [0, 16] and Mutex.dtype.itemsize == 32
    assert Mutex(1, 2).tobytes()[16] == 2


# --- numeric intrinsics --------------------------------------------------------------------------


def test_integer_intrinsics():
    assert device.popc(np.int32(7)) == 3 and device.popc(-1) == 32 and device.popc(np.int64(-1)) == 64
    assert device.clz(np.int32(1)) == 31 and device.clz(np.uint64(1)) == 63 and device.clz(0) == 32
    assert device.ffs(np.int32(8)) == 4 and device.ffs(0) == 0
    assert device.brev(np.uint32(1)) == np.uint32(1 << 31) and type(device.brev(np.uint32(1))) is np.uint32
    assert device.brev(np.int32(1)) == np.int32(-(2**31))
    assert device.brev(np.uint8(1)) == np.uint8(128)
    assert type(device.popc(np.uint8(3))) is np.int32
    with pytest.raises(TypeError):
        device.popc(1.5)


def test_float_intrinsics():
    assert device.cbrt(np.float64(27.0)) == 3.0 and type(device.cbrt(np.float32(8))) is np.float32
    assert device.cbrt(-8.0) == -2.0
    # fma rounds once: (1 + 2**-52) * (1 - 2**-52) - 1 is -2**-104, not 0
    a, b = np.float64(1 + 2.0**-52), np.float64(1 - 2.0**-52)
    assert device.fma(a, b, np.float64(-1.0)) == -(2.0**-104)
    assert device.fma(np.float32(2), np.float32(3), np.float32(1)) == np.float32(7)
    assert type(device.fma(2.0, 3.0, 1.0)) is np.float32


# --- launch arguments (checked before anything compiles) ---------------------------------------


def test_stream_is_required_and_checked():
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match="stream"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=4)
    for bad in (None, 0, "default", object()):
        with pytest.raises(
            TypeError, match="^stream must be a pydev.Stream, a cuda.core Stream or an object with __cuda_stream__"
        ):
            device.launch(kernels.vector_add, x, x, x, grid=1, block=4, stream=bad)

    class BadProtocol:
        def __cuda_stream__(self):
            return "nope"

    with pytest.raises(TypeError, match="__cuda_stream__"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=4, stream=BadProtocol())


def test_grid_block_and_shared_are_checked():
    x = np.zeros(4, np.float32)
    s = pydev.Stream("host")
    with pytest.raises(TypeError, match="grid must be an int or a tuple of 1 to 3 ints"):
        device.launch(kernels.vector_add, x, x, x, grid="big", block=4, stream=s)
    with pytest.raises(TypeError, match="block"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=(1, 2, 3, 4), stream=s)
    with pytest.raises(ValueError, match="grid must be positive"):
        device.launch(kernels.vector_add, x, x, x, grid=(0, 1), block=4, stream=s)
    with pytest.raises(ValueError, match="shared"):
        device.launch(kernels.vector_add, x, x, x, grid=1, block=4, stream=s, shared=-1)


def test_launch_takes_kernels_only():
    s = pydev.Stream("host")
    with pytest.raises(TypeError, match="is a @device.func"):
        device.launch(kernels.scale, 1.0, 2.0, grid=1, block=1, stream=s)
    with pytest.raises(TypeError, match="takes a @device.kernel"):
        device.launch(print, grid=1, block=1, stream=s)
