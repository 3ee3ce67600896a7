// Rules math and float-call: math calls with a composite version map to it; one without
// (fmodf here) is evaluated in float on the recombined value, with a warning.
#pragma cp composite
__global__ void maths(const float *x, float *y) {
  int i = threadIdx.x;
  float a = x[i], b = x[i + 32];
  float r = sqrtf(a) + rsqrtf(b) + fabsf(a - b);
  r += fminf(a, b) * fmaxf(a, b) + floorf(a) + ceilf(b) + rintf(a * b);
  r += fmaf(a, b, r) + __fdividef(a, b) + __frcp_rn(b) + __fsqrt_rn(a);
  r += __fadd_rn(a, b) + __fmul_rn(a, b);
  y[i] = r + fmodf(-a, b);
}
