"""The kernel's own LTO-IR (issue 17: `pydev.compile(..., stage="ltoir")`):
the runtime writes the cuda pipeline's LLVM 22 module as NVVM IR in LLVM 7
syntax (stage "nvvm-ir", runtime/src/nvvm_ir.rs), libNVVM compiles it, and
nvJitLink optimises it with NVRTC's LTO-IR of `link=` files, inlining the
C++ into the Python kernel. Checked without a GPU: libNVVM's PTX of every
kernel has pydev's prototypes (the `.param` sizes and alignments a launch
and a C++ caller rely on) and assembles; a GPU runs linked kernels in
test_interop_cuda.py."""

import os
import re
import shlex
import subprocess
import sys

import pytest

import cuda.device as device
import pydev
import toolchain
from pydev import _toolchain

pytestmark = pytest.mark.usefixtures("native")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GPU = os.path.join(ROOT, "test", "gpu")
INLINE_CU = os.path.join(ROOT, "test", "interop", "inline_me.cu")


@pytest.fixture
def cudalink():
    from pydev import _cudalink

    if not _cudalink.available("nvrtc", "nvjitlink", "nvvm"):
        pytest.skip(
            "NVRTC / nvJitLink / libNVVM are not installed (pip install nvidia-cuda-nvrtc nvidia-nvjitlink nvidia-nvvm; scripts/setup.sh does)"
        )
    return _cudalink


def _gpu_module(name):
    """test/gpu/NAME.py, by path (python/tests has a `kernels` module too)."""
    import importlib.util

    key = f"_test_gpu_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, os.path.join(GPU, f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


def prototypes(ptx):
    """name => the parameter list of each visible or external .entry/.func
    (internal ones, libdevice's helpers, are the optimiser's business;
    parameter names and the `.ptr` annotations LLVM adds to pointer
    parameters dropped; a 2-byte `.b16` and `.align 2 .b8 [2]` are the same
    launch and call ABI)."""
    out = {}
    for m in re.finditer(
        r"^(?:\.visible|\.weak|\.extern)\s*\.(entry|func)\s*(\([^)]*\))?\s*([\w$]+)\s*\(([^)]*)\)", ptx, re.M
    ):
        text = re.sub(r"\s+", " ", (m.group(2) or "") + m.group(4)).replace(m.group(3) + "_param", "P")
        text = re.sub(r"\.ptr( \.\w+)? \.align \d+ ", "", text)
        text = re.sub(r"\.align 2 \.b8 (\w+)\[2\]|\.u16 (\w+)", lambda m: f".b16 {m.group(1) or m.group(2)}", text)
        out[m.group(3)] = (m.group(1), text.strip())
    return out


def test_every_gpu_kernel_has_pydevs_prototypes_through_libnvvm(cudalink, tmp_path):
    kernels, run = _gpu_module("kernels"), _gpu_module("run")
    ptxas = toolchain.ptxas()
    for name, sig in run.SIGNATURES.items():
        k = getattr(kernels, name)
        text = pydev.compile(k, sig, target="sm_90", stage="nvvm-ir")
        assert not re.search(r"\bptr\b", text), name  # typed pointers only (LLVM 7)
        theirs = cudalink.nvvm_ltoir(text, "sm_90", f"kernel '{name}'", ptx=True)
        ours = pydev.compile(k, sig, target="sm_90", stage="ptx")
        assert prototypes(theirs) == prototypes(ours), name
        assert prototypes(ours)[name][0] == "entry", name
        if ptxas:
            (tmp_path / f"{name}.ptx").write_text(theirs)
            r = subprocess.run(
                [ptxas, "-arch=sm_90", str(tmp_path / f"{name}.ptx"), "-o", str(tmp_path / f"{name}.cubin")],
                capture_output=True,
                text=True,
            )
            assert r.returncode == 0, (name, r.stderr)


