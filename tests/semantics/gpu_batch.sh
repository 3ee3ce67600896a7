#!/bin/sh
# The GPU semantics tests added with the struct and one-value-per-element fixes, run
# without cmake or libclang (their converted forms are the golden NAME.expected.cu): from
# the repository root of a checkout of this branch, on a machine with nvcc and a GPU:
#   sh tests/semantics/gpu_batch.sh            (NVCC=... WORK=... to override)
# Each test passes only when the converted result is at least as close to double as
# float's (check_semantics.py). Then, for scope_accumulators_self, the output as the
# previous version wrote it (the own position rounded, every neighbour read whole) is
# built and run too: it must print inf or nan, which is what the fix removes.
set -u
NVCC=${NVCC:-nvcc}
WORK=${WORK:-/tmp/cp_semantics}
mkdir -p "$WORK"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
status=0
for t in scope_accumulators_self struct_member_accum struct_by_value_update host_std_swap \
         host_address_array; do
  echo "== $t"
  timeout 300 python3 tests/semantics/check_semantics.py --nvcc "$NVCC" --tool none \
    --runtime-include runtime/include --work "$WORK" "tests/golden/$t.cu"
  rc=$?
  [ $rc = 0 ] || [ $rc = 77 ] || status=1 # 77: no GPU, skipped
done
echo "== scope_accumulators_self as the previous version converted it"
python3 - "$WORK/self_old.cu" <<'EOF'
import sys
s = open("tests/golden/scope_accumulators_self.expected.cu").read()
s = s.replace("cp_float xi = cp_make_float(x[i], x_err[i]);\n  cp_float fi",
              "float xi = cp_to_float(cp_make_float(x[i], x_err[i]));\n  cp_float fi", 1)
s = s.replace("cp_sub(xi, cp_make_float(x[j], x_err[j]))",
              "cp_sub_fc(xi, cp_make_float(x[j], x_err[j]))", 1)
open(sys.argv[1], "w").write(s)
EOF
"$NVCC" -arch=sm_90 -Iruntime/include -o "$WORK/self_old" "$WORK/self_old.cu" && \
  timeout 60 "$WORK/self_old"
exit $status
