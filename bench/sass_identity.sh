#!/bin/bash
# Does an LLVM pipeline other than pydev's give the same machine code?
# Without a GPU, identical SASS is the proof that a kernel runs as fast.
#
#   bench/sass_identity.sh 'OPT_PIPELINE' [LLC_OPT_LEVEL]
#
# For each kernel of test/gpu (run.py's SIGNATURES): pydevc's unoptimized
# LLVM IR (`--emit llvm-ir`, release pydevc), libdevice linked as
# gpu-module-to-binary links it (only what is called, internalized), then
# `opt -passes=PIPELINE` and `llc -O<level>` (LLVM 22) against the same with
# `default<O3>` and -O3 (what the pipeline runs); each PTX assembled by
# ptxas for sm_90 and disassembled by cuobjdump -sass (pip install
# nvidia-cuda-cuobjdump; CUOBJDUMP=path). Prints each kernel's registers and
# SASS lines, SAME or DIFF, and opt's and llc's pass time (-time-passes;
# one cold process each, so only large differences mean anything; time
# pipelines in-process with bench/nvptx_floor.c on the linked modules that
# WORK=DIR keeps: DIR/KERNEL.linked.bc).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pipe=${1:?usage: bench/sass_identity.sh OPT_PIPELINE [LLC_OPT_LEVEL]}
llco=${2:-3}
B=${LLVM_BIN:-/usr/lib/llvm-22/bin}
PYDEVC=${PYDEVC:-$here/target/release/pydevc}
LIBDEVICE=$("$here/scripts/find-libdevice.sh")
PTXAS=${PTXAS:-$("$here/scripts/find-ptxas.sh")}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || python3 -c "import nvidia, os; print(next((os.path.join(r, 'cuobjdump') for p in nvidia.__path__ for r, _, f in os.walk(p) if 'cuobjdump' in f), ''))")}
[ -x "$CUOBJDUMP" ] || { echo "no cuobjdump: pip install nvidia-cuda-cuobjdump, or set CUOBJDUMP" >&2; exit 2; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
flags=(-mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80)
sass() { # PIPELINE LLC_LEVEL KERNEL OUT
  "$B/opt" -nvvm-reflect-add=__CUDA_PREC_SQRT=1 -passes="$1" "${flags[@]}" "$work/$3.linked.bc" -o "$4.bc" -time-passes 2> "$4.opt.time"
  "$B/llc" -O"$2" "${flags[@]}" "$4.bc" -o "$4.ptx" -time-passes 2> "$4.llc.time"
  "$PTXAS" -arch=sm_90 -v "$4.ptx" -o "$4.cubin" 2> "$4.ptxas"
  "$CUOBJDUMP" -sass "$4.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's:/\*[0-9a-f]*\*/::; s:;.*::' > "$4.sass"
}
total() { sed -n '/Pass execution timing report/,$p' "$1" | awk '/Total Execution Time/ {print $4 * 1000; exit}'; }
same=0; differ=()
kernels=$(cd "$here/test/gpu" && python3 -c "import run; print(' '.join(run.SIGNATURES))")
for k in $kernels; do
  sig=$(cd "$here/test/gpu" && python3 -c "import run; print(run.SIGNATURES['$k'])")
  "$PYDEVC" "$here/test/gpu/kernels.py" --kernel "$k" --signature "$sig" --emit llvm-ir -o "$work/$k.ll"
  "$B/llvm-link" --only-needed --internalize "$work/$k.ll" "$LIBDEVICE" -o "$work/$k.linked.bc" 2> /dev/null
  sass 'default<O3>' 3 "$k" "$work/$k.base"
  sass "$pipe" "$llco" "$k" "$work/$k.new"
  regs() { grep -o 'Used [0-9]* registers' "$1" | awk '{print $2}'; }
  if cmp -s "$work/$k.base.sass" "$work/$k.new.sass"; then verdict=SAME; same=$((same + 1)); else verdict=DIFF; differ+=("$k"); fi
  printf '%-20s regs %3s -> %3s  sass %4s -> %4s  %-4s  opt %6.2f -> %6.2f ms  llc %6.2f -> %6.2f ms\n' "$k" \
    "$(regs "$work/$k.base.ptxas")" "$(regs "$work/$k.new.ptxas")" "$(wc -l < "$work/$k.base.sass")" "$(wc -l < "$work/$k.new.sass")" "$verdict" \
    "$(total "$work/$k.base.opt.time")" "$(total "$work/$k.new.opt.time")" "$(total "$work/$k.base.llc.time")" "$(total "$work/$k.new.llc.time")"
done
echo "identical SASS: $same; different: ${differ[*]:-none}"
