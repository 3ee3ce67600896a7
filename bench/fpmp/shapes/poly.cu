// symbols: k_poly poly_run
/* poly: a compute-bound chain. Horner's rule for a polynomial of degree deg at every x[i]:
 * deg dependent multiply-adds per element, coefficients shared by all threads. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_poly(const float *x, const float *c, float *y, int n, int deg)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  float acc = c[deg];
  for (int k = deg - 1; k >= 0; --k)
    acc = acc * xi + c[k];
  y[i] = acc;
}

void poly_run(const float *x, const float *c, float *y, int n, int deg)
{
  k_poly<<<(n + 255) / 256, 256>>>(x, c, y, n, deg);
}
