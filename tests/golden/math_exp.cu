/* Rule math: exp2f, exp10f, expm1f, log2f, log10f, log1pf, powf, the intrinsics __exp10f,
 * __log2f, __log10f and __powf (and exp2, ..., pow of a double) have composite versions
 * (runtime math_exp.cuh): cp_exp2 ... cp_pow, the tier's names (cp_low_pow, cp_mid_log2,
 * ...) in a kernel whose accuracy clause differs from the output's family, cp_dd_exp2 ...
 * cp_dd_pow in a kernel written in double. No [float-call] warning. */
#pragma cp composite
__global__ void k_high(float *y, const float *x, float r, float t)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = exp2f(x[i] * r) + exp10f(-r * t) + __exp10f(x[i]) + expm1f(x[i] * t);
  float l = log2f(s) + log10f(s * 2.0f) - __log2f(x[i] * 3.0f) + __log10f(s + r) + log1pf(x[i] * t);
  y[i] = l + powf(s, t) + __powf(x[i] * r, 2.5f) + (float)pow(x[i] * 0.5, 3.0) + (float)log1p(x[i] * 0.25);
}

#pragma cp composite accuracy(mid)
__global__ void k_mid(float *y, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = powf(y[i], x[i]) * log2f(y[i]) + exp2f(y[i]) - expm1f(y[i]);
}

#pragma cp composite accuracy(low)
__global__ void k_low(float *y, const float *x, float h)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float q = x[i] / h;
  y[i] = powf(1.0f - q * q, 3.0f) + __powf(q, h) * log10f(y[i]) - log1pf(q);
}

#pragma cp composite
__global__ void k_double(double *y, const double *x)
{
  int i = threadIdx.x;
  y[i] = pow(x[i], 1.5) + exp2(y[i]) - exp10(x[i]) * expm1(y[i]) + log2(x[i] + 1.0) - log10(y[i]) + log1p(x[i]);
}
