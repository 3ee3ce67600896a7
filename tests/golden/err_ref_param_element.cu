// A float & parameter that converts (cp_float &) cannot bind a paired buffer's element (its
// value and error live in two arrays): refused at the argument, saying what to write.
__device__ void interp(float r, float &f) { f = r * r; }

#pragma cp composite
__global__ void forces(const float *r, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    interp(r[i], out[i]);
}
