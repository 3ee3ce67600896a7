// Rule host-pair: a paired buffer passed to a kernel that is not converted and takes it
// through a pointer that is not to const. Its body is in the converted file, so cpconvert
// looks: count_positive and stats only read x (no warning); zero and clamp write it (a
// warning that the error term is not updated and the companion must be zeroed after it).
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

__device__ float first(const float *p) { return p[0]; }

// Only reads x: through a helper taking a pointer to const, and in comparisons.
__global__ void stats(float *x, float *out, int n)
{
  if (threadIdx.x == 0 && x != nullptr && n > 0)
    out[0] = first(x) + x[n - 1];
}

// Writes x through pointer arithmetic.
__global__ void zero(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    *(x + i) = 0.0f;
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
  float *d_x, *d_out;
  int *d_count;
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMalloc((void **)&d_count, sizeof(int));
  cudaMalloc((void **)&d_out, sizeof(float));
  move<<<1, 128>>>(d_x, n);
  count_positive<<<1, 128>>>(d_x, d_count, n);
  stats<<<1, 1>>>(d_x, d_out, n);
  zero<<<1, 128>>>(d_x, n);
  clamp<<<1, 128>>>(d_x, n);
  cudaFree(d_x);
  cudaFree(d_count);
  cudaFree(d_out);
}
