// Names in clauses must exist: pair/nopair a float pointer parameter, keep a float variable.
#pragma cp composite pair(forces) keep(n, missing)
__global__ void k(float *x, int n) { x[n] += 1.0f; }
