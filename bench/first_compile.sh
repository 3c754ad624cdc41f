#!/usr/bin/env bash
# Time to the first PTX in a fresh process: pydevc (release) on each typical
# kernel, best of 5 runs each. Usage: bench/first_compile.sh [path/to/pydevc]
set -euo pipefail
cd "$(dirname "$0")/.."
PYDEVC=${1:-target/release/pydevc}
while IFS='|' read -r kernel signature; do
  best=999999
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$PYDEVC" test/gpu/kernels.py --kernel "$kernel" --signature "$signature" -o /dev/null
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    (( ms < best )) && best=$ms
  done
  printf '%-12s %4d ms\n' "$kernel" "$best"
done <<'LIST'
saxpy|float32, float32[::1], float32[::1], float32[::1]
histogram|uint32[::1], readonly int32[::1]
warp_sum|float32[::1], readonly float32[::1]
block_sum|float32[::1], readonly float32[::1]
transpose|float32[:, ::1], readonly float32[:, ::1]
stencil|float32[:, ::1], readonly float32[:, ::1]
push|Particle[::1], float32
python_ints|int32[:, ::1], readonly int32[::1], readonly int32[::1]
LIST
