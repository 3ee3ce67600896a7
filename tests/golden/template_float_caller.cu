// A converted __device__ function whose signature changes, called from the float template
// of an annotated kernel template with a type parameter. The template stays for its other
// instances and is float code, so the helper keeps its float original there and converts
// as a twin (interp_cp) for the instance's copy. Its first argument depends on T, so
// libclang leaves it unresolved; every function of its name counts as called.
#include <cstdio>

#pragma cp composite
__device__ void interp(float a, float b, float &lo, float &hi) {
  lo = a * b;
  hi = a + b;
}

#pragma cp composite
template <typename T>
__global__ void blend(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float lo, hi;
    interp(x[i] < 0 ? 0.25f : 2.0f, 0.5f, lo, hi);
    y[i] = x[i] + lo * hi;
  }
}

int main() {
  const int n = 256;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  blend<float><<<1, n>>>(x, y, n);
  float h[n];
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[n - 1]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
