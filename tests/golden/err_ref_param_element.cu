// A float & parameter that converts (cp_float &) binds a paired buffer's element only in a
// call that is a statement of its own (golden ref_param_element): there the element goes
// through a composite and back. Refused at the argument, saying what to write, where the
// call's value is used (the element's store would have to come after the expression).
__device__ float interp(float r, float &f) {
  f = r * r;
  return f * 0.5f;
}

#pragma cp composite
__global__ void forces(const float *r, float *out, float *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float e = interp(r[i], out[i]);
  acc[i] += e;
}
