#!/usr/bin/env bash
# Builds cpconvert and runs its tests with ctest.
#   scripts/test.sh              build in build/, run every test but those labelled long:
#                                the check of an install, under 10 minutes on 2 idle cores
#   scripts/test.sh --long       in build/, the tests labelled long (the random differential
#                                test, the FP64 audit, the PCH cache's stress cases, nvcc
#                                builds of every golden output and of the real codes), then
#                                the closing lines each printed: its counts
#   scripts/test.sh --sanitize   build-sanitize/ with AddressSanitizer and UBSan, every test
#                                (long ones too) but those only the plain build has
# GPU tests (ctest label "gpu") run where a CUDA device is present and report "skipped"
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

build=build
flags=()
select=(-LE long)
case "${1:-}" in
  --sanitize)
    build=build-sanitize
    select=()
    # the examples are nvcc builds, which the sanitizers do not reach: built once, above
    flags=(-DCPCONVERT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCPCONVERT_EXAMPLES=OFF) ;;
  --long) select=(-L long) ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--long | --sanitize]" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" "${flags[@]}"
cmake --build "$build" -j "$jobs"
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" "${select[@]}" || status=$?
if [ "${1:-}" = "--long" ]; then
  echo "What each long test counted (its closing lines):"
  python3 scripts/test_counts.py "$build/Testing/Temporary/LastTest.log"
fi
exit "$status"
