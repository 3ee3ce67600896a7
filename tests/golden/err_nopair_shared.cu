// nopair() on a parameter whose buffer another converted kernel writes in pairs: the
// buffer cannot be both paired and not.
#pragma cp composite
__global__ void producer(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 3.0f;
}

#pragma cp composite nopair(out)
__global__ void consumer(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
}

int main() {
  const int n = 64;
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  producer<<<1, n>>>(a, b, n);
  consumer<<<1, n>>>(a, b, n);
  return 0;
}
