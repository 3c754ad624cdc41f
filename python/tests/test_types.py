"""Heterogeneous types in host Python: fixed-format numbers, vectors,
structs (CUDA C++ layouts as NumPy dtypes), align(), WarpMask, and the
bfloat16/float8 stand-ins. No native module needed."""

import math

import numpy as np
import pytest

import cuda.device as device
from pydev import _types


# --- numbers -----------------------------------------------------------------------------


def test_integers_convert_like_c_casts():
    assert device.int8(300) == 44 and type(device.int8(300)) is np.int8
    assert device.int8(-129) == 127
    assert device.uint8(-1) == 255
    assert device.uint16(70000) == 70000 - 65536
    assert device.int32(2**31) == -(2**31)
    assert device.int64(2**64 + 5) == 5
    assert device.uint64(-1) == 2**64 - 1
    assert device.int32(3.99) == 3 and device.int32(-3.99) == -3
    assert device.int16(np.float32(-7.5)) == -7
    assert device.int8(True) == 1
    assert device.uint32(np.int64(-2)) == 2**32 - 2
    with pytest.raises(ValueError, match="nan"):
        device.int32(float("nan"))
    np.testing.assert_array_equal(device.int8(np.array([1, 255, 256])), np.array([1, -1, 0], np.int8))


def test_numbers_are_numpy_scalar_types_and_dtypes():
    for name in [
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ]:
        t = getattr(device, name)
        assert np.dtype(t) == np.dtype(name) and t.dtype == np.dtype(name)
        assert isinstance(np.dtype(name).type(1), t)
        assert issubclass(np.dtype(name).type, t)
        assert np.zeros(2, dtype=t).dtype == np.dtype(name)
    assert type(device.float32(1.5)) is np.float32 and device.float32(1.5) == 1.5
    assert device.float16(65520.0) == np.inf  # rounds to nearest even like a C conversion
    assert device.complex64(1 + 2j) == np.complex64(1 + 2j)
    assert not isinstance(np.float64(1.0), device.float32)


def test_bfloat16_and_float8_on_the_host():
    for t in (device.bfloat16, device.float8e4m3, device.float8e5m2):
        assert np.dtype(t).itemsize == (2 if t is device.bfloat16 else 1)
        assert _types.dtype_name(np.dtype(t)) == t.__name__
    assert float(device.bfloat16(1.0)) == 1.0
    assert float(device.bfloat16(3.3)) == 3.296875
    assert float(device.float8e4m3(1000.0)) != float(device.float8e4m3(1000.0))  # e4m3fn: overflow is NaN
    assert float(device.float8e4m3(464.0)) == 448.0
    assert float(device.float8e5m2(1e6)) == math.inf


@pytest.mark.parametrize("fmt", ["bfloat16", "float8e4m3", "float8e5m2"])
def test_software_float_formats_round_like_ml_dtypes(fmt):
    # The stand-in used without ml_dtypes: bits identical to ml_dtypes'.
    ml = pytest.importorskip("ml_dtypes")
    ref = {"bfloat16": ml.bfloat16, "float8e4m3": ml.float8_e4m3fn, "float8e5m2": ml.float8_e5m2}[fmt]
    bits_type = np.uint16 if fmt == "bfloat16" else np.uint8
    rng = np.random.default_rng(11)
    xs = np.concatenate(
        [
            rng.standard_normal(3000) * 10.0 ** rng.integers(-10, 7, 3000),
            [0.0, -0.0, np.inf, -np.inf, 448, 464, 465, 480, 57344, 61439, 61440, 1e-40, -(2.0**-9)],
        ]
    )
    for x in xs:
        want = int(np.array(x).astype(ref).view(bits_type))
        assert _types.soft_encode(x, fmt) == want, x
        back = float(np.array(want, bits_type).view(ref))
        assert _types.soft_decode(want, fmt) == back or (math.isnan(back) and math.isnan(_types.soft_decode(want, fmt)))
    assert math.isnan(_types.soft_decode(_types.soft_encode(math.nan, fmt), fmt))


