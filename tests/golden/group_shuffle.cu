// Rule group-shuffle: a cooperative-groups tile reduction of a composite shuffles both
// halves.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma cp composite
__global__ void tile_sum(const float *x, float *out, int n) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  if (tile.thread_rank() == 0)
    atomicAdd(out, v);
}
