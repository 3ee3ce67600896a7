// The program one: its buffers, and the shared kernel.
#include "particles.h"

int main() {
  Particles p;
  p.n = 100;
  cudaMalloc(&p.x, p.n * sizeof(float));
  drift_all(&p, 0.5f);
  cudaFree(p.x);
  return 0;
}
