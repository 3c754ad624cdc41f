"""`numba.cuda.testing` for the test modules: the test case and skip decorators.

How each decorator behaves here (docs/numba.md, "numba-cuda's test suite"):
- `skip_on_cudasim`: never skips (ENABLE_CUDASIM is False: pydev.numba
  compiles, as the CUDA target does); `skip_unless_cudasim`: always skips;
  `xfail_unless_cudasim`: an expected failure.
- `skip_on_standalone_numba_cuda`: skips (there is no CPU Numba).
- `skip_unless_cc_NN` / `cc_X_or_above`: the current device's compute
  capability (9.0 on the host target).
- Toolkit probes (`skip_if_cuda_includes_missing`, `..._curand_kernel_missing`,
  `skip_if_nvjitlink_missing`, `skip_without_nvdisasm`) skip: those tests
  exercise the CUDA toolkit's headers, libraries and tools through
  numba-cuda's driver, not pydev.numba.
- `skip_if_cudadevrt_missing` never skips: numba-cuda links cudadevrt for
  grid groups (`cuda.cg.this_grid().sync()`), which pydev.numba provides
  without it (the tests it guards are cooperative-groups tests).
- Platform and environment ones (`skip_on_arm`, `skip_on_wsl2`,
  `skip_if_external_memmgr`, `skip_under_cuda_memcheck`,
  `skip_on_nvjitlink_13_1_sm_120`, `skip_with_nvdisasm`) as numba-cuda's.
- CUDATestCase's FileCheck assertions (`assertFileCheckAsm/LLVM/Matches`)
  skip the test: they check numba-cuda's own NVVM IR and PTX text.
"""

import os
import platform
import unittest
from pathlib import Path

import numpy as np

from numba.cuda import HAS_NUMBA, config
from numba.cuda.tests.support import TestCase


# numba-cuda's test data (jitlink.cu, ...), extracted with the tests.
test_data_dir = Path(os.environ["PYDEV_NUMBA_COMPAT_TESTS"]) / "data"


class CUDATestCase(TestCase):
    """For tests that use a CUDA device (here: pydev.numba's current target)."""

    FLOAT16_RTOL = np.finfo(np.float16).eps

    def setUp(self):
        self._low_occupancy_warnings = config.CUDA_LOW_OCCUPANCY_WARNINGS
        self._warn_on_implicit_copy = config.CUDA_WARN_ON_IMPLICIT_COPY
        config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
        config.CUDA_WARN_ON_IMPLICIT_COPY = 0

    def tearDown(self):
        config.CUDA_LOW_OCCUPANCY_WARNINGS = self._low_occupancy_warnings
        config.CUDA_WARN_ON_IMPLICIT_COPY = self._warn_on_implicit_copy

    def _filecheck_out_of_scope(self, *args, **kwargs):
        self.skipTest("out of scope: FileCheck of numba-cuda's NVVM IR / PTX text")

    assertFileCheckAsm = assertFileCheckLLVM = assertFileCheckMatches = _filecheck_out_of_scope


def skip_on_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(config.ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipUnless(config.ENABLE_CUDASIM, reason)


def xfail_unless_cudasim(fn):
    return fn if config.ENABLE_CUDASIM else unittest.expectedFailure(fn)


skip_on_standalone_numba_cuda = unittest.skipUnless(HAS_NUMBA, "requires base numba install")


def _toolkit_probe(reason):
    return unittest.skip(f"numba-cuda toolkit probe ({reason}): not pydev.numba's")


def skip_unless_conda_cudatoolkit(reason):
    return _toolkit_probe(reason)


def skip_if_cuda_includes_missing(fn):
    return _toolkit_probe("CUDA include dir")(fn)


def skip_if_curand_kernel_missing(fn):
    return _toolkit_probe("curand_kernel.h")(fn)


def skip_if_cudadevrt_missing(fn):
    return fn


def skip_if_nvjitlink_missing(reason):
    return _toolkit_probe(reason)


def skip_without_nvdisasm(reason):
    return _toolkit_probe(reason)


def skip_with_nvdisasm(reason):
    assert isinstance(reason, str)
    return lambda fn: fn


def skip_if_external_memmgr(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(config.CUDA_MEMORY_MANAGER != "default", reason)


def skip_under_cuda_memcheck(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def skip_on_arm(reason):
    cpu = platform.processor()
    return unittest.skipIf(cpu.startswith("arm") or cpu.startswith("aarch"), reason)


def skip_on_wsl2(reason):
    rel = platform.release().lower()
    return unittest.skipIf("wsl2" in rel, reason)


def skip_on_nvjitlink_13_1_sm_120(reason):
    assert isinstance(reason, str)
    return lambda fn: fn


def cc_X_or_above(major, minor):
    from numba import cuda

    return cuda.get_current_device().compute_capability >= (major, minor)


def skip_unless_cc_50(fn):
    return unittest.skipUnless(cc_X_or_above(5, 0), "requires cc >= 5.0")(fn)


def skip_unless_cc_53(fn):
    return unittest.skipUnless(cc_X_or_above(5, 3), "requires cc >= 5.3")(fn)


def skip_unless_cc_60(fn):
    return unittest.skipUnless(cc_X_or_above(6, 0), "requires cc >= 6.0")(fn)


def skip_unless_cc_75(fn):
    return unittest.skipUnless(cc_X_or_above(7, 5), "requires cc >= 7.5")(fn)


def skip_unless_cc_90(fn):
    return unittest.skipUnless(cc_X_or_above(9, 0), "requires cc >= 9.0")(fn)


class ForeignArray:
    """An array from another library through the CUDA Array Interface."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
