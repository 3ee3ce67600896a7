// A paired pointer field whose struct is in a header: the error says what to add there.
#include "host_struct_atoms.h"

#pragma cp composite
__global__ void move(float4 *p, float *e) { p[0].x += 1.0f; e[0] = p[0].x; }

int main() {
  Atoms a;
  cudaMalloc(&a.pos, sizeof(float4));
  cudaMalloc(&a.energy, sizeof(float));
  move<<<1, 1>>>(a.pos, a.energy);
  return 0;
}
