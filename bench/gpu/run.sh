#!/usr/bin/env bash
# On a GPU machine: the device tests of the runtime, then the examples in float, double
# and composite precision (converted by bench/gpu/prepare.sh). Logs go to $OUT (or ./gpu-out).
#   bench/gpu/run.sh [DIR] [MD_STEPS] [PARTS]
# PARTS: any of runtime,programs,sum,md,timing (default: all).
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
steps=${2:-10000}
parts=${3:-runtime,programs,sum,md,timing}
out=${OUT:-gpu-out}
want() { case ",$parts," in *",$1,"*) return 0;; esac; return 1; }
mkdir -p "$out"
log() { echo "== $*" | tee -a "$out/summary.txt"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version | tail -2 | tee -a "$out/gpu.txt"
date -u | tee -a "$out/gpu.txt"

mkdir -p build-gpu
if want runtime; then
log "runtime device tests"
cmake -S . -B build-gpu -DCPCONVERT_BUILD_TOOL=OFF -DCPCONVERT_CPU_TESTS=OFF \
  -DCPCONVERT_CONVERTED_DIR="$PWD/$dir" -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1
cmake --build build-gpu -j 16 >> "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; }
(cd build-gpu && timeout 300 ctest -L gpu -V) > "$out/ctest_gpu.log" 2>&1
grep -E "step|composite|PASS|FAIL|tests passed|Passed|Failed" "$out/ctest_gpu.log" | tee -a "$out/summary.txt"
build-gpu/tests/gpu/gpu_runtime_bitident > "$out/bitident.log" 2>&1; echo "bitident exit $?" | tee -a "$out/summary.txt"
fi

if want programs; then
log "golden whole programs: original (float) and converted, same output expected up to rounding"
for p in host_program host_helper host_async host_struct double_kernel; do
  nvcc -O3 -arch=sm_90 tests/golden/$p.cu -o build-gpu/${p}_orig &&
  nvcc -O3 -arch=sm_90 -Iruntime/include tests/golden/$p.expected.cu -o build-gpu/${p}_cp || continue
  a=$(timeout 60 build-gpu/${p}_orig 2>&1); ra=$?
  b=$(timeout 60 build-gpu/${p}_cp 2>&1); rb=$?
  echo "$p: original exit $ra [$a] | converted exit $rb [$b]" | tee -a "$out/summary.txt"
done
fi

inc=runtime/include
if want sum || want md || want timing; then
log "building examples"
nvcc -O3 -arch=sm_90 examples/global_sum/global_sum.cu -o build-gpu/gs_float
nvcc -O3 -arch=sm_90 -I$inc "$dir/global_sum_cp.cu" -o build-gpu/gs_cp
nvcc -O3 -arch=sm_90 examples/md_nve/md_nve.cu -o build-gpu/md_float
nvcc -O3 -arch=sm_90 -DREAL_DOUBLE examples/md_nve/md_nve.cu -o build-gpu/md_double
nvcc -O3 -arch=sm_90 -I$inc "$dir/md_nve_cp.cu" -o build-gpu/md_cp
nvcc -O3 -arch=sm_90 -I$inc "$dir/md_nve_acc_cp.cu" -o build-gpu/md_acc
fi

if want sum; then
log "global sum (exact sum 0)"
for v in float cp; do echo "-- $v" | tee -a "$out/summary.txt"; timeout 60 build-gpu/gs_$v | tee "$out/gs_$v.log" | tee -a "$out/summary.txt"; done
fi

if want md; then
log "NVE MD, 1000 atoms, $steps steps, the four programs at once"
for v in float double cp acc; do
  timeout 240 build-gpu/md_$v 10 "$steps" $((steps / 20)) > "$out/md_$v.log" 2>&1 &
done
wait
for v in float double cp acc; do
  echo "-- $v" | tee -a "$out/summary.txt"
  sed -n '3p;$p' "$out/md_$v.log" | tee -a "$out/summary.txt"
  tail -2 "$out/md_$v.log" | head -1 | tee -a "$out/summary.txt"
done
fi

if want timing; then
log "NVE MD timing, one program at a time (steps/s)"
for side in 10 16; do
  n=$([ "$side" = 10 ] && echo 3000 || echo 1000)
  for v in float double cp acc; do
    r=$(timeout 120 build-gpu/md_$v $side $n $n | sed -n 's/.*: \([0-9.]*\) steps\/s/\1/p')
    echo "atoms $((side * side * side)) $v $r" | tee -a "$out/summary.txt"
  done
done
fi
