// A local bound both to a float & that stays float (interp's first caller is
// scope(accumulators)) and to a cp_float & (twice converts in scope(all)) cannot be both:
// refused at the second binding.
__device__ void interp(float a, float &o) { o = a * a; }

#pragma cp composite
__device__ void twice(float a, float &o) { o += a; }

#pragma cp composite scope(accumulators)
__global__ void k1(const float *x, float *out) {
  float s = 0.0f;
  for (int j = 0; j < 4; j++) {
    float f;
    interp(x[j], f);
    s += f;
  }
  out[0] = s;
}

#pragma cp composite
__global__ void k2(const float *x, float *out) {
  float r = 0.0f;
  interp(x[threadIdx.x], r);
  twice(x[threadIdx.x], r);
  out[threadIdx.x] = r;
}
