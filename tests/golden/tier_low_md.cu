// An all-pairs Lennard-Jones fluid in a periodic box, positions and velocities stored as
// float4, converted at the low accuracy tier (tier_low_md.flags: --backend ff --accuracy
// low). The force and integration kernels are annotated; the energy kernel is not, so it
// reads only the value halves of the paired positions and velocities (cpconvert warns).
// The low tier never renormalizes inside a kernel; what it stores must still be the
// composite value rounded once, or that kernel reads float's own trajectory and prints
// float's energies. tests/semantics runs it in float, converted and double.
#include <cstdio>
#include <cuda_runtime.h>

#define N 256
#define BOX 7.0f
#define RC2 6.25f

#pragma cp composite
__global__ void forces(const float4 *pos, float4 *force, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float4 q = pos[j];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    dx -= BOX * rintf(dx / BOX);
    dy -= BOX * rintf(dy / BOX);
    dz -= BOX * rintf(dz / BOX);
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < RC2) {
      float s2 = 1.0f / r2;
      float s6 = s2 * s2 * s2;
      float f = 24.0f * s2 * s6 * (2.0f * s6 - 1.0f);
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
    }
  }
  force[i] = make_float4(fx, fy, fz, 0.0f);
}

#pragma cp composite
__global__ void integrate(float4 *pos, float4 *vel, const float4 *force, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = vel[i], f = force[i], p = pos[i];
  v.x += dt * f.x;
  v.y += dt * f.y;
  v.z += dt * f.z;
  p.x += dt * v.x;
  p.y += dt * v.y;
  p.z += dt * v.z;
  vel[i] = v;
  pos[i] = p;
}

// Not annotated: potential and kinetic energy per atom, from the value halves.
__global__ void energies(const float4 *pos, const float4 *vel, float *pe, float *ke, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  float e = 0.0f;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float4 q = pos[j];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    dx -= BOX * rintf(dx / BOX);
    dy -= BOX * rintf(dy / BOX);
    dz -= BOX * rintf(dz / BOX);
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < RC2) {
      float s6 = 1.0f / (r2 * r2 * r2);
      e += 2.0f * s6 * (s6 - 1.0f);
    }
  }
  pe[i] = e;
  float4 v = vel[i];
  ke[i] = 0.5f * (v.x * v.x + v.y * v.y + v.z * v.z);
}

int main()
{
  static float4 hp[N], hv[N];
  static float pe[N], ke[N];
  for (int i = 0; i < N; i++) {  // a perturbed lattice, small velocities
    int a = i % 8, b = (i / 8) % 8, c = i / 64;
    hp[i] = make_float4(a * 0.875f + 0.01f * (i % 7), b * 0.875f + 0.013f * (i % 5),
                        c * 1.75f + 0.007f * (i % 3), 0.0f);
    hv[i] = make_float4(0.1f * ((i * 37 % 11) - 5) / 5, 0.1f * ((i * 17 % 13) - 6) / 6,
                        0.1f * ((i * 29 % 7) - 3) / 3, 0.0f);
  }
  float4 *pos, *vel, *force;
  float *dpe, *dke;
  cudaMalloc(&pos, N * sizeof(float4));
  cudaMalloc(&vel, N * sizeof(float4));
  cudaMalloc(&force, N * sizeof(float4));
  cudaMalloc(&dpe, N * sizeof(float));
  cudaMalloc(&dke, N * sizeof(float));
  cudaMemcpy(pos, hp, N * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(vel, hv, N * sizeof(float4), cudaMemcpyHostToDevice);
  for (int step = 1; step <= 400; step++) {
    forces<<<(N + 127) / 128, 128>>>(pos, force, N);
    integrate<<<(N + 127) / 128, 128>>>(pos, vel, force, 0.002f, N);
    if (step % 50 == 0) {
      energies<<<(N + 127) / 128, 128>>>(pos, vel, dpe, dke, N);
      cudaMemcpy(pe, dpe, N * sizeof(float), cudaMemcpyDeviceToHost);
      cudaMemcpy(ke, dke, N * sizeof(float), cudaMemcpyDeviceToHost);
      double u = 0.0, k = 0.0;
      for (int i = 0; i < N; i++) {
        u += pe[i];
        k += ke[i];
      }
      printf("%d %.9e %.9e\n", step, u, k);
    }
  }
  cudaFree(pos);
  cudaFree(vel);
  cudaFree(force);
  cudaFree(dpe);
  cudaFree(dke);
  return 0;
}
