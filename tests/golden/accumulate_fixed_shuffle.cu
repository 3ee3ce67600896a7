// Rule shuffle with accumulate(fixed): a warp shuffle of a fixed-point accumulator moves
// the 64-bit integer (cp_fixed_shfl_down_sync), so summing it back into an accumulator is
// exact and order-independent; a shuffled value used as a number reads it as a composite.
#pragma cp composite scope(accumulators) accumulate(fixed)
__global__ void warp_force(const float *f, float *out, float *lane0, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = i; j < n; j += 32)
    acc += f[j];
  for (int o = 16; o > 0; o >>= 1)
    acc += __shfl_down_sync(0xffffffffu, acc, o);
  float first = __shfl_sync(0xffffffffu, acc, 0);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = acc;
  lane0[i] = first;
}
