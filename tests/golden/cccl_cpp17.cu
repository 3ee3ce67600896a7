// The same file given `-- -std=c++17`, as a build passes it: C++17 in the host code
// (nested namespaces, inline variables, structured bindings, if with an initializer,
// class template argument deduction) and thrust parse, and the flag changes nothing in the
// conversion.
#include <array>
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

namespace md::lj {
inline constexpr int block = 128;

#pragma cp composite
__global__ void pair_energy(const float *r2, float *energy, float eps, float sigma2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = sigma2 / r2[i];
    float s6 = s * s * s;
    energy[i] = 4.0f * eps * (s6 * s6 - s6);
  }
}
} // namespace md::lj

int main() {
  constexpr int n = 512;
  std::array params{1.0f, 1.2f}; // class template argument deduction
  auto [eps, sigma2] = params;
  thrust::device_vector<float> r2(n, 1.5f);
  thrust::device_vector<int> order(n, 0);
  thrust::sort_by_key(r2.begin(), r2.end(), order.begin());
  float *energy;
  cudaMalloc(&energy, n * sizeof(float));
  md::lj::pair_energy<<<n / md::lj::block, md::lj::block>>>(
      thrust::raw_pointer_cast(r2.data()), energy, eps, sigma2, n);
  static float h[n];
  cudaMemcpy(h, energy, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (float sum = thrust::reduce(r2.begin(), r2.end(), 0.0f); sum > 0.0f)
    printf("energy[0] %g, sum r2 %g\n", h[0], sum);
  cudaFree(energy);
  return 0;
}
