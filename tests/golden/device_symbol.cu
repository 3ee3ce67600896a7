// __device__ float symbols written by converted kernels get a NAME_err companion symbol:
// block sums stored in an array symbol, a total summed into a scalar symbol with
// atomicAdd, the array finished on the device through cudaGetSymbolAddress and read back
// with cudaMemcpyFromSymbol (recombined), a scalar reset with cudaMemcpyToSymbol (its
// companion zeroed). A __constant__ symbol is only read: it stays as it is.
__constant__ float scale[2];
__device__ float block_sum[64];
static __device__ float total = 0.0f;

#pragma cp composite
__global__ void partial_sums(const float *x, int n)
{
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s += scale[0] * x[i];
  }
  block_sum[blockIdx.x] = s;
  atomicAdd(&total, s);
}

#pragma cp composite
__global__ void finish(const float *sums, float *out, int m)
{
  float s = 0.0f;
  for (int i = 0; i < m; i++) {
    s += sums[i];
  }
  out[0] = s;
}

float sum(const float *h_x, int n)
{
  float *d_x, *d_out, *sums;
  const float zero = 0.0f, h_scale[2] = {1.0f, 0.0f};
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMalloc((void **)&d_out, sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(scale, h_scale, sizeof h_scale);
  cudaMemcpyToSymbol(total, &zero, sizeof(float));
  partial_sums<<<64, 128>>>(d_x, n);
  cudaGetSymbolAddress((void **)&sums, block_sum);
  finish<<<1, 1>>>(sums, d_out, 64);
  float h_sums[64], h_total, h_out;
  cudaMemcpyFromSymbol(h_sums, block_sum, sizeof h_sums);
  cudaMemcpyFromSymbol(&h_total, total, sizeof(float));
  cudaMemcpy(&h_out, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_out);
  return h_out + h_total + h_sums[0];
}
