#!/usr/bin/env bash
# One GPU batch. On a machine with nvcc and a GPU (libclang not needed: the converted
# sources come from DIR, written by bench/gpu/prepare.sh where cpconvert runs), runs the
# parts asked for, each timed and under its own `timeout`:
#   tests     ctest -L gpu (the runtime's device tests, the MD comparison)
#   examples  bench/gpu/evaluate.py over every example variant (float, double, dp, ff, ...)
#   textbook  tests/realcode/run_gpu.sh: the textbook MD program, float/double/converted
#   difftest  tests/difftest/run.py --from DIFFTEST_DIR --gpu (programs prepared elsewhere)
#   project   bench/project.py: SASS counts and the FP64-weak PROJECTION (needs cuobjdump)
# tests and examples share one CMake build (build-gpu/, kept between calls); project needs
# it only without DIR.
# $OUT (default gpu-out/) receives at most eight files: summary.txt (every part's status
# and seconds), results.json, evaluate.log, textbook.md, difftest.txt, projection.md,
# ctest_gpu.log and gpu.tgz (every log and raw output, and report/: the files
# bench/gpu/report.py reads); everything else stays in WORK.
#
#   bench/gpu/run.sh [DIR] [--parts tests,examples,textbook,difftest,project]
#                    [--budget S] [--quick] [--only md,sum,...] [--dry-run]
# Environment: TEXTBOOK_SIZE ("CELLS STEPS EVERY", default "12 4000 400"), PROJECT_ARCH
#   (default 89,86,90),
#   DIFFTEST_DIR (default DIR/difftest), WORK (default /tmp/cpconvert-gpu).
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=.device parts=tests,examples,textbook,difftest,project budget=300 dry=0
eval_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts=$2; shift ;;
    --parts=*) parts=${1#--parts=} ;;
    --budget) budget=$2; shift ;;
    --budget=*) budget=${1#--budget=} ;;
    --quick) eval_args+=(--quick) ;;
    --only) eval_args+=(--only "$2"); shift ;;
    --only=*) eval_args+=(--only "${1#--only=}") ;;
    --dry-run) dry=1 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) dir=$1 ;;
  esac
  shift
done
out=${OUT:-gpu-out}
work=${WORK:-/tmp/cpconvert-gpu}
difftest_dir=${DIFFTEST_DIR:-$dir/difftest}
textbook_size=${TEXTBOOK_SIZE:-12 4000 400}
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd) work=$(cd "$work" && pwd)
export dir work
has() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
export CPCONVERT_GPU_COMMAND="bench/gpu/prepare.sh $dir  # where libclang is
bench/gpu/run.sh $dir --parts $parts --budget $budget ${eval_args[*]}"

# Seconds each part is allowed (upper bounds, not measurements; the examples part's own
# estimate is printed by --dry-run, from evaluate.py's model of an earlier run).
declare -A limit=([build]=240 [tests]=300 [examples]=$((budget + 120)) [textbook]=150
                  [difftest]=240 [project]=300)
summary=$work/summary.txt
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }

# part NAME CMD...: runs CMD under NAME's timeout, its output in WORK/NAME.log.
part() {
  local name=$1 t0 rc; shift
  t0=$(date +%s)
  if [ "$(type -t "$1")" = function ]; then  # timeout runs programs, not functions
    timeout "${limit[$name]}" bash -c "$(declare -f "$1"); $*" > "$work/$name.log" 2>&1
  else
    timeout "${limit[$name]}" "$@" > "$work/$name.log" 2>&1
  fi
  rc=$?
  note "$(printf '%-9s rc %-3s %4d s  (limit %d s)%s' "$name" "$rc" $(( $(date +%s) - t0 )) \
    "${limit[$name]}" "$([ "$rc" = 124 ] && echo ', TIMED OUT')")"
  return $rc
}

if [ "$dry" = 1 ]; then
  echo "plan: parts $parts from $dir; WORK $work; OUT $out"
  { has tests || has examples || { has project && [ ! -d "$dir" ]; }; } &&
    echo "  build     <= ${limit[build]} s"
  for p in tests examples textbook difftest project; do
    has $p && echo "  $p$(printf '%*s' $((9 - ${#p})) '') <= ${limit[$p]} s"
  done
  has examples && python3 bench/gpu/evaluate.py --bin build-gpu/examples --out "$work" \
    --budget "$budget" --dry-run "${eval_args[@]}"
  exit 0
fi

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -2; date -u; echo "parts $parts, converted at $(cat "$dir/COMMIT" 2>/dev/null)"
} 2>&1 | tee -a "$summary"
[ -f "$dir/COMMIT" ] && export CPCONVERT_COMMIT=$(cat "$dir/COMMIT")

