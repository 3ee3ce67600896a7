// A swap of paired pointers in a for statement's header has no place after it for the
// companions' swap: refused with the place to write it instead.
#include <utility>
#pragma cp composite
__global__ void step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f;
}

void run(float *d_in, float *d_out, int n, int steps) {
  for (int t = 0; t < steps; ++t, std::swap(d_in, d_out))
    step<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
}
