#!/usr/bin/env bash
# The side-by-side suite (bench/fpmp/README.md): converted ff against CCCL fpmp, float, double.
#
#   bench/fpmp/run.sh convert OUT [CPCONVERT]   convert shapes/*.cu with --backend ff into OUT
#                                              (needs the tool: default build/tool/cpconvert)
#   bench/fpmp/run.sh build OUT [ARCH]         fetch CCCL's headers (the PyPI wheel cuda-cccl,
#                                              into OUT/cccl; or $CCCL_WHEEL, a wheel file) and
#                                              build OUT/fpmp_bench for ARCH (default sm_90)
#   bench/fpmp/run.sh run OUT [ARGS...]        run it (needs a GPU); ARGS go to fpmp_bench
#   bench/fpmp/run.sh check OUT [CPCONVERT]    convert and build for sm_89, as CI does (the
#                                              ctest bench.fpmp_build): exits 77 (skipped)
#                                              without nvcc or without PyPI, unless CI=true
#
# Every converted shape is compiled four times: as written (the high tier, the default
# special-value rule), at the mid and low tiers (-DCP_ALGO=CP_ALGO_MID, CP_ALGO_FAST: what
# --accuracy mid and low write in the output's header) and with -DCP_STRICT_SPECIALS, each
# with its symbols renamed by a suffix (_mid, _low, _strict). The symbols of a shape are
# listed on its "// symbols:" line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
step="${1:?usage: run.sh convert|build|run OUT ...}"
out="${2:?usage: run.sh convert|build|run OUT ...}"
mkdir -p "$out"

case "$step" in
convert)
  tool="${3:-$root/build/tool/cpconvert}"
  for src in "$here"/shapes/*.cu; do
    name="$(basename "$src" .cu)"
    "$tool" "$src" -o "$out/${name}_cp.cu" --backend ff --no-cache -I "$here/shapes"
  done
  echo "converted: $(ls "$out"/*_cp.cu | wc -l) shapes into $out"
  ;;
build)
  arch="${3:-sm_90}"
  inc="$out/cccl/cuda/cccl/headers/include"
  if [ ! -f "$inc/cuda/fpmp" ]; then
    rm -rf "$out/cccl"
    if [ -n "${CCCL_WHEEL:-}" ]; then
      python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$CCCL_WHEEL" "$out/cccl"
    else
      python3 -m pip install -q --no-deps --target "$out/cccl" cuda-cccl
    fi
  fi
  [ -f "$inc/cuda/fpmp" ] || { echo "run.sh: no <cuda/fpmp> under $inc" >&2; exit 1; }
  flags=(-std=c++17 -O3 -arch="$arch" -I "$root/runtime/include" -I "$here")
  objs=()
  for cp in "$out"/*_cp.cu; do
    name="$(basename "$cp" _cp.cu)"
    syms="$(sed -n 's@^// symbols: @@p' "$here/shapes/$name.cu")"
    [ -n "$syms" ] || { echo "run.sh: shapes/$name.cu has no // symbols: line" >&2; exit 1; }
    nvcc "${flags[@]}" -c "$cp" -o "$out/${name}_cp.o" &
    objs+=("$out/${name}_cp.o")
    for v in mid:-DCP_ALGO=CP_ALGO_MID low:-DCP_ALGO=CP_ALGO_FAST strict:-DCP_STRICT_SPECIALS; do
      ren=()
      for s in $syms; do ren+=("-D$s=${s}_${v%%:*}"); done
      nvcc "${flags[@]}" "${v#*:}" "${ren[@]}" -c "$cp" -o "$out/${name}_cp_${v%%:*}.o" &
      objs+=("$out/${name}_cp_${v%%:*}.o")
    done
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-$(nproc)}" ]; do wait -n; done
  done
  nvcc "${flags[@]}" -I "$inc" -c "$here/main.cu" -o "$out/main.o" &
  for job in $(jobs -p); do wait "$job"; done
  nvcc -arch="$arch" "$out/main.o" "${objs[@]}" -o "$out/fpmp_bench"
  echo "built: $out/fpmp_bench ($arch)"
  ;;
check)
  command -v nvcc >/dev/null || { echo "run.sh: no nvcc: skipped"; exit 77; }
  inc="$out/cccl/cuda/cccl/headers/include"
  if [ ! -f "$inc/cuda/fpmp" ] && [ -z "${CCCL_WHEEL:-}" ] &&
     ! python3 -m pip download -q --no-deps -d "$out/wheel" cuda-cccl >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then echo "run.sh: cannot fetch cuda-cccl from PyPI" >&2; exit 1; fi
    echo "run.sh: cannot fetch cuda-cccl from PyPI: skipped"
    exit 77
  fi
  [ -n "${CCCL_WHEEL:-}" ] || CCCL_WHEEL="$(ls "$out"/wheel/cuda_cccl-*.whl 2>/dev/null | head -1)"
  export CCCL_WHEEL
  "$0" convert "$out" "${3:-$root/build/tool/cpconvert}"
  "$0" build "$out" sm_89
  ;;
run)
  shift 2
  "$out/fpmp_bench" "$@"
  ;;
*)
  echo "run.sh: unknown step '$step' (convert, build or run)" >&2
  exit 2
  ;;
esac
