// CUDA 13's CCCL in the converted file: thrust and CUB headers parse (clang's cuda_wrappers
// give device code its placement new), the host code's thrust::sort_by_key and
// thrust::reduce stay as they are, and the annotated kernel converts. The particles are
// sorted by cell with thrust; the kernel sums each particle's kinetic energy and a soft
// potential over its cell, in float; thrust sums the unpaired masses, CUB finds the
// largest speed in a kernel left in float.
#include <cstdio>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

__global__ void max_speed(const float *speed, float *out, int n) {
  using reduce = cub::BlockReduce<float, 128>;
  __shared__ typename reduce::TempStorage tmp;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = i < n ? speed[i] : 0.0f;
  float m = reduce(tmp).Reduce(s, cuda::maximum<float>());
  if (threadIdx.x == 0)
    out[blockIdx.x] = m;
}

#pragma cp composite
__global__ void cell_energy(const int *cell, const float *speed, const float *mass,
                            float *energy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float e = 0.5f * mass[i] * speed[i] * speed[i];
  for (int j = i + 1; j < n && cell[j] == cell[i]; j++) {
    float d = speed[j] - speed[i];
    e += mass[i] * mass[j] / (1.0f + d * d);
  }
  energy[i] = e;
}

int main() {
  const int n = 1024;
  thrust::device_vector<int> cell(n);
  thrust::device_vector<float> speed(n), mass(n, 1.5f);
  thrust::sequence(cell.begin(), cell.end(), 0);
  thrust::sequence(speed.begin(), speed.end(), 0.0f, 1e-3f);
  thrust::sort_by_key(cell.begin(), cell.end(), speed.begin());
  float *energy, *top;
  cudaMalloc(&energy, n * sizeof(float));
  cudaMalloc(&top, (n / 128) * sizeof(float));
  cell_energy<<<n / 128, 128>>>(thrust::raw_pointer_cast(cell.data()),
                                thrust::raw_pointer_cast(speed.data()),
                                thrust::raw_pointer_cast(mass.data()), energy, n);
  max_speed<<<n / 128, 128>>>(thrust::raw_pointer_cast(speed.data()), top, n);
  static float h_energy[n];
  cudaMemcpy(h_energy, energy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double total = 0;
  for (int i = 0; i < n; i++)
    total += h_energy[i];
  float m = thrust::reduce(mass.begin(), mass.end(), 0.0f);
  printf("energy %.9g, mass %g\n", total, m);
  cudaFree(top);
  cudaFree(energy);
  return 0;
}
