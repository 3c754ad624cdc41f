"""Numba-CUDA's argument hints (`numba.cuda.args`): `cuda.In(ary)`,
`cuda.Out(ary)`, `cuda.InOut(ary)` say how a kernel argument moves between
the host and the device, and `wrap_arg(value, default=InOut)` wraps a value
that is not a hint yet (the building block of `kernel.extensions`).

`to_device(retr, stream)` returns what the kernel gets and appends to `retr`
the zero-argument functions to call after the launch (copies back). On the
cuda target a NumPy array is copied to the device (`In`, `InOut`) or not
(`Out`), and back after the launch (`Out`, `InOut`). On the host target a
NumPy array is already device memory: `InOut` and `Out` pass it as it is
(the kernel writes it in place, which is where the copy back would put the
results), and `In` passes a copy, so that the kernel's writes do not reach
it, as on a GPU. Device arrays (pydev's, or any CUDA Array Interface /
DLPack array) pass as they are under every hint, as in Numba."""

import numpy as np

import pydev as _pydev

__all__ = ["In", "Out", "InOut", "ArgHint", "wrap_arg"]


def _is_host_value(v):
    return isinstance(v, (np.ndarray, np.void))


class ArgHint:
    """A kernel argument with a transfer rule: `value` is the argument."""

    copy_input = True
    copy_back = True

    def __init__(self, value):
        self.value = value

    @property
    def _numba_type_(self):
        from .. import types

        return types.typeof(self.value)

    def to_device(self, retr, stream=0):
        """What the kernel gets for this argument; appends the copies back
        (zero-argument functions) to `retr`."""
        from . import _host

        value = self.value
        if not _is_host_value(value):
            return value  # device memory already: no transfer
        if isinstance(value, np.void):
            # A record passes by reference (pydev.numba copies it into a
            # 1-element array and back); a hint without a copy back gets a copy.
            return value if self.copy_back else np.array([value])[0]
        if _pydev.active_target() == "host":
            if self.copy_back:
                return value
            dev = _host.to_device(value, stream=stream)
            retr.append(lambda: dev)  # kept alive until the launch is done
            return dev
        dev = (
            _host.to_device(value, stream=stream) if self.copy_input else _host.device_array_like(value, stream=stream)
        )
        if self.copy_back:
            retr.append(lambda: dev.copy_to_host(value, stream=stream))
        else:
            retr.append(lambda: dev)
        return dev

    def __repr__(self):
        return f"cuda.{type(self).__name__}({self.value!r})"


class In(ArgHint):
    """Copied to the device before the launch, not back."""

    copy_back = False


class Out(ArgHint):
    """Not copied to the device; copied back after the launch."""

    copy_input = False


class InOut(ArgHint):
    """Copied to the device before the launch and back after it (what a
    NumPy argument without a hint gets)."""


def wrap_arg(value, default=InOut):
    """`value` if it is a hint, else `default(value)`."""
    return value if isinstance(value, ArgHint) else default(value)
