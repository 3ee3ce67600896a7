// Shared declarations of the textbook Lennard-Jones NVE program: the precision switch,
// the Atom struct of device pointers and the prototypes of each file's host entry points.
// The float build (the default) is the one cpconvert converts; -DDOUBLE_PRECISION builds
// the double reference from the same source.
#pragma once

#include <cstdio>
#include <cstdlib>

#ifdef DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif

#define BLOCK_SIZE 128
#define MAX_NEIGHBOR 128
#define SKIN 0.5f          // neighbour-list margin beyond the cutoff
#define REBUILD_EVERY 10   // steps between neighbour-list rebuilds

// A failed CUDA call ends the program with its location: a silent failure would show up
// only as wrong energies.
#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: CUDA error: %s\n", __FILE__, __LINE__,             \
              cudaGetErrorString(err_));                                         \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// Every per-atom array lives on the device; the struct is passed by value to the host
// entry points, which unpack the pointers for each kernel launch.
struct Atom {
  int number;
  real box;      // cubic box length
  real cutoff;   // interaction cutoff
  real *x, *y, *z;
  real *vx, *vy, *vz;
  real *fx, *fy, *fz;
  real *pe;      // potential energy per atom
  real *mass;
  int *nn;       // number of neighbours of each atom
  int *nl;       // neighbour list, MAX_NEIGHBOR entries per atom
  real *virial;  // one value: the total virial, accumulated with atomicAddCAS
};

// memory.cu
void allocate_atoms(Atom *atom, int number);
void free_atoms(Atom *atom);
void copy_to_device(Atom *atom, const real *h_x, const real *h_y, const real *h_z,
                    const real *h_vx, const real *h_vy, const real *h_vz);

// neighbor.cu
void find_neighbor(Atom *atom);

// force.cu
void find_force(Atom *atom, int want_virial);
real read_virial(Atom *atom);

// integrate.cu
void integrate_half(Atom *atom, real dt, int update_position);

// reduce.cu
real sum_potential(Atom *atom);
real sum_kinetic(Atom *atom);
