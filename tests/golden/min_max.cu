// CUDA's min and max of floats are fminf and fmaxf: composite (cp_fmin, cp_fmax); of ints
// they stay as they are.
#pragma cp composite
__global__ void k(float *x, const float *y, int n)
{
  int i = threadIdx.x;
  int m = min(i, n - 1);
  int l = max(m - 1, 0);
  float a = x[m] * y[l];
  float b = min(a, y[i] + 1.0f);
  float c = max(b, 0.5f * a);
  float e = min(y[i], 2.0f);
  x[i] = c + e;
}
