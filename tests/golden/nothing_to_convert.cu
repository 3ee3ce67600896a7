// An annotated kernel that computes with no float (in __half, in int) has nothing to
// convert: a warning says so, instead of counting it as converted in silence. A float
// made from a __half (__half2float) is exact: no float-call warning, since nothing is
// recombined there.
#include <cuda_fp16.h>

#pragma cp composite
__global__ void half_add(const __half *x, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hadd(x[i], x[i]);
}

#pragma cp composite
__global__ void int_scale(const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * 2;
}

#pragma cp composite
__global__ void half_sum(const __half *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += __half2float(x[i]);
}
