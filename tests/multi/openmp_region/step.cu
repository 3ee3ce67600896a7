/* Host code inside `#pragma omp parallel { ... }`, parsed with -fopenmp (flags): the
 * allocations, launches and frees there gain their companions as anywhere else. */
#include "step.h"

#pragma cp composite
__global__ void step(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.75f + 1.0f;
}

void step_cuda(float *out, const float *in, int n) { step<<<(n + 255) / 256, 256>>>(out, in, n); }