def test_software_float_stand_in_type():
    bf = _types._soft_type("bfloat16")
    x = bf(3.3)
    assert float(x) == 3.296875 and x.tobytes() == (0x4053).to_bytes(2, "little")
    assert np.dtype(bf).metadata == {"pydev": "bfloat16"} and _types.dtype_name(np.dtype(bf)) == "bfloat16"
    assert _types.scalar_arg(x, 0) == ("bfloat16", b"\x53\x40", 2)
    with pytest.raises(AttributeError):
        x._bits = 1


# --- vectors ------------------------------------------------------------------------------


def test_vector_types_of_the_spec_exist():
    for base in [
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float8e4m3",
        "float8e5m2",
        "float16",
        "bfloat16",
        "float32",
        "float64",
    ]:
        for n in range(1, 5):
            t = getattr(device, f"{base}x{n}")
            assert t.size == n and t.dtype == np.dtype(getattr(device, base))
            v = t(*range(1, n + 1))
            assert len(v) == n and [float(e) for e in v] == list(range(1, n + 1))


def test_vector_lanes_indexing_iteration_equality():
    v = device.float32x4(1, 2, 3, 4)
    assert (v.x, v.y, v.z, v.w) == (1, 2, 3, 4) and type(v.x) is np.float32
    assert v[0] == 1 and v[-1] == 4 and list(v) == [1, 2, 3, 4] and len(v) == 4 and v.size == 4
    assert v.dtype == np.float32  # the element type (spec: Vector.dtype)
    assert v == device.float32x4(1, 2, 3, 4) and v != device.float32x4(1, 2, 3, 5)
    assert v != device.int32x4(1, 2, 3, 4)
    assert device.float32x4((1, 2, 3, 4)) == v
    assert repr(device.int8x2(1, 2)) == "int8x2(1, 2)"
    with pytest.raises(AttributeError, match="no lane 'z'"):
        device.float32x2(1, 2).z
    with pytest.raises(IndexError):
        v[4]
    with pytest.raises(TypeError, match="takes 4 values, got 3"):
        device.float32x4(1, 2, 3)
    w = device.int8x2(1, 2)
    w[1] = 300  # host vectors update in place; lanes convert like C
    w.x = 7
    assert list(w) == [7, 44]
    assert v.tobytes() == np.array([1, 2, 3, 4], np.float32).tobytes()
    assert device.float32x4.frombytes(v.tobytes()) == v


def test_dim3_is_a_uint32x3():
    assert issubclass(device.Dim3, device.uint32x3)
    d = device.Dim3(1, 2, 3)
    assert (d.x, d.y, d.z) == (1, 2, 3) and d.dtype == np.uint32


# --- WarpMask -----------------------------------------------------------------------------


def test_warp_mask_bits():
    m = device.WarpMask(-1)
    assert isinstance(m, np.int32) and all(m[i] for i in range(32))
    m = device.WarpMask(0b101)
    assert (m[0], m[1], m[2]) == (True, False, True)
    assert device.WarpMask(0xFFFFFFFF) == -1
    with pytest.raises(TypeError, match="immutable"):
        m[1] = True
    with pytest.raises(IndexError):
        m[32]
    assert _types.scalar_arg(m, 0)[0] == "WarpMask"


# --- structs ------------------------------------------------------------------------------


