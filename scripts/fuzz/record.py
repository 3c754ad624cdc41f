"""pytest plugin that records every compile the tests make (file, function,
signature, module constants, target) into $PYDEV_FUZZ_RECORD (JSON lines):
the corpus of kernels mutate.py mutates, each with a signature it compiles
for. Regenerate with

    PYDEV_FUZZ_RECORD=scripts/fuzz/corpus/kernels.jsonl PYTHONPATH=scripts/fuzz \\
        python3 -m pytest -q -p record python/tests/test_conformance_host.py python/tests/test_host.py
"""

import json
import os


class _Recorder:
    def __init__(self, real, out):
        self._real, self._out, self._seen = real, out, set()

    def __getattr__(self, name):
        return getattr(self._real, name)

    def compile(self, path, source, function, signature, consts=None, target="host", stage="llvm", *args, **kwargs):
        text = self._real.compile(path, source, function, signature, consts, target, stage, *args, **kwargs)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        rel = os.path.relpath(path, root)
        key = (rel, function, signature, target)
        if key not in self._seen and not rel.startswith(".."):
            self._seen.add(key)
            c = {k: v for k, v in (consts or {}).items()}
            with open(self._out, "a") as f:
                f.write(
                    json.dumps(
                        {"file": rel, "function": function, "signature": signature, "consts": c, "target": target}
                    )
                    + "\n"
                )
        return text


def pytest_configure(config):
    out = os.environ.get("PYDEV_FUZZ_RECORD")
    if not out:
        return
    from pydev import _native

    _native._MODULE = _Recorder(_native.get(), out)
