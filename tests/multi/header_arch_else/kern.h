// A kernel defined in a header, with a branch only the host compilation takes (the #else
// of a __CUDA_ARCH__ test): converted with --o-dir, the host view's edits inside that
// branch join the header's, as they do in a .cu file (before, the branch stayed float and
// the verify pass failed: an internal error). The helper the branch calls is annotated,
// so that both views convert it (unannotated, see host_only_helper).
#pragma once

#pragma cp composite
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
