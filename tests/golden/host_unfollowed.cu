// Rule host-pair: a paired buffer passed to a kernel or function that cpconvert does not
// convert. Through a pointer to const the callee can only read the values (the companion
// needs no care, no warning); through a plain pointer it may write them, and the warning
// says to zero the companion after it.
#define CHECK(call)                                                                      \
  do {                                                                                   \
    if ((call) != cudaSuccess) return 1;                                                 \
  } while (0)

#pragma cp composite
__global__ void advance(float *x, const float *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v[i] * dt;
}

// Reads positions only: builds a histogram of them.
__global__ void histogram(const float *x, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[(int)x[i] & 63], 1);
}

// Writes positions: not followed.
__global__ void reset(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
}

int main() {
  const int n = 256;
  float *d_x, *d_v;
  int *d_bins;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_v, n * sizeof(float)));
  CHECK(cudaMalloc(&d_bins, 64 * sizeof(int)));
  CHECK(cudaMemset(d_x, 0, n * sizeof(float)));
  CHECK(cudaMemset(d_v, 0, n * sizeof(float)));
  advance<<<1, n>>>(d_x, d_v, 0.1f, n);
  histogram<<<1, n>>>(d_x, d_bins, n);
  reset<<<1, n>>>(d_x, n);
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_bins));
  return 0;
}
