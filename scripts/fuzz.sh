#!/usr/bin/env bash
# Fuzzes the conversion pipeline with libFuzzer (docs/hardening.md).
#   scripts/fuzz.sh [SECONDS]     default 1800 (the 30 minutes each rewriter change gets)
# Installs clang and its libFuzzer runtime if missing (Debian 12: clang-14,
# libclang-rt-14-dev), builds build-fuzz/ with clang, ASan and UBSan, and runs the
# harness at the lowest priority on a corpus in build-fuzz/corpus seeded with the golden
# inputs, the examples and the kept regression inputs. A crash, hang or broken contract
# lands in build-fuzz/artifacts/; keep it as fuzz/regressions/NAME (fuzz.replay.* replays it).
#   scripts/fuzz.sh --cache [SECONDS]   damages a real cached PCH (bit flips, truncations,
#                                       overwritten runs) and its record at random and
#                                       checks every run against --no-cache
#   scripts/fuzz.sh --cli [SECONDS]     fuzzes the tool's own inputs and files with
#                                       fuzz/fuzz_cli.c: response files and the command
#                                       line, compile_commands.json, the PCH cache (a
#                                       fresh cache directory per input), writing outputs,
#                                       the diagnostics writers, the flags after `--`;
#                                       FUZZ_CLI_MODES=45 limits it to modes 4 and 5
set -euo pipefail
cd "$(dirname "$0")/.."
target=fuzz_convert
if [ "${1:-}" = "--cli" ]; then
  target=fuzz_cli
  shift
fi
if [ "${1:-}" = "--cache" ]; then
  scripts/setup.sh
  cmake -S . -B build >/dev/null
  nice cmake --build build -j2 --target cpconvert
  mkdir -p build-fuzz/artifacts
  CPCONVERT_FUZZ_SECONDS=${2:-1800} CPCONVERT_FUZZ_ARTIFACTS=build-fuzz/artifacts \
    exec nice -n 19 python3 tests/cli/run_cache.py --tool build/tool/cpconvert --root . fuzz_pch
fi
secs=${1:-1800}
scripts/setup.sh

packages=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCPCONVERT_FUZZ=ON -DCPCONVERT_SANITIZE=ON \
  -DCPCONVERT_CPU_TESTS=OFF -DCPCONVERT_GPU_TESTS=OFF -DCMAKE_CUDA_COMPILER= >/dev/null
nice cmake --build build-fuzz -j2 --target $target

if [ $target = fuzz_cli ]; then
  # Each input runs in a directory of its own under TMPDIR, made the working directory
  # meanwhile: hence the absolute artifact prefix.
  root=$PWD
  mkdir -p build-fuzz/cli-corpus build-fuzz/artifacts build-fuzz/cli-tmp
  cp fuzz/cli-seeds/* build-fuzz/cli-corpus/
  for f in fuzz/cli-regressions/*; do
    [ -f "$f" ] && cp "$f" build-fuzz/cli-corpus/regression-"$(basename "$f")"
  done
  TMPDIR=$root/build-fuzz/cli-tmp exec nice -n 19 build-fuzz/fuzz/fuzz_cli \
    -max_total_time="$secs" -timeout=60 -fork=1 -ignore_timeouts=1 -ignore_crashes=0 \
    -ignore_ooms=0 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
    -dict=fuzz/cli.dict -artifact_prefix="$root"/build-fuzz/artifacts/ build-fuzz/cli-corpus
fi

mkdir -p build-fuzz/corpus build-fuzz/artifacts
for f in tests/golden/*.cu examples/*/*.cu fuzz/regressions/*; do
  case $f in *.expected.cu) continue ;; esac
  [ -f "$f" ] && cp "$f" build-fuzz/corpus/seed-"$(basename "$f")"
done
# The golden inputs include headers beside them: run from there. -timeout: an input that
# takes longer is reported as a hang (a normal one takes 0.05-0.5 s under ASan, but a
# process at nice 19 on a busy machine can wait many seconds for a core). -fork=1 runs the
# inputs in a child and goes on after a timeout (kept in artifacts/, replay it on an idle
# machine to tell a hang from a wait); a crash or a broken contract still stops the run.
cd tests/golden
exec nice -n 19 ../../build-fuzz/fuzz/fuzz_convert -max_total_time="$secs" -timeout=60 \
  -fork=1 -ignore_timeouts=1 -ignore_crashes=0 -ignore_ooms=0 \
  -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
  -dict=../../fuzz/cuda.dict -artifact_prefix=../../build-fuzz/artifacts/ ../../build-fuzz/corpus
