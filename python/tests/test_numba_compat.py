"""The fixed slice of numba-cuda's own test suite that `make test` runs
(scripts/numba_compat, scope.toml's `slice`): numba-cuda 0.30.4's test
modules, unchanged, against pydev.numba on the host target; every test of
the slice must pass. The full run is `make test-numba-compat`
(docs/numba.md, "numba-cuda's test suite"). Skips, with the reason, when
the numba-cuda wheel cannot be downloaded (scripts/setup.sh fetches it)."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "scripts", "numba_compat", "run.py")
UNAVAILABLE = 3  # run.py's exit status when the package cannot be fetched


def test_the_numba_cuda_slice_passes(native, tmp_path):
    out = tmp_path / "slice.json"
    env = dict(os.environ, PYDEV_TARGET="host")
    r = subprocess.run(
        [sys.executable, RUNNER, "--slice", "--timeout", "120", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    if r.returncode == UNAVAILABLE:
        pytest.skip(f"numba-cuda's tests are not available: {r.stderr.strip()}")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(out.read_text())
    failed = {
        tid: t["detail"].strip().splitlines()[-1:]
        for m in report["modules"]
        for tid, t in m["tests"].items()
        if t["outcome"] == "fail"
    }
    assert not failed, f"{len(failed)} tests of the slice failed: {failed}\n{r.stdout}"
    counts = report["total"]
    assert counts["pass"] >= 20 and counts["fail"] == 0, counts
    assert len(report["modules"]) >= 5 and all(m["in_scope"] for m in report["modules"])
