// Device buffers are fields of a class, allocated in its constructor; member functions
// defined at file scope upload them, launch the converted kernel and copy back: they are
// host code like free functions, and the fields gain their companions.
#include <cstdio>
#include "sim.h"

#pragma cp composite
__global__ void drift(float4 *pos, float4 *vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = pos[i], v = vel[i];
  v.x += 0.1f * dt;
  p.x += v.x * dt;
  pos[i] = p;
  vel[i] = v;
}

Particles::Particles(int n) : n(n) {
  cudaMalloc((void **)&d_pos, sizeof(float4) * n);
  cudaMalloc((void **)&d_vel, sizeof(float4) * n);
}

Particles::~Particles() {
  cudaFree(d_pos);
  cudaFree(d_vel);
}

void Particles::upload(const float4 *h_pos, const float4 *h_vel) {
  cudaMemcpy(d_pos, h_pos, sizeof(float4) * n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_vel, h_vel, sizeof(float4) * n, cudaMemcpyHostToDevice);
}

Simulation::Simulation(int n) {
  pt = new Particles(n);
  float4 *h_pos = new float4[n], *h_vel = new float4[n];
  for (int i = 0; i < n; i++) {
    h_pos[i] = make_float4(1.0f, 0.0f, 0.0f, 0.0f);
    h_vel[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  pt->upload(h_pos, h_vel);
  delete[] h_pos;
  delete[] h_vel;
}
Simulation::~Simulation() { delete pt; }

void Simulation::step(float dt) {
  drift<<<(pt->n + 127) / 128, 128>>>(pt->d_pos, pt->d_vel, pt->n, dt);
}

void Simulation::positions(float4 *h_pos) {
  cudaMemcpy(h_pos, pt->d_pos, sizeof(float4) * pt->n, cudaMemcpyDeviceToHost);
}

int main() {
  const int n = 256;
  float4 *h_pos = new float4[n];
  Simulation sim(n);
  for (int s = 0; s < 1000; s++)
    sim.step(0.001f);
  sim.positions(h_pos);
  printf("%.9g\n", h_pos[0].x);
  delete[] h_pos;
  return 0;
}
