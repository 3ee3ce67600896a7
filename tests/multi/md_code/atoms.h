// The simulation state: device buffers kept in a struct, as MD codes do.
#ifndef ATOMS_H
#define ATOMS_H

struct Atoms {
  float4 *pos;    // positions (device)
  float4 *force;  // forces (device)
  float *energy;  // potential energy (device, one value)
  int n;
};

void allocate(Atoms *a, int n);
void release(Atoms *a);
void compute_forces(Atoms *a);

#endif
