// Rule double-arith: double arithmetic written in a float kernel (a double literal, a
// double parameter, a double buffer) is composite arithmetic, so a GPU with rationed FP64
// runs none of it in double under ff (under dp each operation is the double one again).
// A float operand enters as it is, a literal a float holds exactly as that float (0.5f),
// any other double by cp_from_double (integer operations on the device); a double result
// is read as cp_to_double where C needs a double, as cp_to_int where it needs an int. A
// double math call with a composite version takes that version (sqrt -> cp_sqrt), a
// conditional with such a branch selects composites.
#include <cstdio>

#pragma cp composite
__global__ void scale(float *x, const double *w, double *sum, int *bin, double s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i] * 0.5 + 1.0f;
  float b = a * s - 3.14159265358979;
  float c = -(w[i] * a) / 7.0;
  double acc = w[i];
  acc += b;
  acc *= 0.25;
  if (c < 0.1)
    c = 0.1;
  c += sqrt(a * 0.5) - fabs(w[i]);
  bin[i] = (int)(a * 1e3);
  sum[i] = (i & 1 ? acc : a * 0.5) + c;
  x[i] = a + b + c;
  if (i == 0)
    printf("%g\n", acc * 2.0);
}
