// symbols: k_mandel mandel_run
/* mandel: Mandelbrot escape counts on a deep zoom (a square about 1e-5 wide). Compute-bound,
 * data-dependent loop exits, and a result that is a count: once the grid spacing nears the
 * float resolution of the coordinates, float no longer tells neighbouring pixels apart and
 * its orbits diverge from the exact ones. */
#include <cuda_runtime.h>

#pragma cp composite
__global__ void k_mandel(float *count, int w, int h, float x0, float y0, float d, int maxit)
{
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float cr = x0 + px * d;
  float ci = y0 + py * d;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  count[py * w + px] = it;
}

void mandel_run(float *count, int w, int h, float x0, float y0, float d, int maxit)
{
  dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
  k_mandel<<<g, b>>>(count, w, h, x0, y0, d, maxit);
}
