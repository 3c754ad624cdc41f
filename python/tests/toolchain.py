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


def assemble(ptx, tmp_path, chip="sm_90"):
    """Assembles PTX text with ptxas for `chip`: the completed process
    (its returncode and stderr), or None when no ptxas is installed."""
    exe = ptxas(chip)
    if not exe:
        return None
    src = os.path.join(str(tmp_path), "k.ptx")
    with open(src, "w") as f:
        f.write(ptx)
    obj = os.path.join(str(tmp_path), "k.o")
    return subprocess.run([exe, f"-arch={chip}", "-c", src, "-o", obj], capture_output=True, text=True)
