// An accumulator of accumulate(fixed|kahan|double) as a branch of ?: is read exactly
// (cp_fixed_to_cp, cp_kahan_to_cp, cp_from_double) and the result is a composite.
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
  float s = 0.0f, t = 0.0f;
  for (int j = 0; j < n; j++) {
    s += in[j];
    t += in[j] * in[j];
  }
  out[0] = in[1] < 0.5f ? (s) : a;
  out[1] = in[1] < 0.5f ? s : t;
}

#pragma cp composite accumulate(double)
__global__ void sel_double(const float *in, float *out, int n) {
  float a = in[0];
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = in[1] < 0.5f ? s : a;
  out[1] = (in[1] < 0.5f ? a : s) * 2.0f;
}
