// Rule signature for reference parameters: a device helper's float & output converts like
// a float * output: it takes a cp_float &, and the caller's local it binds turns composite
// (here also in a scope(accumulators) caller, where f and df would be per-term floats).
// A const float & parameter takes the composite value.
__device__ void interp(float r, float &f, float &df) {
  f = r * r;
  df = 2.0f * r;
}

__device__ float energy(const float &r) { return 0.5f * r * r; }

#pragma cp composite
__global__ void forces(const float *r, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float f, df;
    interp(r[i], f, df);
    out[i] = f + df + energy(f);
  }
}

#pragma cp composite scope(accumulators)
__global__ void total(const float *r, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    float f, df;
    interp(r[i], f, df);
    s += f - df;
  }
  out[threadIdx.x] = s;
}
