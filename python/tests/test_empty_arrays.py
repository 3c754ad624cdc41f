"""An array with an extent 0 is both C- and Fortran-contiguous, whatever its
strides, as NumPy and DLPack consumers say (NumPy gives `np.zeros((1, 0, 2))`
strides of 0): a launch accepts it for a C- or a Fortran-order parameter, in
cuda.device and pydev.numba, and the kernel sees its shape. Host target."""

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _arrays
from pydev.numba import cuda


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


def empties():
    """(1, 0, 2) float32 arrays: NumPy's, Fortran order, and with other strides."""
    base = np.zeros(8, np.float32)
    return [
        np.zeros((1, 0, 2), np.float32),
        np.zeros((1, 0, 2), np.float32, order="F"),
        np.lib.stride_tricks.as_strided(base, (1, 0, 2), (4, 8, 12), writeable=True),
        np.zeros((1, 4, 2), np.float32)[:, 2:2, :],
    ]


@device.kernel
def shape_of(out, a):
    # Writes every element of `a` (none) and reports the shape it sees.
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                a[i, j, k] = 7.0
    if device.tid(1) == 0:
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.shape[2]


@cuda.jit("void(int64[::1], float32[:, :, ::1])")
def numba_c(out, a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                a[i, j, k] = 7.0
    if cuda.grid(1) == 0:
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.shape[2]


@cuda.jit
def numba_lazy(out, a):
    if cuda.grid(1) == 0:
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.shape[2]


def poisoned():
    return np.full(3, -1, np.int64)


def test_cuda_device_launches_an_empty_array():
    for a in empties():
        out = poisoned()
        device.launch(shape_of, out, a, grid=1, block=32, stream=pydev.default_stream())
        pydev.default_stream().synchronize()
        assert out.tolist() == [1, 0, 2], a.strides


@pytest.mark.parametrize("dims", [":, :, ::1", "::1, :, :"], ids=["c", "f"])
def test_a_program_takes_an_empty_array_for_either_order(dims):
    program = pydev.Program(pydev.compile(shape_of, f"int64[::1], float32[{dims}]", "host", "pydev"), kernel="shape_of")
    for a in empties():
        out = poisoned()
        device.launch(program, out, a, grid=1, block=32, stream=pydev.default_stream())
        pydev.default_stream().synchronize()
        assert out.tolist() == [1, 0, 2], a.strides
    with pytest.raises(TypeError, match="contiguous"):  # a non-empty array of the other order still is not
        other = np.zeros((1, 3, 2), np.float32, order="F" if dims.endswith("::1") else "C")
        device.launch(program, poisoned(), other, grid=1, block=32, stream=pydev.default_stream())


@pytest.mark.parametrize("kernel", [numba_c, numba_lazy], ids=["c", "lazy"])
def test_numba_launches_an_empty_array(kernel):
    for a in empties():
        for arg in (a, cuda.to_device(a)):
            out = poisoned()
            kernel[1, 32](out, arg)
            cuda.synchronize()
            assert out.tolist() == [1, 0, 2], (type(arg), a.strides)


def test_an_empty_array_is_c_contiguous_on_both_paths(native):
    for shape, strides in [((1, 0, 2), (0, 0, 0)), ((1, 0, 2), (1, 2, 3)), ((0, 4), (1, 7)), ((2, 0), (0, 1))]:
        assert _arrays.dims(shape, strides).endswith("::1"), (shape, strides)
        assert native.array_layout(list(shape), list(strides)) == 1, (shape, strides)
