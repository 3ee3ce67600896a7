// Rules compare and select: comparisons read the represented value; a conditional with a
// composite branch yields a composite; floats used as truth values read the recombined
// value.
#pragma cp composite
__global__ void clamp(const float *x, float *y, float lo, float hi) {
  float v = x[threadIdx.x] * 3.0f;
  if (v < lo) v = lo;
  if (v >= hi && hi != 0.0f) v = hi;
  float w = v > 0.0f ? v : -v;
  if (!w || (v == w))
    w = w * 0.5f;
  y[threadIdx.x] = v <= w ? w : v;
}
