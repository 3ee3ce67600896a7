// A kernel left unconverted that computes a discrete result (a cell index) from a paired
// buffer with a helper that converted kernels call too (the SPH code of docs/realcode.md:
// particles binned into cells by an unannotated hash kernel, neighbours searched from each
// particle's cell in converted kernels). The unconverted `bin` rounds the pair to a float
// before `cell_of`; the converted `sum_cell` takes the cell of the pair itself. Where the
// pair lies just below a cell boundary and its float rounds onto it, the two disagree: a
// particle is binned in one cell and searched for in another, and the converted result
// ends farther from double than float's (float, rounding the same way in both kernels,
// stays consistent). Warned about at the launch, naming the helper; annotating `bin` too
// (host_kernel_shared_helper_annotated.cu) makes the two agree.
#include <cstdio>

__device__ int cell_of(float x) { return (int)floorf(x); }

#pragma cp composite
__global__ void drift(float *x, const float *dx, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += dx[i];
}

__global__ void bin(int *cell, float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cell[i] = cell_of(x[i]);
}

#pragma cp composite
__global__ void sum_cell(float *sum, const int *cell, float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int c = cell_of(x[i]);
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    if (cell[j] == c)
      s += x[j];
  sum[i] = s;
}

int main()
{
  const int n = 48;
  float hx[n], hdx[n], hs[n];
  for (int i = 0; i < n; i++) {
    hx[i] = (float)(i / 4);
    hdx[i] = i % 3 == 0 ? 0.99999994f : 0.25f; /* 1 - 2^-24: x + dx rounds up to the next integer */
  }
  float *x, *dx, *sum;
  int *cell;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&dx, sizeof hdx);
  cudaMalloc(&sum, sizeof hs);
  cudaMalloc(&cell, n * sizeof(int));
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hdx, sizeof hdx, cudaMemcpyHostToDevice);
  drift<<<1, n>>>(x, dx, n);
  bin<<<1, n>>>(cell, x, n);
  sum_cell<<<1, n>>>(sum, cell, x, n);
  cudaMemcpy(hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
  double total = 0;
  int alone = 0;
  for (int i = 0; i < n; i++) {
    total += hs[i];
    alone += hs[i] == 0.0f;
  }
  printf("sum over own cells %.9g, particles not found in their own cell %d\n", total, alone);
  cudaFree(x);
  cudaFree(dx);
  cudaFree(sum);
  cudaFree(cell);
  return 0;
}
