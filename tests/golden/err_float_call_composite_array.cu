// A composite local array passed to a helper the run does not convert (a header, without
// --o-dir): the helper reads floats, so the array cannot be passed; refused at the
// argument, saying what converts it (before: an internal error, the converted call not
// compiling).
#include "err_float_call_composite_array.h"

#pragma cp composite
__global__ void rotate(float *x, int n)
{
  __shared__ volatile float buf[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float w = lane_read(v, (threadIdx.x + 1) & 31, buf);
  if (i < n)
    x[i] = w + v;
}
