/* Rule arith, exact forms: x * x of one operand written twice is cp_sqr(x) (one product,
 * evaluated once); a product with or quotient by a power-of-two literal scales both halves
 * (cp_mul_pow2, exact); a power-of-two literal over a composite is its reciprocal
 * (cp_rcp: one division), scaled. Not these: a literal that is not a power of two, an
 * octal literal, operands with an effect or a volatile read, plain float operands. */
#pragma cp composite
__global__ void scale(float *out, const float *x, volatile float *flag, float s)
{
  int i = threadIdx.x;
  float a = out[i] * 2.0f, b = 0.5f * out[i], c = out[i] / 4.0f, d = out[i] * -0x10;
  float e = a * a + (a + b) * (a + b) + a * b;
  float f = 1.0f / e + 2 / e + 3.0f / e + e / 3.0f + e * 010 + e / 0.25f;
  float g = x[i] * x[i] + x[i] * 2.0f;
  float h = (a += 1.0f) * (a += 1.0f);
  float k = b * *flag * (b * *flag);
  c *= 8.0f;
  d /= 1024;
  out[i] = e + f + g + h + k + c + d;
}

#pragma cp composite
__global__ void scale_double(double *out)
{
  int i = threadIdx.x;
  double r2 = out[i] * out[i];
  double inv = 1.0 / r2;
  out[i] = 0.5 * inv * inv + r2 / 2;
}
