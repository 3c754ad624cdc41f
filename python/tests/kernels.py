# Device code for the tests (the compiler reads this file: keep the line
# numbers of `returns_value` and `undefined_name` in step with test_host.py).
import cuda.device as device

TILE = 256
SCALE = 3


@device.kernel
def vector_add(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@device.kernel
def saxpy(a, x, y, out):
    for i in range(device.tid(1), x.size, device.grid_size(1)):
        out[i] = a * x[i] + y[i]


@device.kernel
def block_sum(out, x):
    buf = device.shared_array(TILE, device.float32)
    t = device.thread_idx.x
    i = device.tid(1)
    buf[t] = x[i] if i < x.size else 0.0
    device.syncthreads()
    step = TILE // 2
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        device.syncthreads()
        step //= 2
    if t == 0:
        out[device.block_idx.x] = buf[0]


@device.kernel
def warp_max(out, x):
    i = device.tid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v = max(v, device.shfl_xor_sync(device.activemask(), v, offset))
        offset //= 2
    out[i] = v


@device.kernel
def warp_sum(out, x):
    # a shuffle-down reduction per warp; lane 0 writes the warp's sum
    i = device.tid(1)
    v = x[i] if i < x.size else 0.0
    mask = device.activemask()
    offset = 16
    while offset > 0:
        v += device.shfl_down_sync(mask, v, offset)
        offset //= 2
    if device.lane_id == 0:
        out[i // 32] = v


@device.kernel
def histogram(bins, data):
    i = device.tid(1)
    if i < data.size:
        device.atomic_ref(bins, data[i] % bins.size).add(1, memory="relaxed", scope="device")


@device.struct
class Particle:
    pos: device.float32x4
    mass: float


@device.kernel
def push(ps, dt):
    i = device.tid(1)
    if i < ps.size:
        p = ps[i]
        v = p.pos
        p.pos = device.float32x4(v.x + dt, v.y, v.z, v.w * p.mass)
        ps[i] = p


@device.kernel
def weigh(out, p, scale):
    # a struct and a vector passed by value
    i = device.tid(1)
    if i < out.size:
        out[i] = (p.pos.x + p.pos.y + p.pos.z + p.pos.w) * p.mass * scale.x + scale.y


@device.func
def scale(x, k):
    return x * k


@device.kernel
def scaled(out, x, k):
    i = device.tid(1)
    if i < x.size:
        out[i] = scale(x[i], k)


@device.kernel
def times_global(out, x):
    # SCALE is a module constant (read when the kernel compiles)
    i = device.tid(1)
    if i < x.size:
        out[i] = x[i] * SCALE


@device.kernel
def returns_value(out):
    return 1


@device.kernel
def undefined_name(out):
    out[0] = NOT_DEFINED_ANYWHERE


@device.kernel
def divide(out, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] // b[i]


@device.kernel
def shout(x):
    i = device.tid(1)
    if i < x.size:
        print("lane", i, "holds", x[i])


@device.kernel
def affine(out, x, coeffs):
    # a tuple argument, passed by value
    i = device.tid(1)
    if i < x.size:
        out[i] = coeffs[0] * x[i] + coeffs[1]


@device.kernel
def transpose2d(out, m):
    i, j = device.tid(2)
    if i < m.shape[0] and j < m.shape[1]:
        out[j, i] = m[i, j]


@device.kernel
def on_host(out):
    if device.target(device.is_host):
        out[0] = 1
    else:
        out[0] = 2


@device.kernel
def overrun(out):
    out[device.tid(1)] = 1


@device.kernel
def copy(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = a[i]
