#!/usr/bin/env bash
# Quick start: installs what is missing, builds cpconvert, converts the bundled example
# kernel and shows what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build
cmake --build build --target cpconvert -j "$(nproc 2>/dev/null || echo 2)"  # the tool only

example=examples/global_sum/global_sum.cu
out=build/global_sum_cp.cu
echo
echo "\$ build/tool/cpconvert $example -o $out"
build/tool/cpconvert "$example" -o "$out"
echo "\$ diff -u $example $out"
diff -u "$example" "$out" || true
