// The companions of swapped paired pointers are swapped by a copy of the statement after
// it: a statement that does something else too (n++) would do it twice, so it is refused.
#pragma cp composite
__global__ void step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f;
}

#include <utility>

void run(float *d_in, float *d_out, int n, int steps) {
  int swaps = 0;
  for (int s = 0; s < steps; s++) {
    step<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    std::swap(d_in, d_out), swaps++;
  }
}
