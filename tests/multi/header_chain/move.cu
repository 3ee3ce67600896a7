#include "inc/sim.h"

#pragma cp composite
__global__ void move(Atom a)
{
  int i = threadIdx.x;
  if (i < a.n)
    a.g_x[i] += 0.1f;
}

void launch_move(Atom a)
{
  move<<<1, 32>>>(a);
}
