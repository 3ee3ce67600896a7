// Host program: atoms on a cubic lattice with random velocities; prints the potential,
// kinetic and total energy that the two kernel files compute. Host code only: it is
// compiled as it is, not converted.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "md.h"

int main(int argc, char **argv) {
  int side = argc > 1 ? atoi(argv[1]) : 10;
  int n = side * side * side;
  float box = cbrtf(n / 0.8f), a = box / side;
  float *h = (float *)malloc(6 * n * sizeof(float));
  float *x = h, *y = h + n, *z = h + 2 * n, *vx = h + 3 * n, *vy = h + 4 * n, *vz = h + 5 * n;
  srand(2026);
  for (int i = 0; i < n; i++) {
    x[i] = (i % side + 0.5f) * a;
    y[i] = (i / side % side + 0.5f) * a;
    z[i] = (i / (side * side) + 0.5f) * a;
    vx[i] = 2.0f * rand() / RAND_MAX - 1.0f;
    vy[i] = 2.0f * rand() / RAND_MAX - 1.0f;
    vz[i] = 2.0f * rand() / RAND_MAX - 1.0f;
  }
  float pe = potential_energy(x, y, z, n, box);
  float ke = kinetic_energy(vx, vy, vz, n);
  printf("atoms %d: potential %.9g kinetic %.9g total %.9g\n", n, pe, ke, (double)pe + ke);
  free(h);
  return 0;
}
