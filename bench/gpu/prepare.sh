#!/usr/bin/env bash
# Converts every example variant for a GPU machine that has nvcc but no libclang: builds
# the conversions of a configured tree (target cpconvert_converted) and copies them to DIR
# (default .device/), which travels with the run; there, CMake takes them from
# -DCPCONVERT_CONVERTED_DIR=DIR.
#   bench/gpu/prepare.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
build=${CPCONVERT_BUILD:-build}
cmake -S . -B "$build" -DCPCONVERT_CONVERTED_EXPORT_DIR="$PWD/$dir" > /dev/null
cmake --build "$build" --target cpconvert_converted -j "$(nproc 2>/dev/null || echo 2)"
git rev-parse --short HEAD > "$dir/COMMIT" 2>/dev/null || true
echo "converted sources in $dir: $(ls "$dir" | wc -l) files"
