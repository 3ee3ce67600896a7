// symbols: k_matmul matmul_run
/* matmul: naive dense product C = A*B, one thread per C element, an n-term multiply-add
 * loop reading A along a row and B down a column (no tiling): the textbook first kernel,
 * whose inner loop is a dot product whose operands come through the caches. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_matmul(const float *A, const float *B, float *C, int n)
{
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

void matmul_run(const float *A, const float *B, float *C, int n)
{
  dim3 b(16, 16), g((n + 15) / 16, (n + 15) / 16);
  k_matmul<<<g, b>>>(A, B, C, n);
}
