#include <cstdio>

#include "kern.h"

int main() {
  float h[64];
  for (int i = 0; i < 64; i++)
    h[i] = 1.0f + i;
  float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, 64>>>(d, 0.1f, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[3]);
  cudaFree(d);
  return 0;
}
