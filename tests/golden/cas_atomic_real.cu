// Rule cas-atomic as a `real`-typedef code writes it: the CAS loop for both precisions
// under #ifdef DOUBLE_PRECISION. The float build converts: the whole body becomes the
// composite atomic; the double branch was not taken and names only double, so no
// warning (typedef_branch).
#ifdef DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif

#pragma cp composite
static __device__ real atomicAddCAS(real *addr, real val)
{
#ifdef DOUBLE_PRECISION
  unsigned long long *bits = (unsigned long long *)addr;
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
#else
  int *bits = (int *)addr;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(val + __int_as_float(assumed)));
  } while (assumed != old);
  return __int_as_float(old);
#endif
}

#pragma cp composite
__global__ void virial(const real *w, real *total, int n)
{
  real sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += w[i];
  atomicAddCAS(total, sum);
}
