#pragma cp composite
__global__ void sum_h(const float *x, float *out)
{
  out[threadIdx.x] += x[threadIdx.x] * x[threadIdx.x];
}
