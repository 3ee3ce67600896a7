// Positions in a struct of device pointers passed by value, updated through a copy
// (float4 q = p.pos[i]; q.x += dt * p.vx[i]; p.pos[i] = q;), in scope(accumulators):
// the element is summed into across launches, as with a float4 *pos parameter, so the
// copy turns composite and the field pairs (the struct gains pos_err, allocated and
// zeroed with pos). A kernel reading the same field copies it as a composite too, and
// nopair(p.epot) names a field by its path from the parameter, as pair(p.pos) does: its
// stores write the recombined value.
#include <cstdio>

struct Particles {
  float4 *pos;
  float *vx;
  float *epot;
  int n;
};

#pragma cp composite scope(accumulators)
__global__ void drift(Particles p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float4 q = p.pos[i];
  q.x += dt * p.vx[i];
  p.pos[i] = q;
}

#pragma cp composite scope(accumulators) nopair(p.epot)
__global__ void energy(Particles p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float4 q = p.pos[i];
  p.epot[i] = 0.5f * q.x * q.x;
}

int main() {
  const int n = 64, steps = 20000;
  Particles p;
  p.n = n;
  cudaMalloc(&p.pos, n * sizeof(float4));
  cudaMalloc(&p.vx, n * sizeof(float));
  cudaMalloc(&p.epot, n * sizeof(float));
  float4 h[n];
  float v[n];
  for (int i = 0; i < n; i++) {
    h[i] = make_float4(100.0f + i, 0.0f, 0.0f, 0.0f);
    v[i] = 0.1f * (i % 7 + 1);
  }
  cudaMemcpy(p.pos, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(p.vx, v, sizeof v, cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; s++)
    drift<<<1, n>>>(p, 1e-3f);
  energy<<<1, n>>>(p);
  cudaMemcpy(h, p.pos, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(v, p.epot, sizeof v, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 9)
    printf("%.9g %.9g\n", h[i].x, v[i]);
  cudaFree(p.pos);
  cudaFree(p.vx);
  cudaFree(p.epot);
  return 0;
}
