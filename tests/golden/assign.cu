// Rule assign: = += -= *= /= ++ -- on composite variables update value and error.
#pragma cp composite
__global__ void assign(const float *x, float *y, int n) {
  float acc = 0.0f, prod = 1.0f, t;
  for (int i = 0; i < n; i++) {
    acc += x[i];
    prod *= x[i];
    acc -= 0.5f * x[i];
    prod /= 1.0001f;
  }
  t = acc;
  t++;
  --t;
  y[0] = t + prod;
}
