#!/usr/bin/env bash
# Builds the textbook MD program as float, double and the three converted variants,
# plus cp_ff and cp_acc_ff: the cp and cp_acc conversions compiled with -DCP_BACKEND=1
# (float-float forced; cp and cp_acc take the runtime's auto choice, dp on sm_90), and
# runs each for the same trajectory on the GPU, and prints the total energies and the
# wall times side by side as a Markdown table (for docs/results.md).
#
#   tests/realcode/run_gpu.sh [CELLS=6] [STEPS=1000] [EVERY=100]
#
# Environment:
#   CPCONVERT      cpconvert to run for the converted variants (default: build/tool/cpconvert
#                  if present); or
#   CONVERTED_DIR  a folder with pre-generated cp/, cp_acc/, cp_fixed/ (the --o-dir outputs
#                  of the Makefile's conversion), for a GPU machine without libclang
#   NVCC, ARCH     compiler and architecture (default nvcc, sm_90)
#   WORK           build folder (default: a temporary one)
# A variant that does not convert or build shows "-" in the table; its log is in WORK.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CELLS=${1:-6}; STEPS=${2:-1000}; EVERY=${3:-100}
NVCC=${NVCC:-nvcc}; ARCH=${ARCH:-sm_90}
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)
CPCONVERT=${CPCONVERT:-$ROOT/build/tool/cpconvert}
MAKE_ARGS=(-C "$HERE/textbook_md" BUILD="$WORK" NVCC="$NVCC" ARCH="$ARCH"
           CPCONVERT="$CPCONVERT" CP_INCLUDE="$ROOT/runtime/include")
VARIANTS="float double cp cp_ff cp_acc cp_acc_ff cp_fixed"

if [ -n "${CONVERTED_DIR:-}" ]; then
  # Take the converted sources as they are: a stamp newer than the sources tells make
  # that the conversion step is done.
  for v in cp cp_acc cp_fixed; do
    if [ -d "$CONVERTED_DIR/$v" ]; then
      rm -rf "${WORK:?}/$v" && cp -r "$CONVERTED_DIR/$v" "$WORK/$v" && touch "$WORK/$v/.stamp"
    fi
  done
fi

# VARIANT_ff: VARIANT's converted files, compiled with ff forced. A conversion that names
# its backend (cpconvert --backend ff|dp writes #define CP_BACKEND) is left as it is: a
# second definition on the command line would only give a redefinition warning.
ff_twin() {
  local base=${1%_ff}
  [ -f "$WORK/$base/.stamp" ] || return 1
  if grep -qs "^#define CP_BACKEND" "$WORK/$base"/*.cu; then
    echo "$base names its backend: no $1" > "$WORK/build_$1.log"; return 1
  fi
  rm -rf "${WORK:?}/$1" && cp -r "$WORK/$base" "$WORK/$1" && touch "$WORK/$1/.stamp"
  make "${MAKE_ARGS[@]}" NVFLAGS="-O2 -arch=$ARCH -DCP_BACKEND=1" "$WORK/md_$1"
}

build() {
  case $1 in
    *_ff) ff_twin "$1" ;;
    *) make "${MAKE_ARGS[@]}" "md_$1" ;;
  esac
}

# Builds side by side (nvcc compiles one variant's files one after the other; an ff twin
# waits for its base's conversion), then runs one at a time so the timings do not share
# the GPU.
for v in $VARIANTS; do
  case $v in *_ff) continue ;; esac
  ( build "$v" > "$WORK/build_$v.log" 2>&1; echo $? > "$WORK/build_$v.rc" ) &
done
wait
for v in $VARIANTS; do
  case $v in *_ff) ( build "$v" > "$WORK/build_$v.log" 2>&1; echo $? > "$WORK/build_$v.rc" ) & ;; esac
done
wait
for v in $VARIANTS; do
  if [ "$(cat "$WORK/build_$v.rc")" = 0 ]; then
    "$WORK/md_$v" "$CELLS" "$STEPS" "$EVERY" > "$WORK/run_$v.log" 2>&1 \
      || echo "md_$v failed, see $WORK/run_$v.log" >&2
  else
    echo "md_$v did not build, see $WORK/build_$v.log" >&2
  fi
done

python3 - "$WORK" $VARIANTS <<'PY'
import os, re, sys
work, variants = sys.argv[1], sys.argv[2:]
energy, seconds, atoms = {}, {}, ""
for v in variants:
    path = os.path.join(work, f"run_{v}.log")
    text = open(path).read() if os.path.exists(path) else ""
    energy[v] = dict(re.findall(r"^step\s+(\d+)\s+total (\S+)", text, re.M))
    t = re.search(r"^time (\S+) s", text, re.M)
    seconds[v] = float(t.group(1)) if t else None
    atoms = atoms or (re.search(r"^atoms \d+.*", text, re.M) or [""])[0]
steps = sorted({int(s) for v in variants for s in energy[v]})
print(f"{atoms or 'no run printed its header'}\n")
print("| step | " + " | ".join(variants) + " |")
print("|---:|" + "---:|" * len(variants))
for s in steps:
    print(f"| {s} | " + " | ".join(energy[v].get(str(s), "-") for v in variants) + " |")
def ratio(v, base):
    if seconds[v] is None or not seconds.get(base):
        return "-"
    return f"{seconds[v] / seconds[base]:.2f}"
print("| time (s) | " + " | ".join("-" if seconds[v] is None else f"{seconds[v]:.4f}"
                                  for v in variants) + " |")
print("| time / float | " + " | ".join(ratio(v, "float") for v in variants) + " |")
print("| time / double | " + " | ".join(ratio(v, "double") for v in variants) + " |")
PY
