// Thrust algorithms handed a paired buffer that they may write: thrust::transform through a
// device_ptr made from x, thrust::for_each over y's elements, and thrust::for_each over
// indices with a device lambda that stores into y, which it captures. Thrust is not
// converted: each call that gets the buffer is warned about once (y is named twice in the
// for_each call, one warning), and the lambda that stores into y is named too, with its
// line. The expected output is compiled with nvcc --extended-lambda (the .nvcc-flags file).
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

struct halve {
  __host__ __device__ float operator()(float a) const { return 0.5f * a; }
};

#pragma cp composite scope(accumulators)
__global__ void drift(float *x, float *y, const float *v, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += dt * v[i];
    y[i] += dt * v[i];
  }
}

void step(float *x, float *y, float *v, int n) {
  drift<<<(n + 63) / 64, 64>>>(x, y, v, n, 0.1f);
  thrust::device_ptr<float> p(x);
  thrust::transform(p, p + n, p, halve());
  thrust::for_each(thrust::device, y, y + n, [] __device__(float &a) { a *= 0.5f; });
  thrust::for_each(thrust::device, thrust::counting_iterator<int>(0),
                   thrust::counting_iterator<int>(n), [=] __device__(int i) { y[i] += 1.0f; });
}

int main() {
  int n = 256;
  float *x, *y, *v;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  step(x, y, v, n);
  cudaFree(x);
  cudaFree(y);
  cudaFree(v);
  return 0;
}
