// Lennard-Jones forces (epsilon = sigma = 1, reduced units) over the neighbour list,
// with the potential energy of each atom and the total virial. Each pair is visited
// from both atoms, so every atom writes only its own force: no atomics on forces.
#include "common.h"
#include "mic.h"
#include "atomic_cas.h"

#pragma cp composite
static __global__ void gpu_find_force(int number, real box, real cutoff_square,
                                      const int *g_nn, const int *g_nl,
                                      const real *g_x, const real *g_y, const real *g_z,
                                      real *g_fx, real *g_fy, real *g_fz, real *g_pe,
                                      real *g_virial, int want_virial)
{
  int n1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (n1 >= number) {
    return;
  }
  real fx = 0.0f, fy = 0.0f, fz = 0.0f, pe = 0.0f, virial = 0.0f;
  real x1 = g_x[n1], y1 = g_y[n1], z1 = g_z[n1];
  int neighbors = g_nn[n1];
  for (int i = 0; i < neighbors; ++i) {
    int n2 = g_nl[n1 * MAX_NEIGHBOR + i];
    real x12 = g_x[n2] - x1;
    real y12 = g_y[n2] - y1;
    real z12 = g_z[n2] - z1;
    apply_mic(box, &x12, &y12, &z12);
    real d2 = x12 * x12 + y12 * y12 + z12 * z12;
    if (d2 > cutoff_square) {
      continue;
    }
    real ir2 = 1.0f / d2;
    real ir6 = ir2 * ir2 * ir2;
    real ir12 = ir6 * ir6;
    // f12 is -dU/dr / r; the pair energy is split half to each atom.
    real f12 = (48.0f * ir12 - 24.0f * ir6) * ir2;
    fx -= f12 * x12;
    fy -= f12 * y12;
    fz -= f12 * z12;
    pe += 2.0f * (ir12 - ir6);
    virial += 0.5f * f12 * d2;
  }
  g_fx[n1] = fx;
  g_fy[n1] = fy;
  g_fz[n1] = fz;
  g_pe[n1] = pe;
  if (want_virial) {  // only on the steps that print it: one CAS loop per atom is costly
    atomicAddCAS(g_virial, virial);
  }
}

void find_force(Atom *atom, int want_virial)
{
  int grid = (atom->number + BLOCK_SIZE - 1) / BLOCK_SIZE;
  CHECK(cudaMemset(atom->virial, 0, sizeof(real)));
  gpu_find_force<<<grid, BLOCK_SIZE>>>(atom->number, atom->box,
                                       atom->cutoff * atom->cutoff, atom->nn, atom->nl,
                                       atom->x, atom->y, atom->z, atom->fx, atom->fy,
                                       atom->fz, atom->pe, atom->virial, want_virial);
  CHECK(cudaGetLastError());
}

real read_virial(Atom *atom)
{
  real virial = 0;
  CHECK(cudaMemcpy(&virial, atom->virial, sizeof(real), cudaMemcpyDeviceToHost));
  return virial;
}
