// Host reference: the two entry points of md.h evaluated in double on the CPU, with the
// formulas of the kernels, rounded to float on return. `make md_ref` links it with main.cu
// in place of the kernel files, so md_ref prints the values md_float and md_cp approximate.
#include <cmath>
#include "lj.h"
#include "md.h"

float potential_energy(const float *x, const float *y, const float *z, int n, float box) {
  double rc2 = (double)LJ_CUTOFF * LJ_CUTOFF, irc6 = 1 / (rc2 * rc2 * rc2);
  double uc = 4 * (double)LJ_EPSILON * irc6 * (irc6 - 1), pe = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      double dx = (double)x[j] - x[i], dy = (double)y[j] - y[i], dz = (double)z[j] - z[i];
      dx -= box * rint(dx / box);
      dy -= box * rint(dy / box);
      dz -= box * rint(dz / box);
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2) continue;
      double i6 = 1 / (r2 * r2 * r2);
      pe += (4 * (double)LJ_EPSILON * i6 * (i6 - 1) - uc) / 2;
    }
  return (float)pe;
}

float kinetic_energy(const float *vx, const float *vy, const float *vz, int n) {
  double ke = 0;
  for (int i = 0; i < n; i++)
    ke += ((double)vx[i] * vx[i] + (double)vy[i] * vy[i] + (double)vz[i] * vz[i]) / 2;
  return (float)ke;
}
