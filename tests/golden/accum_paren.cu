// A parenthesised accumulator of accumulate(fixed|kahan|double) is the accumulator: read,
// cast and summed into as the bare name is.
#pragma cp composite accumulate(kahan)
__global__ void paren_kahan(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    (s) += in[j];
  out[0] = (s);
  out[1] = (float)((double)(s) * 0.5);
}

#pragma cp composite accumulate(fixed)
__global__ void paren_fixed(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = (s);
  out[1] = (float)((double)(s) * 0.5);
}

#pragma cp composite accumulate(double)
__global__ void paren_double(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = ((s));
  out[1] = (float)((double)(s) * 0.5);
}
