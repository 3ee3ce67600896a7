// An unknown clause is an error at the clause, not a silent no-op.
#pragma cp composite scope(all) precise(x)
__global__ void k(float *x) { x[0] += 1.0f; }
