// Rule buffer-read/buffer-write on nested struct fields, by value and by pointer:
// sim.atoms.r.x[i] pairs like a buffer parameter, and Vec gains x_err.
#include <cstdio>
struct Vec { float *x; float *y; };
struct Atoms { Vec r; Vec v; int n; };
struct Sim { Atoms atoms; float dt; };

#pragma cp composite
__global__ void drift(Sim sim, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < sim.atoms.n)
    for (int s = 0; s < steps; s++)
      sim.atoms.r.x[i] += sim.atoms.v.x[i] * sim.dt;
}

#pragma cp composite
__global__ void kick(Sim *sim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < sim->atoms.n)
    sim->atoms.v.x[i] = sim->atoms.v.x[i] * 1.0f;
}

int main() {
  const int n = 256;
  Sim sim;
  sim.atoms.n = n;
  sim.dt = 1e-3f;
  float h[n];
  cudaMalloc(&sim.atoms.r.x, n * sizeof(float));
  cudaMalloc(&sim.atoms.v.x, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = 1.0f + i;
  cudaMemcpy(sim.atoms.r.x, h, sizeof h, cudaMemcpyHostToDevice);
  for (int i = 0; i < n; i++) h[i] = 0.1f * (i % 10);
  cudaMemcpy(sim.atoms.v.x, h, sizeof h, cudaMemcpyHostToDevice);
  Sim *dsim;
  cudaMalloc(&dsim, sizeof(Sim));
  cudaMemcpy(dsim, &sim, sizeof(Sim), cudaMemcpyHostToDevice);
  kick<<<1, n>>>(dsim);
  drift<<<1, n>>>(sim, 100000);
  cudaMemcpy(h, sim.atoms.r.x, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 37) printf("%.9g\n", h[i]);
  cudaFree(sim.atoms.r.x);
  cudaFree(sim.atoms.v.x);
  cudaFree(dsim);
  return 0;
}
