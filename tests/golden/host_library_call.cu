// Rule host-pair for calls cpconvert does not convert: a paired buffer handed to a library
// (a constructor template such as thrust::device_ptr<float>, a reduction declared in a
// library header) loses its error term there, so each such call is a warning that names
// it; a kernel left unconverted that only reads the buffer is its own precision: quiet.
// The CUDA runtime's copies other than cudaMemcpy (cudaMemcpy2D) copy the values without
// their errors: a warning too.
template <class T> struct device_view {
  T *ptr;
  device_view(T *p) : ptr(p) {}
};
float library_sum(const float *d, int n); /* defined in a library */

#pragma cp composite
__global__ void fill(float *e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    e[i] = 0.1f * i;
}

__global__ void neighbours(const float *e, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    count[i] = e[i] > 1.0f;
}

float total(float *e, int *count, int n) {
  fill<<<(n + 127) / 128, 128>>>(e, n);
  neighbours<<<(n + 127) / 128, 128>>>(e, count, n);
  device_view<float> view(e);
  float corner[4];
  cudaMemcpy2D(corner, 2 * sizeof(float), e, 64 * sizeof(float), 2 * sizeof(float), 2,
               cudaMemcpyDeviceToHost);
  return library_sum(e, n) + (view.ptr != 0) + corner[0];
}
