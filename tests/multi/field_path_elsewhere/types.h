#pragma once
// Positions and forces kept as one device buffer per coordinate.
struct vec_t {
  float *x;
  float *y;
};

struct Atoms {
  vec_t r; // positions
  vec_t f; // forces
  int n;
};

// The neighbour list remembers the positions at its last build.
struct Nbl {
  vec_t lastR;
  int n;
};

struct Sim {
  Atoms atoms;
  Nbl nbl;
};
