// A sized `extern __shared__` array at file scope: nvcc takes it (with a warning that it is
// treated as a static definition); clang takes it only with relocatable device code, which
// is how cpconvert parses. The converted kernel keeps the array as written.
#include <cstdio>

#define TILE 64
extern __shared__ float4 s_pos[TILE];

#pragma cp composite
__global__ void potential(const float4 *pos, float *phi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 mine = pos[i];
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    s_pos[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; j++) {
      float dx = s_pos[j].x - mine.x;
      sum += s_pos[j].w / (dx * dx + 0.01f);
    }
    __syncthreads();
  }
  phi[i] = sum;
}

int main() {
  const int n = 1024;
  float4 h[n];
  for (int i = 0; i < n; i++)
    h[i] = make_float4(0.001f * i, 0.0f, 0.0f, 1.0f / (1 + i % 7));
  float4 *d_pos;
  float *d_phi, h_phi[n];
  cudaMalloc(&d_pos, sizeof h);
  cudaMalloc(&d_phi, sizeof h_phi);
  cudaMemcpy(d_pos, h, sizeof h, cudaMemcpyHostToDevice);
  potential<<<n / TILE, TILE>>>(d_pos, d_phi, n);
  cudaMemcpy(h_phi, d_phi, sizeof h_phi, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g\n", h_phi[0], h_phi[n - 1]);
  cudaFree(d_pos);
  cudaFree(d_phi);
  return 0;
}
