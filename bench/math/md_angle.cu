// The bonded terms of an MD force field, in the shape where float math calls sit in every
// interaction: harmonic angles (theta = acos(cos_theta)) and periodic dihedrals (phi =
// atan2(y, x), 1 + cos(n phi - delta), with sin for the derivative's phase), each term's
// energy added to its molecule's sum. 4 096 molecules of a 64-atom chain, coordinates from
// one float table made on the host (the same bytes in every build).
//   float:     nvcc -O3 -arch=sm_90 md_angle.cu -o md_angle_float
//   double:    nvcc -O3 -arch=sm_90 -DREAL_DOUBLE md_angle.cu -o md_angle_double
//   composite: cpconvert md_angle.cu -o md_angle_cp.cu, then nvcc -I<runtime/include>
// Prints each molecule's angle energy and dihedral energy (bench/math/compare.py).
#include <cmath>
#include <cstdio>
#include <vector>

#ifdef REAL_DOUBLE
typedef double real;
#define acosf acos
#define atan2f atan2
#define cosf cos
#define sinf sin
#define sqrtf sqrt
#else
typedef float real;
#endif

#define MOLS 4096
#define ATOMS 64

#pragma cp composite
__global__ void bonded(const float *pos, real *e_angle, real *e_dihedral, real k_theta, real theta0,
                       real k_phi, real delta) {
  int m = blockIdx.x;
  int t = threadIdx.x; // one thread per angle (i, j, k) = (t, t+1, t+2) and dihedral
  const float *x = pos + 3 * ATOMS * m;
  if (t + 2 < ATOMS) {
    real ax = x[3 * t] - x[3 * t + 3], ay = x[3 * t + 1] - x[3 * t + 4], az = x[3 * t + 2] - x[3 * t + 5];
    real bx = x[3 * t + 6] - x[3 * t + 3], by = x[3 * t + 7] - x[3 * t + 4], bz = x[3 * t + 8] - x[3 * t + 5];
    real c = (ax * bx + ay * by + az * bz) / sqrtf((ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz));
    real theta = acosf(c);
    atomicAdd(&e_angle[m], k_theta * (theta - theta0) * (theta - theta0));
  }
  if (t + 3 < ATOMS) {
    real b1x = x[3 * t + 3] - x[3 * t], b1y = x[3 * t + 4] - x[3 * t + 1], b1z = x[3 * t + 5] - x[3 * t + 2];
    real b2x = x[3 * t + 6] - x[3 * t + 3], b2y = x[3 * t + 7] - x[3 * t + 4], b2z = x[3 * t + 8] - x[3 * t + 5];
    real b3x = x[3 * t + 9] - x[3 * t + 6], b3y = x[3 * t + 10] - x[3 * t + 7], b3z = x[3 * t + 11] - x[3 * t + 8];
    real n1x = b1y * b2z - b1z * b2y, n1y = b1z * b2x - b1x * b2z, n1z = b1x * b2y - b1y * b2x;
    real n2x = b2y * b3z - b2z * b3y, n2y = b2z * b3x - b2x * b3z, n2z = b2x * b3y - b2y * b3x;
    real b2 = sqrtf(b2x * b2x + b2y * b2y + b2z * b2z);
    real mx = (n1y * b2z - n1z * b2y) / b2, my = (n1z * b2x - n1x * b2z) / b2, mz = (n1x * b2y - n1y * b2x) / b2;
    real phi = atan2f(mx * n2x + my * n2y + mz * n2z, n1x * n2x + n1y * n2y + n1z * n2z);
    real e = k_phi * (1.0f + cosf(3.0f * phi - delta)) + 0.25f * k_phi * sinf(phi) * sinf(phi);
    atomicAdd(&e_dihedral[m], e);
  }
}

int main() {
  std::vector<float> h(3 * ATOMS * MOLS);
  unsigned long long st = 0x9E3779B97F4A7C15ull;
  for (int m = 0; m < MOLS; m++) { // a random walk of unit-ish bonds
    double p[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < ATOMS; a++)
      for (int d = 0; d < 3; d++) {
        st ^= st << 13; st ^= st >> 7; st ^= st << 17;
        p[d] += ((st >> 11) * 0x1p-53 - 0.5) * 1.2 + (d == 0 ? 0.6 : 0.0);
        h[3 * (ATOMS * m + a) + d] = (float)(p[d] + 10.0);
      }
  }
  float *pos;
  real *ea, *ed;
  cudaMalloc(&pos, h.size() * sizeof(float));
  cudaMalloc(&ea, MOLS * sizeof(real));
  cudaMalloc(&ed, MOLS * sizeof(real));
  cudaMemcpy(pos, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(ea, 0, MOLS * sizeof(real));
  cudaMemset(ed, 0, MOLS * sizeof(real));
  bonded<<<MOLS, ATOMS>>>(pos, ea, ed, 40.0f, 1.9f, 1.5f, 0.3f);
  std::vector<real> a(MOLS), d(MOLS);
  cudaMemcpy(a.data(), ea, MOLS * sizeof(real), cudaMemcpyDeviceToHost);
  cudaMemcpy(d.data(), ed, MOLS * sizeof(real), cudaMemcpyDeviceToHost);
  for (int m = 0; m < MOLS; m++)
    printf("%.17g\n%.17g\n", (double)a[m], (double)d[m]);
  cudaFree(pos);
  cudaFree(ea);
  cudaFree(ed);
  return 0;
}
