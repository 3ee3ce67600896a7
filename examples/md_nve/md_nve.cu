// NVE molecular dynamics of ions in a Lennard-Jones solvent, to watch single precision drift.
//
// N = side^3 atoms on a cubic lattice in a periodic box (reduced units, density 0.8,
// initial temperature 1.0). Every tenth atom is an ion of charge +1 or -1 (alternating, so
// the system is neutral); the rest is neutral solvent. Nonbonded forces: shifted-force
// Lennard-Jones and shifted-force Coulomb (damped shifted force with no damping), both cut
// at rc = 2.5 sigma, where force and energy go smoothly to zero: in double the total energy
// is conserved down to the integrator's bounded fluctuation, and what drifts is the
// precision's own error. Verlet neighbour list (skin 0.4, rebuilt every 10 steps), velocity
// Verlet with dt = 0.002.
//
// Every `every` steps it prints the step, the Lennard-Jones (van der Waals), electrostatic,
// kinetic and total energy with 12 significant digits, the total's error term and the total
// at the precision the program carries (total_full: the float nearest the device's total plus
// its error term); at the end the time per step and of the force kernel alone. The time
// step is an argument (default 0.002), so that the energy fluctuation's dt^2 scaling can be
// measured (bench/dt_scaling.py).
//
//   float:      nvcc -O3 -arch=sm_90 md_nve.cu -o md_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE md_nve.cu -o md_double
//   composite:  cpconvert md_nve.cu -o md_nve_cp.cu          (also --scope accumulators,
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include md_nve_cp.cu -o md_cp
//                                          --accumulate fixed|double for the cheaper modes)
//   run:        ./md_float [side=10] [steps=10000] [every=1000] [dt=0.002]
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

#define MAX_NEIGHBOURS 160

// Verlet list: the atoms within rc + skin of atom i, stored neighbour-major (nbr[k * n + i])
// so that the force kernel's loads coalesce. Only selects candidates: left in float.
__global__ void build_list(const real *x, const real *y, const real *z, int *nbr, int *count,
                           int *overflow, int n, real box, real rlist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real ibox = 1 / box, rl2 = rlist * rlist;
  int k = 0;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    real dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
    dx -= box * rint(dx * ibox);
    dy -= box * rint(dy * ibox);
    dz -= box * rint(dz * ibox);
    if (dx * dx + dy * dy + dz * dz < rl2) {
      if (k < MAX_NEIGHBOURS) nbr[k * n + i] = j;
      k++;
    }
  }
  count[i] = k < MAX_NEIGHBOURS ? k : MAX_NEIGHBOURS;
  if (k > MAX_NEIGHBOURS) atomicMax(overflow, k);
}

// Forces, and when `energy` is set the two potential energies: shifted-force Lennard-Jones
// (van der Waals) and shifted-force Coulomb, minimum image. TPA threads share an atom: each
// takes every TPA-th neighbour, then a warp-shuffle tree sums their partial forces (a
// short dependent chain per thread keeps the loads of a small system in flight).
#define TPA 8
#pragma cp composite
__global__ void forces(const real *x, const real *y, const real *z, const real *q,
                       const int *nbr, const int *count, real *fx, real *fy, real *fz,
                       real *e_vdw, real *e_coul, int n, real box, real rc, int energy) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t / TPA, lane = t % TPA;
  int m = i < n ? count[i] : 0;  // no early return: every lane takes part in the shuffles
  int ii = i < n ? i : n - 1;
  real xi = x[ii], yi = y[ii], zi = z[ii], qi = q[ii];
  real ibox = 1 / box, rc2 = rc * rc, irc = 1 / rc, irc2 = irc * irc;
  real irc6 = irc2 * irc2 * irc2;
  real uc = 4 * irc6 * (irc6 - 1);               // U_lj(rc)
  real fc = 24 * irc6 * (2 * irc6 - 1) * irc;    // F_lj(rc)
  real ax = 0, ay = 0, az = 0, ev = 0, ec = 0;
  for (int k = lane; k < m; k += TPA) {
    int j = nbr[k * n + i];
    real dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
    dx -= box * rint(dx * ibox);
    dy -= box * rint(dy * ibox);
    dz -= box * rint(dz * ibox);
    real r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= rc2) continue;
    real i2 = 1 / r2, ir = sqrt(i2), r = r2 * ir;
    real i6 = i2 * i2 * i2;
    real fr = 24 * i6 * (2 * i6 - 1) * i2 - fc * ir;   // |F| / r, attraction < 0
    real qq = qi * q[j];
    if (qq != 0) fr += qq * (i2 - irc2) * ir;
    if (energy) {  // only on the steps that print energies
      ev += 4 * i6 * (i6 - 1) - uc + (r - rc) * fc;
      if (qq != 0) ec += qq * (ir - irc + (r - rc) * irc2);
    }
    ax -= fr * dx;
    ay -= fr * dy;
    az -= fr * dz;
  }
  for (int offset = TPA / 2; offset > 0; offset /= 2) {
    ax += __shfl_down_sync(0xffffffff, ax, offset, TPA);
    ay += __shfl_down_sync(0xffffffff, ay, offset, TPA);
    az += __shfl_down_sync(0xffffffff, az, offset, TPA);
    if (energy) {
      ev += __shfl_down_sync(0xffffffff, ev, offset, TPA);
      ec += __shfl_down_sync(0xffffffff, ec, offset, TPA);
    }
  }
  if (lane != 0 || i >= n) return;
  fx[i] = ax;
  fy[i] = ay;
  fz[i] = az;
  if (energy) {
    atomicAdd(e_vdw, ev / 2);
    atomicAdd(e_coul, ec / 2);
  }
}

