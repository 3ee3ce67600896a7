// Rule dropped-error: a composite value stored into a __device__ float symbol that has no
// companion keeps the value and loses the error term: a warning at the store (here the
// block sums of a reduction). A plain float stored there loses nothing: no warning.
__device__ float partial[64];
__device__ float count;

#pragma cp composite
__global__ void k(const float *x, int n)
{
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s += x[i];
  }
  partial[threadIdx.x] = s;
  if (threadIdx.x == 0)
    count = (float)n;
}
