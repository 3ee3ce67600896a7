// A converted kernel whose two views differ: the device compilation takes the __ldg
// branch, the host compilation (which compiles the kernel but never runs it) the #else.
// The device view is converted from a device-mode parse, the #else from a host-mode one,
// so both compile with y a cp_float; verify checks the output in both views.
#pragma cp composite
__global__ void scale(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  float y = __ldg(&x[i]) * 3.0f;
#else
  float y = x[i] * 3.0f;
#endif
  out[i] = y / 7.0f;
}