def test_struct_layout_matches_cuda_cpp():
    @device.struct
    class P:
        pos: device.float32x4
        mass: float

    assert P.dtype.itemsize == 32 and P.dtype.fields["pos"][1] == 0 and P.dtype.fields["mass"][1] == 16
    assert P.dtype.fields["pos"][0] == np.dtype((np.float32, (4,)))
    assert P._alignment == 16

    @device.struct
    class Mixed:
        a: device.int8
        b: device.float64
        c: device.int16
        d: device.float32x3  # float3: 12 bytes aligned to 4
        e: bool
        f: device.complex128

    assert [Mixed.dtype.fields[n][1] for n in "abcdef"] == [0, 8, 16, 20, 32, 40]
    assert Mixed.dtype.itemsize == 56

    @device.struct
    class Halves:
        h: device.float16x2  # __half2: aligned to 4
        c: device.int8
        d: device.float64x2  # double2: aligned to 16
        z: complex  # complex64: aligned to 4

    assert [Halves.dtype.fields[n][1] for n in "hcdz"] == [0, 4, 16, 32] and Halves.dtype.itemsize == 48


def test_struct_align_and_nested_structs():
    @device.struct(align=16)
    class C:
        real: float
        imag: float

    assert C.dtype.itemsize == 16 and C._alignment == 16

    @device.struct
    class Outer:
        tag: device.int8
        c: C
        n: device.int8

    # the nested struct keeps its 16-byte alignment
    assert [Outer.dtype.fields[n][1] for n in ("tag", "c", "n")] == [0, 16, 32] and Outer.dtype.itemsize == 48

    @device.struct
    class Padded:
        a: device.int8
        b: device.align(device.float32, 16)
        c: device.align(C, 32)
        d: device.int8

    assert [Padded.dtype.fields[n][1] for n in "abcd"] == [0, 16, 32, 64] and Padded.dtype.itemsize == 96
    # an aligned number field is read as the number, at its aligned offset
    assert Padded.dtype.fields["b"][0] == np.float32 and Padded.dtype.fields["c"][0] == C.dtype
    assert device.align(device.float32, 16).dtype.itemsize == 16  # as an element type: padded
    p = Padded(1, 2.5, C(3.0, 4.0), 5)
    raw = p.tobytes()
    assert len(raw) == 96 and raw[0] == 1 and raw[64] == 5
    assert np.frombuffer(raw[16:20], np.float32)[0] == 2.5 and tuple(np.frombuffer(raw[32:40], np.float32)) == (
        3.0,
        4.0,
    )
    assert Padded.from_record(np.frombuffer(raw, Padded.dtype)[0]) == p
    with pytest.raises(ValueError, match="power of two"):
        device.struct(align=12)
    with pytest.raises(ValueError, match="power of two"):
        device.align(device.float32, 3)


def test_struct_construction_fields_and_immutability():
    @device.struct
    class Counter:
        n: int
        step: float = 0.5

    c = Counter(3)
    assert c.n == 3 and type(c.n) is np.int32 and c.step == np.float32(0.5)
    assert Counter(n=1, step=2) == Counter(1, 2.0)
    assert Counter.underlying.__name__ == "Counter" and Counter.underlying is not Counter
    with pytest.raises(AttributeError, match="immutable"):
        c.n = 4
    with pytest.raises(TypeError, match="missing field 'n'"):
        Counter()
    with pytest.raises(TypeError, match="no field 'm'"):
        Counter(1, m=2)
    with pytest.raises(TypeError, match="twice"):
        Counter(1, n=2)
    with pytest.raises(TypeError, match="takes 2 field values, got 3"):
        Counter(1, 2, 3)
    d = c._replace(step=1.5)
    assert (d.n, d.step, c.step) == (3, 1.5, 0.5)
    assert {c: 1}[Counter(3)] == 1  # structs are hashable values
    assert Counter(300).tobytes() == np.array([(300, 0.5)], Counter.dtype).tobytes()


def test_struct_fields_convert_and_methods_work_on_the_host():
    @device.struct
    class Body:
        pos: device.float32x2
        id: device.uint8

        @device.func
        def moved(self, dx):
            return Body(device.float32x2(self.pos.x + dx, self.pos.y), self.id)

    b = Body((1.0, 2.0), 257)
    assert b.pos == device.float32x2(1, 2) and b.id == 1
    assert b.moved(1.5).pos.x == 2.5
    arr = np.zeros(3, Body.dtype)
    arr[1] = np.frombuffer(b.tobytes(), Body.dtype)[0]
    assert Body.from_record(arr[1]) == b


