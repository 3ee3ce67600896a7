// Kernels and device functions inside namespaces and extern "C" blocks convert like any
// other, and their launches through qualified names pass the companions.
namespace md {
namespace kernels {
#pragma cp composite
__device__ float half(float x) { return 0.5f * x; }

#pragma cp composite
__global__ void kinetic(const float *v, float *ke, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(ke, half(v[i] * v[i]));
}
} // namespace kernels
} // namespace md

extern "C" {
#pragma cp composite
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
}

int main() {
  const int n = 256;
  float *d_v, *d_ke;
  cudaMalloc(&d_v, n * sizeof(float));
  cudaMalloc(&d_ke, sizeof(float));
  cudaMemset(d_v, 0, n * sizeof(float));
  cudaMemset(d_ke, 0, sizeof(float));
  scale<<<1, n>>>(d_v, 2.0f, n);
  md::kernels::kinetic<<<1, n>>>(d_v, d_ke, n);
  float ke;
  cudaMemcpy(&ke, d_ke, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_v);
  cudaFree(d_ke);
  return ke == 0.0f ? 0 : 1;
}
