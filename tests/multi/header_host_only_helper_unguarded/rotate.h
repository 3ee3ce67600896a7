// A kernel defined in a header, that calls the helpers of lanes.h only in the branch the
// device compilation skips: the device view, which converts nothing in lanes.h, has no
// unit for it; the float helper is converted as the host view converts it, in the
// converted lanes.h (before, it was left float: an internal error).
#pragma once

#pragma cp composite
__global__ void rotate(float *val, int *tag, int n)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300
  __shared__ volatile float buf[128];
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? val[i] * 0.5f : 0.0f;
  int t = i < n ? tag[i] : 0;
  int from = (threadIdx.x + 1) & 31;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300
  float w = lane_read(v, from, buf);
  __syncthreads();
  int s = lane_read(t, from, (volatile int *)buf);
#else
  float w = __shfl_sync(0xffffffffu, v, from);
  int s = __shfl_sync(0xffffffffu, t, from);
#endif
  if (i < n) {
    val[i] = w + v;
    tag[i] = s;
  }
}
