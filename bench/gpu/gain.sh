#!/usr/bin/env bash
# What composite precision bought, on a GPU machine (nvcc; no libclang: the converted
# sources come from DIR, written where cpconvert runs):
#   report   every example's scope(all) conversion and the textbook MD program built with
#            and without -DCP_REPORT: the error report each prints (OUT/report/*.txt), and
#            a check that the report changes no byte of what the program prints (timings
#            masked) or writes
#   dt       bench/dt_scaling.py over the MD example (float, double, cp, cpff, acc, accff)
#            and the textbook program (float, double, cp, cp_ff, cp_acc, cp_acc_ff)
#
#   bench/gpu/gain.sh DIR [--parts report,dt]
# DIR/ex/NAME_cp.cu (cpconvert examples/NAME/NAME.cu -o ...), DIR/ex/md_nve_acc.cu
# (--scope accumulators), DIR/textbook/{cp,cp_acc} (the textbook Makefile's conversions).
# To prepare DIR here:
#   for e in global_sum global_sum_large do_undo mandelbrot matmul_kahan sum_product md_nve; do
#     cpconvert examples/$e/$e.cu -o DIR/ex/${e}_cp.cu; done
#   cpconvert --scope accumulators examples/md_nve/md_nve.cu -o DIR/ex/md_nve_acc.cu
#   for v in cp cp_acc; do make -C tests/realcode/textbook_md BUILD=DIR/textbook \
#     CPCONVERT=build/tool/cpconvert DIR/textbook/$v/.stamp; done
#   make -C examples/makefile-project convert CPCONVERT=...; copy its *_cp.cu, main.cu and
#     headers to DIR/mk/
# Environment: OUT (default gpu-out), WORK (default /tmp/cpconvert-gain), ARCH (sm_90),
#   DT_ARGS (extra bench/dt_scaling.py arguments, e.g. "--time 2").
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: bench/gpu/gain.sh DIR [--parts report,dt]}
parts=${3:-report,dt}
[ "${2:-}" = "--parts" ] || parts=report,dt
out=${OUT:-gpu-out} work=${WORK:-/tmp/cpconvert-gain} arch=${ARCH:-sm_90}
mkdir -p "$out/report" "$work" && dir=$(cd "$dir" && pwd) out=$(cd "$out" && pwd)
inc=$PWD/runtime/include
has() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
nv() { nvcc -O3 -arch="$arch" -I"$inc" "$@"; }

# Arguments that keep each example's run to seconds (defaults where none are given).
declare -A args=([global_sum]="" [global_sum_large]="1000000" [do_undo]="100000 10000 1024"
                 [mandelbrot]="image.pgm 256 2000" [matmul_kahan]="128 128 4096"
                 [sum_product]="" [md_nve]="10 2000 500")

# A program's output with its timings masked: '#' lines naming a time, and the CSV
# columns whose header names one (time_ms, matrix_ms, gflops, ...).
masked() {
  python3 - "$1" <<'PY'
import re, sys
mask = []
for line in open(sys.argv[1]):
    if line.startswith("#") and re.search(r"seconds|steps_per_s|_ms|time", line):
        continue
    cells = line.rstrip("\n").split(",")
    if len(cells) > 1 and not any(re.match(r"[-+]?[0-9.]", c) for c in cells):  # a header
        mask = [bool(re.search(r"ms$|time|gflops|seconds", c)) for c in cells]
    elif len(cells) == len(mask):
        cells = ["*" if m else c for c, m in zip(cells, mask)]
    print(",".join(cells))
PY
}

report_one() {  # NAME SOURCE: builds, runs, compares; prints one line
  local name=$1 src=$2 d=$work/report/$1
  mkdir -p "$d/plain" "$d/rep"
  nv "$src" -o "$d/plain/prog" > "$d/build.log" 2>&1 &&
    nv -DCP_REPORT "$src" -o "$d/rep/prog" >> "$d/build.log" 2>&1 ||
    { echo "$name: did not build (see $d/build.log)"; return 1; }
  # shellcheck disable=SC2086 - the arguments are words
  (cd "$d/plain" && timeout 120 ./prog ${args[$name]} > out.txt 2> err.txt &&
     timeout 120 ./prog ${args[$name]} > again.txt 2>&1) &&
    (cd "$d/rep" && timeout 120 ./prog ${args[$name]} > out.txt 2> err.txt) ||
    { echo "$name: a run failed"; return 1; }
  cp "$d/rep/err.txt" "$out/report/$name.txt"
  if ! diff <(masked "$d/plain/out.txt") <(masked "$d/plain/again.txt") > /dev/null; then
    # float atomics add in whatever order the threads arrive: two runs of the same build
    # differ, so one with the report cannot be compared byte for byte
    echo "$name: not compared: two runs without the report differ already (atomics' order);" \
      "$(grep -c '^cp report:' "$d/rep/err.txt") report lines"
    return 0
  fi
  if ! diff <(masked "$d/plain/out.txt") <(masked "$d/rep/out.txt") > "$d/diff.txt"; then
    echo "$name: FAIL, -DCP_REPORT changed the output"; head -5 "$d/diff.txt"; return 1
  fi
  for f in "$d"/plain/*; do
    case $f in */prog|*/out.txt|*/again.txt|*/err.txt) continue ;; esac
    cmp -s "$f" "$d/rep/${f##*/}" || { echo "$name: FAIL, -DCP_REPORT changed ${f##*/}"; return 1; }
  done
  echo "$name: same output with -DCP_REPORT; $(grep -c '^cp report:' "$d/rep/err.txt") report lines"
}

