// Allocation, copies and the time loop: the host side of the program.
#include <cstdio>
#include <cstdlib>

#include "particles.h"

#ifndef STEPS
#error "STEPS comes from the target's compile definitions"
#endif

int main() {
  Particles p;
  p.n = 1000;
  size_t bytes = p.n * sizeof(float);
  float *h = (float *)malloc(bytes);
  for (int i = 0; i < p.n; i++)
    h[i] = 0.001f * i;
  cudaMalloc(&p.x, bytes);
  cudaMalloc(&p.v, bytes);
  cudaMalloc(&p.energy, sizeof(float));
  cudaMemcpy(p.x, h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(p.v, h, bytes, cudaMemcpyHostToDevice);
  cudaMemset(p.energy, 0, sizeof(float));
  advance(&p, 0.01f, STEPS);
  float e = 0;
  cudaMemcpy(&e, p.energy, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, p.x, bytes, cudaMemcpyDeviceToHost);
  printf("energy %.9g x[1] %.9g\n", e, h[1]);
  cudaFree(p.x);
  cudaFree(p.v);
  cudaFree(p.energy);
  free(h);
  return 0;
}
