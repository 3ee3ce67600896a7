// Rule atomic: atomicAdd into a paired buffer or a composite __shared__
// element becomes cp_atomic_add_warp, whose error term is exact.
#pragma cp composite
__global__ void histogram(const float *x, const int *bin, float *hist, float *total, int n) {
  __shared__ float block_sum;
  if (threadIdx.x == 0) block_sum = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&hist[bin[i]], x[i]);
    atomicAdd(hist + bin[i] + 1, -0.5f * x[i]);
    atomicAdd(&block_sum, x[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, block_sum);
}
