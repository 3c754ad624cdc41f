"""The launch fast path by argument kind (issue 35 item 1,
python/src/dispatch.rs): every kind a kernel or a pydev.Program takes is
launched natively from its second launch on (pydev.stats()'s
fast_launches), with the general path's results, and what the general path
refuses or warns about (a number that does not fit its parameter) is still
refused or warned about. Host target; bench/launch_kinds.py times the same
kinds. cuda's foreign arrays (CUDA Array Interface, DLPack, exchange API;
structs too) are tested against test/fakecuda in test_fake_driver.py, with a
kept CUDA Array Interface dict changed between launches."""

import warnings

import numpy as np
import pytest

import cuda.device as device
import pydev

pytestmark = pytest.mark.usefixtures("native", "host_target")

RNG = np.random.default_rng(35)


@device.struct
class Particle:
    pos: device.float32x3
    mass: float
    tag: device.int32
    alive: bool


@device.struct
class Nested:
    p: Particle
    w: device.float64


@device.kernel
def copy(out, a):
    i = device.tid(1)
    if i < a.size:
        out[i] = a[i]


@device.kernel
def particle_sum(out, a):
    i = device.tid(1)
    if i < a.size:
        p = a[i]
        out[i] = p.mass + p.pos.y * 2.0 + p.tag + (1.0 if p.alive else 0.0)


@device.kernel
def store(out, x):
    out[0] = x


@device.kernel
def store_vector(out, v):
    out[0] = v.x
    out[1] = v.y
    out[2] = v.z


@device.kernel
def store_particle(out, p):
    out[0] = p.pos.x
    out[1] = p.pos.z
    out[2] = p.mass
    out[3] = p.tag
    out[4] = 1.0 if p.alive else 0.0


@device.kernel
def store_nested(out, n):
    out[0] = n.p.pos.y
    out[1] = n.p.mass
    out[2] = n.w


@device.kernel
def store_complex(out, z):
    out[0] = z.real
    out[1] = z.imag


def launch(f, *args, block=1):
    device.launch(f, *args, grid=1, block=block, stream=pydev.default_stream())


def fast():
    return pydev.stats()["fast_launches"]


def launch_twice(f, out_of, arg_of, n=16):
    """Launches `f(out, arg)` twice with fresh arguments of the same types
    and poisoned outputs; asserts that the second launch took the fast path
    (and the first did not); returns each launch's (out, arg)."""
    got = []
    for k in range(2):
        out, arg = out_of(), arg_of()
        before = fast()
        launch(f, out, arg, block=n)
        assert fast() - before == k, f"launch {k + 1} of {f}: fast path {'not ' if k else ''}taken"
        got.append((out, arg))
    return got


def poisoned(n, dtype):
    return np.full(n, 77, dtype) if np.dtype(dtype).kind in "iub" else np.full(n, np.nan, dtype)


def random_array(dtype, n=16):
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return RNG.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(dtype)
    return RNG.standard_normal(n).astype(dtype)


def ml_dtypes_or_none():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return ml_dtypes


NUMBER_DTYPES = ["float32", "float64", "float16", "complex64", "complex128", "int8", "uint16", "int64", "uint64"]


