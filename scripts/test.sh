#!/usr/bin/env bash
# Builds cpconvert and runs the whole test suite with ctest.
#   scripts/test.sh              build in build/, run every test
#   scripts/test.sh --sanitize   the same in build-sanitize/, with AddressSanitizer and UBSan
# GPU tests (ctest label "gpu") run where a CUDA device is present and report "skipped"
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

build=build
flags=()
if [ "${1:-}" = "--sanitize" ]; then
  build=build-sanitize
  # the examples are nvcc builds, which the sanitizers do not reach: built once, above
  flags=(-DCPCONVERT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCPCONVERT_EXAMPLES=OFF)
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" "${flags[@]}"
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
