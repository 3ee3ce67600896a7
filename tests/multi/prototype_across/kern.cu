// The kernel converts here; main.cu declares and launches it: its prototype there takes
// the companion too. The unannotated helper is converted with it.
__device__ float twice(float v)
{
  return 2.0f * v;
}

#pragma cp composite
__global__ void accumulate_twice(const float *x, float *out)
{
  out[threadIdx.x] += twice(x[threadIdx.x]);
}
