"""The same kernel compiles to the same text in every process: every stage
of every kernel of test/gpu/kernels.py, for the host and two chips, in fresh
processes (hash seeds and addresses differ between them: maps keyed by
either must not order the code)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.join(HERE, "..", "..", "test", "gpu")

SCRIPT = f"""
import hashlib, sys
sys.path.insert(0, {GPU!r})
import kernels, run
from pydev import _launch, _native, _toolchain
native = _native.get()
lib = _toolchain.libdevice()
for name, sig in sorted(run.SIGNATURES.items()):
    k = getattr(kernels, name)
    path, source = k._source()
    for target, stages in (("host", ("pydev", "pydev-opt", "llvm")), ("sm_90", ("llvm", "ptx")), ("sm_70", ("ptx",))):
        for stage in stages:
            text = native.compile(path, source, name, sig, k._consts(), target, stage, libdevice=lib, program=k._program()[0])
            print(name, target, stage, hashlib.sha256(text.encode()).hexdigest())
"""


def test_compiles_are_the_same_in_every_process():
    pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")
    outs = []
    for seed in range(4):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.splitlines())
    assert len(outs[0]) > 50, outs[0]
    for other in outs[1:]:
        differ = [a for a, b in zip(outs[0], other) if a != b]
        assert not differ and len(other) == len(outs[0]), differ
