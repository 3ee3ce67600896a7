#!/usr/bin/env bash
# On a GPU machine: builds the runtime's device tests and every example variant, runs the
# tests labelled gpu, then the evaluation (bench/gpu/evaluate.py). Logs and results go to
# $OUT (or ./gpu-out). Where cpconvert cannot be built (no libclang), the converted sources
# come from DIR, written by bench/gpu/prepare.sh on a machine that has it.
#   bench/gpu/run.sh [DIR] [--quick] [--only md,sum,...] [--no-tests]
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=.device
eval_args=()
tests=1
for a in "$@"; do
  case "$a" in
    --quick) eval_args+=(--quick) ;;
    --only=*) eval_args+=(--only "${a#--only=}") ;;
    --no-tests) tests=0 ;;
    *) dir=$a ;;
  esac
done
out=${OUT:-gpu-out}
mkdir -p "$out"

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -2
  date -u; } | tee "$out/gpu.txt"

flags=(-DCMAKE_BUILD_TYPE=Release -DCPCONVERT_CPU_TESTS=OFF)
if [ -f "$dir/COMMIT" ]; then
  export CPCONVERT_COMMIT=$(cat "$dir/COMMIT")  # the commit the sources were converted at
fi
if [ -d "$dir" ]; then
  flags+=(-DCPCONVERT_BUILD_TOOL=OFF -DCPCONVERT_CONVERTED_DIR="$PWD/$dir")
fi
cmake -S . -B build-gpu "${flags[@]}" > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
start=$(date +%s)
cmake --build build-gpu -j "$(nproc)" >> "$out/cmake.log" 2>&1 || { grep -B5 -A5 error "$out/cmake.log" | tail -40; exit 1; }
echo "built in $(( $(date +%s) - start )) s"

if [ "$tests" = 1 ]; then
  (cd build-gpu && timeout 400 ctest -L gpu --output-on-failure) > "$out/ctest_gpu.log" 2>&1
  grep -E "tests passed|Passed|Failed|\*\*\*" "$out/ctest_gpu.log"
fi
python3 bench/gpu/evaluate.py --bin build-gpu/examples --out "$out" "${eval_args[@]}" 2>&1 | tee "$out/evaluate.log"
# the programs' own outputs, in one file
tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
# PROJECTION for FP64-weak GPUs from the SASS of every variant (no GPU needed; here because
# the GPU machine has cuobjdump): bench/project.py
if command -v cuobjdump > /dev/null; then
  conv=$dir; [ -d "$conv" ] || conv=build-gpu/examples/cpconvert
  python3 bench/project.py --converted "$conv" --json "$out/projection.json" > "$out/projection.md" \
    2> "$out/projection.err" \
    && echo "projection in $out/projection.md"
else
  echo "no cuobjdump on PATH: no projection (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)"
fi
