#!/usr/bin/env bash
# Prints the path of libdevice.10.bc ($PYDEV_LIBDEVICE wins when set): the
# CUDA math functions (__nv_sinf ...) that the NVVM lowering calls. The
# search is python/pydev/_toolchain.py's, the package's one definition.
exec "${PYTHON:-python3}" "$(dirname "$0")/../python/pydev/_toolchain.py" libdevice
