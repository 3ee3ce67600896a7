// Device buffers in a struct, shared by both programs (converted with each).
#ifndef PARTICLES_H
#define PARTICLES_H

struct Particles {
  float *x; // positions (device)
  int n;
};

void drift_all(Particles *p, float dt);

#endif
