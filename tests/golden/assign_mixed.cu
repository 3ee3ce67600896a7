// Rule assign with mixed types: in a compound assignment C converts neither side first, so
// x += 0.5 * y computes in double and n -= f in float. Into a composite (a local or a
// paired element) a double or int operand enters exactly (cp_from_double, cp_from_int; a
// double product such as HALF * y[i] as the composite rule double-arith makes of it);
// into an int, a composite enters as its recombined float; a double updated with op= is
// composite arithmetic read back as a double (rule double-arith).
#define DT 0.001
#define HALF 0.5

#pragma cp composite
__global__ void mixed(float *x, const float *y, double *d, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i];
  a += HALF * y[i];
  a *= DT;
  a -= 2.0;
  a /= DT;
  a += i;
  a -= 3u;
  x[i] += 0.25 * y[i];
  x[i] *= DT;
  int m = 3;
  m -= a;
  m += x[i];
  double s = 0.0;
  s += a;
  d[i] = s;
  count[i] = m;
  x[i] = a;
}
