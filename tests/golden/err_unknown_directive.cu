// Only '#pragma cp composite' exists.
#pragma cp convert
__global__ void k(float *x) { x[0] += 1.0f; }