// First half of velocity Verlet: half kick, then drift, wrapped into the box.
#pragma cp composite
__global__ void kick_drift(real *x, real *y, real *z, real *vx, real *vy, real *vz,
                           const real *fx, const real *fy, const real *fz, int n, real dt,
                           real box) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real ibox = 1 / box;
  vx[i] += dt / 2 * fx[i];
  vy[i] += dt / 2 * fy[i];
  vz[i] += dt / 2 * fz[i];
  x[i] += dt * vx[i];
  y[i] += dt * vy[i];
  z[i] += dt * vz[i];
  x[i] -= box * floor(x[i] * ibox);
  y[i] -= box * floor(y[i] * ibox);
  z[i] -= box * floor(z[i] * ibox);
}

// Second half kick.
#pragma cp composite
__global__ void kick(real *vx, real *vy, real *vz, const real *fx, const real *fy,
                     const real *fz, int n, real dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  vx[i] += dt / 2 * fx[i];
  vy[i] += dt / 2 * fy[i];
  vz[i] += dt / 2 * fz[i];
}

// Kinetic energy (unit masses).
#pragma cp composite
__global__ void kinetic(const real *vx, const real *vy, const real *vz, real *ke, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(ke, (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]) / 2);
}

// The error term of the total energy, which the thesis plots for composite precision: the
// total less its value rounded to float (kept in float by keep(hi)), and that float. Zero in
// float; in composite, what the error halves carry; in double, the digits below float's.
// hi + err is the total at the precision the program carries.
#pragma cp composite keep(hi)
__global__ void total_error(const real *e, real *err) {
  real total = e[0] + e[1] + e[2];
  float hi = total;
  err[0] = total - hi;
  err[1] = hi;
}