@pytest.mark.parametrize("dtype", NUMBER_DTYPES + ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("form", ["numpy", "device_array"])
def test_arrays_of_every_element_type_take_the_fast_path(dtype, form):
    if dtype not in NUMBER_DTYPES:
        ml = ml_dtypes_or_none()
        if ml is None:
            pytest.skip("ml_dtypes is not installed")
        dtype = getattr(ml, dtype)
    wrap = (lambda a: a) if form == "numpy" else pydev.to_device
    host = {}

    def arg():
        host["a"] = random_array(dtype)
        return wrap(host["a"])

    (_, _), (out, _) = launch_twice(copy, lambda: wrap(poisoned(16, dtype)), arg)
    got = out if form == "numpy" else out.copy_to_host()
    assert got.tobytes() == host["a"].tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float16", "complex128", "int16"])
def test_dlpack_arrays_take_the_fast_path_on_the_host(dtype):
    from producers import DLPackOnly

    host = {}

    def arg():
        host["a"] = random_array(dtype)
        return DLPackOnly(host["a"])

    (_, _), (out, _) = launch_twice(copy, lambda: poisoned(16, dtype), arg)
    assert out.tobytes() == host["a"].tobytes()


DLPACK_DTYPES = ["float32", "float16", "complex128", "int16", "uint8", "bool"]


@pytest.mark.parametrize("dtype", DLPACK_DTYPES + ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_dlpack_arrays_of_every_element_type_take_the_fast_path_on_the_host(dtype):
    from producers import DLPackElements

    if dtype not in DLPACK_DTYPES:
        ml = ml_dtypes_or_none()
        if ml is None:
            pytest.skip("ml_dtypes is not installed")
        dtype = getattr(ml, dtype)
    host = {}

    def arg():
        host["a"] = random_array(dtype) if dtype != "bool" else RNG.integers(0, 2, 16).astype(bool)
        return DLPackElements(host["a"])

    (_, _), (out, a) = launch_twice(copy, lambda: DLPackElements(poisoned(16, dtype)), arg)
    assert a.exports == 1  # the fast path asked the producer, once a launch
    assert out.arr.tobytes() == host["a"].tobytes()


@pytest.mark.parametrize("dtype,lanes", [("float32", 2), ("float32", 3), ("float32", 4), ("int32", 4), ("float64", 2)])
def test_dlpack_vector_arrays_take_the_fast_path_on_the_host(dtype, lanes):
    from producers import DLPackElements

    host = {}

    def arg():
        host["a"] = random_array(dtype, 16 * lanes).reshape(16, lanes)
        return DLPackElements(host["a"], lanes)

    def out():
        return DLPackElements(poisoned(16 * lanes, dtype).reshape(16, lanes), lanes)

    (_, _), (got, _) = launch_twice(copy, out, arg)
    assert got.arr.tobytes() == host["a"].tobytes()


def random_particles(n=16):
    a = np.zeros(n, Particle.dtype)
    a["pos"] = RNG.standard_normal((n, 3))
    a["mass"] = RNG.standard_normal(n)
    a["tag"] = RNG.integers(-100, 100, n)
    a["alive"] = RNG.integers(0, 2, n).astype(bool)
    return a


@pytest.mark.parametrize("form", ["numpy", "device_array"])
def test_arrays_of_structs_take_the_fast_path(form):
    wrap = (lambda a: a) if form == "numpy" else pydev.to_device
    host = {}

    def arg():
        host["a"] = random_particles()
        return wrap(host["a"])

    (_, _), (out, _) = launch_twice(particle_sum, lambda: wrap(poisoned(16, np.float32)), arg)
    got = out if form == "numpy" else out.copy_to_host()
    a = host["a"]
    want = a["mass"] + a["pos"][:, 1] * np.float32(2) + a["tag"] + a["alive"]
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-6)


def test_strided_and_readonly_struct_arrays_key_apart():
    a = random_particles(32)
    out = poisoned(16, np.float32)
    launch(particle_sum, out, a, block=16)
    before = fast()
    launch(particle_sum, out, a[::2], block=16)  # strided: another type, general path
    assert fast() == before
    launch(particle_sum, out, a[1::2], block=16)
    assert fast() == before + 1
    b = a[1::2]
    want = b["mass"] + b["pos"][:, 1] * np.float32(2) + b["tag"] + b["alive"]
    np.testing.assert_allclose(out, want.astype(np.float32), rtol=1e-6)


def random_particle():
    pos = device.float32x3(*RNG.standard_normal(3))
    return Particle(pos, float(RNG.standard_normal()), int(RNG.integers(-1000, 1000)), bool(RNG.integers(0, 2)))


def test_vector_values_take_the_fast_path():
    (_, _), (out, v) = launch_twice(
        store_vector, lambda: poisoned(3, np.float32), lambda: device.float32x3(*RNG.standard_normal(3))
    )
    assert out.tolist() == [v.x, v.y, v.z]


def test_a_vector_changed_in_place_packs_its_new_lanes():
    v = device.float64x2(1.5, 2.5)
    out = poisoned(3, np.float64)

    @device.kernel
    def store2(out, v):
        out[0] = v.x
        out[1] = v.y

    launch(store2, out, v)
    v.y = 7.25
    before = fast()
    launch(store2, out, v)
    assert fast() == before + 1
    assert out[:2].tolist() == [1.5, 7.25]


def test_struct_values_take_the_fast_path():
    (_, _), (out, p) = launch_twice(store_particle, lambda: poisoned(5, np.float32), random_particle)
    want = [p.pos.x, p.pos.z, p.mass, p.tag, 1.0 if p.alive else 0.0]
    np.testing.assert_array_equal(out, np.array(want, np.float32))


def test_nested_struct_values_take_the_fast_path():
    def arg():
        return Nested(random_particle(), float(RNG.standard_normal()))

    (_, _), (out, n) = launch_twice(store_nested, lambda: poisoned(3, np.float64), arg)
    assert out.tolist() == [float(n.p.pos.y), float(n.p.mass), float(n.w)]


@pytest.mark.parametrize(
    "value_of, dtype",
    [
        (lambda: float(RNG.standard_normal()), np.float32),
        (lambda: int(RNG.integers(-(2**31), 2**31)), np.int32),
        (lambda: bool(RNG.integers(0, 2)), np.bool_),
        (lambda: np.float64(RNG.standard_normal()), np.float64),
        (lambda: np.uint8(RNG.integers(0, 256)), np.uint8),
    ],
    ids=["float", "int", "bool", "numpy_float64", "numpy_uint8"],
)
def test_numbers_to_a_kernel_take_the_fast_path(value_of, dtype):
    (_, _), (out, x) = launch_twice(store, lambda: poisoned(1, dtype), value_of)
    assert out[0] == dtype(x)


def test_complex_numbers_to_a_kernel_take_the_fast_path():
    def z():
        return complex(*RNG.standard_normal(2))

    (_, _), (out, x) = launch_twice(store_complex, lambda: poisoned(2, np.float32), z)
    assert out.tolist() == [np.float32(x.real), np.float32(x.imag)]


def test_an_int_outside_int32_still_raises_on_a_registered_kernel():
    out = poisoned(1, np.int32)
    launch(store, out, 5)
    with pytest.raises(OverflowError, match="does not fit in int32"):
        launch(store, out, 2**31)
    assert out[0] == 5


def program(sig):
    return pydev.Program(pydev.compile(store, sig, target="host", stage="pydev"), kernel="store")


# (signature, output dtype, Python values): each value converts to the
# parameter's type as NumPy's constructor of that type does.
PROGRAM_CASES = [
    ("int8[::1], int8", np.int8, [-128, 127, 5]),
    ("uint8[::1], uint8", np.uint8, [0, 255, 17]),
    ("int16[::1], int16", np.int16, [-(2**15), 2**15 - 1]),
    ("uint32[::1], uint32", np.uint32, [0, 2**32 - 1, 12345]),
    ("int64[::1], int64", np.int64, [-(2**63), 2**63 - 1, 1 << 40]),
    ("uint64[::1], uint64", np.uint64, [0, 2**64 - 1, 2**63]),
    ("float16[::1], float16", np.float16, [0.1, 1 + 2**-11 + 2**-40, 65504.0, -3, 2**-24]),
    ("float32[::1], float32", np.float32, [0.1, 2**60 + 2**36 + 1, -7, 1e-40]),
    ("float64[::1], float64", np.float64, [0.1, 2**53 + 1, 10**300, -2.5e-310]),
    ("complex64[::1], complex64", np.complex64, [0.1 + 0.2j, 3, -1.5]),
    ("complex128[::1], complex128", np.complex128, [0.1 - 0.3j, 2**70, 1e300]),
]


@pytest.mark.parametrize("sig, dtype, values", PROGRAM_CASES, ids=[c[0].split(",")[1].strip() for c in PROGRAM_CASES])
def test_python_numbers_to_every_program_parameter_type_take_the_fast_path(sig, dtype, values):
    prog = program(sig)
    out = poisoned(1, dtype)
    launch(prog, out, values[0])  # registers
    for v in values + [type(values[0])(RNG.integers(0, 100))]:
        for t in {type(values[0]), type(v)}:
            x = t(v)
            out[0] = 77 if dtype().dtype.kind in "iu" else np.nan
            before = fast()
            launch(prog, out, x)
            assert out[0].tobytes() == dtype(x).tobytes(), (x, out[0], dtype(x))
            # A Python type first seen here registers; then it is fast too.
            if fast() == before:
                launch(prog, out, x)
                assert fast() == before + 1, x
                assert out[0].tobytes() == dtype(x).tobytes()


@pytest.mark.parametrize(
    "sig, bad",
    [
        ("int8[::1], int8", [128, -129]),
        ("uint8[::1], uint8", [256, -1]),
        ("int32[::1], int32", [2**31, -(2**31) - 1]),
        ("uint64[::1], uint64", [2**64, -1]),
        ("int64[::1], int64", [2**63, -(2**63) - 1, 10**30]),
    ],
)
def test_ints_out_of_range_still_raise_on_a_registered_program(sig, bad):
    prog = program(sig)
    out = poisoned(1, np.dtype(sig.split("[")[0]))
    launch(prog, out, 1)
    launch(prog, out, 2)
    for v in bad:
        before = fast()
        with pytest.raises(OverflowError, match=f"{v} does not fit parameter 1"):
            launch(prog, out, v)
        assert fast() == before
    assert out[0] == 2


@pytest.mark.parametrize("sig, big", [("float16[::1], float16", 1e5), ("float32[::1], float32", 1e300)])
def test_floats_that_overflow_still_warn_on_a_registered_program(sig, big):
    prog = program(sig)
    out = poisoned(1, np.dtype(sig.split("[")[0]))
    launch(prog, out, 1.0)
    with pytest.warns(RuntimeWarning, match="overflow"):
        launch(prog, out, big)
    assert np.isinf(out[0])
    with pytest.raises(OverflowError):
        launch(prog, out, 10**400)  # an int too large for a float64
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        before = fast()
        launch(prog, out, 2.0)
        assert fast() == before + 1
    assert out[0] == 2.0


def test_a_bool_is_refused_by_a_registered_integer_program():
    prog = program("int32[::1], int32")
    out = poisoned(1, np.int32)
    launch(prog, out, 3)
    with pytest.raises(TypeError, match="does not match parameter 1"):
        launch(prog, out, True)


def test_program_values_take_the_fast_path():
    text = pydev.compile(store_particle, "float32[::1], Particle", target="host", stage="pydev")
    prog = pydev.Program(text, kernel="store_particle")
    (_, _), (out, p) = launch_twice(prog, lambda: poisoned(5, np.float32), random_particle)
    want = [p.pos.x, p.pos.z, p.mass, p.tag, 1.0 if p.alive else 0.0]
    np.testing.assert_array_equal(out, np.array(want, np.float32))


WATCHED = """
import cuda.device as device

SCALE = 2.0


@device.struct
class Body:
    mass: float
    pos: device.float32x3


@device.kernel
def weigh(out, bodies):
    i = device.tid(1)
    if i < bodies.size:
        out[i] = bodies[i].mass * SCALE + bodies[i].pos.y
"""


def test_the_fast_path_watches_the_globals_device_code_reads_not_attribute_names():
    # A kernel's fast path is left when a global its code reads changes
    # (SCALE, a constant compiled in); `bodies[i].mass` reads an attribute,
    # so a global named `mass`, `pos` or `y` is none of its inputs.
    ns = {}
    exec(compile(WATCHED, "<watched-globals>", "exec"), ns)
    weigh, body = ns["weigh"], ns["Body"]
    bodies = np.zeros(16, body.dtype)
    bodies["mass"] = RNG.standard_normal(16)
    bodies["pos"] = RNG.standard_normal((16, 3))

    def want(scale):
        return (bodies["mass"] * np.float32(scale) + bodies["pos"][:, 1]).astype(np.float32)

    def launched(fast_taken):
        out = poisoned(16, np.float32)
        before = fast()
        launch(weigh, out, bodies, block=16)
        assert fast() - before == fast_taken
        return out

    launched(0)
    np.testing.assert_allclose(launched(1), want(2.0), rtol=1e-6)
    ns.update(mass=1.0, pos=2.0, y=3.0)
    np.testing.assert_allclose(launched(1), want(2.0), rtol=1e-6)
    ns["SCALE"] = 3.0
    np.testing.assert_allclose(launched(0), want(3.0), rtol=1e-6)
    np.testing.assert_allclose(launched(1), want(3.0), rtol=1e-6)
