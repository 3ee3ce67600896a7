// Host functions that only copy, clear or free a device buffer the kernel pairs, called
// from converted host code: they take the companion too (a copy back recombines, a clear
// clears both, a free frees both), so no error term is dropped or left stale.
#include <cstdio>

#pragma cp composite
__global__ void drift(float *x, const float *v, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += v[i] * dt;
}

static double checksum(const float *x, int n)
{
  float h[1024];
  cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += h[i];
  return s;
}

static void clear(float *x, int n)
{
  cudaMemset(x, 0, n * sizeof(float));
}

static void release(float *x)
{
  cudaFree(x);
}

int main()
{
  const int n = 1024;
  float h[n];
  float *x, *v;
  cudaMalloc((void **)&x, n * sizeof(float));
  cudaMalloc((void **)&v, n * sizeof(float));
  for (int i = 0; i < n; i++)
    h[i] = 1e-4f * (float)(i % 7 + 1);
  cudaMemcpy(v, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < n; i++)
    h[i] = 1.0f;
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < 2000; s++)
    drift<<<n / 256, 256>>>(x, v, 0.01f, n);
  printf("%.9g\n", checksum(x, n));
  clear(x, n);
  for (int s = 0; s < 2000; s++)
    drift<<<n / 256, 256>>>(x, v, 0.01f, n);
  printf("%.9g\n", checksum(x, n));
  release(x);
  cudaFree(v);
  return 0;
}
