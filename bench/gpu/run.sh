#!/usr/bin/env bash
# On a GPU machine: the device tests of the runtime, then the examples in float, double
# and composite precision (converted by bench/gpu/prepare.sh). Logs go to $OUT (or ./gpu-out).
#   bench/gpu/run.sh [DIR] [MD_STEPS]
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
steps=${2:-10000}
out=${OUT:-gpu-out}
mkdir -p "$out"
log() { echo "== $*" | tee -a "$out/summary.txt"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version | tail -2 | tee -a "$out/gpu.txt"
date -u | tee -a "$out/gpu.txt"

log "runtime device tests"
cmake -S . -B build-gpu -DCPCONVERT_BUILD_TOOL=OFF -DCPCONVERT_CPU_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1
cmake --build build-gpu -j 16 >> "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; }
(cd build-gpu && timeout 300 ctest -L gpu --output-on-failure) > "$out/ctest_gpu.log" 2>&1
tail -5 "$out/ctest_gpu.log" | tee -a "$out/summary.txt"
build-gpu/tests/gpu/gpu_runtime_bitident > "$out/bitident.log" 2>&1; echo "bitident exit $?" | tee -a "$out/summary.txt"

log "building examples"
inc=runtime/include
nvcc -O3 -arch=sm_90 examples/global_sum/global_sum.cu -o build-gpu/gs_float
nvcc -O3 -arch=sm_90 -I$inc "$dir/global_sum_cp.cu" -o build-gpu/gs_cp
nvcc -O3 -arch=sm_90 examples/md_nve/md_nve.cu -o build-gpu/md_float
nvcc -O3 -arch=sm_90 -DREAL_DOUBLE examples/md_nve/md_nve.cu -o build-gpu/md_double
nvcc -O3 -arch=sm_90 -I$inc "$dir/md_nve_cp.cu" -o build-gpu/md_cp
nvcc -O3 -arch=sm_90 -I$inc "$dir/md_nve_acc_cp.cu" -o build-gpu/md_acc

log "global sum (exact sum 0)"
for v in float cp; do echo "-- $v" | tee -a "$out/summary.txt"; timeout 60 build-gpu/gs_$v | tee "$out/gs_$v.log" | tee -a "$out/summary.txt"; done

log "NVE MD, 1000 atoms, $steps steps"
for v in float double cp acc; do
  timeout 240 build-gpu/md_$v 10 "$steps" $((steps / 20)) > "$out/md_$v.log" 2>&1 &
done
wait
for v in float double cp acc; do
  echo "-- $v" | tee -a "$out/summary.txt"
  sed -n '3p;$p' "$out/md_$v.log" | tee -a "$out/summary.txt"
  tail -2 "$out/md_$v.log" | head -1 | tee -a "$out/summary.txt"
done
