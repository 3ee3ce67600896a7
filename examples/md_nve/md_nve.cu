// NVE molecular dynamics of a Lennard-Jones fluid, to watch single precision drift.
//
// N atoms on a cubic lattice in a periodic box (reduced units, density 0.8, initial
// temperature 1.0), shifted-force Lennard-Jones with cutoff 2.5 sigma (force and
// energy go smoothly to zero at the cutoff, so in double the total energy is conserved
// down to noise and what drifts is the precision's own error), velocity Verlet.
// All-pairs forces, one thread per atom. Prints the potential, kinetic and total energy
// every `every` steps with 10 significant digits.
//
//   float:      nvcc -arch=sm_90 md_nve.cu -o md_float
//   double:     nvcc -arch=sm_90 -DREAL_DOUBLE md_nve.cu -o md_double
//   composite:  cpconvert md_nve.cu -o md_nve_cp.cu
//               nvcc -arch=sm_90 -I<cpconvert>/runtime/include md_nve_cp.cu -o md_cp
//   run:        ./md_float [atoms_per_side=10] [steps=10000] [every=1000]
#include <cmath>
#include <cstdio>
#include <cstdlib>

#ifdef REAL_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));      \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

// Forces and potential energy: shifted-force Lennard-Jones, minimum image.
#pragma cp composite
__global__ void forces(const real *x, const real *y, const real *z, real *fx, real *fy,
                       real *fz, real *pe, int n, real box, real rc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real xi = x[i], yi = y[i], zi = z[i];
  real rc2 = rc * rc;
  real irc2 = 1 / rc2, irc6 = irc2 * irc2 * irc2;
  real uc = 4 * irc6 * (irc6 - 1);               // U(rc)
  real fc = 24 * irc6 * (2 * irc6 - 1) / rc;     // F(rc)
  real ax = 0, ay = 0, az = 0, e = 0;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    real dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
    dx -= box * rint(dx / box);
    dy -= box * rint(dy / box);
    dz -= box * rint(dz / box);
    real r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= rc2) continue;
    real r = sqrt(r2);
    real i2 = 1 / r2, i6 = i2 * i2 * i2;
    real fr = (24 * i6 * (2 * i6 - 1) / r - fc) / r;   // |F_sf| / r, attraction < 0
    ax -= fr * dx;
    ay -= fr * dy;
    az -= fr * dz;
    e += 4 * i6 * (i6 - 1) - uc + (r - rc) * fc;
  }
  fx[i] = ax;
  fy[i] = ay;
  fz[i] = az;
  atomicAdd(pe, e / 2);
}

// First half of velocity Verlet: half kick, then drift, wrapped into the box.
#pragma cp composite
__global__ void kick_drift(real *x, real *y, real *z, real *vx, real *vy, real *vz,
                           const real *fx, const real *fy, const real *fz, int n, real dt,
                           real box) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  vx[i] += dt / 2 * fx[i];
  vy[i] += dt / 2 * fy[i];
  vz[i] += dt / 2 * fz[i];
  x[i] += dt * vx[i];
  y[i] += dt * vy[i];
  z[i] += dt * vz[i];
  x[i] -= box * floor(x[i] / box);
  y[i] -= box * floor(y[i] / box);
  z[i] -= box * floor(z[i] / box);
}

// Second half kick, and the kinetic energy.
#pragma cp composite
__global__ void kick(real *vx, real *vy, real *vz, const real *fx, const real *fy,
                     const real *fz, real *ke, int n, real dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  vx[i] += dt / 2 * fx[i];
  vy[i] += dt / 2 * fy[i];
  vz[i] += dt / 2 * fz[i];
  atomicAdd(ke, (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]) / 2);
}

