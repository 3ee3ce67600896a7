// symbols: k_stencil stencil_run
/* stencil: 2D 5-point Jacobi heat step, out = c0*in + c1*(n + s + e + w), the boundary held
 * fixed, swept back and forth between two buffers by a host loop. Memory-bound: every value
 * is read from and written back to global memory each sweep, so a pair doubles the traffic. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_stencil(const float *in, float *out, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  out[i] = c0 * in[i] + c1 * (in[i - nx] + in[i + nx] + in[i + 1] + in[i - 1]);
}

/* sweeps (even) steps: a -> b, then b -> a; the result is in a. */
void stencil_run(float *a, float *b, int nx, int ny, float c0, float c1, int sweeps)
{
  dim3 blk(32, 8), grd((nx + 31) / 32, (ny + 7) / 8);
  for (int s = 0; s < sweeps; s += 2) {
    k_stencil<<<grd, blk>>>(a, b, nx, ny, c0, c1);
    k_stencil<<<grd, blk>>>(b, a, nx, ny, c0, c1);
  }
}
