// Rule group-shuffle with accumulate(fixed): a tile shuffle of a fixed-point accumulator
// moves the 64-bit integer (the tile's own shuffle of a long long), so the partial sums
// add exactly; shuffling it as a float would read the integer's bits as a number.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma cp composite accumulate(fixed)
__global__ void energy_sum(const float *e, int n, float *total) {
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
  float y = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y += e[i];
  for (int i = 16; i > 0; i /= 2)
    y += g.shfl_down(y, i);
  if (g.thread_rank() == 0)
    atomicAdd(total, y);
}

#include <cstdio>

int main() {
  const int n = 1 << 20;
  float *h = new float[n];
  for (int i = 0; i < n; i++)
    h[i] = (i % 7 == 0 ? -1.0f : 1.0f) * (0.1f + (float)(i % 1000) * 1e-3f);
  float *e, *total;
  cudaMalloc(&e, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemcpy(e, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(total, 0, sizeof(float));
  energy_sum<<<64, 256>>>(e, n, total);
  float t = 0.0f;
  cudaMemcpy(&t, total, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", t);
  cudaFree(e);
  cudaFree(total);
  delete[] h;
  return 0;
}
