// Function templates convert like functions when their float arithmetic does not depend on
// the template's parameters (int and bool parameters, float locals and buffers): the
// template's definition is rewritten once, every instantiation gets it. Buffers pair
// through the instantiations' launches (step<2, true>, step<5, false>), and a converted
// template helper is called with composites (scale<3>, scale<7>); an unannotated one
// (shift<1>, shift<2>) converts once, as any helper only converted code calls.
#include <cstdio>

#pragma cp composite
template <int K>
__device__ float scale(float x) {
  return x * (float)K / 3.0f;
}

template <int K>
__device__ float shift(float x) {
  return x + (float)K / 3.0f;
}

#pragma cp composite
template <int STEP, bool HALF>
__global__ void step(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = a[i] / 3.0f;
  if (HALF)
    s *= 0.5f;
  o[i] += s * (float)STEP;
}

#pragma cp composite
__global__ void scaled(const float *o, float *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    r[i] = scale<3>(o[i]) - scale<7>(o[i]) / 7.0f + shift<1>(o[i]) - shift<2>(o[i]);
}

int main() {
  const int n = 256;
  float h_a[n], h_r[n];
  for (int i = 0; i < n; i++)
    h_a[i] = 1.0f + (float)i * 0.7f;
  float *a, *o, *r;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&o, n * sizeof(float));
  cudaMalloc(&r, n * sizeof(float));
  cudaMemcpy(a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(o, 0, n * sizeof(float));
  for (int k = 0; k < 100; k++) {
    step<2, true><<<n / 64, 64>>>(a, o, n);
    step<5, false><<<n / 64, 64>>>(a, o, n);
  }
  scaled<<<n / 64, 64>>>(o, r, n);
  cudaMemcpy(h_r, r, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 31)
    printf("%.9g\n", h_r[i]);
  cudaFree(a);
  cudaFree(o);
  cudaFree(r);
  return 0;
}
