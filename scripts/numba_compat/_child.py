"""Runs one numba-cuda test module against pydev.numba; run.py starts it.

    python3 _child.py MODULE OUT.jsonl      (MODULE: e.g. cudapy.test_sm)

Writes one JSON line per event to OUT.jsonl as it goes, so that the parent
still has every finished test when this process hangs or crashes:
{"tests": [ids]} once, then {"id": id, "outcome": "pass|fail|skip|out", "detail": str}.
A module that fails to import is {"import_error": traceback}.
"""

import fnmatch
import json
import os
import sys
import traceback
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))


class _Result(unittest.TestResult):
    """One line per test; a test whose subtests failed is one failure."""

    def __init__(self, out):
        super().__init__()
        self._out = out

    def startTest(self, test):
        super().startTest(test)
        self._emitted = False
        self._sub = []

    def _emit(self, test, outcome, detail=""):
        self._emitted = True
        self._out.write(json.dumps({"id": test.id(), "outcome": outcome, "detail": detail}) + "\n")
        self._out.flush()

    def addSuccess(self, test):
        self._emit(test, "pass")

    def addFailure(self, test, err):
        self._emit(test, "fail", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        # pytest.importorskip / pytest.skip in a unittest test: a skip, as under pytest.
        if any(c.__module__ == "_pytest.outcomes" and c.__name__ == "OutcomeException" for c in err[0].__mro__) and (
            err[0].__name__ == "Skipped"
        ):
            self._emit(test, "skip", str(err[1]))
            return
        self._emit(test, "fail", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self._emit(test, "skip", reason)

    def addExpectedFailure(self, test, err):
        self._emit(test, "pass", "expected failure")

    def addUnexpectedSuccess(self, test):
        self._emit(test, "fail", "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._sub.append(self._exc_info_to_string(err, subtest))

    def stopTest(self, test):
        # unittest reports no outcome of its own for a test whose subtests failed.
        if not self._emitted:
            self._emit(test, "fail", "\n".join(self._sub) or "no outcome reported")
        super().stopTest(test)


def _flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from _flatten(t)
        else:
            yield t


def main():
    module, out_path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(_HERE, "shim"))
    with open(out_path, "w") as out:
        try:
            suite = unittest.defaultTestLoader.loadTestsFromName("numba.cuda.tests." + module)
        except Exception:
            out.write(json.dumps({"import_error": traceback.format_exc()}) + "\n")
            return
        tests = list(_flatten(suite))
        failed = [t for t in tests if isinstance(t, unittest.loader._FailedTest)]
        if failed:
            try:
                failed[0].debug()
            except Exception:
                out.write(json.dumps({"import_error": traceback.format_exc()}) + "\n")
                return
        out.write(json.dumps({"tests": [t.id() for t in tests]}) + "\n")
        out.flush()
        result = _Result(out)
        # {test id pattern: reason}: tests of in-scope modules that exercise
        # numba-cuda internals (scope.toml, out_of_scope_tests); not run.
        excluded = json.loads(os.environ.get("PYDEV_NUMBA_COMPAT_EXCLUDE", "{}"))
        for t in tests:
            reason = next((r for p, r in excluded.items() if fnmatch.fnmatch(t.id(), "numba.cuda.tests." + p)), None)
            if reason is None:
                t.run(result)
            else:
                result.startTest(t)
                result._emit(t, "out", reason)
                result.stopTest(t)


if __name__ == "__main__":
    main()
