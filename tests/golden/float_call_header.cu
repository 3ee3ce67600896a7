// Rule float-call: a function of the user's that the run does not convert (here, device
// helpers in a header converted without --o-dir, one of them a template) receives its
// composite arguments recombined and computes in float: the error terms paid for up to
// the call are dropped there, so each such call is a warning, not silent. With --o-dir
// the header's helpers convert with their callers.
#include "float_call_header.h"

#pragma cp composite
__global__ void steps(const float *c, int *out, float *scaled, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = c[i] / 3.0f;
  out[i] = escape_steps(x, x * 0.5f);
  scaled[i] = half_of<float>(x) + x;
}
