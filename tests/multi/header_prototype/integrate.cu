#include "integrate.h"

#pragma cp composite
__global__ void drift_kernel(float *x, const float *v, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += v[i] * dt;
}

void drift(float *x, const float *v, float dt, int n)
{
  drift_kernel<<<(n + 127) / 128, 128>>>(x, v, dt, n);
}

// takes no paired buffer through a converted kernel: its prototype stays as it is
void reset(float *x, int n)
{
  cudaMemset(x, 0, n * sizeof(float));
}
