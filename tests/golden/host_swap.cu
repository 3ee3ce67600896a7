// Pointer copies in host code: double buffering swaps the pointers every step, and the
// companions swap with them; a pointer initialized from a paired one starts from its
// companion; a paired pointer set to nullptr sets its companion too.
#pragma cp composite
__global__ void relax(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

int main() {
  const int n = 1 << 16;
  float *d_a, *d_b;
  cudaMalloc(&d_a, n * sizeof(float));
  cudaMalloc(&d_b, n * sizeof(float));
  cudaMemset(d_a, 0, n * sizeof(float));
  cudaMemset(d_b, 0, n * sizeof(float));
  for (int s = 0; s < 100; s++) {
    relax<<<n / 256, 256>>>(d_a, d_b, n);
    float *tmp = d_a;
    d_a = d_b;
    d_b = tmp;
  }
  float mid;
  cudaMemcpy(&mid, d_a + n / 2, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  d_a = nullptr;
  return mid == 0.0f ? 0 : 1;
}
