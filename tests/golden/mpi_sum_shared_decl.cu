// The energy's sum over MPI ranks where the local and the global value are declared
// together (`float e_local = 0.0f, e_total = 0.0f;`, as real codes do): the local value's
// companion is declared by decltype after that statement, so the MPI_Allreduce sums the
// pairs (before, a warning asked for a declaration of its own and the error was dropped).
#include <mpi.h>
#include <cstdio>

#pragma cp composite
__global__ void energy(const float *x, int n, float *e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(e, x[i] * x[i]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = 1 << 16;
  float *x, *e;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&e, sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(e, 0, sizeof(float));
  energy<<<(n + 255) / 256, 256>>>(x, n, e);
  float e_local = 0.0f, e_total = 0.0f;
  cudaMemcpy(&e_local, e, sizeof(float), cudaMemcpyDeviceToHost);
  MPI_Allreduce(&e_local, &e_total, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  printf("%.9g\n", e_total);
  cudaFree(x);
  cudaFree(e);
  MPI_Finalize();
  return 0;
}
