// File-scope device pointers pair like local ones: the companion is defined next to the
// pointer, and allocation, launches, copies and frees in any function get it.
float *d_field;
float *d_sum = nullptr;

#pragma cp composite
__global__ void accumulate(const float *field, float *sum, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(sum, field[i]);
}

static void setup(int n) {
  cudaMalloc(&d_field, n * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  cudaMemset(d_field, 0, n * sizeof(float));
  cudaMemset(d_sum, 0, sizeof(float));
}

int main() {
  const int n = 4096;
  setup(n);
  accumulate<<<1, 256>>>(d_field, d_sum, n);
  float sum;
  cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_field);
  cudaFree(d_sum);
  return sum == 0.0f ? 0 : 1;
}
