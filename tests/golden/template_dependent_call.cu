// A kernel template calling a __device__ function template with its own parameter
// (`warpReduce<BLOCK>(sdata, tid)`, the shape of the classic shared-memory reduction) and
// a shared array whose size is that parameter (`__shared__ float sdata[BLOCK]`): clang
// leaves such expressions typeless in the template, but the types name no template
// parameter, so they are float in every instance and convert once, for all of them. The
// shared array turns composite and the helper's float * parameter takes it as cp_float *.
#include <cstdio>

template <int K>
__device__ float scale(float x) { return x * (float)K / 3.0f; }

template <unsigned BLOCK>
__device__ void warpReduce(float *sdata, int tid) {
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < (int)s)
      sdata[tid] += sdata[tid + s];
    __syncwarp();
  }
}

#pragma cp composite
template <unsigned BLOCK>
__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  sdata[tid] = i < n ? scale<BLOCK>(in[i]) : 0.0f;
  __syncthreads();
  if (tid < 32)
    warpReduce<BLOCK>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] += sdata[0];
}

int main() {
  const int n = 32 * 64;
  float h_in[n], h_out[64];
  for (int i = 0; i < n; i++)
    h_in[i] = 1.0f / (float)(i + 3) + 1000.0f;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 64 * sizeof(float));
  for (int r = 0; r < 20; r++)
    blockSum<32><<<n / 32, 32>>>(in, out, n);
  cudaMemcpy(h_out, out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 64; b += 7)
    printf("%.9g\n", h_out[b]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
