// A helper called from converted code only in the branch the device compilation skips,
// with a __CUDA_ARCH__ branch of its own: the host view, which sees the call, does not
// see that branch, so its conversion cannot be taken whole; refused at the helper,
// saying what makes it convert.
__device__ float twice(float v)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(2.0f, v);
#else
    return 2.0f * v;
#endif
}

#pragma cp composite
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = x[i];
#if __CUDA_ARCH__ >= 300
    s += __shfl_down_sync(0xffffffffu, s, 1);
#else
    s = twice(s);
#endif
    x[i] = s;
}
