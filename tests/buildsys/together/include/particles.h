// The state of the simulation: device buffers kept in a struct, as MD codes keep them.
#ifndef PARTICLES_H
#define PARTICLES_H

struct Particles {
  float *x;      // positions (device)
  float *v;      // velocities (device)
  float *energy; // kinetic energy (device, one value)
  int n;
};

void advance(Particles *p, float dt, int steps);

#endif
