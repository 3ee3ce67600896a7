// Velocity Verlet in two halves: the first half kicks the velocities with the old forces
// and drifts the positions, the second (after the new forces) kicks the velocities again.
#include "common.h"

#pragma cp composite
static __global__ void gpu_integrate(int number, real dt, real half_dt, int update_position,
                                     const real *g_mass, real *g_x, real *g_y, real *g_z,
                                     real *g_vx, real *g_vy, real *g_vz,
                                     const real *g_fx, const real *g_fy, const real *g_fz)
{
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= number) {
    return;
  }
  real a = half_dt / g_mass[n];
  g_vx[n] += a * g_fx[n];
  g_vy[n] += a * g_fy[n];
  g_vz[n] += a * g_fz[n];
  if (update_position) {
    g_x[n] += g_vx[n] * dt;
    g_y[n] += g_vy[n] * dt;
    g_z[n] += g_vz[n] * dt;
  }
}

void integrate_half(Atom *atom, real dt, int update_position)
{
  int grid = (atom->number + BLOCK_SIZE - 1) / BLOCK_SIZE;
  gpu_integrate<<<grid, BLOCK_SIZE>>>(atom->number, dt, dt * 0.5f, update_position,
                                      atom->mass, atom->x, atom->y, atom->z, atom->vx,
                                      atom->vy, atom->vz, atom->fx, atom->fy, atom->fz);
  CHECK(cudaGetLastError());
}
