// scope(accumulators): an accumulator passed by value to a helper that adds to it and
// returns it (acc = step(acc, ...)). The helper converts with its caller's scope, its
// parameters float, so the accumulator's error term is dropped at every call: a warning
// that names the fix (annotating the helper passes it whole).
__device__ float2 step(float2 acc, float xi, float xj)
{
  acc.x += xj - xi;
  acc.y += (xj - xi) * (xj - xi);
  return acc;
}

#pragma cp composite scope(accumulators)
__global__ void moments(const float *x, float2 *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float2 acc = make_float2(0.0f, 0.0f);
  for (int j = 0; j < n; j++)
    acc = step(acc, x[i], x[j]);
  out[i] = acc;
}
