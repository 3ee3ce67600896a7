/* Rule math: sinf, cosf, tanf, sinpif, cospif, asinf, acosf, atanf, atan2f, the intrinsics
 * __sinf, __cosf, __tanf (and the double names) have composite versions (runtime
 * math_trig.cuh): cp_sin ... cp_atan2, the tier's names (cp_mid_atan2, ...) in a kernel whose
 * accuracy clause differs from the output's family, cp_dd_ in a kernel written in double.
 * sincosf(x, &s, &c) and __sincosf map to cp_sincos where s and c are converted locals; with
 * the address of anything else (here keep()'s floats) they stay float calls ([float-call]):
 * __sincosf below, since CUDA's sincosf would bring its own FP64 large-argument path into
 * the kernel (what the user's float code has; the FP64 audit checks converted code). */
#pragma cp composite
__global__ void k_angles(float *y, const float *x, const float *z)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float cth = x[i] * z[i];
  float th = acosf(cth) + asinf(cth * 0.5f);
  float phi = atan2f(z[i], x[i]) - atanf(x[i]);
  float s, c;
  sincosf(th, &s, &c);
  y[i] = s * c + tanf(phi) + sinpif(th) * cospif(phi) + __sinf(th) - __cosf(phi) + __tanf(c);
}

#pragma cp composite accuracy(mid)
__global__ void k_mid(float *y, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s, c;
  __sincosf(x[i], &s, &c);
  y[i] = atan2f(s, c) + sinf(y[i]);
}

#pragma cp composite accuracy(low)
__global__ void k_low(float *y, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = cosf(y[i]) + asin(x[i] * 0.5);
}

#pragma cp composite keep(s, c)
__global__ void k_float_out(float *y, const float *x)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s, c = 0.0f;
  __sincosf(y[i] + x[i], &s, &c);
  y[i] = s;
}

#pragma cp composite
__global__ void k_double(double *y, const double *x)
{
  int i = threadIdx.x;
  double s, c;
  sincos(x[i], &s, &c);
  y[i] = s * c + atan2(y[i], x[i]) + sinpi(x[i]) - acos(x[i] * 0.5);
}
