// Rules shuffle, group-shuffle and select on a float made from a double (`(float)d`): in a
// converted function such a float is the exact split of d, so a warp shuffle, a tile
// shuffle and a conditional move both halves of it (cp_shfl_*, cp_group_shfl_*, a
// composite in each branch; d here is double arithmetic, which rule double-arith computes
// as a composite, cp_mul_cf(cp_sub(a, b), 0.5f)). Shuffling the float would round the
// composite difference a - b that the float program rounds too, and keep float's error in it.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma cp composite
__global__ void halves(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = in[i];
  float b = in[(i + 1) % n];
  float h = __shfl_xor_sync(0xffffffffu, (float)((double)(a - b) * 0.5), 1);
  cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
  float k = g.shfl_xor((float)((double)(a + b) * 0.25), 2);
  float s = (i & 1) ? (float)((double)(a - b) * 0.5) : (float)((double)(a + b) * 0.5);
  out[i] = h * 3.0f + k - s;
}

int main() {
  const int n = 256;
  float h_in[n], h_out[n];
  for (int i = 0; i < n; i++) /* a near 1e6, b near 1: a - b rounds in float */
    h_in[i] = (i & 1) ? 1.0f + (float)(i % 13) * 0.0078125f : 1048576.0f + (float)i * 0.375f;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  halves<<<n / 64, 64>>>(in, out, n);
  cudaMemcpy(h_out, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 37)
    printf("%.9g\n", h_out[i]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
