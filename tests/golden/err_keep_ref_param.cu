// A keep() variable bound to a float & parameter that converts (cp_float &): a float
// cannot bind there; refused at the argument, naming keep() (declared apart from the
// converted local, so the declaration itself is fine).
__device__ void interp(float r, float &f, float &df) {
  f = r * r;
  df = 2.0f * r;
}

#pragma cp composite keep(df)
__global__ void k(const float *x, float *out) {
  float f;
  float df;
  interp(x[threadIdx.x], f, df);
  out[threadIdx.x] = f + df;
}
