// Float arithmetic written inside a macro is not converted behind the user's back.
#define SQUARE(a) ((a) * (a))
#pragma cp composite
__global__ void k(const float *x, float *y) {
  float v = x[threadIdx.x];
  y[threadIdx.x] = SQUARE(v);
}
