// ref_param: the members of a float2 local bound to a helper's float & parameters,
// where the helper keeps float & (another caller is scope(accumulators)).
__device__ void interp(float r, float &f, float &df) {
  f = r * r;
  df = 2.0f * r;
}

#pragma cp composite scope(accumulators)
__global__ void total(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    float f, df;
    interp(x[i], f, df);
    s += f - df;
  }
  out[threadIdx.x] = s;
}

#pragma cp composite
__global__ void k(const float *x, float *out) {
  float2 g;
  interp(x[threadIdx.x], g.x, g.y);
  out[threadIdx.x] = g.x + g.y;
}
