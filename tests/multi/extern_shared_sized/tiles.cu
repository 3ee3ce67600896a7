// A sized `extern __shared__` array at file scope: nvcc takes it (with a warning that it is
// treated as a static definition); clang takes it only with relocatable device code, which
// is how cpconvert parses. The tile holds positions of a paired buffer, and each body meets
// itself in it: the tile must keep the error terms (its companion s_pos_err), or the body's
// distance to itself becomes its own rounding error instead of 0, and the softened force
// (1 / 1e-9^1.5) turns it into a huge acceleration.
#include <cstdio>

#define TILE 64
#define SOFTENING 1e-9f
extern __shared__ float4 s_pos[TILE];

#pragma cp composite
__global__ void forces(const float4 *pos, float4 *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 mine = pos[i];
  float ax = 0.0f, ay = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    s_pos[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; j++) {
      float dx = s_pos[j].x - mine.x, dy = s_pos[j].y - mine.y;
      float d2 = dx * dx + dy * dy + SOFTENING;
      float inv = 1.0f / sqrtf(d2 * d2 * d2);
      ax += dx * inv;
      ay += dy * inv;
    }
    __syncthreads();
  }
  acc[i] = make_float4(ax, ay, 0.0f, 0.0f);
}

#pragma cp composite
__global__ void step(float4 *pos, float4 *vel, const float4 *acc, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  vel[i].x += acc[i].x * dt;
  vel[i].y += acc[i].y * dt;
  pos[i].x += vel[i].x * dt;
  pos[i].y += vel[i].y * dt;
}

int main() {
  const int n = 256;
  float4 h[n], v[n];
  for (int i = 0; i < n; i++) {
    h[i] = make_float4(0.37f * (i % 16) + 0.001f * i, 0.41f * (i / 16), 0.0f, 1.0f);
    v[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  float4 *d_pos, *d_vel, *d_acc;
  cudaMalloc(&d_pos, sizeof h);
  cudaMalloc(&d_vel, sizeof v);
  cudaMalloc(&d_acc, sizeof h);
  cudaMemcpy(d_pos, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(d_vel, v, sizeof v, cudaMemcpyHostToDevice);
  for (int s = 0; s < 20; s++) {
    forces<<<n / TILE, TILE>>>(d_pos, d_acc, n);
    step<<<n / TILE, TILE>>>(d_pos, d_vel, d_acc, 1e-4f);
  }
  cudaMemcpy(h, d_pos, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g %.9g %.9g\n", h[0].x, h[0].y, h[n - 1].x, h[n - 1].y);
  cudaFree(d_pos);
  cudaFree(d_vel);
  cudaFree(d_acc);
  return 0;
}
