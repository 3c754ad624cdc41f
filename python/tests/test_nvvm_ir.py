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

pytestmark = pytest.mark.usefixtures("native")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GPU = os.path.join(ROOT, "test", "gpu")
INLINE_CU = os.path.join(ROOT, "test", "interop", "inline_me.cu")


@pytest.fixture
def cudalink():
    from pydev import _cudalink

    if not _cudalink.available("nvrtc", "nvjitlink", "nvvm"):
        pytest.skip("NVRTC / nvJitLink / libNVVM are not installed (pip install nvidia-cuda-nvrtc nvidia-nvjitlink nvidia-nvvm; scripts/setup.sh does)")
    return _cudalink


def prototypes(ptx):
    """name => the parameter list of each visible or external .entry/.func
    (internal ones, libdevice's helpers, are the optimiser's business;
    parameter names and the `.ptr` annotations LLVM adds to pointer
    parameters dropped; a 2-byte `.b16` and `.align 2 .b8 [2]` are the same
    launch and call ABI)."""
    out = {}
    for m in re.finditer(r"^(?:\.visible|\.weak|\.extern)\s*\.(entry|func)\s*(\([^)]*\))?\s*([\w$]+)\s*\(([^)]*)\)", ptx, re.M):
        text = re.sub(r"\s+", " ", (m.group(2) or "") + m.group(4)).replace(m.group(3) + "_param", "P")
        text = re.sub(r"\.ptr( \.\w+)? \.align \d+ ", "", text)
        text = re.sub(r"\.align 2 \.b8 (\w+)\[2\]", r".b16 \1", text)
        out[m.group(3)] = (m.group(1), text.strip())
    return out


def _ptxas():
    exe = subprocess.run([os.path.join(ROOT, "scripts", "find-ptxas.sh"), "sm_90"], capture_output=True, text=True).stdout.strip()
    return exe or None


def test_every_gpu_kernel_has_pydevs_prototypes_through_libnvvm(cudalink, tmp_path):
    sys.path.insert(0, GPU)
    try:
        import kernels
        import run
    finally:
        sys.path.remove(GPU)
    ptxas = _ptxas()
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
            r = subprocess.run([ptxas, "-arch=sm_90", str(tmp_path / f"{name}.ptx"), "-o", str(tmp_path / f"{name}.cubin")], capture_output=True, text=True)
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


def test_the_lit_suites_kernels_through_libnvvm(cudalink):
    """Every kernel the lit suite compiles for sm_90 (atomics, barriers,
    votes, shuffles, vectors, structs, aligned parameters, float8, local
    arrays...): stage nvvm-ir is accepted by libNVVM with pydev's
    prototypes, or names what has no NVVM IR form (bfloat16 values)."""
    pydevc = os.path.join(os.environ.get("PYDEV_BIN_DIR") or os.path.join(ROOT, "target", "debug"), "pydevc")
    if not os.path.exists(pydevc):
        pytest.skip("pydevc is not built (make build)")
    env = dict(os.environ, PYDEV_LIBDEVICE=os.environ.get("PYDEV_LIBDEVICE") or pydev._launch.libdevice() or "")
    checked, refused, failures = 0, [], []
    for args in _lit_compiles():
        r = subprocess.run([pydevc, *args, "--emit", "nvvm-ir"], capture_output=True, text=True, env=env)
        if r.returncode:
            if "bfloat16 values have no NVVM IR 2.0 form" in r.stderr:
                refused.append(args)
            elif subprocess.run([pydevc, *args, "--emit", "llvm"], capture_output=True, env=env).returncode == 0:
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
        checked += 1
    assert not failures, failures[:5]
    assert checked > 200 and len(refused) < 10, (checked, refused)


def test_ltoir_stage_is_libnvvm_lto_ir_that_nvjitlink_links(cudalink):
    sys.path.insert(0, GPU)
    try:
        import kernels
    finally:
        sys.path.remove(GPU)
    lto = pydev.compile(kernels.block_sum, "float32[::1], readonly float32[::1]", target="sm_90", stage="ltoir")
    assert isinstance(lto, bytes) and lto[:4] == b"\xedCN\x7f"  # NVVM's LTO-IR magic, as NVRTC's -dlto output
    ptx = cudalink.nvjitlink([(cudalink.KINDS[".ltoir"], lto, "block_sum.ltoir")], "sm_90", "test", ptx=True)
    # The kernel survives link-time optimisation (it is in @llvm.used) with its parameters.
    assert prototypes(ptx)["block_sum"] == prototypes(pydev.compile(kernels.block_sum, "float32[::1], readonly float32[::1]", target="sm_90", stage="ptx"))["block_sum"]
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
    real = cudalink.available
    monkeypatch.setattr(cudalink, "available", lambda *k: False if "nvvm" in k else real(*k))
    monkeypatch.setattr(cudalink, "_WARNED_NO_NVVM", [])
    with pytest.warns(RuntimeWarning, match="libNVVM is not installed"):
        cubin = pydev.compile(affine_all, "int32[::1], int32[::1]", target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF"


@device.kernel
def halves_of_bf16(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i] * device.bfloat16(0.5)


def test_what_has_no_nvvm_ir_form_is_named():
    with pytest.raises(pydev.CompileError, match=r"stage 'nvvm-ir': function 'halves_of_bf16': bfloat16 values have no NVVM IR 2.0 form"):
        pydev.compile(halves_of_bf16, "bfloat16[::1], bfloat16[::1]", target="sm_90", stage="nvvm-ir")
    with pytest.raises(ValueError, match="stage 'ltoir' needs an sm_XX target"):
        pydev.compile(affine_all, "int32[::1], int32[::1]", target="host", stage="ltoir")
    with pytest.raises(pydev.CompileError, match="stage 'nvvm-ir' needs a cuda target"):
        pydev.compile(affine_all, "int32[::1], int32[::1]", target="host", stage="nvvm-ir")
