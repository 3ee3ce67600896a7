// --profile: the drop sites, where a composite is turned into a float: an argument of a
// call with no composite version, a store into memory that is not paired, a conversion.
#include <cuda_runtime.h>

#pragma cp composite nopair(out)
__global__ void damp(float *v, float *out, int *bins, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = v[i] * dt;
  float w = fmodf(s, 2.0f) + s;
  out[i] = w;
  bins[i] = (int)w;
  int q = w;
  v[i] = w + q;
}
