// Rule host-pair keeps the input's lines: where a line holds several statements (or a
// struct several fields), the companions' statements and fields go on that line after the
// one they follow, so no line of the input is broken; after the last statement of a line
// they go on lines of their own. The same statements are never added twice at one place.
#include <cstdio>

#define CK(x) do { if ((x) != cudaSuccess) { printf("cuda error\n"); return 1; } } while (0)

struct State { float *pos; float *vel; int n; };

#pragma cp composite
__global__ void step(float *pos, float *vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { pos[i] += vel[i] * dt; vel[i] *= 0.99f; }
}

int main() {
  State s; s.n = 256;
  size_t bytes = s.n * sizeof(float);
  float h[256];
  for (int i = 0; i < s.n; i++) h[i] = 0.5f * i;
  CK(cudaMalloc(&s.pos, bytes)); CK(cudaMalloc(&s.vel, bytes));
  CK(cudaMemcpy(s.pos, h, bytes, cudaMemcpyHostToDevice)); CK(cudaMemset(s.vel, 0, bytes));
  for (int t = 0; t < 10; t++) step<<<1, 256>>>(s.pos, s.vel, 0.01f, s.n);
  CK(cudaMemcpy(h, s.pos, bytes, cudaMemcpyDeviceToHost)); printf("%g\n", h[1]);
  CK(cudaFree(s.pos)); CK(cudaFree(s.vel));
  return 0;
}
