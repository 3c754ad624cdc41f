"""Line information for NVIDIA's tools (issue 19, item 7).

`@device.kernel(lineinfo=True)`, `@device.func(lineinfo=True)` (on a function
the kernel calls) or PYDEV_LINEINFO=1 put `.file`/`.loc` directives with the
Python file and lines in the PTX and change nothing else: the PTX without
them (and the labels the line table uses) is the PTX compiled without line
info, `.target` does not say `debug` (ptxas would compile unoptimised debug
code), and the SASS ptxas makes with -lineinfo is byte for byte the SASS of
the plain PTX. The option is part of both caches' keys. On a GPU,
compute-sanitizer names the Python line of an out-of-bounds write."""

import os
import re
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

import cuda.device as device
import pydev
from toolchain import ptxas
from pydev import _cache

HERE = os.path.dirname(os.path.abspath(__file__))


@device.func(lineinfo=True)
def twice(v):
    return v * 2.0  # LINE: twice


@device.kernel(lineinfo=True)
def scale(out, x, n):
    i = device.tid(1)  # LINE: tid
    if i < n:
        v = x[i] * 2.0  # LINE: load
        if v > 1.0:
            v = v - 1.0
        out[i] = v  # LINE: store


@device.kernel
def scale_plain(out, x, n):
    i = device.tid(1)
    if i < n:
        v = x[i] * 2.0
        if v > 1.0:
            v = v - 1.0
        out[i] = v


@device.kernel
def calls_twice(out, x):
    i = device.tid(1)
    out[i] = twice(x[i])


@device.kernel
def loops(out, x):
    i = device.tid(1)
    acc = 0.0
    for j in range(i % 7):
        acc += x[(i + j) % x.size]
        if acc > 3.0:
            break
    out[i] = device.shfl_xor_sync(-1, acc, 1)


@device.kernel
def float8_round_trip(out, x):
    i = device.tid(1)
    out[i] = device.float32(device.float8e4m3(x[i])) + device.float32(device.float8e5m2(x[i]))  # LINE: f8


def line_of(tag):
    with open(__file__) as f:
        for n, text in enumerate(f, 1):
            if text.rstrip().endswith(f"# LINE: {tag}"):
                return n
    raise AssertionError(tag)


def sig():
    x = np.ones(8, np.float32)
    return [x, x, np.int32(8)]


