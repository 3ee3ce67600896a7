#!/usr/bin/env bash
# Converts everything a GPU batch needs, for a GPU machine that has nvcc but no libclang:
#   DIR/*.cu            every example variant (target cpconvert_converted of a configured
#                       tree); there, CMake takes them from -DCPCONVERT_CONVERTED_DIR=DIR
#   DIR/textbook/{cp,cp_acc,cp_fixed}/
#                       the textbook MD program (tests/realcode/textbook_md) converted by
#                       its Makefile's three conversions; tests/realcode/run_gpu.sh takes
#                       them from CONVERTED_DIR=DIR/textbook
#   DIR/difftest/       random differential programs, converted (only where
#                       tests/difftest/run.py has --prepare; DIFFTEST_COUNT seeds from
#                       DIFFTEST_SEED, defaults 40 and 1; DIFFTEST_NO: features left out)
#   DIR/COMMIT          the commit the sources were converted at
# CPCONVERT (default: BUILD/tool/cpconvert) converts the textbook program and difftest.
# A part that fails to convert is reported and the others still run; the exit status
# says whether all parts converted.
#   bench/gpu/prepare.sh [DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.device}
build=${CPCONVERT_BUILD:-build}
jobs=$(nproc 2>/dev/null || echo 2)
status=0
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)

cmake -S . -B "$build" -DCPCONVERT_CONVERTED_EXPORT_DIR="$dir" > /dev/null || exit 1
cmake --build "$build" --target cpconvert cpconvert_converted -j "$jobs" > "$dir/prepare.log" 2>&1 \
  || { echo "examples: conversion failed, see $dir/prepare.log"; status=1; }
git rev-parse --short HEAD > "$dir/COMMIT" 2>/dev/null || true
echo "examples: $(ls "$dir"/*.cu 2>/dev/null | wc -l) converted files in $dir"

cpconvert=${CPCONVERT:-$PWD/$build/tool/cpconvert}  # CPCONVERT: another build of the tool
rm -rf "$dir/textbook" && mkdir -p "$dir/textbook"
for v in cp cp_acc cp_fixed; do
  if make -C tests/realcode/textbook_md BUILD="$dir/textbook" CPCONVERT="$cpconvert" \
      "$dir/textbook/$v/.stamp" > "$dir/textbook/convert_$v.log" 2>&1; then
    echo "textbook: $v converted ($(ls "$dir/textbook/$v" | wc -l) files)"
  else
    echo "textbook: $v did not convert, see $dir/textbook/convert_$v.log:"
    grep -m3 "error" "$dir/textbook/convert_$v.log" | sed 's/^/  /'
    rm -rf "${dir:?}/textbook/$v"; status=1
  fi
done

if [ -f tests/difftest/run.py ] && grep -q -- "--prepare" tests/difftest/run.py; then
  rm -rf "$dir/difftest"
  # DIFFTEST_NO: features left out, by default those of the known bugs that the ctests
  # leave out (tests/difftest/CMakeLists.txt), so that a bug found here is a new one
  no=()
  for f in ${DIFFTEST_NO-}; do no+=(--no "$f"); done
  python3 tests/difftest/run.py --tool "$cpconvert" --prepare "$dir/difftest" \
      --seed "${DIFFTEST_SEED:-1}" --count "${DIFFTEST_COUNT:-40}" "${no[@]}" \
      > "$dir/difftest.log" 2>&1 \
    && echo "difftest: $(tail -1 "$dir/difftest.log")" \
    || { echo "difftest: --prepare failed, see $dir/difftest.log"; status=1; }
else
  echo "difftest: tests/difftest/run.py has no --prepare here; nothing prepared"
fi
exit $status
