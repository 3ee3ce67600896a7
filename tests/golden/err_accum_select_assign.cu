// A conditional operator with an accumulate() accumulator as a branch can only be read:
// assigning to it would need the accumulator's carrier on both sides.
#pragma cp composite accumulate(kahan)
__global__ void k(const float *in, float *out, int n) {
  float s = 0.0f, t = 0.0f;
  for (int j = 0; j < n; j++) {
    s += in[j];
    t += in[j];
  }
  (in[0] < 0 ? s : t) = 1.0f;
  out[0] = s + t;
}
