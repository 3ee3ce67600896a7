#include <cstdio>
#include "inc/sim.h"

int main()
{
  Atom a;
  a.n = 32;
  cudaMalloc((void **)&a.g_x, 32 * sizeof(float));
  cudaMemset(a.g_x, 0, 32 * sizeof(float));
  for (int s = 0; s < 1000; s++)
    launch_move(a);
  float h[32];
  cudaMemcpy(h, a.g_x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[0]);
  cudaFree(a.g_x);
  return 0;
}
