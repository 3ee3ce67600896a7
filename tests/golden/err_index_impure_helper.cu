// Helpers with an effect besides their result cannot index a paired buffer: the index
// is evaluated once for the value and once for the error half.
__device__ int counter;
__device__ int next_slot(int i) { return i + atomicAdd(&counter, 1); }
__device__ int bump(int *n) {
  *n += 1;
  return *n;
}
__device__ int remember(int i) {
  static int last;
  last = i;
  return i;
}

#pragma cp composite
__global__ void scatter(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, k = 0;
  if (i >= n)
    return;
  out[next_slot(i)] = in[i] * 2.0f;
  out[bump(&k)] += in[i];
  out[remember(i)] = 1.0f;
}
