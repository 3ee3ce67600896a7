#!/usr/bin/env bash
# The MPI MD program on the GPU machine (docs/results.md section 12): the checks and the
# tables, for however many GPUs the machine has. Needs nvcc, a GPU, and an MPI whose
# mpicc and mpiexec are on PATH; not libclang: the converted sources come from CONV.
#
#   tests/realcode/mpi_batch.sh CONV LOGS
#
# CONV holds all/md_mpi.cu and fixed/md_mpi.cu, made where cpconvert runs:
#   cpconvert tests/realcode/mpi_md/md_mpi.cu -o CONV/all/md_mpi.cu -- $MPI_INC
#   cpconvert tests/realcode/mpi_md/md_mpi.cu --accumulate fixed -o CONV/fixed/md_mpi.cu -- $MPI_INC
# LOGS receives one log per step (machine.txt, check_all.txt, check_fixed.txt,
# table_*.txt). Ranks take GPUs round robin, so with two GPUs 2 ranks run on two and 4
# ranks two to a GPU; the table `one_gpu` hides all but the first (CUDA_VISIBLE_DEVICES=0).
# Each step has its own time limit; a step that fails or runs out does not stop the next.
set -u
conv=$1 logs=$2
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
mkdir -p "$logs"
work=${WORK:-/tmp/cpconvert-mpi}
flags=()
for f in $(mpicc --showme:compile) $(mpicc --showme:link); do flags+=("--mpi-flag=$f"); done
py=(python3 "$here/run_mpi_md.py" --nvcc nvcc --mpiexec mpiexec --runtime-include "$root/runtime/include"
    --converted-dir "$conv" --work "$work" --jobs 8 "${flags[@]}")
step() { # NAME SECONDS COMMAND...: runs the command under its limit into LOGS/NAME.txt
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$logs/$name.txt" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s" | tee -a "$logs/summary.txt"
}
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  mpiexec --version | head -1; nvcc --version | tail -2; git -C "$root" rev-parse HEAD 2>/dev/null
} > "$logs/machine.txt" 2>&1
step check_all 120 "${py[@]}" --mode all
step check_fixed 90 "${py[@]}" --mode fixed
step table_short 150 "${py[@]}" --table --ranks 1,2,4 --steps 1000 --every 100 --dt 0.005
step table_one_gpu 60 env CUDA_VISIBLE_DEVICES=0 "${py[@]}" --table --ranks 2 --steps 1000 \
  --every 100 --dt 0.005
step table_long 150 "${py[@]}" --table --no-ff --ranks 2 --steps 20000 --every 500 --dt 0.002
step table_large 90 "${py[@]}" --table --ranks 1,2 --nc 12 --steps 200 --every 50 --dt 0.005
