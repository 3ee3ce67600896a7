// Kernels in a header, two of them left unannotated, launched from main.cu with the paired
// positions (the SPH code of docs/realcode.md keeps its kernels in Solver_gpu.cuh). `hash`
// bins the particles with `cell_of`, an integer result that the converted `density` computes
// too, from the pairs: warned about by name, to annotate `hash` (the two could put one
// particle in two cells). `spread` calls `norm1`, a float result that converted code also
// computes: only less precise there, and it does not write `pos`: quiet, as a neighbour-list
// build is (its body in a header is read like one in the converted file). `clamp` writes
// `pos`: warned about as such (before, a kernel in a header was unreadable to cpconvert, and
// the warning only said it might write; CoMD-CUDA keeps such kernels in headers).
#include <cuda_runtime.h>

__device__ int3 cell_of(float3 p)
{
  return make_int3((int)floorf(p.x), (int)floorf(p.y), (int)floorf(p.z));
}

__device__ float norm1(float3 p) { return fabsf(p.x) + fabsf(p.y) + fabsf(p.z); }

#pragma cp composite
__global__ void move(float3 *pos, const float3 *vel, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos[i].x += dt * vel[i].x;
    pos[i].y += dt * vel[i].y;
    pos[i].z += dt * vel[i].z;
  }
}

__global__ void hash(int *cell, float3 *pos, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int3 c = cell_of(pos[i]);
    cell[i] = c.x + 64 * (c.y + 64 * c.z);
  }
}

__global__ void spread(float *out, float3 *pos, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = norm1(pos[i]);
}

__global__ void clamp(float3 *pos, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && pos[i].x > 3.5f)
    pos[i].x = 3.5f;
}

#pragma cp composite
__global__ void density(float *rho, const int *cell, float3 *pos, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int3 c = cell_of(pos[i]);
  int own = c.x + 64 * (c.y + 64 * c.z);
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    if (cell[j] == own)
      s += norm1(pos[j]);
  rho[i] = s;
}
