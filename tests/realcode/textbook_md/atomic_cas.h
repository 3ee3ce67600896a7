// A float atomicAdd written with atomicCAS on the bits of the value, as MD codes did
// before native float atomics existed (and as some still do for portability). It is the
// idiom cpconvert must recognise or refuse; the program uses it for the total virial.
// scope(all) whatever the kernels' scope: it adds their accumulators whole.
#pragma once

#include "common.h"

#pragma cp composite scope(all)
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
