// Global sums of the potential and kinetic energy in two stages. Stage one: each block
// sums a grid-stride slice, reduces it in shared memory down to one warp, finishes with
// warp shuffles, and writes its partial sum into the device array static_y. Stage two
// differs on purpose, as it does across real codes: the potential energy is summed on
// the device through the address of static_y (cudaGetSymbolAddress), the kinetic energy
// on the host after cudaMemcpyFromSymbol.
#include "common.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define NUM_BLOCKS 128

__device__ real static_y[NUM_BLOCKS];

// Shared-memory tree down to 32 values, then shuffles within the first warp; returns
// the block's sum in thread 0. Composite whatever the kernels' scope: it sums their
// accumulators, whose error terms would be dropped at its float parameter.
#pragma cp composite scope(all)
static __device__ real block_sum(real y)
{
  extern __shared__ real s_y[];
  int tid = threadIdx.x;
  s_y[tid] = y;
  __syncthreads();
  for (int offset = blockDim.x >> 1; offset >= 32; offset >>= 1) {
    if (tid < offset) {
      s_y[tid] += s_y[tid + offset];
    }
    __syncthreads();
  }
  y = s_y[tid];
  cg::thread_block_tile<32> g32 = cg::tiled_partition<32>(cg::this_thread_block());
  for (int offset = g32.size() >> 1; offset > 0; offset >>= 1) {
    y += g32.shfl_down(y, offset);
  }
  return y;
}

#pragma cp composite
static __global__ void gpu_sum_potential(int number, const real *g_pe)
{
  real y = 0.0f;
  int stride = blockDim.x * gridDim.x;
  for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < number; n += stride) {
    y += g_pe[n];
  }
  y = block_sum(y);
  if (threadIdx.x == 0) {
    static_y[blockIdx.x] = y;
  }
}

#pragma cp composite
static __global__ void gpu_sum_kinetic(int number, const real *g_mass, const real *g_vx,
                                       const real *g_vy, const real *g_vz)
{
  real y = 0.0f;
  int stride = blockDim.x * gridDim.x;
  for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < number; n += stride) {
    real v2 = g_vx[n] * g_vx[n] + g_vy[n] * g_vy[n] + g_vz[n] * g_vz[n];
    y += 0.5f * g_mass[n] * v2;
  }
  y = block_sum(y);
  if (threadIdx.x == 0) {
    static_y[blockIdx.x] = y;
  }
}

// Stage two on the device: one block sums the NUM_BLOCKS partial sums.
#pragma cp composite
static __global__ void gpu_sum_blocks(const real *g_partial, real *g_total)
{
  real y = g_partial[threadIdx.x];
  y = block_sum(y);
  if (threadIdx.x == 0) {
    g_total[0] = y;
  }
}

real sum_potential(Atom *atom)
{
  size_t shared = sizeof(real) * BLOCK_SIZE;
  gpu_sum_potential<<<NUM_BLOCKS, BLOCK_SIZE, shared>>>(atom->number, atom->pe);
  CHECK(cudaGetLastError());
  real *d_static_y;
  CHECK(cudaGetSymbolAddress((void **)&d_static_y, static_y));
  real *d_total;
  CHECK(cudaMalloc((void **)&d_total, sizeof(real)));
  gpu_sum_blocks<<<1, NUM_BLOCKS, sizeof(real) * NUM_BLOCKS>>>(d_static_y, d_total);
  CHECK(cudaGetLastError());
  real total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof(real), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_total));
  return total;
}

real sum_kinetic(Atom *atom)
{
  size_t shared = sizeof(real) * BLOCK_SIZE;
  gpu_sum_kinetic<<<NUM_BLOCKS, BLOCK_SIZE, shared>>>(atom->number, atom->mass, atom->vx,
                                                      atom->vy, atom->vz);
  CHECK(cudaGetLastError());
  real partial[NUM_BLOCKS];
  CHECK(cudaMemcpyFromSymbol(partial, static_y, sizeof(real) * NUM_BLOCKS));
  // The host sums in double whatever `real` is: the block sums are few, and the
  // comparison between builds should measure the device arithmetic.
  double total = 0.0;
  for (int i = 0; i < NUM_BLOCKS; ++i) {
    total += partial[i];
  }
  return (real)total;
}
