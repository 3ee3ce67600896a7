// A helper that converted code calls only inside a branch the device compilation skips
// (the #else of a __CUDA_ARCH__ test): the device view does not convert it, and only that
// branch's edits are taken from the host view, so the branch would pass a composite to
// the float helper. Refused at the helper, asking for its annotation (before: an internal
// error from the verify pass).
__device__ float twice(float v) { return 2.0f * v; }

#pragma cp composite
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = x[i] * a;
#if __CUDA_ARCH__ >= 300
  s += __shfl_down_sync(0xffffffffu, s, 1);
#else
  s = twice(s);
#endif
  x[i] = s;
}
