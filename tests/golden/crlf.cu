// CRLF line endings are kept, in the inserted lines too.
__global__ void fill(float *x, float v) {
  x[threadIdx.x] = v;
}
