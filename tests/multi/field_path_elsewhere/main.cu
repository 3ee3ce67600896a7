// nbl.cu, which allocates the neighbour list's positions, is left out of this run (see inputs):
// the converted kernel remember() writes lastR's companions, which nothing would allocate.
#include "nbl.h"

#pragma cp composite
__global__ void advance(Sim s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.atoms.n) {
    s.atoms.r.x[i] += dt * s.atoms.f.x[i];
    s.atoms.r.y[i] += dt * s.atoms.f.y[i];
  }
}

#pragma cp composite
__global__ void remember(Sim s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.nbl.n) {
    s.nbl.lastR.x[i] = s.atoms.r.x[i];
    s.nbl.lastR.y[i] = s.atoms.r.y[i];
  }
}

int main() {
  Sim s;
  int n = 256;
  s.atoms.n = n;
  cudaMalloc((void **)&s.atoms.r.x, n * sizeof(float));
  cudaMalloc((void **)&s.atoms.r.y, n * sizeof(float));
  cudaMalloc((void **)&s.atoms.f.x, n * sizeof(float));
  cudaMalloc((void **)&s.atoms.f.y, n * sizeof(float));
  init_nbl(&s.nbl, n);
  advance<<<(n + 63) / 64, 64>>>(s, 0.1f);
  remember<<<(n + 63) / 64, 64>>>(s);
  cudaDeviceSynchronize();
  free_nbl(&s.nbl);
  cudaFree(s.atoms.r.x);
  cudaFree(s.atoms.r.y);
  cudaFree(s.atoms.f.x);
  cudaFree(s.atoms.f.y);
  return 0;
}
