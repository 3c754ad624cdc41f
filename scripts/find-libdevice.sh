#!/usr/bin/env bash
# Prints the path of libdevice.10.bc from the nvidia-nvvm wheel
# ($PYDEV_LIBDEVICE wins when set): the CUDA math functions (__nv_sinf ...)
# that the NVVM lowering calls.
if [ -n "${PYDEV_LIBDEVICE:-}" ]; then echo "$PYDEV_LIBDEVICE"; exit 0; fi
"${PYTHON:-python3}" - <<'PY'
import glob, os
try:
    import nvidia
except ImportError:
    raise SystemExit(0)
for root in nvidia.__path__:
    for hit in sorted(glob.glob(os.path.join(root, "*", "nvvm", "libdevice", "libdevice.10.bc")), reverse=True):
        print(hit)
        raise SystemExit(0)
PY
