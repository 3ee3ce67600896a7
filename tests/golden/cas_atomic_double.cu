// Rule cas-atomic in a kernel written in double: the CAS loop on the bits of a double
// (__double_as_longlong/__longlong_as_double) becomes the double-double atomic add.
#pragma cp composite
__device__ double atomic_add_d(double *addr, double val)
{
  unsigned long long *bits = (unsigned long long *)addr;
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

#pragma cp composite
__global__ void k(const double *x, double *total, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomic_add_d(total, x[i] * 0.5);
}
