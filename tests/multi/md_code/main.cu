// The run: positions moved along the force, energy read back every step.
#include <cstdio>

#include "atoms.h"

#pragma cp composite
__global__ void move(float4 *pos, const float4 *force, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  pos[i].x += dt * force[i].x + 1e-3f * i;
  pos[i].y += dt * force[i].y;
}

int main() {
  Atoms atoms;
  allocate(&atoms, 1024);
  float energy = 0.0f;
  for (int step = 0; step < 100; step++) {
    compute_forces(&atoms);
    move<<<(atoms.n + 127) / 128, 128>>>(atoms.pos, atoms.force, 0.01f, atoms.n);
    cudaMemcpy(&energy, atoms.energy, sizeof(float), cudaMemcpyDeviceToHost);
  }
  printf("energy %.9g\n", energy);
  release(&atoms);
  return 0;
}
