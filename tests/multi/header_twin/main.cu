// Prints what the two files compute.
#include <cstdio>

float run_force(const float *hx, const float *hy, float box, int n);
int run_count(const float *hx, const float *hy, float box, int n);

int main()
{
  const int n = 128;
  float hx[n], hy[n];
  for (int i = 0; i < n; i++) { hx[i] = 0.37f * i; hy[i] = 0.11f * i; }
  printf("%.17g\n", run_force(hx, hy, 10.0f, n));
  printf("%d\n", run_count(hx, hy, 10.0f, n));
  return 0;
}
