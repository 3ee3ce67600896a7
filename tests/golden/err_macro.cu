// Float arithmetic a macro writes is converted only where the whole expansion is one
// expression the AST spells out; anything else is refused at the macro's use, never
// edited inside the macro's body: a use that is part of a larger expression, a statement
// or a declaration written by the macro.
#define TIMES_V v *
#define PAIR v, v
#define DECL(name, x) float name = (x) * 2.0f
#define LOOP_ADD(s, a, n) for (int j = 0; j < n; j++) s += a[j]
#pragma cp composite
__global__ void k(const float *x, float *y, int n) {
  float v = x[threadIdx.x];
  y[threadIdx.x] = TIMES_V x[1];
  y[1] = fmaxf(PAIR);
  DECL(w, x[2]);
  float s = 0.0f;
  LOOP_ADD(s, x, n);
  y[2] = w + s;
}
