"""Launching kernels with link= files on the cuda target (issue 17;
docs/interop.md): the kernel's PTX linked with .cu (NVRTC) / .ptx files by
nvJitLink, the linked cubin loaded by the driver (here test/fakecuda, which
reads a cubin's kernels and parameter sizes from its ELF `.nv.info`
sections), the cubin cached on disk by the link files' contents. Each test
runs a script in a fresh process with the fake driver (test_fake_driver.py);
test_interop_cuda.py runs linked kernels on a GPU."""

import textwrap

import pytest

from test_fake_driver import fake_driver, run  # noqa: F401 - fixtures

pytestmark = pytest.mark.usefixtures("native")


@pytest.fixture
def cudalink():
    from pydev import _cudalink

    if not _cudalink.available():
        pytest.skip(
            "NVRTC / nvJitLink are not installed (pip install nvidia-cuda-nvrtc nvidia-nvjitlink; scripts/setup.sh does)"
        )
    return _cudalink


KERNELS = '''
import cuda.device as device

@device.func(interop=True, link=["ops.cu"])
def scale_add(x: device.float32, s: device.float32, k: device.int32) -> device.float32:
    """Defined in ops.cu."""
    ...

@device.func(interop=True, link=["helper.ptx"])
def py_twice(x: device.float32) -> device.float32: ...

def make():
    """New kernel objects (each compiles or loads from the disk cache)."""
    @device.kernel
    def uses_cu(out, xs):
        i = device.tid(1)
        if i < out.size:
            out[i] = scale_add(xs[i], 2.0, i)

    @device.kernel
    def uses_ptx(out, xs, n):
        i = device.tid(1)
        if i < n:
            out[i] = py_twice(xs[i])

    return uses_cu, uses_ptx
'''

HELPER = """
import cuda.device as device

@device.func(interop=True)
def py_twice(x: device.float32) -> device.float32:
    return x + x
"""

OPS_CU = 'extern "C" __device__ float scale_add(float x, float s, int k) { return x * s + (float)k; }\n'


def _fixtures(tmp_path):
    (tmp_path / "linked_kernels.py").write_text(KERNELS)
    (tmp_path / "linked_helper.py").write_text(HELPER)
    (tmp_path / "ops.cu").write_text(OPS_CU)
    return dict(WORK=str(tmp_path))


SCRIPT = """
import os, sys
sys.path.insert(0, os.environ["WORK"])
from pydev import _cudalink
import linked_helper
open(os.path.join(os.environ["WORK"], "helper.ptx"), "w").write(pydev.compile(linked_helper.py_twice, "float32", target="sm_90", stage="ptx"))
import linked_kernels
compiles = pydev.stats()["compiles"]  # pydev.compile above compiles
n = 100
xs = pydev.to_device(rng.standard_normal(n).astype(np.float32))
out = pydev.device_array(n, np.float32)
s = pydev.create_stream()
elf = fakecuda.LIB.fakecuda_elf_modules
"""


def test_kernels_with_link_files_launch_on_cuda(cudalink, run, tmp_path):  # noqa: F811
    env = _fixtures(tmp_path)
    run(
        SCRIPT
        + textwrap.dedent("""
        uses_cu, uses_ptx = linked_kernels.make()
        assert elf() == 0
        device.launch(uses_cu, out, xs, grid=1, block=128, stream=s)
        # the driver loaded a cubin (an ELF image), not the PTX
        assert elf() == 1 and _cudalink.STATS == {"links": 1, "cached": 0}, (elf(), _cudalink.STATS)
        [l] = fakecuda.launches()
        # the cubin's parameters, as the fake reads them from .nv.info, are the PTX's
        assert (l.kernel, l.sizes) == ("uses_cu", [24, 24]), vars(l)
        assert l.descriptor(0) == (out._ptr, (n,), (1,)) and l.descriptor(1) == (xs._ptr, (n,), (1,))
        device.launch(uses_ptx, out, xs, 7, grid=1, block=128, stream=s)
        l = fakecuda.launches()[-1]
        assert (l.kernel, l.sizes) == ("uses_ptx", [24, 24, 4]), vars(l)
        assert struct.unpack("<i", l.params[2]) == (7,)  # a Python int is an int32
        assert elf() == 2 and _cudalink.STATS == {"links": 2, "cached": 0}, _cudalink.STATS
        # a second launch of the same kernel: the loaded program
        device.launch(uses_cu, out, xs, grid=1, block=128, stream=s)
        assert elf() == 2 and _cudalink.STATS["links"] == 2
        s.synchronize()
    """),
        **env,
    )
    # A new process: the PTX and the linked cubin come from the disk cache.
    run(
        SCRIPT
        + textwrap.dedent("""
        uses_cu, uses_ptx = linked_kernels.make()
        device.launch(uses_cu, out, xs, grid=1, block=128, stream=s)
        device.launch(uses_ptx, out, xs, 7, grid=1, block=128, stream=s)
        assert _cudalink.STATS == {"links": 0, "cached": 2}, _cudalink.STATS
        st = pydev.stats()
        assert st["compiles"] == compiles and st["disk_hits"] == 2, st
        assert elf() == 2 and [l.kernel for l in fakecuda.launches()] == ["uses_cu", "uses_ptx"]
        s.synchronize()
    """),
        **env,
    )
    # An edited .cu file relinks (and only the kernel that links it).
    (tmp_path / "ops.cu").write_text(OPS_CU.replace("(float)k", "(float)(k + 1)"))
    run(
        SCRIPT
        + textwrap.dedent("""
        uses_cu, uses_ptx = linked_kernels.make()
        device.launch(uses_cu, out, xs, grid=1, block=128, stream=s)
        assert _cudalink.STATS == {"links": 1, "cached": 0}, _cudalink.STATS
        device.launch(uses_ptx, out, xs, 7, grid=1, block=128, stream=s)
        assert _cudalink.STATS == {"links": 1, "cached": 1}, _cudalink.STATS
        s.synchronize()
    """),
        **env,
    )


