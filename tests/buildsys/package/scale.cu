// Sums a scaled array into one total: the smallest program that has a kernel to convert,
// a paired output buffer and host code to rewrite.
#include <cstdio>
#include "scale.h"

#pragma cp composite
__global__ void scaled_sum(const float *x, int n, float *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, SCALE_FACTOR * x[i]);
}

int main() {
  const int n = 256;
  float h_x[n], total = 0.0f;
  for (int i = 0; i < n; i++)
    h_x[i] = 1.0f / (i + 1);
  float *d_x, *d_total;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(float));
  scaled_sum<<<1, n>>>(d_x, n, d_total);
  cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("total = %.9g\n", total);
  cudaFree(d_x);
  cudaFree(d_total);
  return 0;
}
