#pragma cp composite
__global__ void k(float *x, float a) {
#if USE_SQUARE
  x[threadIdx.x] = x[threadIdx.x] * x[threadIdx.x];
#else
  x[threadIdx.x] = x[threadIdx.x] + a;
#endif
}
