// The struct whose pointer field pairs: converted (it gains g_x_err) and written under
// --o-dir at inc/atom.h.
#ifndef ATOM_H
#define ATOM_H
struct Atom {
  float *g_x;
  int n;
};
#endif
