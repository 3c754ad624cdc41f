#!/usr/bin/env bash
# Launch cost of two wheels on a lent GPU, alternated in one call (a GPU
# machine's launch figures move by 10-20% between runs, so a change is
# only seen beside its baseline): the GPU tests of the launch paths with
# wheel B, then bench/launch_anatomy.py with A, B, A, B.
#
#   mkdir -p dist/a dist/b; cp OLD.whl dist/a; cp NEW.whl dist/b
#   run(command="bash scripts/gpu-launch-ab.sh dist/a dist/b", carry=["dist"])
set -u
cd "$(dirname "$0")/.."
a=${1:?usage: scripts/gpu-launch-ab.sh DIR_A DIR_B [LAUNCHES]} b=${2:?usage: scripts/gpu-launch-ab.sh DIR_A DIR_B [LAUNCHES]}
launches=${3:-10000}
for d in "$a" "$b"; do
    python3 -m pip install -q --no-deps --target "/tmp/pkg-$(basename "$d")" "$d"/*.whl >/dev/null 2>&1 || { echo "cannot install $d"; exit 1; }
done
export PYDEV_REQUIRE_NATIVE=1
PYTHONPATH=/tmp/pkg-$(basename "$b") timeout 150 python3 -m pytest -q -p no:cacheprovider -rs python/tests/test_gpu.py python/tests/test_multi_device.py \
    python/tests/test_interop_cuda.py python/tests/test_interop_cuda_launch.py 2>&1 | tail -3
for _ in 1 2; do
    for d in "$a" "$b"; do
        echo "== $d (wall time per launch)"
        PYTHONPATH=/tmp/pkg-$(basename "$d") timeout 60 python3 bench/launch_anatomy.py --launches "$launches" 2>&1 | grep "^| [^-l]" | sed 's/ | [0-9.]* µs |$//'
    done
done
