#include <cstdio>
#include "cells.cuh"

int main()
{
  const int n = 64;
  float3 hp[n], hv[n];
  for (int i = 0; i < n; i++) {
    hp[i] = make_float3(i % 4, (i / 4) % 4, i / 16);
    hv[i] = make_float3(0.25f, 0.5f, 0.125f);
  }
  float3 *pos, *vel;
  float *rho, *out;
  int *cell;
  cudaMalloc(&pos, sizeof hp);
  cudaMalloc(&vel, sizeof hv);
  cudaMalloc(&rho, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&cell, n * sizeof(int));
  cudaMemcpy(pos, hp, sizeof hp, cudaMemcpyHostToDevice);
  cudaMemcpy(vel, hv, sizeof hv, cudaMemcpyHostToDevice);
  move<<<1, n>>>(pos, vel, 0.1f, n);
  hash<<<1, n>>>(cell, pos, n);
  spread<<<1, n>>>(out, pos, n);
  clamp<<<1, n>>>(pos, n);
  density<<<1, n>>>(rho, cell, pos, n);
  float h[n];
  cudaMemcpy(h, rho, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[0]);
  return 0;
}
