"""The error for a device-only entity of cuda.device (thread positions,
atomics, synchronization, ...) used in host code."""


class DeviceOnlyError(RuntimeError):
    """A device-only entity of cuda.device was used in host code."""


def device_only(name):
    """The error for using device-only `cuda.device.<name>` on the host."""
    return DeviceOnlyError(
        f"cuda.device.{name} is device-only: call it from a @device.kernel or @device.func compiled for a target "
        "(launch the kernel with device.launch(kernel, *args, grid=..., block=..., stream=...))"
    )