def _lit_compiles():
    """The sm_90 pydevc command lines of the lit suite's Python-to-PTX tests."""
    seen, out = set(), []
    for folder in ("pipeline", "frontend"):
        d = os.path.join(ROOT, "test", folder)
        for f in sorted(os.listdir(d)):
            if not f.endswith(".py"):
                continue
            for line in open(os.path.join(d, f)):
                m = re.match(r"#\s*RUN:\s*pydevc (.*?)(\s+-o\s+\S+)?(\s*\|.*)?$", line)
                if not m:
                    continue
                args = shlex.split(m.group(1).replace("%S", d).replace("%s", os.path.join(d, f)))
                if "--target" in args and args[args.index("--target") + 1] != "sm_90":
                    continue
                for flag in ("--emit", "--opt-level"):
                    if flag in args:
                        i = args.index(flag)
                        del args[i : i + 2]
                args = [a for a in args if a not in ("--line-info", "--debuginfo")]
                if tuple(args) not in seen:
                    seen.add(tuple(args))
                    out.append(args)
    return out


def test_the_lit_suites_kernels_through_libnvvm(cudalink, tmp_path):
    """Every kernel the lit suite compiles for sm_90 (atomics, barriers,
    votes, shuffles, vectors, structs, aligned parameters, float8, local
    arrays...): stage nvvm-ir is accepted by libNVVM with pydev's
    prototypes (bfloat16 values as their bits), and ptxas assembles it."""
    pydevc = os.path.join(os.environ.get("PYDEV_BIN_DIR") or os.path.join(ROOT, "target", "debug"), "pydevc")
    if not os.path.exists(pydevc):
        pytest.skip("pydevc is not built (make build)")
    env = dict(os.environ, PYDEV_LIBDEVICE=os.environ.get("PYDEV_LIBDEVICE") or _toolchain.libdevice() or "")
    checked, failures = 0, []
    ptxas = toolchain.ptxas()
    for args in _lit_compiles():
        r = subprocess.run([pydevc, *args, "--emit", "nvvm-ir"], capture_output=True, text=True, env=env)
        if r.returncode:
            if subprocess.run([pydevc, *args, "--emit", "llvm"], capture_output=True, env=env).returncode == 0:
                failures.append((args, r.stderr[-400:]))
            continue
        ours = subprocess.run([pydevc, *args, "--emit", "ptx"], capture_output=True, text=True, env=env).stdout
        try:
            theirs = cudalink.nvvm_ltoir(r.stdout, "sm_90", " ".join(args), ptx=True)
        except Exception as e:  # noqa: BLE001 - reported with the command line
            failures.append((args, str(e)[-400:]))
            continue
        if prototypes(theirs) != prototypes(ours):
            failures.append((args, (prototypes(ours), prototypes(theirs))))
        elif ptxas:
            (tmp_path / "k.ptx").write_text(theirs)
            r = subprocess.run(
                [ptxas, "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                capture_output=True,
                text=True,
            )
            if r.returncode:
                failures.append((args, r.stderr[-400:]))
        checked += 1
    assert not failures, failures[:5]
    assert checked > 250, checked


def test_ltoir_stage_is_libnvvm_lto_ir_that_nvjitlink_links(cudalink):
    kernels = _gpu_module("kernels")
    lto = pydev.compile(kernels.block_sum, "float32[::1], readonly float32[::1]", target="sm_90", stage="ltoir")
    assert isinstance(lto, bytes) and lto[:4] == b"\xedCN\x7f"  # NVVM's LTO-IR magic, as NVRTC's -dlto output
    ptx = cudalink.nvjitlink([(cudalink.KINDS[".ltoir"], lto, "block_sum.ltoir")], "sm_90", "test", ptx=True)
    # The kernel survives link-time optimisation (it is in @llvm.used) with its parameters.
    assert (
        prototypes(ptx)["block_sum"]
        == prototypes(
            pydev.compile(kernels.block_sum, "float32[::1], readonly float32[::1]", target="sm_90", stage="ptx")
        )["block_sum"]
    )
    assert "bar.sync" in ptx and ".shared" in ptx


@device.func(interop=True, link=[INLINE_CU])
def cu_affine(k: device.int32, x: device.int32) -> device.int32:
    """Defined in test/interop/inline_me.cu."""
    ...


@device.kernel
def affine_all(out, xs):
    i = device.tid(1)
    if i < out.size:
        out[i] = cu_affine(3, xs[i])


def test_link_time_optimisation_inlines_cpp_into_the_python_kernel(cudalink):
    lto = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="ltoir")
    cpp = cudalink.nvrtc_ltoir(INLINE_CU, "sm_90", "test")
    ptx = cudalink.nvjitlink([(3, lto, "affine_all.ltoir"), (3, cpp, "inline_me.ltoir")], "sm_90", "test", ptx=True)
    body = ptx[ptx.index(".entry affine_all") :]
    assert "call" not in body and "cu_affine" not in body, body
    assert re.search(r"mad\.lo\.s32\s+%r\d+, %r\d+, 3, 1;", body), body


