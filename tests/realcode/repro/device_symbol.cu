// Issue 11, items 3 and 5: a converted kernel writes a __device__ float array that the
// host reads with cudaMemcpyFromSymbol and addresses with cudaGetSymbolAddress.
// Today: exit 0, no diagnostic; the store becomes `partial[threadIdx.x] = cp_to_float(s);`
// so the error term is dropped silently, and neither symbol call is touched.
// Should: pair the symbol with `__device__ float partial_err[64];`, store both halves,
// recombine after cudaMemcpyFromSymbol, follow cudaGetSymbolAddress (and
// cudaMemcpyToSymbol); at the least, a warning that the error term is dropped.
__device__ float partial[64];

#pragma cp composite
__global__ void k(const float *x, int n)
{
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s += x[i];
  }
  partial[threadIdx.x] = s;
}

float run(const float *h_x, int n)
{
  float *d_x;
  cudaMalloc((void **)&d_x, n * sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, 64>>>(d_x, n);
  float h[64];
  cudaMemcpyFromSymbol(h, partial, sizeof h);
  float *p;
  cudaGetSymbolAddress((void **)&p, partial);
  cudaFree(d_x);
  return h[0] + (p != 0);
}
