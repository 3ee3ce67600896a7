// Rule dropped-error: an atomicCAS loop on the bits of a paired buffer that is not the
// float atomic add (here a float atomic max) cannot become the composite atomic; written
// as it is, it would store the value without its companion, so it is refused at the cast
// that writes the buffer.
#pragma cp composite
__device__ float atomic_max_cas(float *addr, float val)
{
  int *bits = (int *)addr;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

#pragma cp composite
__global__ void k(const float *x, float *peak, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomic_max_cas(peak, x[i] * 2.0f);
}
