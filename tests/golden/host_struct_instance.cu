// Pairing by buffer, not by struct type: the state's positions and velocities (`vec_t pos,
// vel`, seen by the converted kernel `step`) get companions; a halo message `vec_t halo`
// of the same type, which only the unconverted kernel `pack` fills and the host copies
// back, gets none: no companion allocation, no recombine on its copy back, and no warning
// that `pack` writes a paired field (it writes halo's, not pos's). Before: every vec_t was
// paired, halo's companions allocated and zeroed, and `pack` warned about. A second view
// whose field aliases a paired buffer (`view.x = pos.x`), or a copy of the state (`copy =
// pos`), stays paired: the unconverted kernel that writes through it is warned about
// (host_struct_instance.warn).
#include <cstdio>

struct vec_t {
  float *x;
  float *y;
};

#pragma cp composite
__global__ void step(vec_t pos, vec_t vel, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos.x[i] += dt * vel.x[i];
    pos.y[i] += dt * vel.y[i];
  }
}

__global__ void pack(vec_t pos, vec_t halo, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    halo.x[i] = pos.x[i];
    halo.y[i] = pos.y[i];
  }
}

__global__ void shift(vec_t v, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v.y[i] += 0.0f;
}

int main()
{
  const int n = 256;
  vec_t pos, vel, halo, view;
  cudaMalloc(&pos.x, n * sizeof(float));
  cudaMalloc(&pos.y, n * sizeof(float));
  cudaMalloc(&vel.x, n * sizeof(float));
  cudaMalloc(&vel.y, n * sizeof(float));
  cudaMalloc(&halo.x, n * sizeof(float));
  cudaMalloc(&halo.y, n * sizeof(float));
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = 1.0f + 0.001f * i;
  cudaMemcpy(pos.x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(pos.y, h, sizeof h, cudaMemcpyHostToDevice);
  for (int i = 0; i < n; i++)
    h[i] = 0.3f + 0.0007f * i;
  cudaMemcpy(vel.x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(vel.y, h, sizeof h, cudaMemcpyHostToDevice);
  view.x = pos.x;
  view.y = pos.y;
  for (int s = 0; s < 2000; s++)
    step<<<1, n>>>(pos, vel, 0.001f, n);
  shift<<<1, n>>>(view, n);
  vec_t copy;
  copy = pos;
  shift<<<1, n>>>(copy, n);
  pack<<<1, n>>>(pos, halo, n);
  cudaMemcpy(h, halo.x, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += h[i];
  printf("halo x sum %.9e first %.9e last %.9e\n", sum, h[0], h[n - 1]);
  cudaFree(pos.x);
  cudaFree(pos.y);
  cudaFree(vel.x);
  cudaFree(vel.y);
  cudaFree(halo.x);
  cudaFree(halo.y);
  return 0;
}