textbook_builds() {  # the textbook variants, through its own run script (3 short steps)
  [ -d "$work/textbook" ] && return 0
  CONVERTED_DIR=$dir/textbook WORK=$work/textbook ARCH=$arch \
    tests/realcode/run_gpu.sh 4 3 1 > "$work/textbook_build.log" 2>&1
}

status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gain_summary.txt"
date -u | tee -a "$out/gain_summary.txt"
if has report; then
  mkdir -p "$work/report"
  pids=()
  for src in "$dir"/ex/*_cp.cu; do
    n=$(basename "$src" _cp.cu)
    report_one "$n" "$src" > "$work/report/$n.line" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  cat "$work"/report/*.line | tee -a "$out/gain_summary.txt"
  grep -q FAIL "$work"/report/*.line && status=1
  # the Make project example: its two converted kernels files and its host file
  if [ -d "$dir/mk" ]; then
    mk=$work/report/makefile-project && rm -rf "$mk" && mkdir -p "$mk"
    (cd "$dir/mk" && nv forces_cp.cu kinetic_cp.cu main.cu -o "$mk/plain" &&
       nv -DCP_REPORT forces_cp.cu kinetic_cp.cu main.cu -o "$mk/rep") > "$mk/build.log" 2>&1
    "$mk/plain" > "$mk/plain.txt" 2>&1; "$mk/rep" > "$mk/rep.txt" 2> "$out/report/makefile-project.txt"
    if [ -s "$mk/plain.txt" ] && cmp -s "$mk/plain.txt" "$mk/rep.txt"; then
      echo "makefile-project: same output with -DCP_REPORT" | tee -a "$out/gain_summary.txt"
    else
      echo "makefile-project: FAIL (see $mk)" | tee -a "$out/gain_summary.txt"; status=1
    fi
  fi
  # the textbook program: its cp build with and without the report
  textbook_builds
  tb=$work/textbook_report && rm -rf "$tb" && cp -r "$dir/textbook" "$tb"
  if make -s -C tests/realcode/textbook_md BUILD="$tb" CP_INCLUDE="$inc" \
       NVFLAGS="-O2 -arch=$arch -DCP_REPORT" "$tb/md_cp" > "$tb/build.log" 2>&1; then
    "$work/textbook/md_cp" 6 1000 100 > "$tb/plain.txt" 2>&1
    "$tb/md_cp" 6 1000 100 > "$tb/rep.txt" 2> "$out/report/textbook.txt"
    if diff <(grep -v "^time" "$tb/plain.txt") <(grep -v "^time" "$tb/rep.txt") > /dev/null; then
      echo "textbook: same output with -DCP_REPORT" | tee -a "$out/gain_summary.txt"
    else
      echo "textbook: FAIL, -DCP_REPORT changed the output" | tee -a "$out/gain_summary.txt"
      status=1
    fi
  else
    echo "textbook: the -DCP_REPORT build failed" | tee -a "$out/gain_summary.txt"; status=1
  fi
fi
if has dt; then
  md=$work/md && mkdir -p "$md"
  src=examples/md_nve/md_nve.cu
  nv "$src" -o "$md/float" & nv -DREAL_DOUBLE "$src" -o "$md/double" &
  nv "$dir/ex/md_nve_cp.cu" -o "$md/cp" & nv -DCP_BACKEND=1 "$dir/ex/md_nve_cp.cu" -o "$md/cpff" &
  nv "$dir/ex/md_nve_acc.cu" -o "$md/acc" & nv -DCP_BACKEND=1 "$dir/ex/md_nve_acc.cu" -o "$md/accff" &
  wait
  textbook_builds
  progs=()
  for v in float double cp cpff acc accff; do progs+=(--program "$v" md_nve "$md/$v"); done
  for v in float double cp cp_ff cp_acc cp_acc_ff; do
    progs+=(--program "$v" textbook "$work/textbook/md_$v")
  done
  # shellcheck disable=SC2086 - DT_ARGS is words
  timeout 400 python3 bench/dt_scaling.py "${progs[@]}" --out "$out" ${DT_ARGS:-} \
    > "$out/dt_scaling.log" 2>&1 || status=1
  tail -30 "$out/dt_scaling.log"
fi
tar czf "$out/report.tgz" -C "$out" report && rm -r "$out/report"  # one file back
exit $status
