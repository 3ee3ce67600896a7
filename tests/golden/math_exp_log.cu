/* Rule math: expf, __expf, logf and __logf (and exp, log of a double) have composite
 * versions (runtime math.cuh): cp_exp and cp_log, the tier's names (cp_low_exp, cp_mid_log,
 * ...) in a kernel whose accuracy clause differs from the output's family, cp_dd_exp and
 * cp_dd_log in a kernel written in double. No [float-call] warning. */
#pragma cp composite
__global__ void k_high(float *y, const float *x, float r, float t)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = x[i] * expf(-r * t) + __expf(x[i]);
  y[i] = s + logf(s) - __logf(x[i] * 2.0f) + (float)exp(x[i] * 0.5);
}

#pragma cp composite accuracy(mid)
__global__ void k_mid(float *y, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __expf(x[i]) * logf(y[i]);
}

#pragma cp composite accuracy(low)
__global__ void k_low(float *y, const float *x, float drift, float vol)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float path = x[i];
  for (int j = 0; j < 4; ++j) path = path * __expf(drift + vol * y[j]);
  y[i] = path + log(path);
}

#pragma cp composite
__global__ void k_double(double *y, const double *x)
{
  int i = threadIdx.x;
  y[i] = exp(x[i]) - log(y[i] + 1.0);
}
