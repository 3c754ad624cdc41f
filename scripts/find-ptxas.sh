#!/usr/bin/env bash
# Prints the path of a ptxas from the nvidia-cuda-nvcc wheels ($PTXAS wins
# when set). With an architecture argument (sm_70 ...), one that accepts it.
# The search is python/pydev/_toolchain.py's, the package's one definition.
exec "${PYTHON:-python3}" "$(dirname "$0")/../python/pydev/_toolchain.py" ptxas "$@"
