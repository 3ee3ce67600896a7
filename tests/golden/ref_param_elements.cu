// Several paired elements bound to converting references in one call: an unannotated
// helper whose only float interface is two `float &` parameters (it converts, as one
// with float values would) receives two buffers' elements. Each element is read into its
// own composite (cp_ref, cp_ref1), the call works on them, and both are stored back in
// argument order, in one statement standing for the call's.
#include <cstdio>

__device__ void rotate(float &a, float &b) {
  float t = a;
  a = b;
  b = t + 0.1f * b;
}

#pragma cp composite
__global__ void step(float *out, float *acc, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] += w[i] / 7.0f;
    rotate(out[i], acc[i]);
  }
}

int main() {
  const int n = 128;
  float h_o[n], h_a[n], h_w[n];
  for (int i = 0; i < n; i++) {
    h_o[i] = 1.0f / 3.0f + 0.7f * (float)i;
    h_a[i] = 100.0f / 9.0f;
    h_w[i] = 0.01f * (float)(i + 1);
  }
  float *o, *a, *w;
  cudaMalloc(&o, n * sizeof(float));
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&w, n * sizeof(float));
  cudaMemcpy(o, h_o, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(w, h_w, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < 60; s++)
    step<<<2, 64>>>(o, a, w, n);
  cudaMemcpy(h_o, o, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_a, a, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 13)
    printf("%.9g %.9g\n", h_o[i], h_a[i]);
  cudaFree(o);
  cudaFree(a);
  cudaFree(w);
  return 0;
}
