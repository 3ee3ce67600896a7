// A pointer set to point into paired buffers in a way the pairing does not follow (a
// conditional choosing between them): a write through it (a copy in, a memset) would leave
// the companion's error terms stale, an error; a copy back through it takes the values
// without their errors, a warning. Copy from and to the paired buffers themselves.
#pragma cp composite
__global__ void step(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += 0.5f * y[i];
    y[i] *= 0.99f;
  }
}

int main() {
  const int n = 256;
  float h[n];
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  step<<<1, n>>>(d_x, d_y, n);
  for (int d = 0; d < 2; d++) {
    float *d_c = d == 0 ? d_x : d_y;
    cudaMemcpy(h, d_c, n * sizeof(float), cudaMemcpyDeviceToHost);
    h[0] = 1.0f;
    cudaMemcpy(d_c, h, n * sizeof(float), cudaMemcpyHostToDevice);
    float *d_half;
    d_half = d_x + n / 2;
    cudaMemset(d_half, 0, n / 2 * sizeof(float));
  }
  cudaFree(d_x);
  cudaFree(d_y);
  return 0;
}
