// A converted kernel with code only CUDA's device compilation takes (#if __CUDA_ARCH__):
// cpconvert converts the file as the device compilation sees it, so the shuffle in that
// branch carries both halves (parsed as the host sees it, the branch would stay float
// and the output would not compile for the GPU).
#pragma cp composite
__global__ void neighbour_sum(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 300
  v += __shfl_down_sync(0xffffffffu, v, 1);
#endif
  if (i < n)
    out[i] = v;
}
