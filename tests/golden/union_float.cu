// Rule unsupported-union: a union holding floats stays float, with a warning; values
// stored into it are recombined.
union bits {
  float f;
  unsigned u;
};

#pragma cp composite
__global__ void sign_bits(const float *x, unsigned *sign, float *y) {
  float v = x[threadIdx.x] * 2.0f;
  union bits b;
  b.f = v;
  sign[threadIdx.x] = b.u >> 31;
  y[threadIdx.x] = v + b.f;
}
