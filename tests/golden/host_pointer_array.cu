// Device buffers allocated through an array of device pointers and handed to struct fields
// (`float *copies[2]; for (...) cudaMalloc(&copies[i], bytes); p->x = copies[0];`, a PIC
// code's allocation): a companion array is declared (`float *copies_err[2] = {};`), each
// allocation and free through it is followed by its companion's (zeroed), and each field
// given an element gets the companion element (before: refused, "paired pointer 'x' is
// assigned a value cpconvert cannot follow"). Other calls through such an array are refused
// (err_host_pointer_array).
#include <cuda_runtime.h>
#include <cstdio>
struct particles_pointers { float *x; float *u; float *q; };

#pragma cp composite
__global__ void push(particles_pointers p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p.u[i] += dt * p.q[i];
    p.x[i] += dt * p.u[i];
  }
}

void allocate(particles_pointers *p_p, int n)
{
  float *copies[2];
  float *q_copy;
  cudaMalloc(&q_copy, n * sizeof(float));
  for (int i = 0; i < 2; ++i)
    cudaMalloc(&copies[i], n * sizeof(float));
  p_p->x = copies[0];
  p_p->u = copies[1];
  p_p->q = q_copy;
}

void release(particles_pointers *p_p)
{
  cudaFree(p_p->x);
  cudaFree(p_p->u);
  cudaFree(p_p->q);
}

int main()
{
  const int n = 1 << 16;
  particles_pointers p;
  allocate(&p, n);
  cudaMemset(p.x, 0, n * sizeof(float));
  cudaMemset(p.u, 0, n * sizeof(float));
  float *h = new float[n];
  for (int i = 0; i < n; ++i) h[i] = 1e-3f * (float)(i % 97);
  cudaMemcpy(p.q, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < 1000; ++s)
    push<<<(n + 255) / 256, 256>>>(p, 1e-3f, n);
  cudaMemcpy(h, p.x, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("%.9e\n", sum);
  release(&p);
  delete[] h;
  return 0;
}
