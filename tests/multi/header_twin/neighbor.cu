// Neighbour counts: not annotated, so it stays float and keeps calling the float
// apply_mic and dist2.
#include "mic.h"
#include "pair.h"

__global__ void count(const float *x, const float *y, int *nn, float box, float cut2, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = 0;
  for (int j = 0; j < n; j++) {
    float dx = x[j] - x[i];
    float dy = y[j] - y[i];
    apply_mic(box, &dx, &dy);
    if (j != i && dist2(dx, dy) < cut2) c++;
  }
  nn[i] = c;
}

// Host arrays in, the first count out.
int run_count(const float *hx, const float *hy, float box, int n)
{
  float *x, *y;
  int *nn;
  cudaMalloc((void **)&x, n * sizeof(float));
  cudaMalloc((void **)&y, n * sizeof(float));
  cudaMalloc((void **)&nn, n * sizeof(int));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  count<<<(n + 63) / 64, 64>>>(x, y, nn, box, 6.25f, n);
  int hn[1];
  cudaMemcpy(hn, nn, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  cudaFree(nn);
  return hn[0];
}
