// pair() names a struct field by its path from a parameter (pair(s.r.y), pair(p->r.x)):
// the kernel only reads them, but pairs them, so it reads value + error. Their buffers
// are allocated elsewhere (--pair x --pair y): the struct, defined here, gains the fields.
struct Vec { float *x; float *y; };
struct State { Vec r; int n; };
#pragma cp composite pair(s.r.y) pair(p->r.x)
__global__ void readonly(State s, State *p, float *out) {
  int i = threadIdx.x;
  out[i] = s.r.y[i] + p->r.x[i];
}
