// Found in the textbook program (not listed in issue 11): `extern __shared__` in a
// converted __device__ helper called by a converted kernel.
// Today: exit 0 with
//   dyn_shared_in_helper.cu:14:3: warning: 's_y' is dynamic shared memory and now holds
//   cp_float (8 bytes per element): the launches converted in this file pass twice the
//   bytes, launches elsewhere must too [local-type]
// but the launch of k in this same file is left as `threads * sizeof(float)`: the kernel
// reads and writes past its dynamic shared memory at run time. nvcc compiles it.
// Should: double the dynamic shared memory of every launch of a kernel that reaches the
// array through its callees, or make the warning name the launch that must change.
#pragma cp composite
static __device__ float block_sum(float y)
{
  extern __shared__ float s_y[];
  s_y[threadIdx.x] = y;
  __syncthreads();
  for (int offset = blockDim.x >> 1; offset > 0; offset >>= 1) {
    if (threadIdx.x < offset) {
      s_y[threadIdx.x] += s_y[threadIdx.x + offset];
    }
    __syncthreads();
  }
  return s_y[0];
}

#pragma cp composite
__global__ void k(const float *x, float *out)
{
  float y = block_sum(x[threadIdx.x]);
  if (threadIdx.x == 0) {
    out[0] = y;
  }
}

void run(const float *d_x, int threads)
{
  float *d_out;
  cudaMalloc((void **)&d_out, sizeof(float));
  k<<<1, threads, threads * sizeof(float)>>>(d_x, d_out);
  cudaFree(d_out);
}
