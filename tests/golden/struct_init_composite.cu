// A struct brace-initialised from composites (`Pair2 t = {s, d};`, its type the user's,
// not converted): each float member takes the recombined value (before, the composites
// were written into the list and the verify pass failed: an internal error). A struct
// whose float member is computed but which is also used whole (passed by value here)
// cannot carry a companion: its members stay float, with a warning at that use. A struct
// that pairs (its member summed into across a loop) and is initialised with a composite
// (`Acc t = {s, 1.0f, 0};`) starts that member as {} and stores the composite, both
// halves, after its companion's declaration.
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

typedef struct {
  float a;
  float b;
  int n;
} Acc;

#pragma cp composite scope(accumulators)
__global__ void moments(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i];
  Acc t = {s, 1.0f, 0};
  for (int i = 0; i < n; i++) {
    t.b += x[i] * x[i];
    t.n++;
  }
  out[0] = t.a + t.b;
}
