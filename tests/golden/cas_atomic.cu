// Rule cas-atomic: a float atomic add written as an atomicCAS loop on the bits, as MD
// codes did before native float atomics, converted with a paired buffer: its body becomes
// the composite atomic on (addr, addr_err, val), returning the old value as before. Two
// spellings: int casts in a do-while, and unsigned casts in a while loop (void).
#pragma cp composite
static __device__ float atomic_add_cas(float *addr, float val)
{
  int *bits = (int *)addr;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(val + __int_as_float(assumed)));
  } while (assumed != old);
  return __int_as_float(old);
}

#pragma cp composite
__device__ void add_cas_u(float *addr, float val)
{
  unsigned int old = *(unsigned int *)addr, assumed = old + 1u;
  while (assumed != old) {
    assumed = old;
    old = atomicCAS((unsigned int *)addr, assumed, __float_as_uint(__uint_as_float(assumed) + val));
  }
}

#pragma cp composite
__global__ void k(const float *x, float *total, float *virial, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float old = atomic_add_cas(total, x[i] * 0.5f);
    add_cas_u(virial, x[i] * old);
  }
}
