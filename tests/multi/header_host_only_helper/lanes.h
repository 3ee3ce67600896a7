// Lane exchange through shared memory, for devices without warp shuffles: defined only
// where the device compilation targets them (and in the host compilation, which sees the
// #if branch taken). The device compilation for sm_90 skips the whole header body.
#pragma once

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300
__device__ float lane_read(float v, int from, volatile float *buf)
{
  buf[threadIdx.x] = v;
  int base = threadIdx.x & ~31;
  return from >= 0 && from < 32 ? buf[base + from] : v;
}

__device__ int lane_read(int v, int from, volatile int *buf)
{
  buf[threadIdx.x] = v;
  int base = threadIdx.x & ~31;
  return from >= 0 && from < 32 ? buf[base + from] : v;
}
#endif
