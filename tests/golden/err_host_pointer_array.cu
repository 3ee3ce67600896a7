// A copy through an array of device pointers whose elements become paired struct fields:
// cpconvert follows such an array in cudaMalloc and cudaFree only (host_pointer_array); a
// copy would move the values without their errors, so it is refused, located.
#include <cuda_runtime.h>

struct particles_pointers { float *x; float *u; };

#pragma cp composite
__global__ void push(particles_pointers p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p.x[i] += dt * p.u[i];
}

void allocate(particles_pointers *p_p, const float *h, int n)
{
  float *copies[2];
  for (int i = 0; i < 2; ++i) {
    cudaMalloc(&copies[i], n * sizeof(float));
    cudaMemcpy(copies[i], h, n * sizeof(float), cudaMemcpyHostToDevice);
  }
  p_p->x = copies[0];
  p_p->u = copies[1];
}
