// A warp reduction through shared memory, for GPUs without shuffles, in a helper with a
// reference parameter spelled through a typedef: called only in the branch the device
// compilation skips (the #else of `#if __CUDA_ARCH__ >= 300`), it converts as the host
// view sees it, `real_t &x` becoming `cp_float &x` and the shared array `cp_float *`.
typedef float real_t;

__device__ void warp_reduce(real_t &x, real_t *smem)
{
    int lane = threadIdx.x % 32;
    smem[threadIdx.x] = x;
    if (lane < 16) smem[threadIdx.x] += smem[threadIdx.x + 16];
    if (lane < 8) smem[threadIdx.x] += smem[threadIdx.x + 8];
    x = smem[threadIdx.x];
}

#pragma cp composite
__global__ void energy(const float *e, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    real_t ep = i < n ? e[i] : 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 300
    for (int k = 16; k > 0; k /= 2)
        ep += __shfl_xor_sync(0xffffffffu, ep, k);
#else
    __shared__ real_t smem[32];
    warp_reduce(ep, smem);
#endif
    if (threadIdx.x % 32 == 0)
        atomicAdd(total, ep);
}
