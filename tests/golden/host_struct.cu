// Device pointers kept in struct fields (atoms.pos, s->energy) pair like variables: the
// struct gains companion fields next to them, and every allocation, copy, free and launch
// through any struct value or pointer gets the companion.
#include <cstdio>

struct Atoms {
  float4 *pos;   // positions, device
  float *energy; // total energy, device
  int n;
};

#pragma cp composite
__global__ void move(float4 *p, float *e, int n) {
  int i = threadIdx.x;
  if (i < n) {
    p[i].x += 0.1f;
    atomicAdd(e, p[i].x);
  }
}

static void step(Atoms *s) { move<<<1, s->n>>>(s->pos, s->energy, s->n); }

int main() {
  Atoms atoms;
  atoms.n = 32;
  cudaMalloc(&atoms.pos, atoms.n * sizeof(float4));
  cudaMalloc((void **)&atoms.energy, sizeof(float));
  cudaMemset(atoms.pos, 0, atoms.n * sizeof(float4));
  cudaMemset(atoms.energy, 0, sizeof(float));
  for (int s = 0; s < 10; s++)
    step(&atoms);
  float e;
  cudaMemcpy(&e, atoms.energy, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", e);
  cudaFree(atoms.pos);
  cudaFree(atoms.energy);
  return 0;
}
