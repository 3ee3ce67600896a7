// A device lambda that stores into a paired buffer it captures, given to a generic kernel
// template (`for_each<<<g, b>>>(n, [=] __device__ (int i) { ... })`): cpconvert does not
// convert lambdas, so the store writes x without its error term and x_err goes stale. A
// warning at the lambda names the buffer, the line of the store and the kernel the lambda
// is given to (before: nothing was said). The lambda given to count only reads x: quiet.
// The expected output is compiled with nvcc --extended-lambda (the .nvcc-flags file).
template <class F>
__global__ void for_each(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

#pragma cp composite scope(accumulators)
__global__ void drift(float *x, const float *v, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += dt * v[i];
}

void step(float *x, float *v, int *hot, int n, float scale) {
  drift<<<(n + 63) / 64, 64>>>(x, v, n, 0.1f);
  for_each<<<(n + 63) / 64, 64>>>(n, [=] __device__(int i) {
    if (x[i] > 1.0f)
      x[i] *= scale;
  });
  for_each<<<(n + 63) / 64, 64>>>(n, [=] __device__(int i) { hot[i] = x[i] > 1.0f; });
}

int main() {
  int n = 256;
  float *x, *v;
  int *hot;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&hot, n * sizeof(int));
  step(x, v, hot, n, 0.5f);
  cudaFree(x);
  cudaFree(v);
  cudaFree(hot);
  return 0;
}
