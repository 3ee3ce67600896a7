// scope(accumulators): a buffer element updated in place through a copy is summed into
// across launches (an integrator's kick: v = vel[i]; v += a * dt; vel[i] = v), like
// vel[i] += a * dt. The copy turns composite and the buffer pairs, so the error term
// carries from one launch to the next; in float each launch's rounding would be kept.
#include <cstdio>

#pragma cp composite scope(accumulators)
__global__ void kick(float *vel, const float *acc, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = vel[i];
    v += acc[i] * dt;
    vel[i] = v;
  }
}

#pragma cp composite scope(accumulators)
__global__ void drift(float4 *pos, const float *vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = pos[i];
    p.x = p.x + vel[i] * dt;
    pos[i] = p;
  }
}

int main() {
  const int n = 128, steps = 20000;
  const float dt = 1e-3f;
  float h[n], a[n];
  float4 hp[n];
  for (int i = 0; i < n; i++) {
    h[i] = 1.0f + 0.01f * i;
    a[i] = 1e-3f * (i % 13 + 1);
    hp[i] = make_float4(100.0f + i, 0.0f, 0.0f, 0.0f);
  }
  float *vel, *acc;
  float4 *pos;
  cudaMalloc(&vel, sizeof h);
  cudaMalloc(&acc, sizeof a);
  cudaMalloc(&pos, sizeof hp);
  cudaMemcpy(vel, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(acc, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(pos, hp, sizeof hp, cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; s++) {
    kick<<<1, n>>>(vel, acc, dt, n);
    drift<<<1, n>>>(pos, vel, dt, n);
  }
  cudaMemcpy(h, vel, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, pos, sizeof hp, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 31)
    printf("%.9g %.9g\n", h[i], hp[i].x);
  cudaFree(vel);
  cudaFree(acc);
  cudaFree(pos);
  return 0;
}
