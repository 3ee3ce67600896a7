// Rule accumulate with accumulate(double): a float made from a double added into a double
// accumulator (`s += (float)((double)(a - b) * 0.5)`) adds that double, which the
// composite split holds whole; the float cast rounded the exact composite difference to a
// float first (difftest seed 44253).
#include <cstdio>

#pragma cp composite accumulate(double)
__global__ void halfsum(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < 64; k++)
    s += ((float)((double)(x[(i + k) % n] - y[i]) * 0.5));
  s -= (float)((double)(x[i] - y[i]) * 32.0);
  out[i] = s;
}

int main() {
  const int n = 128;
  float h_x[n], h_y[n], h_out[n];
  float xv = 1000.0f, yv = 1.0f / 7.0f; /* steps exact in float: the same data in double */
  for (int i = 0; i < n; i++) {
    h_x[i] = xv;
    h_y[i] = yv;
    xv += 0.3330078125f;
    yv += 0.000244140625f;
  }
  float *x, *y, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h_y, n * sizeof(float), cudaMemcpyHostToDevice);
  halfsum<<<2, 64>>>(x, y, out, n);
  cudaMemcpy(h_out, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 19)
    printf("%.9g\n", h_out[i]);
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
  return 0;
}
