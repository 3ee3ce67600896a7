// Kinetic energy: a global sum over the atoms, one thread per atom.
#include "md.h"

#pragma cp composite
__global__ void kinetic(const float *vx, const float *vy, const float *vz, int n, float *ke) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(ke, (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]) / 2);
}

float kinetic_energy(const float *vx, const float *vy, const float *vz, int n) {
  size_t bytes = n * sizeof(float);
  float *d_vx, *d_vy, *d_vz, *d_ke;
  cudaMalloc(&d_vx, bytes);
  cudaMalloc(&d_vy, bytes);
  cudaMalloc(&d_vz, bytes);
  cudaMalloc(&d_ke, sizeof(float));
  cudaMemcpy(d_vx, vx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_vy, vy, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_vz, vz, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_ke, 0, sizeof(float));
  kinetic<<<(n + 127) / 128, 128>>>(d_vx, d_vy, d_vz, n, d_ke);
  float ke = 0;
  cudaMemcpy(&ke, d_ke, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_vx);
  cudaFree(d_vy);
  cudaFree(d_vz);
  cudaFree(d_ke);
  return ke;
}
