// Sums over MPI ranks of values copied back from a paired buffer: the pairs are summed
// (MPI_Allreduce, also in place); a value changed on the host before its sum keeps the
// float sum, with a warning.
#include <mpi.h>
#include <cstdio>

#pragma cp composite
__global__ void energies(const float *x, int n, float *e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&e[0], x[i] * x[i]);
    atomicAdd(&e[1], x[i]);
  }
}

__global__ void fill(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a + i * 1e-3f;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = 1 << 16;
  float *x, *e;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&e, 2 * sizeof(float));
  cudaMemset(e, 0, 2 * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(x, n, 1.0f + rank);
  energies<<<(n + 255) / 256, 256>>>(x, n, e);

  float local;
  cudaMemcpy(&local, e, sizeof(float), cudaMemcpyDeviceToHost);
  float total;
  MPI_Allreduce(&local, &total, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

  float both[2];
  cudaMemcpy(both, e, 2 * sizeof(float), cudaMemcpyDeviceToHost);
  MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

  float half;
  cudaMemcpy(&half, e, sizeof(float), cudaMemcpyDeviceToHost);
  half *= 0.5f;
  float halves;
  MPI_Reduce(&half, &halves, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);

  if (rank == 0)
    printf("%.9g %.9g %.9g %.9g\n", total, both[0], both[1], halves);
  cudaFree(x);
  cudaFree(e);
  MPI_Finalize();
  return 0;
}
