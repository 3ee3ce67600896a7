// Rule accumulate: accumulate(fixed|kahan|double) carries the scalar accumulators as
// cp_fixed (order-independent 64-bit fixed point), cp_kahan or double; the shared
// reduction tree stays composite; reads of an accumulator are exact.
#pragma cp composite scope(accumulators) accumulate(fixed)
__global__ void force_sum(const float4 *pos, float *fx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = pos[j].x - pos[i].x;
    f += dx * 0.01f;
    f -= 1e-3f;
  }
  fx[i] = f;
}

#pragma cp composite accumulate(kahan)
__global__ void kahan_sum(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  out[0] = sqrtf(s);
}

#pragma cp composite scope(accumulators) accumulate(double)
__global__ void double_sum(const float *x, float *out, int n) {
  __shared__ float tree[64];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += x[i];
  tree[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) tree[threadIdx.x] += tree[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tree[0];
}