def test_declarations_from_a_cu_both_targets_link_launch_on_cuda(cudalink, run):  # noqa: F811
    """interop_kernels.uses_cpp calls three functions declared in
    test/interop/both.cu (a struct by value both ways, cuda_fp16.h)."""
    run("""
        import interop_kernels as ik
        from pydev import _cudalink
        n = 300
        arrays = [pydev.device_array(n, np.float32)] + [pydev.to_device(rng.standard_normal(n).astype(np.float32)) for _ in range(2)]
        arrays += [pydev.to_device(rng.standard_normal((n, 3)).astype(np.float32).view(ik.vec3.dtype).reshape(n)) for _ in range(2)]
        arrays.append(pydev.device_array(n, np.int64))
        s = pydev.create_stream()
        device.launch(ik.uses_cpp, *arrays, grid=3, block=128, stream=s)
        [l] = fakecuda.launches()
        assert l.kernel == "uses_cpp" and l.sizes == [24] * 6, vars(l)
        assert fakecuda.LIB.fakecuda_elf_modules() == 1 and _cudalink.STATS["links"] == 1
        s.synchronize()
    """)


def test_declarations_in_nvccs_layout_launch_on_cuda(cudalink, run):  # noqa: F811
    """3-lane vectors and align= structs (test/interop/layouts.cu): the
    kernel calls the C++ functions in nvcc's layout, linked into the cubin
    the driver loads."""
    run("""
        import interop_kernels as ik
        from pydev import _cudalink
        n = 50
        cplx = lambda: pydev.to_device(rng.standard_normal((n, 4)).astype(np.float32).view(ik.cplx16.dtype).reshape(n))
        args = [cplx(), pydev.to_device(rng.standard_normal((n, 3)).astype(np.float32)), pydev.to_device(rng.integers(0, 255, (n, 3), dtype=np.uint8)),
                pydev.to_device(rng.standard_normal((n, 4)).astype(np.float32)), pydev.to_device(rng.standard_normal((n, 3))),
                pydev.to_device(np.full((n, 3), -128, np.int8)), cplx()]
        s = pydev.create_stream()
        device.launch(ik.uses_layouts, *args, grid=1, block=64, stream=s)
        [l] = fakecuda.launches()
        assert l.kernel == "uses_layouts" and l.sizes == [24, 40, 40, 40, 40, 40, 24], vars(l)
        assert fakecuda.LIB.fakecuda_elf_modules() == 1 and _cudalink.STATS["links"] == 1
        s.synchronize()
    """)


def test_link_errors_at_launch_on_cuda(cudalink, run, tmp_path):  # noqa: F811
    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __device__ float f(float x) { return x * undefined_thing; }\n')
    (tmp_path / "bad_kernels.py").write_text(
        textwrap.dedent(f"""
        import cuda.device as device

        @device.func(interop=True, link=[{str(bad)!r}])
        def f(x: device.float32) -> device.float32: ...

        @device.func(interop=True, link=["twice.c"])
        def g(x: device.float32) -> device.float32: ...

        @device.kernel
        def k(out):
            out[0] = f(1.0)

        @device.kernel
        def h(out):
            out[0] = g(1.0)
    """)
    )
    (tmp_path / "twice.c").write_text("float g(float x) { return 2 * x; }\n")
    run(
        """
        import os, sys
        sys.path.insert(0, os.environ["WORK"])
        import bad_kernels as bk
        out = pydev.device_array(1, np.float32)
        for k, pattern in ((bk.k, "compiling .*bad.cu with NVRTC for sm_90 failed \\\\(kernel 'k'\\\\):\\n.*undefined_thing"),
                           (bk.h, "link file '.*twice.c' of kernel 'h' is host code \\\\(.c\\\\), which the cuda target cannot link")):
            try:
                device.launch(k, out, grid=1, block=1, stream=pydev.default_stream())
            except pydev.CompileError as e:
                import re
                assert re.search(pattern, str(e), re.S), str(e)
            else:
                raise AssertionError("no error")
        assert fakecuda.launches() == [] and fakecuda.LIB.fakecuda_elf_modules() == 0
    """,
        WORK=str(tmp_path),
    )
