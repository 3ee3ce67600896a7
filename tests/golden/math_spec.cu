/* Rule math: sinhf, coshf, tanhf, erff, erfcf, cbrtf, hypotf, rhypotf, norm3df, rnorm3df (and
 * the double names) have composite versions (runtime math_spec.cuh): cp_sinh ... cp_rnorm3d,
 * the tier's names (cp_mid_hypot, ...) in a kernel whose accuracy clause differs from the
 * output's family, cp_dd_NAME in a kernel written in double. No [float-call] warning. */
#pragma cp composite
__global__ void k_high(float *y, const float *x, float b)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = sinhf(x[i]) + coshf(x[i] * b) - tanhf(x[i]) + cbrtf(x[i] + 1.0f);
  y[i] = s * erfcf(x[i]) + erff(b) + (float)erfc(x[i] * 0.5);
}

#pragma cp composite accuracy(mid)
__global__ void k_mid(float *y, const float *x, const float *z)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = hypotf(x[i], z[i]) * rhypotf(x[i], y[i] + 1.0f);
}

/* an MD pair interaction: the distance and its inverse */
#pragma cp composite accuracy(low)
__global__ void k_low(float *f, const float *px, const float *py, const float *pz, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    float dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
    float ir = rnorm3df(dx, dy, dz);
    acc += ir * ir * ir * norm3df(dx, dy, dz);
  }
  f[i] = acc;
}

#pragma cp composite
__global__ void k_double(double *y, const double *x)
{
  int i = threadIdx.x;
  y[i] = sinh(x[i]) + cosh(x[i]) * tanh(y[i]) + erf(x[i]) - erfc(x[i]) + cbrt(x[i])
         + hypot(x[i], y[i]) + rhypot(x[i], 1.0) + norm3d(x[i], y[i], 2.0) * rnorm3d(y[i], x[i], 3.0);
}
