// Arrays of device pointers pair as one buffer whose companion array is indexed like it
// (host_pointer_array, host_pointer_array_swap); what cannot be followed is refused, located:
// an index with side effects (the companion's index would repeat them), an element given a
// pointer that is not a paired buffer, and a table of pointers reached through a pointer to
// pointers.
#include <cuda_runtime.h>

#pragma cp composite
__global__ void step(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * in[i];
}

float *pool_buffer(int n);

void run(int n, int steps)
{
  float *buf[2];
  cudaMalloc(&buf[0], n * sizeof(float));
  buf[1] = pool_buffer(n);
  int cur = 0;
  for (int s = 0; s < steps; s++)
    step<<<1, n>>>(buf[cur], buf[cur++ % 2], n);
  float **table = new float *[2];
  cudaMalloc(&table[0], n * sizeof(float));
  step<<<1, n>>>(table[0], table[0], n);
}
