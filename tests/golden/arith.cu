// Rule arith: + - * / and unary minus on floats become runtime calls, nested to any
// depth; an operand that is a plain float uses the cheaper one-float form.
#pragma cp composite
__global__ void arith(const float *x, float *y, float s) {
  int i = threadIdx.x;
  float a = x[i], b = x[i + 1];
  float c = (a + b) * (a - b) / (s * a);
  float d = -c + ((a * 2.0f) - (b / 4.0f));
  float e = x[i] * x[i + 1] - s;
  y[i] = -(c + d * (e - a * (b + c)));
}
