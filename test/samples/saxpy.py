# `make demo` compiles this kernel to PTX with pydevc.
import cuda.device as device


@device.kernel
def saxpy(a, x, y, out):
    """out = a * x + y over a grid-stride loop."""
    start = device.tid(1)
    stride = device.grid_size(1)
    for i in range(start, x.size, stride):
        out[i] = a * x[i] + y[i]
