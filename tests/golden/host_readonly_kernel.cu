// Rule host-pair: a paired buffer passed to a kernel that is not converted and takes it
// through a pointer that is not to const. Its body is in the converted file, so cpconvert
// looks: count_positive only reads x (no warning); clamp writes it (a warning that the
// error term is not updated and the companion must be zeroed after it).
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
  const float *p = x + i;
  if (i < n && x[i] > 0.0f && *p < 1e30f) {
    atomicAdd(count, 1);
  }
}

// Writes x through the address of an element.
__global__ void clamp(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicExch(&x[i], fminf(x[i], 1.0f));
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
  clamp<<<1, 128>>>(d_x, n);
  cudaFree(d_x);
  cudaFree(d_count);
}
