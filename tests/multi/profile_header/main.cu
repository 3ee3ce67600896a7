// Prints what the two converted files compute.
#include <cstdio>

float run_energy(const float *hx, int n);
float run_virial(const float *hx, int n);

int main()
{
  const int n = 128;
  float hx[n];
  for (int i = 0; i < n; i++) hx[i] = 0.37f * i;
  printf("%.17g\n", run_energy(hx, n));
  printf("%.17g\n", run_virial(hx, n));
  return 0;
}
