// symbols: k_dot dot_run
/* dot: a long accumulation. Each thread of a small grid sums x[i]*y[i] over a grid-stride
 * loop into one float (1024 products a thread) and writes its partial: the rounding of every
 * product and every add piles up in one register, as in a hand-rolled dot product or norm. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_dot(const float *x, const float *y, float *out, int n)
{
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (int i = tid; i < n; i += stride)
    sum += x[i] * y[i];
  out[tid] = sum;
}

void dot_run(const float *x, const float *y, float *out, int n, int threads)
{
  k_dot<<<threads / 256, 256>>>(x, y, out, n);
}
