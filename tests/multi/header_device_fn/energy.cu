// A second file that includes mic.h: the header is converted once.
#include "mic.h"

#pragma cp composite
__global__ void energy(const float *x, const float *y, float *e, float box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n) return;
  float dx = x[i + 1] - x[i];
  float dy = y[i + 1] - y[i];
  apply_mic(box, &dx, &dy);
  e[i] = dx * dy;
}

// Host arrays in, the first result out: the device buffers stay in this file.
float run_energy(const float *hx, const float *hy, float box, int n)
{
  float *x, *y, *e;
  cudaMalloc((void **)&x, n * sizeof(float));
  cudaMalloc((void **)&y, n * sizeof(float));
  cudaMalloc((void **)&e, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  energy<<<(n + 63) / 64, 64>>>(x, y, e, box, n);
  float he[1];
  cudaMemcpy(he, e, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  cudaFree(e);
  return he[0];
}
