// --pair d_energy: a buffer owned by another file (allocated there, with its companion
// d_energy_err allocated and zeroed beside it) is trusted: launches pass the companion,
// nothing is declared or allocated here.
extern float *d_energy;
extern float *d_energy_err;

#pragma cp composite
__global__ void add_energy(float *energy, float e) { atomicAdd(energy, e); }

void report_energy(float e) { add_energy<<<1, 1>>>(d_energy, e); }
