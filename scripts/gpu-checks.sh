#!/usr/bin/env bash
# The GPU checks of the open issues, in one call on a lent GPU machine (which
# has Python 3.12, CuPy, PyTorch, JAX, cuda.core, Numba-CUDA, nvcc and
# compute-sanitizer, but no Rust or LLVM). Build the release wheel here and
# carry it:
#
#   maturin build --profile release --strip -m python/Cargo.toml -o dist
#   python3 test/gpu/run.py --pydevc target/debug/pydevc --arch sm_90 --compile dist/ptx-sm_90
#   run(command="bash scripts/gpu-checks.sh dist/*.whl", carry=["dist"])
#
# Each step has its own time limit, cut to what is left of the whole run's
# (GPU_CHECKS_SECONDS, default 520, inside the device tool's 600 s per call),
# so one hang does not lose the rest. The device tool returns at most 8 files,
# so the logs go into $OUT/logs.tgz (or ./gpu-out) and each step's line into
# $OUT/summary.txt as it ends: a run killed at its limit still returns them.
# The summary table is printed last. Steps: the GPU test modules, the conformance
# suite and local atomics on cuda, test/gpu/run.py on the PTX carried in the
# wheel's folder (ptx-sm_90), first launch, and last bench/gpu.py (kernels
# against CUDA C++ and Numba-CUDA, then the launch rows). `--quick` skips the benchmark.
set -uo pipefail
cd "$(dirname "$0")/.."
wheel=${1:?usage: scripts/gpu-checks.sh WHEEL [--quick]}
quick=${2:-}
out=${OUT:-$PWD/gpu-out}
budget=${GPU_CHECKS_SECONDS:-520}
mkdir -p "$out"
logs=$(mktemp -d /tmp/pydev-logs.XXXX)
pkg=$(mktemp -d /tmp/pydev-pkg.XXXX)
python3 -m pip install -q --no-deps --target "$pkg" "$wheel" >"$logs/install.log" 2>&1 || { cat "$logs/install.log"; exit 1; }
# Subprocess tests inherit PYTHONPATH (the installed wheel first).
export PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}"
export PYDEV_REQUIRE_NATIVE=1 PYDEV_LIBDEVICE="${PYDEV_LIBDEVICE:-$(scripts/find-libdevice.sh 2>/dev/null)}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/gpu.txt" 2>&1
python3 -c "import sys, pydev; print(sys.version.split()[0], pydev.__file__, pydev.active_target())" >>"$out/gpu.txt" 2>&1

summary=()
step() {  # step NAME SECONDS COMMAND...: run with a limit, log to $logs/NAME.log
    local name=$1 limit=$2; shift 2
    local left=$((budget - SECONDS))
    if [ "$left" -lt 20 ]; then
        summary+=("$(printf '| %-22s | not run: %ss spent |' "$name" "$budget")")
        printf '%s\n' "${summary[-1]}" >>"$out/summary.txt"
        return
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    local t0=$SECONDS
    timeout "$limit" "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    local tail; tail=$(grep -E "passed|failed|error|skipped|no tests ran|Traceback" "$logs/$name.log" | tail -1)
    summary+=("$(printf '| %-22s | rc %-3s | %4ss | %s |' "$name" "$rc" "$((SECONDS - t0))" "${tail:0:90}")")
    printf '%s\n' "${summary[-1]}" >>"$out/summary.txt"
    tar czf "$out/logs.tgz" -C "$logs" .
}

pytest_gpu=(python3 -m pytest -q -p no:cacheprovider -rs)
# The most wanted first (the benchmark last): a run cut short loses the last steps.
step gpu-tests 150 "${pytest_gpu[@]}" python/tests/test_gpu.py python/tests/test_multi_device.py python/tests/test_boundscheck_cuda.py python/tests/test_lineinfo.py
step interop-gpu 120 "${pytest_gpu[@]}" python/tests/test_interop_cuda.py python/tests/test_interop_cuda_launch.py
# The user-facing programs and the newer GPU paths: the examples on cuda,
# fmad=False against NumPy, pydev.numba's host API, pickled arrays and kernels.
step examples-gpu 120 "${pytest_gpu[@]}" python/tests/test_examples.py python/tests/test_fmad.py python/tests/test_numba_host_api.py python/tests/test_pickle.py
step conformance-cuda 150 env PYDEV_CONFORMANCE_TARGET=cuda "${pytest_gpu[@]}" python/tests/test_conformance_host.py python/tests/test_local_atomics.py
step numba-gpu 90 "${pytest_gpu[@]}" python/tests/test_numba_gpu.py
ptx=$(dirname "$wheel")/ptx-sm_90
[ -d "$ptx" ] && step kernels-run 60 python3 test/gpu/run.py --run "$ptx"
# The same linked kernels with the kernel linked as PTX instead of libNVVM's LTO-IR (docs/interop.md).
step interop-gpu-ptx 60 env PYDEV_KERNEL_LTOIR=0 "${pytest_gpu[@]}" python/tests/test_interop_cuda.py -k gpu
step first-launch 60 python3 bench/first_launch.py --runs 10 --target cuda "$pkg"
# The benchmark last: it takes what the checks left.
if [ "$quick" != "--quick" ]; then
    step bench-gpu 200 python3 bench/gpu.py
fi

echo "GPU: $(head -1 "$out/gpu.txt")"
printf '%s\n' "| step | status | time | last line |" "|---|---|---|---|" "${summary[@]}"
[ -f "$logs/bench-gpu.log" ] && tail -45 "$logs/bench-gpu.log"
[ -f "$logs/first-launch.log" ] && tail -6 "$logs/first-launch.log"
exit 0
