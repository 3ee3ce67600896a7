// assert() in a kernel template: its expansion passes __PRETTY_FUNCTION__, whose type
// depends on the template's parameters, to __assert_fail, which returns no float in any
// instantiation: not float arithmetic, so the template converts (before: refused as
// unsupported-template). A dependent expression that may be float is still refused
// (err_template_dependent).
#include <cassert>

#pragma cp composite
template <int B>
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  assert(i < n);
  x[i] = x[i] * 2.0f + 1.0f;
}

void run(float *d, int n) { scale<64><<<n / 64, 64>>>(d, n); }
