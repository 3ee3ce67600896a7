// A composite shared array passed to a `volatile float *` parameter (the warp reduction of
// older CUDA samples, here with __syncwarp() between the steps): the parameter becomes
// `volatile cp_float *`, and since a volatile struct is not copied, its elements are read
// through cp_load_volatile and written through cp_store_volatile (word by word, each a
// volatile access). The kernel is a template with the array sized by its parameter.
#include <cstdio>

template <unsigned BLOCK>
__device__ void warpReduce(volatile float *sdata, int tid) {
  if (BLOCK >= 64) { sdata[tid] += sdata[tid + 32]; __syncwarp(); }
  if (BLOCK >= 32) { sdata[tid] += sdata[tid + 16]; __syncwarp(); }
  sdata[tid] += sdata[tid + 8];
  __syncwarp();
  sdata[tid] += sdata[tid + 4];
  __syncwarp();
  sdata[tid] += sdata[tid + 2];
  __syncwarp();
  sdata[tid] = sdata[tid] + sdata[tid + 1];
}

#pragma cp composite
template <unsigned BLOCK>
__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  sdata[tid] = i < n ? in[i] / 3.0f : 0.0f;
  __syncthreads();
  if (tid < 32)
    warpReduce<BLOCK>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] += sdata[0];
}

int main() {
  const int n = 64 * 32;
  float h_in[n], h_out[32];
  for (int i = 0; i < n; i++)
    h_in[i] = 1000.0f + 1.0f / (float)(i + 7);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 32 * sizeof(float));
  for (int r = 0; r < 25; r++)
    reduce<64><<<n / 64, 64>>>(in, out, n);
  cudaMemcpy(h_out, out, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 32; b += 5)
    printf("%.9g\n", h_out[b]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
