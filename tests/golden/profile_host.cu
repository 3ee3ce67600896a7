// --profile: the host sites: a converted kernel's launch (the host expressions given its
// paired parameters, the ones it writes and reads), a copy into a paired buffer, a paired
// buffer handed to a kernel that is not converted; the copy back recombines (no site).
#include <cstdio>
#include <cuda_runtime.h>

#pragma cp composite
__global__ void step(const float *x, float *v, float *f, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[i] = -x[i];
    v[i] += f[i] * dt;
  }
}

__global__ void clamp(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] > 1.0f)
    v[i] = 1.0f;
}

int main() {
  const int n = 256;
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = 0.01f * i;
  float *d_x, *d_v, *d_f;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_v, n * sizeof(float));
  cudaMalloc(&d_f, n * sizeof(float));
  cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int t = 0; t < 10; t++) {
    step<<<(n + 127) / 128, 128>>>(d_x, d_v, d_f, 0.1f, n);
    clamp<<<n / 128, 128>>>(d_v, n);
  }
  cudaMemcpy(h, d_v, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%g\n", h[1]);
  cudaFree(d_x);
  cudaFree(d_v);
  cudaFree(d_f);
  return 0;
}
