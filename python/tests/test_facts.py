"""The facts of device code that Rust and Python both need (the SM
architectures, memory orders and scopes, atomic methods, device-only names,
the math table, the small float formats, the host adapter prefix, the
numeric promotion table) have one definition, in the dialect and frontend
crates. The native module exports
them (`pydev._pydev.facts()`); python/pydev/_facts.py is GENERATED from that
export, so that `import cuda.device` reads them without loading native code.
This test fails when the file is stale; refresh it with

    python3 python/tests/test_facts.py --write

(after `make wheel`, which installs the native module it reads). Where
Python keeps its own implementation of a fact (the rounding of bfloat16 and
float8 without ml_dtypes), an agreement test checks it against Rust's."""

import keyword
import math
import os
import random
import struct
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FACTS = os.path.join(ROOT, "python", "pydev", "_facts.py")

# name: what it is, in the order the file lists them.
DOCS = {
    "SM_ARCHS": "the CUDA architectures of `device.smXX` selectors, in capability order (pydev_dialect::SM_ARCHS)",
    "MEMORY_ORDERS": "the memory orders of atomics and fences (the dialect's MemoryOrder)",
    "SCOPES": "the thread scopes of atomics and fences (the dialect's Scope)",
    "ATOMIC_METHODS": "the methods of an atomic reference (frontend builtins::ATOMIC_METHODS)",
    "ATOMIC_RMW_METHODS": "{method: the dialect's AtomicRMWKind} of the read-modify-write methods",
    "DEVICE_ONLY": "the names of cuda.device that only device code can use (builtins::DEVICE_ONLY)",
    "DEVICE_NAMES": "the other names of cuda.device that device code resolves (builtins::DEVICE_NAMES)",
    "MATH_FUNCTIONS": (
        "{name: (arity, op)} of the `math` functions of device code (builtins::MATH_FUNCTIONS): op\n"
        "# is the MLIR op, or ('arith.cmpf', predicate, abs) for a float-class test of x with itself\n"
        "# (abs False) or of |x| with +inf (abs True)"
    ),
    "SMALL_FLOATS": "{name: (exponent bits, mantissa bits, finite only)} (pydev_dialect::float::SMALL_FLOATS)",
    "HOST_ADAPTER_PREFIX": "the symbol prefix of the host's C-ABI adapters of external functions",
    "RAISE_FUNCTION": "the function device code calls to raise a Python exception (pydev_dialect::abi::RAISE)",
    "RAISED_FUNCTION": "whether the calling thread raised one in this launch (pydev_dialect::abi::RAISED)",
    "PROMOTING_OPS": "{op mnemonic: its kind in PROMOTION} of the promoting ops (pydev_dialect::promotion::OPS)",
    "PROMOTION": (
        "{kind: {(lhs type, rhs type): result type}} of the promoting ops (pydev_dialect::promotion::result):\n"
        "# the one table the dialect's verifier, the frontends and pydev.ir's operators follow"
    ),
}


def generate(facts):
    """The text of python/pydev/_facts.py for the dict `facts`."""
    if set(facts) != set(DOCS):
        raise AssertionError(f"facts() and this generator disagree on the names: {set(facts) ^ set(DOCS)}")
    lines = [
        '"""The facts of device code that the Rust crates define once and the',
        "Python package needs too.",
        "",
        "GENERATED from `pydev._pydev.facts()` (python/src/facts.rs) by",
        "python/tests/test_facts.py (`python3 python/tests/test_facts.py --write`),",
        'which fails when this file is stale. Do not edit."""',
    ]
    for name, doc in DOCS.items():
        value = facts[name]
        lines += ["", f"# {doc}."]
        if isinstance(value, dict):
            lines.append(f"{name} = {{")
            lines += [f"    {k!r}: {v!r}," for k, v in value.items()]
            lines.append("}")
        elif isinstance(value, tuple) and len(repr(value)) + len(name) > 100:
            lines.append(f"{name} = (")
            lines += [f"    {v!r}," for v in value]
            lines.append(")")
        else:
            lines.append(f"{name} = {value!r}")
    return "\n".join(lines) + "\n"


def native_facts():
    from pydev import _native

    try:
        return _native.get().facts()
    except (ImportError, AttributeError) as e:
        pytest.skip(f"the native module (with facts()) is not installed: {e}")


def test_facts_file_is_generated_from_the_rust_definitions():
    with open(FACTS) as f:
        assert f.read() == generate(native_facts()), (
            "python/pydev/_facts.py is stale: run python3 python/tests/test_facts.py --write"
        )


def test_python_reads_the_generated_facts():
    import cuda.device as device
    from pydev import _facts, _host_link, _ods, _types
    from pydev.numba import _builtins

    assert device.SM_ARCHS == _facts.SM_ARCHS
    assert all(isinstance(getattr(device, f"sm{a}"), device.SMSelector) for a in _facts.SM_ARCHS)
    assert device.DEVICE_ONLY == _facts.DEVICE_ONLY
    for name in _facts.DEVICE_ONLY + _facts.DEVICE_NAMES:
        assert hasattr(device, name), f"cuda.device has no {name}, which device code resolves"
    # The dialect's enums, as ODS has them (pydev.ir's table).
    assert _facts.MEMORY_ORDERS == _ods.ENUMS["memory_order"]
    assert _facts.SCOPES == _ods.ENUMS["scope"]
    assert tuple(_facts.ATOMIC_RMW_METHODS.values()) == _ods.ENUMS["atomic_rmw_kind"]
    for method, kind in _facts.ATOMIC_RMW_METHODS.items():
        assert method == (kind + "_" if keyword.iskeyword(kind) else kind) and method in _facts.ATOMIC_METHODS
    for method in _facts.ATOMIC_METHODS:
        assert callable(getattr(_types.Atomic, method))
    assert _host_link.ADAPTER_PREFIX == _facts.HOST_ADAPTER_PREFIX
    assert set(_facts.SMALL_FLOATS) - {"float16"} == set(_types._SOFT_FORMATS)
    # pydev.numba: every math function of the table, and the atomics.
    for name, (arity, op) in _facts.MATH_FUNCTIONS.items():
        if hasattr(math, name):
            assert _builtins.lookup(getattr(math, name)) is not None, name
    for method in _facts.ATOMIC_RMW_METHODS:
        assert method in _builtins.ATOMICS


