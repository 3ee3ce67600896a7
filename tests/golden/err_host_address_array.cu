// A copy through an array of the addresses of paired device buffers: cpconvert follows
// such an array in cudaMalloc and cudaFree only (host_address_array); a copy would move
// the values without their errors, so it is refused, located.
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
  for (int f = 0; f < 3; ++f)
    cudaMemcpy(*fields[f], h, sizeof h, cudaMemcpyHostToDevice);
  for (int s = 0; s < 100; s++)
    push<<<1, n>>>(p, n);
  cudaMemcpy(h, p.px, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g\n", h[0], h[n - 1]);
  for (int f = 0; f < 3; ++f)
    cudaFree(*fields[f]);
  return 0;
}
