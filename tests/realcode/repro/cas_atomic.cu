// Issue 11, item 5: a CAS-based float atomicAdd, annotated (unannotated, the caller gets
// "error: paired buffer 'total' is passed to 'atomic_add_cas', which is not converted;
// annotate 'atomic_add_cas' too [unsupported-pointer]").
// Today: exit 0 with two warnings
//   cas_atomic.cu:20:57: warning: '__int_as_float' has no composite version; it is
//   evaluated in float on the recombined value [float-call]   (and at 22:10)
// and the output declares `atomic_add_cas(float *addr, float *addr_err, cp_float val)`
// with addr_err never written: the error term of every addition is dropped with no
// diagnostic. It compiles.
// Should: recognise the idiom and emit a composite atomic (cp atomic add on addr/addr_err),
// or refuse with a located error; in general, a converted function that writes a paired
// buffer's value but never its companion gets a diagnostic.
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
__global__ void k(const float *x, float *total, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomic_add_cas(total, x[i] * 0.5f);
  }
}
