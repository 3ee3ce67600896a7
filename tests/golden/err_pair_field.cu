// pair() with a path that names no float pointer field reached from a parameter: an error
// at the name (a field path is parsed as written: s.r.z, p->r.x).
struct Vec { float *x; float *y; };
struct State { Vec r; int n; };

#pragma cp composite pair(s.r.z)
__global__ void bad(State s, float *out) { out[threadIdx.x] = s.r.x[threadIdx.x]; }
