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
