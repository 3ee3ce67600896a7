// symbols: k_reduce reduce_run
/* reduce: block tree reduction in shared memory, 256 threads, __syncthreads between the
 * levels, one partial per block: the first stage of every GPU sum. Memory-bound; values of
 * mixed magnitude, so float loses the small ones against the large. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_reduce(const float *x, float *out, int n)
{
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

void reduce_run(const float *x, float *out, int n)
{
  k_reduce<<<(n + 255) / 256, 256>>>(x, out, n);
}
