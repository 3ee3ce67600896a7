// Driver: an fcc lattice of n x n x n unit cells (4 n^3 atoms) at reduced density 0.8,
// deterministic velocities with zero total momentum scaled to temperature T0, then NVE
// velocity-Verlet steps. Prints the total energy every `every` steps with %.17g, so that
// the float, double and composite builds can be compared digit by digit, and the wall
// time of the step loop.
//   usage: md [cells=6] [steps=1000] [every=100] [dt=0.005]
#include "common.h"
#include <chrono>
#include <cmath>

static const double DENSITY = 0.8;
static const double T0 = 1.0;
static const double DEFAULT_DT = 0.005;
static const double CUTOFF = 2.5;

// A fixed linear congruential generator: the same velocities on every machine and build.
static double next_uniform(unsigned long long *state)
{
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0 - 0.5;
}

static void init_lattice(int cells, double a, real *x, real *y, real *z)
{
  static const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
  int n = 0;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k)
        for (int b = 0; b < 4; ++b, ++n) {
          x[n] = (real)((i + basis[b][0]) * a);
          y[n] = (real)((j + basis[b][1]) * a);
          z[n] = (real)((k + basis[b][2]) * a);
        }
}

// Velocities with zero total momentum, scaled so that the kinetic temperature is T0.
static void init_velocities(int number, real *vx, real *vy, real *vz)
{
  unsigned long long state = 12345;
  double *v = (double *)malloc(sizeof(double) * 3 * number);
  double mean[3] = {0, 0, 0}, v2 = 0;
  for (int n = 0; n < 3 * number; ++n) {
    v[n] = next_uniform(&state);
    mean[n % 3] += v[n] / number;
  }
  for (int n = 0; n < 3 * number; ++n) {
    v[n] -= mean[n % 3];
    v2 += v[n] * v[n];
  }
  double scale = sqrt(3.0 * (number - 1) * T0 / v2);
  for (int n = 0; n < number; ++n) {
    vx[n] = (real)(v[3 * n] * scale);
    vy[n] = (real)(v[3 * n + 1] * scale);
    vz[n] = (real)(v[3 * n + 2] * scale);
  }
  free(v);
}

static void print_energy(Atom *atom, int step)
{
  double pe = sum_potential(atom);
  double ke = sum_kinetic(atom);
  double virial = read_virial(atom);
  printf("step %6d  total %.17g  potential %.17g  kinetic %.17g  virial %.17g\n", step,
         pe + ke, pe, ke, virial);
}

int main(int argc, char **argv)
{
  int cells = argc > 1 ? atoi(argv[1]) : 6;
  int steps = argc > 2 ? atoi(argv[2]) : 1000;
  int every = argc > 3 ? atoi(argv[3]) : 100;
  double dt = argc > 4 ? atof(argv[4]) : DEFAULT_DT;
  if (cells < 3 || steps < 0 || every < 1 || !(dt > 0 && dt < 0.05)) {
    fprintf(stderr, "usage: %s [cells>=3] [steps>=0] [every>=1] [0<dt<0.05]\n", argv[0]);
    return 2;
  }
  int number = 4 * cells * cells * cells;
  double a = cbrt(4.0 / DENSITY);
  size_t bytes = sizeof(real) * number;
  real *h = (real *)malloc(6 * bytes);
  real *x = h, *y = h + number, *z = h + 2 * number;
  real *vx = h + 3 * number, *vy = h + 4 * number, *vz = h + 5 * number;
  init_lattice(cells, a, x, y, z);
  init_velocities(number, vx, vy, vz);

  Atom atom;
  allocate_atoms(&atom, number);
  atom.box = (real)(cells * a);
  atom.cutoff = (real)CUTOFF;
  copy_to_device(&atom, x, y, z, vx, vy, vz);
  find_neighbor(&atom);
  find_force(&atom, 1);
  printf("atoms %d  box %.17g  steps %d  dt %g  %s\n", number, cells * a, steps, dt,
         sizeof(real) == sizeof(double) ? "double" : "float");
  print_energy(&atom, 0);

  CHECK(cudaDeviceSynchronize());
  auto start = std::chrono::steady_clock::now();
  for (int step = 1; step <= steps; ++step) {
    integrate_half(&atom, (real)dt, 1);
    if (step % REBUILD_EVERY == 0) {
      find_neighbor(&atom);
    }
    find_force(&atom, step % every == 0);
    integrate_half(&atom, (real)dt, 0);
    if (step % every == 0) {
      print_energy(&atom, step);
    }
  }
  CHECK(cudaDeviceSynchronize());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printf("time %.6f s  (%.3f us/step)\n", seconds, steps ? 1e6 * seconds / steps : 0.0);
  free_atoms(&atom);
  free(h);
  return 0;
}