def files(ptx):
    return dict(re.findall(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', ptx, re.M))


def locs(ptx):
    return {(f, int(line)) for f, line in re.findall(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+", ptx, re.M)}


_NOT_CODE = re.compile(r"^\s*\.(loc|file)\s|^\$L__(func_begin|func_end|tmp)\d+:$|\.section\s+\.debug_macinfo")


def strip(ptx):
    return "\n".join(ln for ln in ptx.splitlines() if not _NOT_CODE.search(ln))


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv("PYDEV_LINEINFO", raising=False)


@pytest.mark.parametrize("chip", ["sm_70", "sm_80", "sm_90"])
def test_directives_name_the_python_lines(chip):
    ptx = pydev.compile(scale, sig(), target=chip)
    fs = files(ptx)
    assert list(fs.values()) == [__file__], fs  # one file, this one: nothing from the IR text ("-")
    (f,) = fs
    lines = {line for g, line in locs(ptx) if g == f}
    for tag in ("tid", "load", "store"):
        assert line_of(tag) in lines, (tag, sorted(lines))
    assert re.search(rf"^\.target {chip}$", ptx, re.M), "no ', debug': ptxas would compile debug code"
    assert ".debug_info" not in ptx and ".debug_abbrev" not in ptx


@pytest.mark.parametrize("chip", ["sm_70", "sm_90"])
def test_the_code_is_the_same_without_the_directives(chip):
    lines = pydev.compile(scale, sig(), target=chip)
    plain = pydev.compile(scale_plain, sig(), target=chip)
    assert ".loc" not in plain and ".file" not in plain
    assert strip(lines) == strip(plain.replace("scale_plain", "scale"))


def test_environment_variable_and_device_functions(monkeypatch):
    x = np.ones(8, np.float32)
    assert ".loc" not in pydev.compile(loops, [x, x], target="sm_90")
    monkeypatch.setenv("PYDEV_LINEINFO", "1")
    ptx = pydev.compile(loops, [x, x], target="sm_90")
    assert ".loc" in ptx and list(files(ptx).values()) == [__file__]
    monkeypatch.setenv("PYDEV_LINEINFO", "0")
    assert ".loc" not in pydev.compile(loops, [x, x], target="sm_90")
    # lineinfo=True on a device function the kernel calls: its line is there
    ptx = pydev.compile(calls_twice, [x, x], target="sm_90")
    assert line_of("twice") in {line for _, line in locs(ptx)}


def test_float8_helpers_have_no_line_of_the_pass_text(monkeypatch):
    """Mutation campaign: pydev-lower-float8's conversion helpers, parsed from
    the pass's own text, put `.file 2 "-"` in the line table; they now take
    the kernel's location and the calls' lines."""
    monkeypatch.setenv("PYDEV_LINEINFO", "1")
    x = np.ones(8, np.float32)
    ptx = pydev.compile(float8_round_trip, [x, x], target="sm_90")
    assert list(files(ptx).values()) == [__file__]
    assert line_of("f8") in {line for _, line in locs(ptx)}
    monkeypatch.setenv("PYDEV_LINEINFO", "0")
    assert strip(ptx) == strip(pydev.compile(float8_round_trip, [x, x], target="sm_90"))


def test_cache_keys_differ():
    k = ("src", {}, "float32[::1]", "sm_90", "ptx", "k", "compiler", "libdevice", ())
    assert _cache.cache_key(*k, lineinfo=True) != _cache.cache_key(*k)
    assert _cache.cache_key(*k, lineinfo=False) == _cache.cache_key(*k)


def test_host_launch_ignores_it(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "host")
    monkeypatch.setenv("PYDEV_LINEINFO", "1")
    rng = np.random.default_rng(19)
    x = rng.uniform(-2, 2, 64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    device.launch(scale, out, x, np.int32(64), grid=2, block=32, stream=pydev.default_stream())
    want = x * np.float32(2.0)
    want = np.where(want > 1.0, want - np.float32(1.0), want)
    np.testing.assert_array_equal(out, want)


def test_unknown_keyword_is_still_an_error():
    with pytest.raises(TypeError, match="lineinfx"):
        device.kernel(lineinfx=True)


def _elf_sections(data):
    """{name: bytes} of an ELF64 little-endian file (a cubin)."""
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx]
    names = data[strtab[4] : strtab[4] + strtab[5]]
    out = {}
    for h in heads:
        name = names[h[0] : names.index(b"\0", h[0])].decode()
        out[name] = data[h[4] : h[4] + h[5]] if h[1] != 8 else b""  # SHT_NOBITS
    return out


@pytest.mark.parametrize("chip", ["sm_70", "sm_90"])
def test_sass_is_unchanged(tmp_path, chip):
    exe = ptxas(chip)
    if exe is None:
        pytest.skip("no ptxas (make setup installs the nvidia-cuda-nvcc wheels)")
    lines = pydev.compile(scale, sig(), target=chip)
    plain = pydev.compile(scale_plain, sig(), target=chip).replace("scale_plain", "scale")
    texts = []
    for name, ptx, flags in (("lines", lines, ["-lineinfo"]), ("plain", plain, [])):
        src = tmp_path / f"{name}.ptx"
        src.write_text(ptx)
        cubin = tmp_path / f"{name}.cubin"
        subprocess.run([exe, f"-arch={chip}", *flags, str(src), "-o", str(cubin)], check=True)
        sections = _elf_sections(cubin.read_bytes())
        texts.append(sections[".text.scale"])
        if name == "lines":
            assert ".debug_line" in sections  # what the tools read
    assert texts[0] == texts[1]


OOB = """
import numpy as np
import cuda.device as device
import pydev


@device.kernel(lineinfo=True)
def oob(out):
    i = device.tid(1)
    out[i + 100000000] = 1.0  # the faulting line


out = pydev.zeros(32, np.float32)
device.launch(oob, out, grid=1, block=32, stream=pydev.default_stream())
pydev.default_stream().synchronize()
"""


def test_compute_sanitizer_names_the_python_line(tmp_path):
    from conftest import gpu_available

    if not gpu_available():
        pytest.skip("no CUDA driver or device")
    sanitizer = shutil.which("compute-sanitizer")
    if sanitizer is None:
        pytest.skip("compute-sanitizer is not installed")
    script = tmp_path / "oob_kernel.py"
    script.write_text(OOB)
    env = dict(os.environ, PYDEV_TARGET="cuda", PYDEV_CACHE="0")
    r = subprocess.run(
        [sanitizer, "--tool", "memcheck", sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    report = r.stdout + r.stderr
    line = OOB.splitlines().index("    out[i + 100000000] = 1.0  # the faulting line") + 1
    assert "Invalid __global__ write" in report, report[-3000:]
    assert f"oob_kernel.py:{line}" in report, report[-3000:]
