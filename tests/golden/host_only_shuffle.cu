// The program's own shuffle emulation for old GPUs, through a volatile shared array,
// called only in the branch the device compilation skips (`#if __CUDA_ARCH__ < 300`):
// converted as the host view sees it, where the call passes the kernel's composite
// shared array (volatile cp_float *: read and written through cp_load_volatile and
// cp_store_volatile), not as a paired buffer.
__device__ float my_shfl_xor(float v, int lane, volatile float *smem)
{
    int t = threadIdx.x;
    smem[t] = v;
    return smem[t ^ lane];
}

#pragma cp composite
__global__ void reduce(const float *in, float *out, int n)
{
    __shared__ volatile float smem[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = i < n ? in[i] : 0.0f;
    for (int lane = 16; lane > 0; lane /= 2) {
#if __CUDA_ARCH__ < 300
        s += my_shfl_xor(s, lane, smem);
#else
        s += __shfl_xor_sync(0xffffffffu, s, lane);
#endif
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s);
}
