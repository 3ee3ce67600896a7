// A float & local bound to an element of a buffer that has a companion (`float &r = x[i];
// r *= 3.0f;`): the reference would hold the value half only, and writes through it would
// leave x_err stale, so the recombined result would be wrong. Refused at the declaration,
// with what to write instead. A const float & (reads only) is not refused.
#pragma cp composite
__global__ void acc(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float &yi = y[i];
    x[i] += yi / 3.0f;
    float &r = x[i];
    r *= 3.0f;
  }
}
