"""What numba-cuda's `_Kernel` adds to a kernel's compiled overload
(`kernel.overloads[sig]`, a `pydev.Program`): for cooperative launches,
`cooperative` and `max_cooperative_grid_blocks`; and `_type_annotation`,
whose `typemap` gives each variable's Numba type. They are set on the
Program object itself, which stays a `pydev.Program` (the launch fast path
takes exactly those)."""

import ctypes
import math
import types

import pydev as _pydev

from . import _driver

CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16


class TypeAnnotation:
    """numba-cuda's `kernel.overloads[sig]._type_annotation`: `typemap`, the
    Numba type of each variable of the kernel's body, by name (variables
    bound to compile-time values, such as functions and modules, left out)."""

    __slots__ = ("typemap",)

    def __init__(self, typemap):
        self.typemap = dict(typemap)

    def __repr__(self):
        return f"TypeAnnotation({self.typemap!r})"


def add_cooperative_api(program, cooperative):
    """`program.cooperative`: whether the kernel synchronizes its grid
    (`cuda.cg.this_grid().sync()`, in its body or a device function it
    calls), so that it is launched cooperatively; and
    `program.max_cooperative_grid_blocks(blockdim, dynsmemsize=0)`."""
    program.cooperative = bool(cooperative)
    program.max_cooperative_grid_blocks = types.MethodType(max_cooperative_grid_blocks, program)
    return program


def max_cooperative_grid_blocks(program, blockdim, dynsmemsize=0):
    """The most blocks of `blockdim` threads (an int or a 1-3 tuple) with
    `dynsmemsize` bytes of dynamic shared memory a cooperative launch of the
    kernel may have on the current device: all of them resident at once.
    On the host target, one streaming multiprocessor per core holding 2048
    threads in at most 32 blocks (the runtime's rule); on cuda, the driver's
    occupancy of the kernel as it is loaded times the multiprocessors."""
    dims = tuple(blockdim) if isinstance(blockdim, tuple) else (blockdim,)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) and d > 0 for d in dims):
        raise ValueError(
            f"max_cooperative_grid_blocks: blockdim must be a positive int or a tuple of 1-3, got {blockdim!r}"
        )
    threads = math.prod(dims)
    if _pydev.active_target() == "host":
        return _pydev._native.get().HostProgram.max_cooperative_blocks(threads)
    return _cuda_max_blocks(program, threads, int(dynsmemsize))


def _cuda_max_blocks(program, threads, dynsmem):
    from ._host import get_current_device

    what = "max_cooperative_grid_blocks"
    _driver.ensure_context()
    device = get_current_device()
    major, minor = device.compute_capability
    arch = f"sm_{major}{minor}"
    # The image the launch loads: the PTX, or the cubin linked with its link= files.
    linked = bool(program.link or program.declared)
    image = program.compile(arch, "cubin") if linked else program.compile(arch, "ptx").encode()
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    _driver.call(what, "cuModuleLoadData", ctypes.byref(module), ctypes.c_char_p(image))
    try:
        _driver.call(what, "cuModuleGetFunction", ctypes.byref(function), module, program.__name__.encode())
        per_sm = ctypes.c_int()
        _driver.call(
            what,
            "cuOccupancyMaxActiveBlocksPerMultiprocessor",
            ctypes.byref(per_sm),
            function,
            ctypes.c_int(threads),
            ctypes.c_size_t(dynsmem),
        )
        sms = _driver.device_attribute(device.id, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, what)
    finally:
        _driver.call(what, "cuModuleUnload", module)
    return per_sm.value * sms
