// Global summation of values that cancel (Saponaro/Taufer's synthetic test).
//
// 1000 values of magnitude 1e6 and 1e-6 come in +/- pairs, so the exact sum is 0.
// Each thread sums a strided slice of the array into a float accumulator and adds its
// partial sum into one global total. In float the large values swamp the small ones
// and the total is off by about 1; converted to composite precision it is off by
// about 1e-6.
//
// The file compiles unchanged with nvcc as plain float code:
//   nvcc -arch=sm_90 global_sum.cu -o global_sum
// and converts with:
//   cpconvert global_sum.cu -o global_sum_cp.cu
#include <cstdio>
#include <cstdlib>

#pragma cp composite
__global__ void global_sum(const float *x, int n, float *total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  float s = 0.0f;
  for (int i = t; i < n; i += stride)
    s += x[i];
  atomicAdd(total, s);
}

// Values in +/- pairs (exact sum 0), shuffled with a fixed seed.
static void make_values(float *x, int n) {
  srand(12345);
  for (int i = 0; i + 1 < n; i += 2) {
    float m = (i / 2) % 2 ? 1e6f : 1e-6f;
    float v = m * (1.0f + (float)rand() / RAND_MAX);
    x[i] = v;
    x[i + 1] = -v;
  }
  for (int i = n - 1; i > 0; i--) {
    int j = rand() % (i + 1);
    float t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
}

int main() {
  const int n = 1000;
  float h_x[n];
  make_values(h_x, n);

  float *d_x, *d_total;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);

  const int threads[] = {1, 10, 100, 1000};
  for (int k = 0; k < 4; k++) {
    float total = 0.0f;
    cudaMemset(d_total, 0, sizeof(float));
    global_sum<<<(threads[k] + 99) / 100, threads[k] < 100 ? threads[k] : 100>>>(d_x, n, d_total);
    cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
    printf("%4d threads: |sum| = %.3e (exact: 0)\n", threads[k], total < 0 ? -total : total);
  }
  cudaFree(d_x);
  cudaFree(d_total);
  return 0;
}
