// Rule float-call for reference parameters: the first caller of interp converts with
// scope(accumulators), so interp keeps its signature (float &); a scope(all) caller's locals
// bound to it stay float, with a warning naming them.
__device__ void interp(float r, float &f, float &df) {
  f = r * r;
  df = 2.0f * r;
}
__device__ float energy(const float &r) { return 0.5f * r * r; }
#pragma cp composite scope(accumulators)
__global__ void ka(const float *r, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    float f, df;
    interp(r[i], f, df);
    s += f + df + energy(r[i]);
  }
  out[threadIdx.x] = s;
}
#pragma cp composite
__global__ void kb(const float *r, float *out, int n) {
  int i = threadIdx.x;
  float f, df;
  interp(r[i], f, df);
  out[i] = f + df + energy(f);
}
