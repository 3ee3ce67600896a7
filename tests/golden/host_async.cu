// Streams: cudaMallocAsync, cudaMemcpyAsync, cudaMemsetAsync and cudaFreeAsync keep their
// stream, and the recombination after an asynchronous device-to-host copy runs in stream
// order (cp_recombine_async). Dynamic shared memory that turned composite doubles the
// launch's byte count.
#pragma cp composite
__global__ void block_sums(const float *x, float *sums, int n) {
  extern __shared__ float part[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

int main() {
  const int n = 1 << 20, threads = 256, blocks = n / threads;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float *d_x, *d_sums, *h_sums;
  cudaMallocHost(&h_sums, blocks * sizeof(float));
  cudaMallocAsync(&d_x, n * sizeof(float), stream);
  cudaMallocAsync(&d_sums, blocks * sizeof(float), stream);
  cudaMemsetAsync(d_x, 0, n * sizeof(float), stream);
  block_sums<<<blocks, threads, threads * sizeof(float), stream>>>(d_x, d_sums, n);
  cudaMemcpyAsync(h_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaFreeAsync(d_sums, stream);
  cudaFreeAsync(d_x, stream);
  cudaStreamSynchronize(stream);
  cudaFreeHost(h_sums);
  cudaStreamDestroy(stream);
  return 0;
}
