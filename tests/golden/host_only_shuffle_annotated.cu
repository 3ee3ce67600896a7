// host_only_shuffle with the helper annotated: the device view converts it too, but sees
// no call of it, and would pair its written `volatile float *` parameter; the host view,
// which sees the call pass the kernel's composite shared array, converts it (before: the
// annotation an earlier release asked for gave internal errors).
#pragma cp composite
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
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300
        s += my_shfl_xor(s, lane, smem);
#else
        s += __shfl_xor_sync(0xffffffffu, s, lane);
#endif
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s);
}
