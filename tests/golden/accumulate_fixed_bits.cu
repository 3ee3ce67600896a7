// Rule accumulate with accumulate(fixed(40)): 40 fractional bits instead of the default
// 32, for sums of small values (near 1e-6, where 2^-32 resolves only about 1e-3 of a
// term); every conversion into and out of the accumulator names the bits (_bits forms).
#pragma cp composite accumulate(fixed(40))
__global__ void small_sum(const float *dq, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = i; j < n; j += 32)
    acc += dq[j];
  for (int o = 16; o > 0; o >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = acc;
}
