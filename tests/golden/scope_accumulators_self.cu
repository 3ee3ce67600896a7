// scope(accumulators): one value per paired element within a function. The positions
// are summed into across launches (drift), so they pair; the force loop runs over every
// j, the particle itself included, and skips it by r2 > 0. Its own position is copied
// into a local (xi) and into a __shared__ tile: both turn composite, so xi - x[j] and
// xi - tile[j] are exactly 0 for j == i. Rounded into a float local while x[j] is read
// whole, the difference would be the error term, and the force infinite.
#include <cstdio>

#pragma cp composite scope(accumulators)
__global__ void forces(const float *x, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  float fi = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = xi - x[j];
    float r2 = dx * dx;
    if (r2 > 0.0f) fi += dx / (r2 * r2);
  }
  f[i] = fi;
}

#pragma cp composite scope(accumulators)
__global__ void forces_tile(const float *x, float *g, int n) {
  __shared__ float tile[64];
  int i = threadIdx.x;
  float xi = x[i];
  tile[i] = x[i];
  __syncthreads();
  float gi = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = xi - tile[j];
    if (dx * dx > 0.0f) gi += dx / (dx * dx * dx * dx);
  }
  g[i] = gi;
}

#pragma cp composite scope(accumulators)
__global__ void drift(float *x, const float *f, const float *g, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * (0.5f * f[i] + 0.5f * g[i]);
}

int main() {
  const int n = 64, steps = 300;
  float h[n];
  for (int i = 0; i < n; i++) h[i] = 1.0f + 0.37f * i;
  float *x, *f, *g;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&f, sizeof h);
  cudaMalloc(&g, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; s++) {
    forces<<<1, n>>>(x, f, n);
    forces_tile<<<1, n>>>(x, g, n);
    drift<<<1, n>>>(x, f, g, 1e-3f, n);
  }
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 7)
    printf("%.9g\n", h[i]);
  cudaFree(x);
  cudaFree(f);
  cudaFree(g);
  return 0;
}
