#!/usr/bin/env bash
# Prints the path of a ptxas from the nvidia-cuda-nvcc wheels ($PTXAS wins
# when set). With an architecture argument (sm_70 ...), one that accepts it:
# CUDA 13 dropped sm_70 and sm_72, so those use the CUDA 12 wheel.
arch=${1:-}
if [ -n "${PTXAS:-}" ] && [ -z "$arch" ]; then echo "$PTXAS"; exit 0; fi
"${PYTHON:-python3}" - "$arch" <<'PY'
import glob, os, sys
try:
    import nvidia
except ImportError:
    raise SystemExit(0)
arch = sys.argv[1]
found = {}
for root in nvidia.__path__:
    for hit in glob.glob(os.path.join(root, "*", "bin", "ptxas")):
        found["12" if "cuda_nvcc" in hit else "13"] = hit
old = arch in ("sm_70", "sm_72", "sm_75")
pick = found.get("12") if old else found.get("13", found.get("12"))
if pick:
    print(pick)
PY
