// Rule compare: `a && b` and `a || b` of two comparisons, one of them composite, whose
// operands are variables, fields of struct values, constants and float arithmetic of
// them, are evaluated both (`&`, `|`), so that no branch separates them (a second branch
// per pair cost an MD force loop 11% at the low tier). Where an operand could depend on the
// other side's answer (an element whose index the left side checks, a dereference, a call,
// integer arithmetic) the operator stays. A plain comparison beside `&` is parenthesized.
struct box { float lo, hi; };

#pragma cp composite
__global__ void forces(const float *x, float *f, int n, float rc2, box b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) {
    float d = x[i] - x[j];
    float r2 = d * d;
    if (r2 > 0.0f && r2 < rc2)
      acc += d / r2;
    if (d < b.lo || d > b.hi)
      acc += 0.5f * d;
    if (j < n && d * 2.0f < x[j])
      acc -= d;
    if (i != j && d * d + r2 < rc2)
      acc += r2;
  }
  f[i] = acc;
}