// Lattice positions; velocities uniform in [-1, 1) with zero total momentum, scaled to
// temperature t0 (so every precision starts from the same rounded-to-real state).
static void initial_state(int side, real box, real t0, real *x, real *y, real *z, real *vx,
                          real *vy, real *vz) {
  int n = side * side * side;
  double a = (double)box / side, sum[3] = {0, 0, 0}, ke = 0;
  srand(2026);
  for (int i = 0; i < n; i++) {
    x[i] = (real)((i % side + 0.5) * a);
    y[i] = (real)((i / side % side + 0.5) * a);
    z[i] = (real)((i / (side * side) + 0.5) * a);
    double v[3];
    for (int k = 0; k < 3; k++) {
      v[k] = 2.0 * rand() / ((double)RAND_MAX + 1) - 1.0;
      sum[k] += v[k];
    }
    vx[i] = (real)v[0];
    vy[i] = (real)v[1];
    vz[i] = (real)v[2];
  }
  for (int i = 0; i < n; i++) {
    vx[i] -= (real)(sum[0] / n);
    vy[i] -= (real)(sum[1] / n);
    vz[i] -= (real)(sum[2] / n);
    ke += 0.5 * ((double)vx[i] * vx[i] + (double)vy[i] * vy[i] + (double)vz[i] * vz[i]);
  }
  double scale = sqrt(1.5 * n * t0 / ke);
  for (int i = 0; i < n; i++) {
    vx[i] = (real)(vx[i] * scale);
    vy[i] = (real)(vy[i] * scale);
    vz[i] = (real)(vz[i] * scale);
  }
}

int main(int argc, char **argv) {
  int side = argc > 1 ? atoi(argv[1]) : 10;
  long steps = argc > 2 ? atol(argv[2]) : 10000;
  long every = argc > 3 ? atol(argv[3]) : 1000;
  int n = side * side * side;
  real box = (real)cbrt(n / 0.8), rc = 2.5f, dt = 0.002f;
  size_t bytes = n * sizeof(real);

  real *h = (real *)malloc(6 * bytes);
  initial_state(side, box, 1.0f, h, h + n, h + 2 * n, h + 3 * n, h + 4 * n, h + 5 * n);

  real *d_x, *d_y, *d_z, *d_vx, *d_vy, *d_vz, *d_fx, *d_fy, *d_fz;
  real *d_pe, *d_ke;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_z, bytes));
  CHECK(cudaMalloc(&d_vx, bytes));
  CHECK(cudaMalloc(&d_vy, bytes));
  CHECK(cudaMalloc(&d_vz, bytes));
  CHECK(cudaMalloc(&d_fx, bytes));
  CHECK(cudaMalloc(&d_fy, bytes));
  CHECK(cudaMalloc(&d_fz, bytes));
  CHECK(cudaMalloc(&d_pe, sizeof(real)));
  CHECK(cudaMalloc(&d_ke, sizeof(real)));
  CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h + n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_z, h + 2 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vx, h + 3 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vy, h + 4 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vz, h + 5 * n, bytes, cudaMemcpyHostToDevice));

  int threads = 128, blocks = (n + threads - 1) / threads;
  CHECK(cudaMemset(d_pe, 0, sizeof(real)));
  forces<<<blocks, threads>>>(d_x, d_y, d_z, d_fx, d_fy, d_fz, d_pe, n, box, rc);
  CHECK(cudaGetLastError());

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  printf("# atoms %d, box %.6f, dt %.4f, %s\n", n, (double)box, (double)dt,
         sizeof(real) == 8 ? "double" : "float");
  printf("# step potential kinetic total\n");
  for (long s = 1; s <= steps; s++) {
    kick_drift<<<blocks, threads>>>(d_x, d_y, d_z, d_vx, d_vy, d_vz, d_fx, d_fy, d_fz, n, dt,
                                    box);
    CHECK(cudaMemset(d_pe, 0, sizeof(real)));
    CHECK(cudaMemset(d_ke, 0, sizeof(real)));
    forces<<<blocks, threads>>>(d_x, d_y, d_z, d_fx, d_fy, d_fz, d_pe, n, box, rc);
    kick<<<blocks, threads>>>(d_vx, d_vy, d_vz, d_fx, d_fy, d_fz, d_ke, n, dt);
    if (s % every == 0) {
      real pe, ke;
      CHECK(cudaMemcpy(&pe, d_pe, sizeof(real), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&ke, d_ke, sizeof(real), cudaMemcpyDeviceToHost));
      printf("%ld %.10g %.10g %.10g\n", s, (double)pe, (double)ke, (double)pe + (double)ke);
    }
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("# %ld steps in %.3f s: %.1f steps/s\n", steps, ms / 1e3, steps / (ms / 1e3));

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_vx));
  CHECK(cudaFree(d_vy));
  CHECK(cudaFree(d_vz));
  CHECK(cudaFree(d_fx));
  CHECK(cudaFree(d_fy));
  CHECK(cudaFree(d_fz));
  CHECK(cudaFree(d_pe));
  CHECK(cudaFree(d_ke));
  free(h);
  return 0;
}
