// std::swap of paired device pointers (double buffering): a copy each way, so both
// pointers pair together and the companions are swapped by the same statement after it.
// Before, only the values were swapped: the buffer read next took no companion, and the
// one written next kept the other's stale error terms (a host-pair warning pointed at the
// call).
#include <cstdio>
#include <utility>

#pragma cp composite
__global__ void relax(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = in[i] + 0.25f * (in[i - 1] - 2.0f * in[i] + in[i + 1]);
  else if (i < n)
    out[i] = in[i];
}

int main() {
  const int n = 128, steps = 5000;
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = (i == n / 2) ? 1000.0f : 1.0f / (1.0f + i);
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof h);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; s++) {
    relax<<<1, n>>>(d_in, d_out, n);
    std::swap(d_in, d_out);
  }
  cudaMemcpy(h, d_in, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 17)
    printf("%.9g\n", h[i]);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
