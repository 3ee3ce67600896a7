// Allocation and release of the simulation state.
#include "atoms.h"

void allocate(Atoms *a, int n) {
  a->n = n;
  cudaMalloc(&a->pos, n * sizeof(float4));
  cudaMalloc(&a->force, n * sizeof(float4));
  cudaMalloc(&a->energy, sizeof(float));
  cudaMemset(a->pos, 0, n * sizeof(float4));
}

void release(Atoms *a) {
  cudaFree(a->pos);
  cudaFree(a->force);
  cudaFree(a->energy);
}
