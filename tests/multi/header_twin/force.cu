// Pair energies summed per atom: converted; calls the header functions.
#include "mic.h"
#include "pair.h"

#pragma cp composite
__global__ void force(const float *x, const float *y, float *e, float box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float dx = x[j] - x[i];
    float dy = y[j] - y[i];
    apply_mic(box, &dx, &dy);
    sum += lj(dist2(dx, dy));
  }
  e[i] = sum;
}

// Host arrays in, the first result out: the device buffers stay in this file.
float run_force(const float *hx, const float *hy, float box, int n)
{
  float *x, *y, *e;
  cudaMalloc((void **)&x, n * sizeof(float));
  cudaMalloc((void **)&y, n * sizeof(float));
  cudaMalloc((void **)&e, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  force<<<(n + 63) / 64, 64>>>(x, y, e, box, n);
  float he[1];
  cudaMemcpy(he, e, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  cudaFree(e);
  return he[0];
}
