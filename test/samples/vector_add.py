import numpy as np

import cuda.device as device
import pydev


@device.kernel
def vector_add(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


n = 1 << 20
rng = np.random.default_rng(0)
a = pydev.to_device(rng.random(n, dtype=np.float32))
b = pydev.to_device(rng.random(n, dtype=np.float32))
out = pydev.device_array(n, np.float32)
stream = pydev.default_stream()
device.launch(vector_add, out, a, b, grid=(n + 255) // 256, block=256, stream=stream)
stream.synchronize()
assert np.array_equal(out.copy_to_host(), a.copy_to_host() + b.copy_to_host())
print("vector_add ok on", pydev.active_target())
