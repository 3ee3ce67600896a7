#!/usr/bin/env bash
# Converts the examples for a run on a GPU machine that has nvcc but no libclang:
# writes the converted sources to DIR (default .device/), which travels with the run.
#   bench/gpu/prepare.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
tool=${CPCONVERT:-build/tool/cpconvert}
mkdir -p "$dir"
"$tool" examples/global_sum/global_sum.cu -o "$dir/global_sum_cp.cu"
"$tool" examples/md_nve/md_nve.cu -o "$dir/md_nve_cp.cu"
# the same MD program with the force kernel in scope(accumulators)
sed 's|^#pragma cp composite$|#pragma cp composite scope(accumulators)|' examples/md_nve/md_nve.cu \
  > "$dir/md_nve_acc.cu"
"$tool" "$dir/md_nve_acc.cu" -o "$dir/md_nve_acc_cp.cu"
echo "converted examples in $dir"
