// The kernel both programs launch: one file, converted once per program.
#include "particles.h"

#pragma cp composite
__global__ void drift(float *x, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += dt;
}

void drift_all(Particles *p, float dt) { drift<<<(p->n + 127) / 128, 128>>>(p->x, dt, p->n); }
