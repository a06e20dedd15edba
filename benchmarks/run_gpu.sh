#!/usr/bin/env bash
# Everything that needs the GPU, in one go: the GPU tests, then the benchmarks.
# On the device machine (see docs/performance.md):
#   bash benchmarks/run_gpu.sh [pytest args]
# Results go to $OUT (default: ./gpu-results). bench_kernels.py compares with mlir-opt-22's
# PTX: where the GPU machine has no mlir-opt-22, write it beforehand where it is
# installed (python3 benchmarks/bench_kernels.py --prepare .bench) and bring .bench along.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-results}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
python3 -m pytest -q -m gpu -p no:cacheprovider "${@:-tests}" 2>&1 | tee "$OUT/gpu-tests.txt"
status=${PIPESTATUS[0]}
for bench in benchmarks/bench_*.py; do
  [ -e "$bench" ] || continue
  # Compile speed is measured on the CPU machine, against mlir-opt-22.
  [ "$(basename "$bench")" = bench_compile.py ] && continue
  python3 "$bench" 2>&1 | tee "$OUT/$(basename "$bench" .py).txt"
  # A benchmark exits non-zero when it fails or misses its target.
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "$bench: failed or missed its target"; status=1; }
done
exit "$status"
