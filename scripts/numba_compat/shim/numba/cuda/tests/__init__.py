"""`numba.cuda.tests`: numba-cuda 0.30.4's test directories, unchanged.

The runner puts the directory it extracted from numba-cuda's wheel in
PYDEV_NUMBA_COMPAT_TESTS; this package's path is this shim first (its
`support` module) and then that directory (`cudapy`, `doc_examples`, ...).
"""

import os
import unittest

__path__ = [os.path.dirname(__file__), os.environ["PYDEV_NUMBA_COMPAT_TESTS"]]


def load_testsuite(loader, dir):
    # cudapy/__init__.py's load_tests; the runner loads one module at a time.
    return unittest.TestSuite()
