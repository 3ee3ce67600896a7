// A kernel template converted instance by instance whose iteration lives in a header
// template (the shape of the CUDA samples' Mandelbrot: Mandelbrot0<T> calling
// CalcMandelbrot<T>).
#include <cstdio>

#include "escape.h"

#pragma cp composite
template <typename T>
__global__ void render(int *steps, T x0, T y0, T step, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h)
    return;
  T x = x0 + (i % w) * step, y = y0 + (i / w) * step;
  steps[i] = escape_steps(x, y, 256);
}

int main() {
  const int w = 64, h = 64;
  int *steps, host[w * h];
  cudaMalloc(&steps, sizeof host);
  render<float><<<w * h / 128, 128>>>(steps, -0.75f, 0.1f, 1e-3f, w, h);
  cudaMemcpy(host, steps, sizeof host, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < w * h; i++)
    sum += host[i];
  render<double><<<w * h / 128, 128>>>(steps, -0.75, 0.1, 1e-3, w, h);
  cudaMemcpy(host, steps, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < w * h; i++)
    sum -= host[i];
  printf("%ld\n", sum);
  cudaFree(steps);
  return 0;
}
