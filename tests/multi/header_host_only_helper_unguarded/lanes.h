// Lane exchange through shared memory, defined for every compilation: the device
// compilation for sm_90 sees it but no call of it (rotate.h calls it only in the branch
// that compilation skips), so only the host compilation's view converts it.
#pragma once

__device__ float lane_read(float v, int from, volatile float *buf)
{
  buf[threadIdx.x] = v;
  return buf[(threadIdx.x & ~31) + from];
}

__device__ int lane_read(int v, int from, volatile int *buf)
{
  buf[threadIdx.x] = v;
  return buf[(threadIdx.x & ~31) + from];
}
