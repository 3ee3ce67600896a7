// --profile: the store, add_to, atomic and var sites of converted kernels.
#include <cuda_runtime.h>

#pragma cp composite
__global__ void forces(const float4 *pos, float *fx, float3 *f3, float *energy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float ax = 0.0f;
  float e = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = pos[j].x - pos[i].x;
    float r2 = dx * dx + 1.0f;
    ax += dx / r2;
    e = e + 1.0f / r2;
  }
  fx[i] = ax;
  fx[i] += 0.5f * ax;
  f3[i] = make_float3(ax, ax, ax);
  fx[i]++;
  atomicAdd(energy, e);
}