def test_stage_cubin_links_the_kernel_as_ltoir_when_a_link_file_is(cudalink, monkeypatch):
    calls = []
    real = cudalink.nvvm_ltoir
    monkeypatch.setattr(cudalink, "nvvm_ltoir", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    cubin = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"affine_all" in cubin
    assert calls == ["kernel 'affine_all'"]
    # From the disk cache: no libNVVM, no link.
    calls.clear()
    assert pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin") == cubin
    assert calls == []


def test_without_libnvvm_the_kernel_is_linked_as_ptx_and_a_warning_says_so(cudalink, monkeypatch):
    from pydev import _toolchain

    real = _toolchain.library_candidates
    monkeypatch.setattr(_toolchain, "library_candidates", lambda kind: [] if kind == "nvvm" else real(kind))
    monkeypatch.setattr(cudalink, "_WARNED_NO_NVVM", [])
    with pytest.warns(RuntimeWarning, match="libNVVM is not installed"):
        cubin = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF"


@device.func(interop=True)
def bf16_id(v: device.bfloat16) -> device.bfloat16:
    return v


def test_what_has_no_nvvm_ir_form_is_named():
    # nvcc passes __nv_bfloat16 as a struct; NVVM IR has the value's i16 bits.
    with pytest.raises(
        pydev.CompileError, match=r"stage 'nvvm-ir': interoperable function 'bf16_id' takes or returns bfloat16"
    ):
        pydev.compile(bf16_id, "bfloat16", target="sm_90", stage="nvvm-ir")
    with pytest.raises(ValueError, match="stage 'ltoir' needs an sm_XX target"):
        pydev.compile(affine_all, "int32[::1], int32[::1]", target="host", stage="ltoir")
    with pytest.raises(pydev.CompileError, match="stage 'nvvm-ir' needs a cuda target"):
        pydev.compile(affine_all, "int32[::1], int32[::1]", target="host", stage="nvvm-ir")


@device.kernel
def to_bf16(out, x, y):
    i = device.tid(1)
    if i < out.size:
        out[i] = device.bfloat16(x[i]) + device.bfloat16(y[i])


def _bf16_exact(d):
    """bfloat16 nearest double `d` (ties to even), computed exactly."""
    import math
    from fractions import Fraction

    if d != d or d == 0 or math.isinf(d):
        return d
    a = Fraction(abs(d))
    e = max(math.frexp(abs(d))[1] - 1, -126)  # the leading bit's exponent; subnormals below 2^-126
    n = round(a / Fraction(2) ** (e - 7))  # 8 significant bits, half to even
    r = n * Fraction(2) ** (e - 7)
    return math.copysign(math.inf if r >= 2**128 else float(r), d)


def _run_straight_line(text, env, until):
    """Evaluates the straight-line instructions of NVVM IR `text` that
    bfloat16 arithmetic writes (integer, float and double operations on
    known values), from the values in `env`, until `until` is defined."""
    import numpy as np

    ty = {"i1": bool, "i16": 16, "i32": 32, "float": np.float32, "double": np.float64}
    for line in text.splitlines():
        m = re.match(r"\s*(%\w+) = (.*)$", line)
        if not m:
            continue
        name, rhs = m.groups()
        toks = re.findall(r"%\w+|-?\d+\.\d+e[+-]\d+|-?\d+|\w+", rhs)
        vals = [env.get(t) for t in toks if t.startswith("%")]
        if any(v is None for v in vals):
            continue
        num = lambda t: env[t] if t.startswith("%") else (float(t) if "." in t else int(t))  # noqa: E731
        op = toks[0]
        if op == "bitcast":
            v, to = num(toks[2]), toks[-1]
            if to == "i32":
                env[name] = int(np.float32(v).view(np.uint32))
            elif to == "float":
                env[name] = np.uint32(v).view(np.float32) if toks[1] == "i32" else np.float32(v)
            else:
                env[name] = v
        elif op in ("lshr", "and", "add", "or", "sub", "shl"):
            bits = ty[toks[1]]
            a, b = num(toks[2]), num(toks[3])
            r = {"lshr": a >> b, "and": a & b, "add": a + b, "or": a | b, "sub": a - b, "shl": a << b}[op]
            env[name] = r & ((1 << bits) - 1)
        elif op == "select":
            env[name] = num(toks[4]) if env[toks[2]] else num(toks[6])
        elif op in ("trunc", "zext"):
            env[name] = num(toks[2]) & ((1 << ty[toks[-1]]) - 1)
        elif op == "fcmp":
            pred, a, b = toks[1], num(toks[3]), num(toks[4])
            env[name] = {"uno": a != a or b != b, "one": a == a and b == b and a != b, "ogt": a > b}[pred]
        elif op == "fptrunc":
            env[name] = np.float32(num(toks[2]))
        elif op == "fpext":
            env[name] = np.float64(num(toks[2]))
        elif op == "call" and "llvm.fabs.f64" in rhs:
            env[name] = abs(num(toks[-1]))
        elif op == "fadd":
            env[name] = np.float32(num(toks[-2]) + num(toks[-1]))
        if name == until:
            return env[name]
    raise AssertionError(f"{until} was not reached")


def test_bfloat16_arithmetic_rounds_as_the_gpu_does():
    """bfloat16 values are i16 bits in NVVM IR; the conversions the writer
    spells out in integer code round as IEEE does: float and double to
    bfloat16 to nearest even (double through round-to-odd, never twice),
    evaluated here instruction by instruction on the emitted IR."""
    import math

    import numpy as np

    # sm_70 has no cvt.rn.bf16.f32: the roundings are integer code (from sm_80 on, the instruction).
    assert 'asm "cvt.rn.bf16.f32 $0, $1;"' in pydev.compile(
        to_bf16, "bfloat16[::1], float32[::1], float64[::1]", target="sm_90", stage="nvvm-ir"
    )
    text = pydev.compile(to_bf16, "bfloat16[::1], float32[::1], float64[::1]", target="sm_70", stage="nvvm-ir")
    x = re.search(r"(%v\d+) = load float,", text).group(1)
    y = re.search(r"(%v\d+) = load double,", text).group(1)
    out = re.search(r"store i16 (%v\d+),", text).group(1)
    rng = np.random.default_rng(41)
    doubles = list(rng.standard_normal(300) * 10.0 ** rng.integers(-45, 39, 300))
    for k in range(200):  # halfway between two bfloat16 values, then just off it (what double rounding gets wrong)
        b = float(np.float32(rng.standard_normal() * 2.0 ** rng.integers(-130, 127)))
        lo = _bf16_exact(b)
        ulp = math.ulp(np.float32(lo)) * 2.0**16 if lo else 2.0**-133
        mid = lo + ulp / 2
        doubles += [mid, math.nextafter(mid, math.inf), math.nextafter(mid, -math.inf), mid + 2.0**-60 * abs(mid)]
    doubles += [3.3895313892515355e38, 3.39e38, 1e39, -1e39, 2.0**-133, 2.0**-134, 1.4e-45, float("inf"), -float("inf")]
    for d in doubles:
        got = _run_straight_line(text, {x: np.float32(0.0), y: np.float64(d)}, out)
        want = _bf16_exact(d)
        want_bits = int(np.float32(want).view(np.uint32)) >> 16 if want == want else None
        assert got == want_bits or (want == 0 and got & 0x7FFF == 0), (d, hex(got), want)
    for v in rng.standard_normal(300).astype(np.float32) * np.float32(1e3):
        got = _run_straight_line(text, {x: v, y: np.float64(0.0)}, out)
        assert got == int(np.float32(_bf16_exact(float(v))).view(np.uint32)) >> 16, v
    nan = _run_straight_line(text, {x: np.float32("nan"), y: np.float64(0.0)}, out)
    assert nan & 0x7F80 == 0x7F80 and nan & 0x7F, hex(nan)


def test_pydev_kernel_ltoir_0_links_the_kernel_as_ptx(cudalink, monkeypatch):
    monkeypatch.setenv("PYDEV_KERNEL_LTOIR", "0")
    monkeypatch.setattr(cudalink, "nvvm_ltoir", lambda *a, **k: pytest.fail("libNVVM ran"))
    cubin = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"affine_all" in cubin


PLAIN_AND_CONTRACTED = """target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define float @plain(float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s = fadd float %m, %c
  ret float %s
}
define float @contracted(float %a, float %b, float %c) {
  %m = fmul contract float %a, %b
  %s = fadd contract float %m, %c
  ret float %s
}
!nvvmir.version = !{!0}
!0 = !{i32 2, i32 0}
"""


def test_libnvvm_fuses_only_what_pydev_marks_contract(cudalink):
    """pydev's own PTX (LLVM 22) fuses a multiply and an add only when both
    say `contract`; libNVVM's default fuses all, so pydev asks it not to."""
    ptx = cudalink.nvvm_ltoir(PLAIN_AND_CONTRACTED, "sm_90", "test", ptx=True)
    plain = ptx[ptx.index(") plain(") : ptx.index(") contracted(")]
    contracted = ptx[ptx.index(") contracted(") :]
    assert "fma" not in plain and "mul.rn.f32" in plain and "add.rn.f32" in plain, plain
    assert "fma.rn.f32" in contracted, contracted


def llvm22_opcodes(bin_dir, ll, path):
    """The multiset of PTX instructions LLVM 22 makes of LLVM IR text `ll`
    (`opt -O3 -unroll-runtime=false | llc`, sm_90; runtime unrolling off: its
    trip-count heuristics read flags the NVVM IR writer drops), or the
    error text. Shared with scripts/nvvm-ir-oracle.py."""
    from collections import Counter

    with open(path, "w") as f:
        f.write(ll)
    r = subprocess.run(
        f"{bin_dir}/opt -O3 -unroll-runtime=false {path} | {bin_dir}/llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -O3 -o -",
        shell=True,
        capture_output=True,
        text=True,
    )
    if r.returncode or r.stderr:
        return "error: " + r.stderr.strip()[:2000]
    lines = (ln.strip() for ln in re.sub(r"//.*", "", r.stdout).splitlines())
    return Counter(ln.split()[0] for ln in lines if ln and not ln.startswith((".", "$", "{", "}", ")")))


def typed_byval(text):
    """LLVM 7's `T* byval align A` as LLVM 22 spells it, `T* byval(T) align A`
    (LLVM 22 reads typed pointers back, but not a byval without its type)."""
    out, i = [], 0
    while True:
        j = text.find("* byval align", i)
        if j < 0:
            return "".join(out) + text[i:]
        k, depth = j - 1, 0
        while k >= 0:
            c = text[k]
            if c in "}]>":
                depth += 1
            elif c in "{[<":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 0 and c in " (,":
                k += 1
                break
            k -= 1
        out.append(text[i : j + len("* byval")] + f"({text[k:j]})")
        i = j + len("* byval")


def _llvm_bin():
    prefix = os.environ.get("MLIR_SYS_220_PREFIX", "/usr/lib/llvm-22")
    d = os.path.join(prefix, "bin")
    return d if os.path.exists(os.path.join(d, "opt")) and os.path.exists(os.path.join(d, "llc")) else None


# The writer drops flags LLVM 7 has no syntax for (gep nuw, trunc nuw/nsw,
# zext nneg, icmp samesign, call-site ranges); for this one loop LLVM then
# tests the exit with another comparison.
# A loop whose exit LLVM 22 tests with `<` from pydev's IR and with `!=`
# from the NVVM IR, which cannot spell the nsw/nuw flags that allow `<`.
ROUND_TRIP_DIFFERENCES = {
    "row_sums": ({"setp.lt.s64": 1, "mov.b64": 1}, {"setp.ne.b64": 1}),
    "nbody": ({"setp.lt.s64": 1, "mov.b64": 1}, {"setp.ne.b64": 1}),
    "mandelbrot": ({"setp.lt.s32": 1}, {"setp.ne.b32": 1}),
}


def test_llvm_22_reads_the_nvvm_ir_back_into_the_same_code(tmp_path):
    """LLVM 22 as the oracle of the writer's semantics: it parses NVVM IR's
    typed pointers and old intrinsic names (upgrading them), and optimising
    and compiling that gives the same PTX instructions as pydev's own LLVM
    IR, for every test/gpu kernel (runtime unrolling off: its trip-count
    heuristics read the dropped flags)."""
    bin_dir = _llvm_bin()
    if bin_dir is None:
        pytest.skip("LLVM 22's opt and llc are not installed (scripts/setup.sh installs them)")
    kernels, run = _gpu_module("kernels"), _gpu_module("run")

    for name, sig in run.SIGNATURES.items():
        k = getattr(kernels, name)
        ours = pydev.compile(k, sig, target="sm_90", stage="llvm-ir")
        nvvm = pydev.compile(k, sig, target="sm_90", stage="nvvm-ir")
        nvvm = re.sub(
            r'target datalayout = ".*"\n', "", nvvm
        )  # libNVVM's spelling of nvptx64's layout: LLVM 22 takes its own for the triple
        a = llvm22_opcodes(bin_dir, ours, str(tmp_path / f"{name}.llvm22.ll"))
        b = llvm22_opcodes(bin_dir, typed_byval(nvvm), str(tmp_path / f"{name}.nvvm.ll"))
        assert not isinstance(a, str) and not isinstance(b, str), (name, a, b)
        want = ROUND_TRIP_DIFFERENCES.get(name, ({}, {}))
        assert (dict(a - b), dict(b - a)) == want, name


def test_a_programs_ltoir_and_cubin(cudalink, tmp_path):
    """The shared backend's Program (pydev IR from another framework) gives
    its kernel's LTO-IR, what LTO-IR consumers (CCCL's cuda.compute, cuda.core's
    Linker) take, and its cubin linked with its link= files."""
    text = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="pydev")
    plain = pydev.Program(
        pydev.compile(
            _gpu_module("kernels").saxpy,
            "float32, float32[::1], float32[::1], float32[::1]",
            target="host",
            stage="pydev",
        ),
        kernel="saxpy",
    )
    lto = plain.compile("sm_90", "ltoir")
    assert lto[:4] == b"\xedCN\x7f"
    ptx = cudalink.nvjitlink([(cudalink.KINDS[".ltoir"], lto, "saxpy.ltoir")], "sm_90", "test", ptx=True)
    assert prototypes(ptx)["saxpy"] == prototypes(plain.compile("sm_90"))["saxpy"]
    linked = pydev.Program(text, kernel="affine_all", link=[INLINE_CU])
    cubin = linked.compile("sm_90", "cubin")
    assert cubin[:4] == b"\x7fELF" and b"affine_all" in cubin
    with pytest.raises(ValueError, match="stage 'ltoir' needs an sm_XX target"):
        plain.compile("host", "ltoir")