build_gpu() {
  local flags=(-DCMAKE_BUILD_TYPE=Release -DCPCONVERT_CPU_TESTS=OFF)
  [ -d "$dir" ] && flags+=(-DCPCONVERT_BUILD_TOOL=OFF -DCPCONVERT_CONVERTED_DIR="$PWD/$dir")
  cmake -S . -B build-gpu "${flags[@]}" && cmake --build build-gpu -j "$(nproc)"
}
# bench/project.py compiles one variant after the other; one process per example here.
project_all() {
  local conv=$dir ex rc=0
  [ -d "$conv" ] || conv=build-gpu/examples/cpconvert
  rm -rf "$work/project" && mkdir -p "$work/project"
  for ex in $(sed -n 's/^example(\(\w*\)).*/\1/p' examples/CMakeLists.txt); do
    python3 bench/project.py --converted "$conv" --arch "${PROJECT_ARCH:-89,86,90}" \
      --only "$ex" --json "$work/project/$ex.json" > "$work/project/$ex.md" \
      2> "$work/project/$ex.err" &
  done
  for ex in $(jobs -p); do wait "$ex" || rc=1; done
  return $rc
}
built=1
if has tests || has examples || { has project && [ ! -d "$dir" ]; }; then
  part build build_gpu || { built=0; grep -B2 -A8 -m5 "error" "$work/build.log" | tail -40; }
fi
if has tests && [ "$built" = 1 ]; then
  part tests ctest --test-dir build-gpu -L gpu --output-on-failure
  grep -E "tests passed|\*\*\*|Failed" "$work/tests.log" | tee -a "$summary"
  cp "$work/tests.log" "$out/ctest_gpu.log"
fi
if has examples && [ "$built" = 1 ]; then
  mkdir -p "$work/eval"
  part examples python3 bench/gpu/evaluate.py --bin build-gpu/examples --out "$work/eval" \
    --budget "$budget" "${eval_args[@]}"
  grep -E "^==|x double" "$work/examples.log" >> "$summary"
  cp "$work/examples.log" "$out/evaluate.log"
  cp "$work/eval/results.json" "$out/" 2>/dev/null
fi
if has textbook; then
  [ -d "$dir/textbook" ] || note "textbook: no $dir/textbook (prepare.sh); run_gpu.sh will try cpconvert"
  rm -rf "$work/textbook"
  # shellcheck disable=SC2086 - the size is three words
  part textbook env CONVERTED_DIR="$PWD/$dir/textbook" WORK="$work/textbook" \
    tests/realcode/run_gpu.sh $textbook_size
  { echo "\`bench/gpu/prepare.sh; CONVERTED_DIR=.device/textbook tests/realcode/run_gpu.sh $textbook_size\`"
    echo; cat "$work/textbook.log"; } > "$out/textbook.md"
fi
if has difftest; then
  if [ -d "$difftest_dir" ] && grep -qs -- "--from" tests/difftest/run.py; then
    # the report (counts, reasons, histogram) goes to difftest.txt; without it (no
    # device: exit 77) the log's tail does
    rm -f "$work/difftest_summary.txt"
    part difftest python3 tests/difftest/run.py --from "$difftest_dir" --gpu \
      --summary "$work/difftest_summary.txt"
    cp "$work/difftest_summary.txt" "$out/difftest.txt" 2>/dev/null ||
      tail -40 "$work/difftest.log" > "$out/difftest.txt"
  else
    note "difftest  skipped: no $difftest_dir, or tests/difftest/run.py has no --from"
  fi
fi
if has project; then
  if ! command -v cuobjdump > /dev/null; then
    note "project   skipped: no cuobjdump on PATH (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)"
  else
    # one page: the preamble once, every example's table, the parts' scaling lines once
    part project project_all
    files=("$work"/project/*.md)
    { sed '/^## /,$d' "${files[0]}"
      for f in "${files[@]}"; do sed -n '/^## /,$p' "$f" | grep -v "the same cycles"; done
      grep -h "the same cycles" "${files[0]}"; } > "$out/projection.md"
  fi
fi
cp "$summary" "$out/summary.txt"
# report/ in the tarball is what bench/gpu/report.py reads; the tarballs of two batches
# (say, examples in one, textbook and project in the other) unpack into the same report/.
mkdir -p "$work/report"
cp "$work"/eval/results.json "$work"/eval/*.png "$out"/ctest_gpu.log "$out"/textbook.md \
   "$out"/projection.md "$work/report/" 2>/dev/null
tar czf "$out/gpu.tgz" -C "$work" --exclude=./textbook/md_* . 2>/dev/null
echo "== $out: $(ls "$out" | tr '\n' ' ')"
