// Issue 11, item 6: a paired buffer passed to an unconverted kernel that only reads it
// through a non-const pointer.
// Today: exit 0 with a false warning
//   readonly_nonconst_kernel.cu:34:3: warning: paired buffer 'd_x' is passed to
//   'count_positive', which cpconvert does not follow; if it writes the buffer, zero
//   d_x_err after it [host-pair]
// Should: the body of count_positive is in the converted files and never writes x: no
// warning.
#pragma cp composite
__global__ void move(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += 0.1f;
  }
}

// Only reads x, but takes it without const.
__global__ void count_positive(float *x, int *count, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.0f) {
    atomicAdd(count, 1);
  }
}

void run(int n)
{
  float *d_x;
  int *d_count;
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMalloc((void **)&d_count, sizeof(int));
  move<<<1, 128>>>(d_x, n);
  count_positive<<<1, 128>>>(d_x, d_count, n);
  cudaFree(d_x);
  cudaFree(d_count);
}
