#include "nbl.h"

void init_nbl(Nbl *n, int count) {
  n->n = count;
  cudaMalloc((void **)&n->lastR.x, count * sizeof(float));
  cudaMalloc((void **)&n->lastR.y, count * sizeof(float));
}

void free_nbl(Nbl *n) {
  cudaFree(n->lastR.x);
  cudaFree(n->lastR.y);
}
