"""`numba.cuda.tests.support`: numba-cuda's own, run with pydev's names.

Each top-level statement of numba-cuda 0.30.4's tests/support.py (the
definitions of TestCase with assertPreciseEqual, captured_stdout,
override_config, run_in_subprocess, ...) is executed here unchanged, except
its imports: `types` is pydev.numba.types, `config` and `errors` the shim's.
A definition that needs numba-cuda internals (NRT statistics, cffi typing)
fails to execute and is left out, so a test module that imports it fails to
import.
"""

import ast
import importlib
import os

import numpy as np

_SOURCE = os.path.join(os.environ["PYDEV_NUMBA_COMPAT_TESTS"], "support.py")


# The names numba-cuda's support.py imports at its top, by the name it uses.
_STDLIB = (
    "cmath",
    "contextlib",
    "enum",
    "gc",
    "io",
    "math",
    "shutil",
    "subprocess",
    "sys",
    "tempfile",
    "time",
    "traceback",
    "unittest",
    "warnings",
)


def _load():
    import concurrent.futures
    import functools
    import multiprocessing
    import sys
    import types as pytypes

    from numba.cuda import HAS_NUMBA, types
    from numba.cuda.core import config, errors

    namespace = dict(globals())
    namespace.update({m: importlib.import_module(m) for m in _STDLIB})
    namespace.update(
        concurrent=concurrent,
        mp=multiprocessing,
        pytypes=pytypes,
        cached_property=functools.cached_property,
        np=np,
        types=types,
        config=config,
        errors=errors,
        HAS_NUMBA=HAS_NUMBA,
        PYVERSION=sys.version_info[:2],
        # cffi through numba's typing is out of scope: skip_unless_cffi skips.
        cffi_utils=pytypes.SimpleNamespace(SUPPORTED=False),
        # No NRT: pydev.numba kernels allocate nothing, so the statistics that
        # MemoryLeakMixin compares are zero.
        rtsys=pytypes.SimpleNamespace(
            get_allocation_stats=lambda: pytypes.SimpleNamespace(alloc=0, free=0, mi_alloc=0, mi_free=0),
            memsys_enable_stats=lambda: None,
            memsys_disable_stats=lambda: None,
        ),
    )
    with open(_SOURCE) as f:
        tree = ast.parse(f.read(), _SOURCE)
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        code = compile(ast.Module(body=[node], type_ignores=[]), _SOURCE, "exec")
        try:
            exec(code, namespace)  # noqa: S102 - numba-cuda's own support code
        except Exception:
            continue
    return namespace


globals().update({k: v for k, v in _load().items() if not k.startswith("__")})
