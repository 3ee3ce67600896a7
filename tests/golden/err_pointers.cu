// Pointers into paired buffers that cpconvert cannot follow.
#pragma cp composite
__global__ void k(float *out, int i) {
  float *local = out + i;
  local[0] = 1.0f;
  out += i;
  out[0] = 2.0f;
}
