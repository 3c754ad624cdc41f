"""Every aggregate kind for the C++ header ABI test (test_interop_header.py):
structs (plain, padded, nested, align=, align() and vector fields, bool,
float16 and int8 members), tuples, vectors of every lane count, arrays."""

import cuda.device as device


@device.struct
class Plain:
    x: device.float32
    y: device.float32
    z: device.float32


@device.struct
class Padded:
    a: device.int8
    b: device.float64
    c: device.int16
    d: bool


@device.struct(align=16)
class Over:
    re: device.float32
    im: device.float32


@device.struct
class Nested:
    head: device.uint8
    p: Padded
    o: Over
    tail: device.int32


@device.struct
class WithVectors:
    a: device.float32x3
    b: device.int8x2
    c: device.float64x2
    d: device.float32x4
    e: device.uint16x1


@device.struct
class WithAligned:
    a: device.int32
    b: device.align(device.float32, 16)
    c: device.int64


@device.struct
class Halves:
    h: device.float16
    h2: device.float16x2
    bf: device.bfloat16
    i: device.int32


@device.func(interop=True)
def takes_all(p: Plain, q: Padded, n: Nested, v: WithVectors, w: WithAligned, h: Halves) -> Nested:
    return n


@device.func(interop=True)
def tuples(
    t: tuple[device.int8, device.float64, device.int16], u: tuple[device.float32x3, device.uint8]
) -> tuple[device.int64, bool]:
    return (device.int64(t[0]), u[1] > 0)


@device.func(interop=True)
def vectors(
    a: device.int8x3, b: device.int16x4, c: device.uint32x2, d: device.int64x3, e: device.float64x4, f: device.float16x4
) -> device.float32x2:
    return device.float32x2(0.0, 1.0)


@device.func(interop=True)
def arrays(a: "float32[:, :]", b: "Plain[:]", c: "int64[::1]") -> device.int32:
    return 0


@device.kernel(interop=True)
def kern(out: "float32[:]", s: Plain, n: device.int32):
    i = device.tid(1)
    if i < n:
        out[i] = s.x


@device.func(interop=True)
def unannotated(a, b):
    return a + b


@device.func
def not_interop(a: device.int32) -> device.int32:
    return a
