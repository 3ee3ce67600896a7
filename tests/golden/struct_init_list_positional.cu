// Positional initializer lists of a struct whose fields gain companions: each companion is
// declared after its field's declaration, so the lists get the companions' values at those
// places, not after the last element; `float *vx, *vy;` is one declaration (its companions
// follow both), a list that stops inside a declaration fills the rest with `{}`, a host
// buffer's companion is null, and a temporary `State{...}` in a launch is a list too.
// (`partial` leaves fields out, as the input does: -Wmissing-field-initializers, in its
// .nvcc-flags, is the input's own warning.)
#include <cstdio>
#include <cstdlib>

struct State {
  float *x;
  float *vx, *vy;
  int n;
  float *m;
};

#pragma cp composite
__global__ void step(State s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) {
    s.vy[i] += dt * s.m[i];
    s.vx[i] += dt * s.vy[i];
    s.x[i] += dt * s.vx[i];
  }
}

int main() {
  const int n = 1024;
  float *x, *v, *m;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&v, 2 * n * sizeof(float));
  cudaMalloc(&m, n * sizeof(float));
  float *host = (float *)calloc(2 * n, sizeof(float));
  for (int i = 0; i < 2 * n; i++)
    host[i] = 0.1f + 0.001f * (i % 37);
  cudaMemcpy(x, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(v, host, 2 * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(m, host, n * sizeof(float), cudaMemcpyHostToDevice);
  State s = {x, v, v + n, n, m};
  State partial = {x, v};
  State on_host = {host, host, host, n, host};
  for (int t = 0; t < 500; t++) {
    step<<<n / 256, 256>>>(s, 0.01f);
    step<<<n / 256, 256>>>(State{x, v, v + n, n, m}, 0.01f);
  }
  cudaMemcpy(host, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%d %d %.9g %.9g %.9g\n", partial.n, on_host.n, host[0], host[n / 2], host[n - 1]);
  cudaFree(x);
  cudaFree(v);
  cudaFree(m);
  free(host);
  return 0;
}
