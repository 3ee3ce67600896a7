// The kernels and the host function that launches them.
#include "particles.h"

#pragma cp composite
__global__ void drift(float *x, const float *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += v[i] * dt;
}

#pragma cp composite
__global__ void kinetic(const float *v, float *energy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(energy, 0.5f * v[i] * v[i]);
}

void advance(Particles *p, float dt, int steps) {
  int blocks = (p->n + 127) / 128;
  for (int s = 0; s < steps; s++)
    drift<<<blocks, 128>>>(p->x, p->v, dt, p->n);
  kinetic<<<blocks, 128>>>(p->v, p->energy, p->n);
}