def test_struct_string_annotations(tmp_path, monkeypatch):
    (tmp_path / "pep563_structs.py").write_text(
        "from __future__ import annotations\n"
        "import cuda.device as device\n"
        "@device.struct\n"
        "class S:\n"
        "    a: device.int16\n"
        "    b: device.float64\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import pep563_structs

    assert pep563_structs.S.dtype.fields["b"][1] == 8


def test_struct_rejects_non_heterogeneous_fields():
    with pytest.raises(TypeError, match="field 'x'"):

        @device.struct
        class Bad:
            x: list


def test_c_layout_check_of_structured_dtypes():
    assert _types.c_layout_mismatch(np.dtype([("a", "i1"), ("b", "f8")], align=True)) is None
    assert "offset 1" in _types.c_layout_mismatch(np.dtype([("a", "i1"), ("b", "f8")]))
    assert "itemsize" in _types.c_layout_mismatch(np.dtype({"names": ["a"], "formats": ["f4"], "itemsize": 12}))
    assert "sub-array" in _types.c_layout_mismatch(np.dtype([("m", "f4", (3, 3))]))


# --- values passed to kernels ---------------------------------------------------------------


def test_scalar_arguments_pack_like_c():
    assert _types.scalar_arg(3, 0) == ("int32", np.int32(3).tobytes(), 4)
    assert _types.scalar_arg(True, 0) == ("bool", b"\x01", 1)
    assert _types.scalar_arg(2.5, 0) == ("float32", np.float32(2.5).tobytes(), 4)
    assert _types.scalar_arg(1 + 2j, 0) == ("complex64", np.complex64(1 + 2j).tobytes(), 4)
    assert _types.scalar_arg(np.uint8(3), 0) == ("uint8", b"\x03", 1)
    assert _types.scalar_arg(np.float64(1.5), 0)[0] == "float64"
    assert _types.scalar_arg(np.complex128(1j), 0)[2] == 8
    with pytest.raises(OverflowError, match="argument 4: .* does not fit in int32"):
        _types.scalar_arg(2**40, 4)
    with pytest.raises(TypeError, match="argument 2: a str cannot be passed"):
        _types.scalar_arg("x", 2)


def test_tuples_pack_as_c_structs():
    t, b, a = _types.scalar_arg((np.int8(1), 2.0), 0)
    assert t == "(int8, float32)" and len(b) == 8 and b[0] == 1 and a == 4
    t, b, a = _types.scalar_arg((np.int8(1), np.complex64(1j)), 0)  # complex64 aligns to 4
    assert t == "(int8, complex64)" and len(b) == 12 and a == 4
    t, b, a = _types.scalar_arg((np.int8(1), device.float64x3(1, 2, 3)), 0)  # double3 aligns to 8
    assert len(b) == 32 and a == 8
    t, b, _ = _types.scalar_arg((1, (np.int8(2), 3.0)), 0)
    assert t == "(int32, (int8, float32))" and len(b) == 12
    v = device.float32x2(1.0, 2.0)
    assert _types.scalar_arg(v, 0) == ("float32x2", np.array([1, 2], np.float32).tobytes(), 8)
    assert _types.scalar_arg(device.float32x3(1, 2, 3), 0)[2] == 4

    @device.struct(align=16)
    class S:
        x: float

    # A class defined in a function is named by where it is (issue 30).
    name = f"test_tuples_pack_as_c_structs.<locals>.S@{S._site[1]}"
    assert _types.scalar_arg(S(1.0), 0) == (name, np.float32(1).tobytes() + bytes(12), 16)
