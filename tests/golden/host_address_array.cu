// A struct's device buffers allocated and freed through an array of their addresses (a
// common C idiom): a companion array holds the companions' addresses, nullptr where an
// element is not paired, and each cudaMalloc or cudaFree through the array is followed by
// the same for the companion where there is one (before: refused, "no cudaMalloc of it is
// in the converted files"). Other calls through the array are refused
// (err_host_address_array).
#include <cstdio>

struct Particles {
  float *px;
  float *py;
  float *m;
};

#pragma cp composite
__global__ void push(Particles p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p.px[i] += 0.1f * p.m[i];
    p.py[i] += 0.2f;
  }
}

int main() {
  const int n = 64;
  Particles p;
  float **fields[3] = {&p.px, &p.py, &p.m};
  for (int f = 0; f < 3; ++f)
    cudaMalloc((void **)fields[f], n * sizeof(float));
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = 1.0f + i;
  cudaMemcpy(p.px, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(p.py, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(p.m, h, sizeof h, cudaMemcpyHostToDevice);
  for (int s = 0; s < 100; s++)
    push<<<1, n>>>(p, n);
  cudaMemcpy(h, p.px, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g\n", h[0], h[n - 1]);
  for (int f = 0; f < 3; ++f)
    cudaFree(*fields[f]);
  return 0;
}
