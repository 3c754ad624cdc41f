#!/usr/bin/env bash
# Prints the path of the ptxas that the nvidia-cuda-nvcc wheel installed
# ($PTXAS wins when set).
if [ -n "${PTXAS:-}" ]; then echo "$PTXAS"; exit 0; fi
"${PYTHON:-python3}" - <<'PY'
import glob, os
try:
    import nvidia
except ImportError:
    raise SystemExit(0)
for root in nvidia.__path__:
    for hit in sorted(glob.glob(os.path.join(root, "cu*", "bin", "ptxas")), reverse=True):
        print(hit)
        raise SystemExit(0)
PY
