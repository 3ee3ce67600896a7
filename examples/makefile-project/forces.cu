// Potential energy of a Lennard-Jones fluid, all pairs, one thread per atom.
#include "lj.h"
#include "md.h"

// Each thread sums its atom's pair energies (shifted to zero at the cutoff, minimum image)
// and adds half of the sum into the total.
#pragma cp composite
__global__ void pair_energy(const float *x, const float *y, const float *z, int n, float box,
                            float *pe) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float rc2 = LJ_CUTOFF * LJ_CUTOFF;
  float irc6 = 1 / (rc2 * rc2 * rc2);
  float uc = 4 * LJ_EPSILON * irc6 * (irc6 - 1);
  float e = 0;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
    dx -= box * rint(dx / box);
    dy -= box * rint(dy / box);
    dz -= box * rint(dz / box);
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= rc2) continue;
    float i6 = 1 / (r2 * r2 * r2);
    e += 4 * LJ_EPSILON * i6 * (i6 - 1) - uc;
  }
  atomicAdd(pe, e / 2);
}

float potential_energy(const float *x, const float *y, const float *z, int n, float box) {
  size_t bytes = n * sizeof(float);
  float *d_x, *d_y, *d_z, *d_pe;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMalloc(&d_z, bytes);
  cudaMalloc(&d_pe, sizeof(float));
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_z, z, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_pe, 0, sizeof(float));
  pair_energy<<<(n + 127) / 128, 128>>>(d_x, d_y, d_z, n, box, d_pe);
  float pe = 0;
  cudaMemcpy(&pe, d_pe, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_pe);
  return pe;
}
