// Host code whose pairing cannot be completed in the file: each case says what to add by
// hand. A buffer allocated by a helper the tool does not follow, a launch argument that
// is not a buffer variable, a copy whose direction is not a constant, a device-to-device
// copy from a paired buffer into one without a companion, a paired pointer given a value
// that is not another paired pointer.
#pragma cp composite
__global__ void scale(float *x, int n) {
  if (threadIdx.x < n) x[threadIdx.x] *= 2.0f;
}

static void allocate(float **p, int n) { cudaMalloc(p, n * sizeof(float)); }
float *pool_buffer(int n);

int main() {
  float *d_a;
  allocate(&d_a, 64);
  scale<<<1, 64>>>(d_a, 64);

  float **bufs = new float *[2];
  cudaMalloc(&bufs[0], 64 * sizeof(float));
  scale<<<1, 64>>>(bufs[0], 64);

  float *d_b, *d_plain, h[64];
  cudaMalloc(&d_b, sizeof h);
  cudaMalloc(&d_plain, sizeof h);
  scale<<<1, 64>>>(d_b, 64);
  cudaMemcpy(h, d_b, sizeof h, cudaMemcpyDefault);
  cudaMemcpy(d_plain, d_b, sizeof h, cudaMemcpyDeviceToDevice);
  d_b = pool_buffer(64);
  return 0;
}
