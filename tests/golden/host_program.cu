// Rule host-pair: a whole program in one file. The companions of the paired buffers are
// declared, allocated and zeroed with them (inside the user's CHECK), zeroed after
// host-to-device copies and memsets, passed at every launch, recombined into the host
// after device-to-host copies (arrays and scalars), and freed. The loop keeps the error
// on the device from step to step.
#include <cstdio>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                                 \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

#pragma cp composite
__global__ void drift(const float4 *vel, float4 *pos, float *energy, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = vel[i];
  pos[i].x += v.x * dt;
  pos[i].y += v.y * dt;
  pos[i].z += v.z * dt;
  atomicAdd(energy, 0.5f * (v.x * v.x + v.y * v.y + v.z * v.z));
}

int main() {
  const int n = 1024, steps = 100;
  float4 *h_pos = new float4[n], *h_vel = new float4[n];
  for (int i = 0; i < n; i++) {
    h_pos[i] = make_float4(i, 0, 0, 0);
    h_vel[i] = make_float4(1e-3f * i, 1, 0, 0);
  }
  float4 *d_pos, *d_vel;
  float *d_energy;
  CHECK(cudaMalloc((void **)&d_pos, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_vel, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_energy, sizeof(float)));
  CHECK(cudaMemcpy(d_pos, h_pos, n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vel, h_vel, n * sizeof(float4), cudaMemcpyHostToDevice));
  float energy = 0.0f;
  for (int s = 0; s < steps; s++) {
    CHECK(cudaMemset(d_energy, 0, sizeof(float)));
    drift<<<(n + 127) / 128, 128>>>(d_vel, d_pos, d_energy, 1e-3f, n);
  }
  CHECK(cudaMemcpy(&energy, d_energy, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_pos, d_pos, n * sizeof(float4), cudaMemcpyDeviceToHost));
  printf("energy %.9g, x[last] %.9g\n", energy, h_pos[n - 1].x);
  CHECK(cudaFree(d_pos));
  CHECK(cudaFree(d_vel));
  CHECK(cudaFree(d_energy));
  delete[] h_pos;
  delete[] h_vel;
  return 0;
}
