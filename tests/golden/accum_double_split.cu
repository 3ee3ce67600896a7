// Rule accumulate with accumulate(double): an accumulator started from a float made from a
// double (`float w = (float)(sqrtf(t) * 0.5)`) starts from that double, which the composite
// split holds whole; the float cast rounded the composite square root to a float first.
#include <cstdio>

#pragma cp composite accumulate(double)
__global__ void halves(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float t = in[i] / 3.0f + 1.0f;
  float w = (float)((double)sqrtf(t) * 0.5);
  for (int k = 0; k < 4; k++)
    w += in[(i + k) % n] / 7.0f;
  out[i] = w;
}

int main() {
  const int n = 128;
  float h_in[n], h_out[n];
  for (int i = 0; i < n; i++)
    h_in[i] = 1.0f + (float)i * 0.37f;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  halves<<<2, 64>>>(in, out, n);
  cudaMemcpy(h_out, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 21)
    printf("%.9g\n", h_out[i]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
