#include <cstdio>
#include "integrate.h"

int main()
{
  const int n = 1000;
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = 1e-4f * (float)(i % 7);
  float *d_x, *d_v;
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMalloc((void **)&d_v, n * sizeof(float));
  cudaMemcpy(d_v, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < n; i++)
    h[i] = 1.0f;
  cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < 10000; s++)
    drift(d_x, d_v, 0.01f, n);
  printf("%.9g\n", total(d_x, n));
  reset(d_v, n);
  cudaFree(d_x);
  cudaFree(d_v);
  return 0;
}
