#!/bin/sh
# The two application shapes of docs/runtime.md's math section (mc_option.cu, md_angle.cu)
# on a GPU: float, double, the converted file, and the converted file as it was before the
# composite math functions (each mapped call evaluated in float on the recombined value,
# what the [float-call] conversion did), each under both runtime backends (ff: float-float,
# what a GPU with slow FP64 gets; dp: native double, what auto gives an H100/H200), then
# their distances from double (compare.py).
#   sh bench/math/run_apps.sh CONVERTED_DIR [OUT_DIR]   (CONVERTED_DIR: NAME_cp.cu files)
# NVCC and ARCH (default sm_90) from the environment.
set -eu
conv=$1
out=${2:-/tmp/cp_apps}
NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-sm_90}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for app in mc_option md_angle; do
  case $app in
    mc_option) before='#define cp_exp(x) cp_from_float(__expf(cp_to_float(x)))' ;;
    md_angle) before='#define cp_acos(x) cp_from_float(acosf(cp_to_float(x)))
#define cp_atan2(y, x) cp_from_float(atan2f(cp_to_float(y), cp_to_float(x)))
#define cp_cos(x) cp_from_float(cosf(cp_to_float(x)))
#define cp_sin(x) cp_from_float(sinf(cp_to_float(x)))' ;;
  esac
  # the converted file with the macros after its runtime include
  awk -v b="$before" '{ print } /^#include <cp\/cp.cuh>/ { print b }' "$conv/${app}_cp.cu" > "$out/${app}_before.cu"
  "$NVCC" -O3 -arch="$ARCH" "$here/$app.cu" -o "$out/${app}_float"
  "$NVCC" -O3 -arch="$ARCH" -DREAL_DOUBLE "$here/$app.cu" -o "$out/${app}_double"
  for b in ff dp; do
    B=$(echo $b | tr a-z A-Z)
    "$NVCC" -O3 -arch="$ARCH" -DCP_BACKEND=CP_BACKEND_$B -I"$here/../../runtime/include" "$conv/${app}_cp.cu" -o "$out/${app}_cp_$b"
    "$NVCC" -O3 -arch="$ARCH" -DCP_BACKEND=CP_BACKEND_$B -I"$here/../../runtime/include" "$out/${app}_before.cu" -o "$out/${app}_before_$b"
  done
  for v in double float cp_ff before_ff cp_dp before_dp; do
    timeout 120 "$out/${app}_$v" > "$out/${app}.$v.txt"
  done
  echo "== $app"
  (cd "$out" && python3 "$here/compare.py" "$app.double.txt" "$app.float.txt" "$app.cp_ff.txt" \
    "$app.before_ff.txt" "$app.cp_dp.txt" "$app.before_dp.txt")
done
