// The host entry points of the two kernel files. Each one copies its inputs to the device,
// runs its kernel and returns the energy, so that each file converts on its own.
#ifndef MD_H
#define MD_H

float potential_energy(const float *x, const float *y, const float *z, int n, float box);
float kinetic_energy(const float *vx, const float *vy, const float *vz, int n);

#endif
