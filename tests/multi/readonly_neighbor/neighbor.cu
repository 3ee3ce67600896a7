__global__ void count_near(float *x, int *count, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; i < n && j < n; j++)
    if (j != i && fabsf(x[i] - x[j]) < 1.0f)
      atomicAdd(&count[i], 1);
}

__global__ void shift(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] -= 1.0f;
}
