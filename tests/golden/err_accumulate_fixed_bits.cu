// accumulate(fixed(N)) takes 0 to 62 fractional bits: the sum is a 64-bit integer count
// of 2^-N, so 63 or more leave no room for it.
#pragma cp composite accumulate(fixed(63))
__global__ void too_fine(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += x[j];
  out[0] = s;
}
