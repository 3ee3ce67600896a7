// Rules arith, compare and math on a float made from a double (`(float)d`): in a
// converted function it is the exact split of d, so unary minus, binary operators with a
// plain float, comparisons and math calls take both halves (d here is double arithmetic,
// which rule double-arith computes as a composite: cp_mul_cf(xi, 0.5f)). Rounding it to a
// float there would drop the error term that x carries from the first kernel.
#include <cstdio>

#pragma cp composite
__global__ void thirds(const float *a, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a[i] / 3.0f;
}

#pragma cp composite
__global__ void force(const float *x, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float xi = x[i];
  float h = -((float)((double)xi * 0.5)) / (1.0f + fabsf(-(float)((double)xi * 0.5)));
  float q = (float)((double)xi * 0.25) * 3.0f;
  float s = (float)((double)xi * 0.5) > 1.0f ? 1.0f : 0.0f;
  f[i] = h + q + s;
}

int main() {
  const int n = 256;
  float h_a[n], h_f[n];
  for (int i = 0; i < n; i++)
    h_a[i] = 1.0f + (float)i * 0.8125f;
  float *a, *x, *f;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&f, n * sizeof(float));
  cudaMemcpy(a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  thirds<<<n / 64, 64>>>(a, x, n);
  force<<<n / 64, 64>>>(x, f, n);
  cudaMemcpy(h_f, f, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 29)
    printf("%.9g\n", h_f[i]);
  cudaFree(a);
  cudaFree(x);
  cudaFree(f);
  return 0;
}
