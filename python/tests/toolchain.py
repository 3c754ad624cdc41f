"""Tools the tests use beside pydev: ptxas (scripts/find-ptxas.sh finds the
one of the nvidia-cuda-nvcc wheels that accepts the chip)."""

import functools
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@functools.lru_cache(maxsize=None)
def ptxas(chip="sm_90"):
    """The path of a ptxas for `chip` (sm_XX), or None when none is installed."""
    exe = subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "find-ptxas.sh"), chip], capture_output=True, text=True
    ).stdout.strip()
    return exe or None
