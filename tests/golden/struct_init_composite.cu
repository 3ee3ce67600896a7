// A struct brace-initialised from composites (`Pair2 t = {s, d};`, its type the user's,
// not converted): each float member takes the recombined value (before, the composites
// were written into the list and the verify pass failed: an internal error). A struct
// whose float member is computed but which is also used whole (passed by value here)
// cannot carry a companion: its members stay float, with a warning at that use.
struct Pair2 {
  float a;
  float b;
};

__device__ float spread(Pair2 t) { return t.a - t.b; }

#pragma cp composite
__global__ void k(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = x[i] * 2.0f, d = x[i] + 1.0f;
  Pair2 t = {s, d};
  y[i] = spread(t);
  Pair2 u = {1.0f, 2.0f};
  u.a += s;
  y[i] += spread(u);
}
