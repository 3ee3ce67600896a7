#include <cstdio>

#include "lanes.h"
#include "rotate.h"

int main() {
  float h[64];
  int g[64];
  for (int i = 0; i < 64; i++) {
    h[i] = 1.0f + i;
    g[i] = i;
  }
  float *d;
  int *e;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&e, sizeof g);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(e, g, sizeof g, cudaMemcpyHostToDevice);
  rotate<<<1, 64>>>(d, e, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(g, e, sizeof g, cudaMemcpyDeviceToHost);
  printf("%.9g %d\n", h[3], g[3]);
  cudaFree(d);
  cudaFree(e);
  return 0;
}
