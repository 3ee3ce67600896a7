// A helper that converted code calls only inside a branch the device compilation skips
// (the #else of a __CUDA_ARCH__ test): the device view does not convert it, the host
// view does, and its conversion (here in place: no float code calls it) is taken whole
// from the host view, as the branch's edits are (before: refused, asking for an
// annotation).
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