def test_import_of_the_facts_loads_no_native_code():
    import subprocess

    code = "import sys, cuda.device, pydev._facts; print(any(m.endswith('._pydev') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out


# --- small-float rounding: Python's stand-in agrees with Rust's one rounding ---------------


def _edge_values(fmt):
    ebits, mbits, finite_only = fmt
    bias = (1 << (ebits - 1)) - 1
    tiny = 2.0 ** (1 - bias - mbits)  # the smallest subnormal
    emax = (1 << ebits) - 1 - bias - (0 if finite_only else 1)
    top = 2.0**emax * (2 - 2.0 ** (1 - mbits) if finite_only else 2 - 2.0**-mbits)
    ulp_top = 2.0 ** (emax - mbits)
    vals = [0.0, -0.0, math.inf, -math.inf, tiny, tiny / 2, tiny * 1.5, tiny * 2.5, tiny / 2 * 1.0000001]
    vals += [top, top + ulp_top / 2, top + ulp_top / 2 * 0.999999, top + ulp_top, 1e300, 5e-324, -5e-324]
    vals += [2.0 ** (1 - bias), 2.0 ** (1 - bias) * (1 - 2.0 ** -(mbits + 1)), 1.0, 1.0 + 2.0 ** -(mbits + 1)]
    vals += [1.0 + 3 * 2.0 ** -(mbits + 1), 0.1, 1 / 3, 65504.0, 65520.0, 448.0, 464.0, 57344.0, 61440.0]
    return vals + [-v for v in vals]


def _random_values(rng, n):
    vals = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:  # any float64 bit pattern
            vals.append(struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0])
        elif kind < 0.8:  # around the small formats' range
            vals.append(rng.choice((-1, 1)) * rng.random() * 2.0 ** rng.randint(-30, 20))
        else:  # exactly halfway between two neighbours of some format
            vals.append(rng.choice((-1, 1)) * (2 * rng.randint(0, 1 << 12) + 1) * 2.0 ** rng.randint(-30, 10))
    return vals


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float8e4m3", "float8e5m2"])
def test_small_float_rounding_agrees_with_rust(name):
    from pydev import _facts, _types

    native_facts()  # skips without the native module
    from pydev import _native

    native = _native.get()
    rng = random.Random(20240530)
    values = _edge_values(_facts.SMALL_FLOATS[name]) + _random_values(rng, 20000)
    values = [v for v in values if not math.isnan(v)]

    def python_bits(vals):
        if name == "float16":  # NumPy's own conversion, from float64 directly
            with np.errstate(over="ignore"):
                return [int(b) for b in np.array(vals, dtype=np.float64).astype(np.float16).view(np.uint16)]
        return [_types.soft_encode(v, name) for v in vals]

    rust = native.small_float_bits(name, values)
    bad = [(v, hex(p), hex(r)) for v, p, r in zip(values, python_bits(values), rust) if p != r]
    assert not bad, f"{len(bad)} values round differently, e.g. {bad[:5]}"
    # A NaN stays a NaN of its sign: the canonical quiet one for a float64
    # NaN without payload (Rust keeps a payload's top bits, as hardware does).
    ebits, mbits, _ = _facts.SMALL_FLOATS[name]
    nans = [math.nan, -math.nan, struct.unpack("<d", struct.pack("<Q", 0xFFF0000000000001))[0]]
    for nan, r, p in zip(nans, native.small_float_bits(name, nans), python_bits(nans)):
        assert r >> (ebits + mbits) == p >> (ebits + mbits) == (math.copysign(1, nan) < 0), (name, nan)
        decoded = float(np.uint16(r).view(np.float16)) if name == "float16" else _types.soft_decode(r, name)
        assert math.isnan(decoded), (name, hex(r))
        if struct.pack("<d", nan)[:6] == bytes(6):
            assert r == p, (name, hex(r), hex(p))


if __name__ == "__main__":
    from pydev import _native

    text = generate(_native.get().facts())
    if sys.argv[1:] == ["--write"]:
        with open(FACTS, "w") as f:
            f.write(text)
        print("wrote", FACTS)
    else:
        print(text, end="")


def test_decorator_keywords_agree_with_the_frontend(tmp_path):
    # cuda.device's decorators check their keywords in Python; the Rust
    # frontend reads the same decorators from the source and names the
    # keywords it knows in its error: both lists must be the same.
    cuda_device = pytest.importorskip("cuda.device")
    from pydev import _native

    if not _native.available():
        pytest.skip("needs the native module")
    path = tmp_path / "bogus.py"
    source = "import cuda.device as device\n@device.kernel(bogus=True)\ndef k(out):\n    out[0] = 1\n"
    path.write_text(source)
    with pytest.raises(_native.error_class("CompileError")) as e:
        _native.get().compile(str(path), source, "k", "float32[::1]", {}, "host", "pydev")
    hint = str(e.value).split("the keywords are", 1)[1]
    named = sorted(w.split("=")[0].strip(" ,") for w in hint.replace(" and ", ", ").split(", "))
    assert named == sorted(cuda_device._DECORATOR_KEYWORDS), (named, hint)
