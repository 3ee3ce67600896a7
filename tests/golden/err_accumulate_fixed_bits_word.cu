// accumulate(fixed(N)) takes a decimal number of fractional bits, not a name.
#pragma cp composite accumulate(fixed(bits))
__global__ void named_bits(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += x[j];
  out[0] = s;
}
