// The host wrapper gains x_err with its kernel, but its prototype lives in a header that
// a conversion with -o does not write: other files would call the old signature.
#include "header_prototype_wrapper.h"

#pragma cp composite
__global__ void scale(float *x, float s, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

void scale_all(float *x, float s, int n)
{
  scale<<<(n + 255) / 256, 256>>>(x, s, n);
}
