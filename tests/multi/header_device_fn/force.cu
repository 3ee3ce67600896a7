// Pair distances summed per atom; includes mic.h.
#include "mic.h"

#pragma cp composite
__global__ void force(const float *x, const float *y, float *f, float box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = x[j] - x[i];
    float dy = y[j] - y[i];
    apply_mic(box, &dx, &dy);
    sum += dx * dx + dy * dy;
  }
  f[i] = sum;
}

// Host arrays in, the first result out: the device buffers stay in this file.
float run_force(const float *hx, const float *hy, float box, int n)
{
  float *x, *y, *f;
  cudaMalloc((void **)&x, n * sizeof(float));
  cudaMalloc((void **)&y, n * sizeof(float));
  cudaMalloc((void **)&f, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  force<<<(n + 63) / 64, 64>>>(x, y, f, box, n);
  float hf[1];
  cudaMemcpy(hf, f, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  cudaFree(f);
  return hf[0];
}
