// Rule host-pair across files: main.cu launches count_near, an unconverted kernel
// defined in neighbor.cu that takes the paired positions without const and only reads
// them. Its body is in the run's inputs, so cpconvert looks and says nothing; shift, in
// the same file, writes them and gets the warning (see `warnings`).
#pragma cp composite
__global__ void move(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 0.1f;
}

__global__ void count_near(float *x, int *count, int n);
__global__ void shift(float *x, int n);

int main()
{
  const int n = 128;
  float *d_x;
  int *d_count;
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMalloc((void **)&d_count, n * sizeof(int));
  cudaMemset(d_x, 0, n * sizeof(float));
  move<<<1, n>>>(d_x, n);
  count_near<<<1, n>>>(d_x, d_count, n);
  shift<<<1, n>>>(d_x, n);
  cudaFree(d_x);
  cudaFree(d_count);
  return 0;
}
