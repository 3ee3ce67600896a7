// difftest bug (undocumented refusal): nopair() on a parameter whose buffer another
// converted kernel writes is refused, located, but the message has no [rule] tag and
// neither docs/conversion.md nor docs/rules.md describes it:
//   nopair_shared.cu:15:1: error: 'out' is in nopair() but shares its buffer with a paired parameter
//   of another converted function
// The refusal itself is reasonable; it needs a rule name and a line in the docs (and a
// golden err_ test). Found by: scripts/difftest.sh --seed 1 --count 500 (seeds 6, 82,
// 400, ...; feature `nopair` with several kernels sharing buffers).
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
