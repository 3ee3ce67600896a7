// Allocation, release and host-to-device copies of the Atom struct's buffers. The
// kernels that write these buffers live in other files, which is why the program is
// converted in one run (--o-dir): pairing follows each buffer from here to its kernels.
#include "common.h"

void allocate_atoms(Atom *atom, int number)
{
  size_t bytes = sizeof(real) * number;
  atom->number = number;
  CHECK(cudaMalloc((void **)&atom->x, bytes));
  CHECK(cudaMalloc((void **)&atom->y, bytes));
  CHECK(cudaMalloc((void **)&atom->z, bytes));
  CHECK(cudaMalloc((void **)&atom->vx, bytes));
  CHECK(cudaMalloc((void **)&atom->vy, bytes));
  CHECK(cudaMalloc((void **)&atom->vz, bytes));
  CHECK(cudaMalloc((void **)&atom->fx, bytes));
  CHECK(cudaMalloc((void **)&atom->fy, bytes));
  CHECK(cudaMalloc((void **)&atom->fz, bytes));
  CHECK(cudaMalloc((void **)&atom->pe, bytes));
  CHECK(cudaMalloc((void **)&atom->mass, bytes));
  CHECK(cudaMalloc((void **)&atom->virial, sizeof(real)));
  CHECK(cudaMalloc((void **)&atom->nn, sizeof(int) * number));
  CHECK(cudaMalloc((void **)&atom->nl, sizeof(int) * number * MAX_NEIGHBOR));
}

void free_atoms(Atom *atom)
{
  CHECK(cudaFree(atom->x));
  CHECK(cudaFree(atom->y));
  CHECK(cudaFree(atom->z));
  CHECK(cudaFree(atom->vx));
  CHECK(cudaFree(atom->vy));
  CHECK(cudaFree(atom->vz));
  CHECK(cudaFree(atom->fx));
  CHECK(cudaFree(atom->fy));
  CHECK(cudaFree(atom->fz));
  CHECK(cudaFree(atom->pe));
  CHECK(cudaFree(atom->mass));
  CHECK(cudaFree(atom->virial));
  CHECK(cudaFree(atom->nn));
  CHECK(cudaFree(atom->nl));
}

// Masses are all 1 in reduced units; they are set here so that the kernels read them as
// the production codes this program imitates do.
void copy_to_device(Atom *atom, const real *h_x, const real *h_y, const real *h_z,
                    const real *h_vx, const real *h_vy, const real *h_vz)
{
  size_t bytes = sizeof(real) * atom->number;
  real *h_mass = (real *)malloc(bytes);
  for (int n = 0; n < atom->number; ++n) {
    h_mass[n] = 1.0f;
  }
  CHECK(cudaMemcpy(atom->x, h_x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->y, h_y, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->z, h_z, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->vx, h_vx, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->vy, h_vy, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->vz, h_vz, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(atom->mass, h_mass, bytes, cudaMemcpyHostToDevice));
  free(h_mass);
}
