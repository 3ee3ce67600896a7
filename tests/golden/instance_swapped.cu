// A struct variable that only an unconverted kernel sees would need no companion, but one
// swapped with a paired one (std::swap takes both by reference) hands its fields over: it
// stays paired, its companion allocated and zeroed like the other's.
#include <utility>

struct field_t {
  float *x;
};

#pragma cp composite
__global__ void relax(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.0f;
}

__global__ void pack(float *x, int n) { // not converted
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.0f;
}

void run(int n, int steps) {
  field_t pos, halo;
  cudaMalloc(&pos.x, n * sizeof(float));
  cudaMalloc(&halo.x, n * sizeof(float));
  for (int s = 0; s < steps; s++) {
    relax<<<(n + 255) / 256, 256>>>(pos.x, n);
    pack<<<(n + 255) / 256, 256>>>(halo.x, n);
    std::swap(pos, halo);
  }
  cudaFree(pos.x);
  cudaFree(halo.x);
}
