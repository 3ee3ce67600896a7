// difftest bug: an accumulator of accumulate(fixed|kahan|double) as a branch of a
// conditional operator whose other branch is composite is left as it is, and nvcc
// rejects the output (cpconvert exits 0):
//   sel_fixed:  error: expression must have arithmetic or unscoped enum type
//   sel_kahan:  error: operand types are incompatible ("cp_kahan" and "cp_float")
//   sel_double: error: expression must have arithmetic or unscoped enum type
// The output line is `cp_store(&out[0], &out_err[0], in[1] < 0.5f ? s : a);`; the
// accumulator read (cp_fixed_to_cp / cp_kahan_to_cp / cp_from_double) is missing.
// Found by: scripts/difftest.sh --seed 1 --count 500 (seeds 4, 74, 124, 406, 466, ...;
// features `ternary` with `acc_fixed`, `acc_kahan` or `acc_double`).
#pragma cp composite accumulate(fixed)
__global__ void sel_fixed(const float *in, float *out, int n) {
  float a = in[0];
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = in[1] < 0.5f ? s : a;
}

#pragma cp composite accumulate(kahan)
__global__ void sel_kahan(const float *in, float *out, int n) {
  float a = in[0];
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = in[1] < 0.5f ? s : a;
}

#pragma cp composite accumulate(double)
__global__ void sel_double(const float *in, float *out, int n) {
  float a = in[0];
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = in[1] < 0.5f ? s : a;
}