def kernels_module():
    kernels = _gpu_module("kernels")
    return kernels


def test_ltoir_with_line_information_says_it_has_none(cudalink, monkeypatch):
    monkeypatch.setenv("PYDEV_LINEINFO", "1")
    with pytest.warns(RuntimeWarning, match="the LTO-IR of kernel 'affine_all' has no line information"):
        lto = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="ltoir")
    assert lto[:4] == b"\xedCN\x7f"


def test_a_kernel_libnvvm_cannot_take_links_as_ptx_and_says_so(cudalink, monkeypatch):
    def refuse(*a, **k):
        raise pydev.CompileError("stage 'nvvm-ir': instruction 'freeze' has no NVVM IR 2.0 form here")

    monkeypatch.setattr(cudalink, "nvvm_ltoir", refuse)
    with pytest.warns(
        RuntimeWarning, match=r"kernel 'affine_all' is linked as PTX, not LTO-IR .*'freeze' has no NVVM IR 2.0 form"
    ):
        cubin = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"affine_all" in cubin


@device.kernel(lineinfo=True)
def affine_lines(out, xs):
    i = device.tid(1)
    if i < out.size:
        out[i] = xs[i] * 3 + 1


def test_ltoir_warns_at_the_callers_line_for_lineinfo_on_the_decorator(cudalink):
    """lineinfo=True on the decorator (not only PYDEV_LINEINFO) warns on the
    first compile of a fresh kernel, and the warning names this file, both
    through pydev.compile and through a pydev.Program."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pydev.compile(affine_lines, "int32[::1], int32[::1]", target="sm_90", stage="ltoir")
        program = pydev.Program(
            pydev.compile(affine_lines, "int32[::1], int32[::1]", target="sm_90", stage="pydev"),
            "affine_lines",
            lineinfo=True,
        )
        program.compile("sm_90", "ltoir")
    ours = [w for w in caught if "has no line information" in str(w.message)]
    assert [os.path.basename(w.filename) for w in ours] == ["test_nvvm_ir.py"] * 2, [
        (w.filename, str(w.message)) for w in caught
    ]
