"""Kernels whose source came from a string (issue 31): `exec`/`compile` of a
string and `python -c` leave no file and no linecache entry; pydev's
frontends find the text by matching the code object exactly
(pydev._exec_source). Host target, fixed-seed inputs, NaN-poisoned outputs."""

import ast
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pydev
from pydev import _exec_source
from pydev.numba import cuda

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def _run(code):
    """`python -c code` with this process's environment (PYTHONPATH, the cache)."""
    env = dict(os.environ, PYDEV_TARGET="host")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr


def test_exec_kernel_with_globals_closures_and_a_device_function(rng):
    src = textwrap.dedent(
        """
        SCALE = 3.0

        @cuda.jit(device=True)
        def shift(x, by):
            return x + by

        def make(offset):
            @cuda.jit
            def k(a, out):
                i = cuda.grid(1)
                if i < a.size:
                    out[i] = shift(a[i] * SCALE, offset)
            return k
        """
    )
    ns = {"cuda": cuda}
    exec(src, ns)
    k = ns["make"](0.25)
    a = rng.random(100)
    out = np.full(100, np.nan)
    k[4, 32](a, out)
    np.testing.assert_allclose(out, a * 3.0 + 0.25)


def test_compile_with_a_made_up_file_name_shows_its_lines_in_errors():
    src = "@cuda.jit\ndef bad(a):\n    a[0] = undefined_name\n"
    ns = {"cuda": cuda}
    exec(compile(src, "<generated-7>", "exec"), ns)
    with pytest.raises(pydev.CompileError) as e:
        ns["bad"][1, 1](np.zeros(1))
    msg = str(e.value)
    assert msg.startswith("<generated-7>:3:12: error:"), msg
    assert "3 |     a[0] = undefined_name" in msg, msg


def test_two_texts_define_the_same_name_on_the_same_line(rng):
    kernels = []
    for value in (1.5, -2.0):
        ns = {"cuda": cuda}
        # the same file name, name and line: told apart by their code
        exec(f"@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += {value}\n", ns)
        kernels.append(ns["k"])
    a = rng.random(40)
    for k, value in zip(reversed(kernels), (-2.0, 1.5)):  # compiled in the other order than defined
        out = a.copy()
        k[2, 32](out)
        np.testing.assert_allclose(out, a + value)


def test_a_renamed_function_is_found_by_its_code(rng):
    ns = {"np": np}
    exec("def fn(a0, a1):\n    np.sqrt(a0, a1)", ns)
    fn = ns["fn"]
    fn.__name__ = "sqrt_usecase"  # as numba-cuda's ufunc tests name theirs
    a = rng.random(16)
    out = np.full(16, np.nan)
    cuda.jit(fn)[1, 1](a, out)
    np.testing.assert_allclose(out, np.sqrt(a))


def test_a_text_compiled_with_optimize_2():
    ns = {"cuda": cuda}
    src = "def k(a):\n    'a docstring, dropped'\n    assert a.size > 0\n    a[0] = 5\n"
    exec(compile(src, "<optimized>", "exec", optimize=2), ns)
    a = np.full(1, np.nan)
    cuda.jit(ns["k"])[1, 1](a)
    assert a[0] == 5


def test_python_c_program():
    out, _ = _run(
        "import numpy as np\n"
        "from pydev.numba import cuda\n\n"
        "@cuda.jit\n"
        "def k(a):\n"
        "    i = cuda.grid(1)\n"
        "    if i < a.size:\n"
        "        a[i] = i * i\n\n"
        "a = np.full(5, np.nan)\n"
        "k[1, 8](a)\n"
        "print(a.tolist())\n"
    )
    assert out.strip() == "[0.0, 1.0, 4.0, 9.0, 16.0]"


