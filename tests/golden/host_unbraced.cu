// Rule host-pair in the body of an if, else or for written without braces (also through
// an error-checking macro): what the rule adds after the statement goes inside braces
// added around both, so it runs only where the statement does; a copy back with the
// other buffer in the else branch recombines from that buffer's companion.
#include <cstdio>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) printf("%s\n", cudaGetErrorString(err_));                   \
  } while (0)

#pragma cp composite
__global__ void k(float *a, float *b, int n) {
  int i = threadIdx.x;
  if (i < n) {
    a[i] += 1.0f;
    b[i] += 2.0f;
  }
}

int main() {
  float *a, *b, h[4];
  CHECK(cudaMalloc(&a, sizeof h));
  CHECK(cudaMalloc(&b, sizeof h));
  for (int s = 0; s < 3; s++) {
    if (s == 0) CHECK(cudaMemset(a, 0, sizeof h));
    k<<<1, 4>>>(a, b, 4);
  }
  int which = 1;
  if (which == 0) cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  else cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  for (int r = 0; r < 2; r++)
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  printf("%g\n", h[0]);
  return 0;
}
