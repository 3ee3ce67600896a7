// extern __shared__ in a converted __device__ helper is the dynamic shared memory of
// every kernel that calls it, directly or through another helper: those launches pass
// twice the bytes; a kernel that does not reach it keeps its launch.
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
static __device__ float scaled_sum(float y, float scale)
{
  return scale * block_sum(y);
}

#pragma cp composite
__global__ void direct(const float *x, float *out)
{
  float y = block_sum(x[threadIdx.x]);
  if (threadIdx.x == 0) {
    out[0] = y;
  }
}

#pragma cp composite
__global__ void through_helper(const float *x, float *out)
{
  float y = scaled_sum(x[threadIdx.x], 0.5f);
  if (threadIdx.x == 0) {
    out[1] = y;
  }
}

#pragma cp composite
__global__ void no_shared(const float *x, float *out)
{
  out[2 + threadIdx.x] = 2.0f * x[threadIdx.x];
}

void run(const float *d_x, int threads)
{
  float *d_out;
  cudaMalloc((void **)&d_out, (2 + threads) * sizeof(float));
  direct<<<1, threads, threads * sizeof(float)>>>(d_x, d_out);
  through_helper<<<1, threads, threads * sizeof(float), 0>>>(d_x, d_out);
  no_shared<<<1, threads, 0>>>(d_x, d_out);
  cudaFree(d_out);
}