def test_python_c_with_options_before_the_program():
    # -I ignores PYTHONPATH (the package's path comes back through sys.path)
    code = (
        f"import sys; sys.path[:0] = {sys.path!r}\n"
        "from pydev.numba import cuda\nimport numpy as np\n"
        "@cuda.jit\ndef k(a):\n    a[0] = 7\n"
        "a = np.zeros(1); k[1, 1](a); print(int(a[0]))\n"
    )
    env = dict(os.environ, PYDEV_TARGET="host")
    r = subprocess.run(
        [sys.executable, "-W", "ignore", "-Ic", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "7"


def test_print_from_python_c_as_numba_prints():
    out, err = _run(
        "from pydev.numba import cuda\nimport numpy as np\n\n"
        "@cuda.jit\ndef dims():\n    print(cuda.threadIdx)\n\n"
        "@cuda.jit\ndef many(r):\n    print(" + ", ".join(f"r[{i}]" for i in range(33)) + ")\n\n"
        "dims[1, (2, 1, 2)]()\nmany[1, 1](np.arange(33))\ncuda.synchronize()\n"
    )
    lines = out.splitlines()
    assert sorted(lines[:4]) == ["(0, 0, 0)", "(0, 0, 1)", "(1, 0, 0)", "(1, 0, 1)"]
    assert lines[4] == " ".join(["%lld"] * 33)  # more than 32 items: the format, as vprintf cannot take them
    assert "CUDA print() cannot print more than 32 items" in err


def test_no_text_is_the_clear_error():
    ns = {"cuda": cuda}
    # compiled from an AST: no file, no linecache entry, no text of its own
    exec(compile(ast.parse("def nosrc(a):\n    a[0] = 1\n"), "<string>", "exec"), ns)
    with pytest.raises(pydev.CompileError) as e:
        cuda.jit(ns["nosrc"])[1, 1](np.zeros(1))
    msg = str(e.value)
    assert msg.startswith("<string>:1: error: cannot read the source of 'nosrc'"), msg
    assert "not from bytecode as Numba does" in msg and "exec()/compile()" in msg


def test_a_near_miss_is_never_taken():
    ns = {"cuda": cuda}
    exec("def k(a):\n    a[0] = 1\n", ns)
    fn = ns["k"]
    # The recorded text defines a `k` at the same line, whose code differs.
    fn.__code__ = fn.__code__.replace(co_consts=tuple(2 if c == 1 else c for c in fn.__code__.co_consts))
    assert _exec_source.source_of(fn.__code__) is None
    with pytest.raises(pydev.CompileError, match="cannot read the source of 'k'"):
        cuda.jit(fn)[1, 1](np.zeros(1))


def test_the_store_keeps_the_newest_texts(monkeypatch):
    monkeypatch.setattr(_exec_source, "MAX_ENTRIES", 3)
    monkeypatch.setattr(_exec_source, "_store", {})
    monkeypatch.setattr(_exec_source, "_chars", 0)
    codes = []
    for i in range(5):
        ns = {}
        exec(f"def f{i}():\n    return {i}\n", ns)
        codes.append(ns[f"f{i}"].__code__)
    assert len(_exec_source._store) == 3
    assert [_exec_source.source_of(c) is not None for c in codes] == [False, False, True, True, True]
    assert _exec_source._chars == sum(len(t) for (_, t) in _exec_source._store)


def test_command_text_reads_orig_argv(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["-c"])
    for argv, want in (
        (["py", "-c", "x = 1"], "x = 1"),
        (["py", "-X", "dev", "-W", "ignore", "-c", "y"], "y"),
        (["py", "-Ic", "z"], "z"),
        (["py", "-cprint(1)"], "print(1)"),
        (["py", "-Wignore", "-Bc", "w"], "w"),
    ):
        monkeypatch.setattr(sys, "orig_argv", argv)
        assert _exec_source.command_text() == want, argv


def test_cuda_device_kernels_from_strings(rng):
    import cuda.device as device

    ns = {}
    exec(
        "import cuda.device as device\n"
        "@device.func\ndef twice(x):\n    return 2.0 * x\n"
        "@device.kernel\ndef k(a):\n    i = device.thread_idx.x\n    a[i] = twice(a[i])\n",
        ns,
    )
    a = rng.random(8)
    out = a.copy()
    device.launch(ns["k"], out, grid=1, block=8, stream=pydev.default_stream())
    np.testing.assert_allclose(out, 2.0 * a)
    # a device function of another text named <string> is not this file's
    ns2 = {"twice": ns["twice"]}
    exec("import cuda.device as device\n@device.kernel\ndef k2(a):\n    a[0] = twice(a[0])\n", ns2)
    with pytest.raises(TypeError, match="of another text compiled as <string>"):
        device.launch(ns2["k2"], out, grid=1, block=1, stream=pydev.default_stream())
