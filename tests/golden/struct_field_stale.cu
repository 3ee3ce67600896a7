// Rule buffer-write on a struct field: one kernel pairs x (so Sys gains x_err); another
// receives the struct by value and stores into s.x[i]. The store writes s.x_err[i] too:
// otherwise the host would add init's stale error term to the new value.
#include <cstdio>
struct Sys {
  float *x;
  int n;
};

#pragma cp composite
__global__ void init(float *x, int n) {
  int i = threadIdx.x;
  if (i < n)
    x[i] = 1.0f / 3.0f * 3.0f + 0.1f;
}

#pragma cp composite
__global__ void set3(Sys s) {
  int i = threadIdx.x;
  if (i < s.n)
    s.x[i] = 3.0f;
}

int main() {
  Sys s;
  s.n = 4;
  cudaMalloc(&s.x, 4 * sizeof(float));
  init<<<1, 4>>>(s.x, 4);
  set3<<<1, 4>>>(s);
  float h[4];
  cudaMemcpy(h, s.x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[0]);
  cudaFree(s.x);
  return 0;
}
