#!/bin/sh
# Long differential-testing runs (docs/difftest.md):
#   scripts/difftest.sh --seed S --count N [--gpu] [-j J] [--no FEATURE ...]
# Builds cpconvert in build/ if it is missing; failing seeds are saved in build/difftest-failed/.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -x "$build/tool/cpconvert" ]; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j2 --target cpconvert
fi
exec python3 "$root/tests/difftest/run.py" --tool "$build/tool/cpconvert" \
  --work "${DIFFTEST_WORK:-$build/difftest-work}" --save "$build/difftest-failed" "$@"
