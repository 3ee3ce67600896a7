/* Clause accuracy(low|mid|high): a kernel's own tier. A tier other than the output's family
 * calls the tier's runtime names (cp_low_, cp_mid_, cp_high_); accuracy(low) in a run whose
 * family keeps pairs normalized makes the output select the fast family (CP_ALGO_FAST), so
 * that the comparisons every kernel shares read unnormalized pairs, and the kernels without
 * a clause then call the high tier's names. In double the clause has no effect: a warning. */
#pragma cp composite accuracy(low)
__global__ void k_low(float *out, const float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) s += x[j] * x[i] + sqrtf(x[j]);
  if (s > 1.0f) s = s / 3.0f;
  ++s;
  out[i] = s * s;
}

#pragma cp composite accuracy(mid)
__global__ void k_mid(float *out, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fmaf(out[i], x[i], 2.0f) - out[i] / x[i];
}

#pragma cp composite
__global__ void k_default(float *out, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = out[i] * x[i] + 1.0f / out[i];
}

#pragma cp composite accuracy(high)
__global__ void k_double(double *out)
{
  out[threadIdx.x] = out[threadIdx.x] * 3.0;
}
