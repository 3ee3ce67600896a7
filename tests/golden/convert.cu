// Rule convert: int and double values in float context become exact composites;
// composites used as int or double read the recombined value.
#include <cstdio>

#pragma cp composite
__global__ void conversions(const int *k, const double *d, float *out, int n) {
  int i = threadIdx.x;
  float a = k[i];
  float b = 0.1;
  float c = (float)n + d[i];
  float e = a * 3 + b * 16777217;
  int idx = (int)c;
  double wide = e;
  out[idx % n] = a + b + c + e + (float)wide;
  if (i == 0)
    printf("sum %f\n", a + b);
}