// Lattice positions, charges, and velocities uniform in [-1, 1) with zero total momentum,
// scaled to temperature t0 (so every precision starts from the same rounded-to-real state).
static void initial_state(int side, real box, real t0, real *x, real *y, real *z, real *vx,
                          real *vy, real *vz, real *q) {
  int n = side * side * side;
  double a = (double)box / side, sum[3] = {0, 0, 0}, ke = 0;
  srand(2026);
  for (int i = 0; i < n; i++) {
    x[i] = (real)((i % side + 0.5) * a);
    y[i] = (real)((i / side % side + 0.5) * a);
    z[i] = (real)((i / (side * side) + 0.5) * a);
    q[i] = i % 10 != 0 ? 0 : (i / 10) % 2 == 0 ? 1 : -1;
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
  double dt_arg = argc > 4 ? atof(argv[4]) : 0.002;
  if (side < 6 || steps < 1 || every < 1 || !(dt_arg > 0 && dt_arg < 0.05)) {
    fprintf(stderr, "usage: %s [side>=6] [steps>=1] [every>=1] [0<dt<0.05]\n", argv[0]);
    return 2;
  }
  int n = side * side * side, list_every = 10;
  real box = (real)cbrt(n / 0.8), rc = 2.5f, skin = 0.4f, dt = (real)dt_arg;
  size_t bytes = n * sizeof(real), ibytes = n * sizeof(int);

  real *h = (real *)malloc(7 * bytes);
  initial_state(side, box, 1.0f, h, h + n, h + 2 * n, h + 3 * n, h + 4 * n, h + 5 * n,
                h + 6 * n);

  real *d_x, *d_y, *d_z, *d_vx, *d_vy, *d_vz, *d_fx, *d_fy, *d_fz, *d_q;
  real *d_e;  // van der Waals, electrostatic, kinetic, error term of the total, its float
  int *d_nbr, *d_count, *d_overflow;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_z, bytes));
  CHECK(cudaMalloc(&d_vx, bytes));
  CHECK(cudaMalloc(&d_vy, bytes));
  CHECK(cudaMalloc(&d_vz, bytes));
  CHECK(cudaMalloc(&d_fx, bytes));
  CHECK(cudaMalloc(&d_fy, bytes));
  CHECK(cudaMalloc(&d_fz, bytes));
  CHECK(cudaMalloc(&d_q, bytes));
  CHECK(cudaMalloc(&d_e, 5 * sizeof(real)));
  CHECK(cudaMalloc(&d_nbr, MAX_NEIGHBOURS * ibytes));
  CHECK(cudaMalloc(&d_count, ibytes));
  CHECK(cudaMalloc(&d_overflow, sizeof(int)));
  CHECK(cudaMemcpy(d_x, h, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h + n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_z, h + 2 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vx, h + 3 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vy, h + 4 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vz, h + 5 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_q, h + 6 * n, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_overflow, 0, sizeof(int)));

  int threads = 128, blocks = (n + threads - 1) / threads;
  int fblocks = (n * TPA + threads - 1) / threads;  // the force kernel: TPA threads an atom
  build_list<<<blocks, threads>>>(d_x, d_y, d_z, d_nbr, d_count, d_overflow, n, box,
                                  rc + skin);
  forces<<<fblocks, threads>>>(d_x, d_y, d_z, d_q, d_nbr, d_count, d_fx, d_fy, d_fz, d_e,
                               d_e + 1, n, box, rc, 0);
  CHECK(cudaGetLastError());

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  printf("# atoms %d (ions %d), box %.6f, dt %.6g, %s\n", n, (n + 9) / 10, (double)box,
         (double)dt, sizeof(real) == 8 ? "double" : "float");
  printf("step,vdw,coulomb,kinetic,total,total_err,total_full\n");
  CHECK(cudaEventRecord(start));
  for (long s = 1; s <= steps; s++) {
    int sample = s % every == 0;
    kick_drift<<<blocks, threads>>>(d_x, d_y, d_z, d_vx, d_vy, d_vz, d_fx, d_fy, d_fz, n,
                                    dt, box);
    if (s % list_every == 0)
      build_list<<<blocks, threads>>>(d_x, d_y, d_z, d_nbr, d_count, d_overflow, n, box,
                                      rc + skin);
    if (sample) CHECK(cudaMemset(d_e, 0, 5 * sizeof(real)));
    forces<<<fblocks, threads>>>(d_x, d_y, d_z, d_q, d_nbr, d_count, d_fx, d_fy, d_fz,
                                 d_e, d_e + 1, n, box, rc, sample);
    kick<<<blocks, threads>>>(d_vx, d_vy, d_vz, d_fx, d_fy, d_fz, n, dt);
    if (sample) {
      kinetic<<<blocks, threads>>>(d_vx, d_vy, d_vz, d_e + 2, n);
      total_error<<<1, 1>>>(d_e, d_e + 3);
      real e[5];
      int overflow;
      CHECK(cudaMemcpy(e, d_e, 5 * sizeof(real), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&overflow, d_overflow, sizeof(int), cudaMemcpyDeviceToHost));
      if (overflow) {
        fprintf(stderr, "neighbour list overflow: %d > %d neighbours\n", overflow,
                MAX_NEIGHBOURS);
        return 1;
      }
      printf("%ld,%.12e,%.12e,%.12e,%.12e,%.6e,%.15e\n", s, (double)e[0], (double)e[1],
             (double)e[2], (double)e[0] + (double)e[1] + (double)e[2], (double)e[3],
             (double)e[4] + (double)e[3]);
    }
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("# seconds %.3f\n# steps_per_s %.1f\n", ms / 1e3, steps / (ms / 1e3));

  // The force kernel alone, without energies: the figure the precisions are compared on.
  int reps = 200;
  CHECK(cudaEventRecord(start));
  for (int r = 0; r < reps; r++)
    forces<<<fblocks, threads>>>(d_x, d_y, d_z, d_q, d_nbr, d_count, d_fx, d_fy, d_fz, d_e,
                                 d_e + 1, n, box, rc, 0);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("# forces_ms %.5f\n", ms / reps);

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_vx));
  CHECK(cudaFree(d_vy));
  CHECK(cudaFree(d_vz));
  CHECK(cudaFree(d_fx));
  CHECK(cudaFree(d_fy));
  CHECK(cudaFree(d_fz));
  CHECK(cudaFree(d_q));
  CHECK(cudaFree(d_e));
  CHECK(cudaFree(d_nbr));
  CHECK(cudaFree(d_count));
  CHECK(cudaFree(d_overflow));
  free(h);
  return 0;
}
