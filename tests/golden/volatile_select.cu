// A conditional whose branch reads an element of a volatile composite array
// (`k < 32 ? buf[k] : v`, an lvalue of volatile type): the element is read through
// cp_load_volatile in the branch, as a plain read is (before: the volatile element was
// copied as it stood, which does not compile).
__device__ float lane_or_own(float v, int k, volatile float *buf)
{
  buf[threadIdx.x] = v;
  return k >= 0 && k < 32 ? buf[k] : v;
}

#pragma cp composite
__global__ void exchange(float *x, int n)
{
  __shared__ volatile float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float w = lane_or_own(v, (threadIdx.x + 1) & 31, buf);
  if (i < n)
    x[i] = w;
}
