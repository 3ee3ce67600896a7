// The companion fields exist in the header (added by hand): they are used as they are.
#include "host_struct_atoms_paired.h"

#pragma cp composite
__global__ void move(float4 *p, float *e) { p[0].x += 1.0f; e[0] = p[0].x; }

int main() {
  Atoms a;
  cudaMalloc(&a.pos, sizeof(float4));
  cudaMalloc(&a.energy, sizeof(float));
  move<<<1, 1>>>(a.pos, a.energy);
  return 0;
}
