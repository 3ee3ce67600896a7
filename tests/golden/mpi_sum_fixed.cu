// Sums over MPI ranks of accumulate(fixed) results: each rank's total is a fixed-point sum
// held exactly as a pair, so the sum over ranks is taken as 64-bit integers
// (cp_mpi_allreduce_sum_fixed, cp_mpi_reduce_sum_fixed): the same bits for any number of
// ranks. A device pointer handed to MPI directly gets a warning that names the call.
#include <mpi.h>
#include <cstdio>

#pragma cp composite accumulate(fixed)
__global__ void total(const float *e, int n, float *out) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += e[i];
  *out = s;
}

__global__ void fill(float *e, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) e[i] = 0.1f * i + a;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = 1000;
  float *e, *out;
  cudaMalloc(&e, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(e, n, 1.0f / (rank + 3));
  total<<<1, 1>>>(e, n, out);

  float local;
  cudaMemcpy(&local, out, sizeof(float), cudaMemcpyDeviceToHost);
  float global;
  MPI_Allreduce(&local, &global, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

  float again;
  cudaMemcpy(&again, out, sizeof(float), cudaMemcpyDeviceToHost);
  float at_root = 0.0f;
  MPI_Reduce(&again, &at_root, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);

  MPI_Bcast(out, 0, MPI_FLOAT, 0, MPI_COMM_WORLD); /* count 0: runs where MPI is not CUDA-aware */
  if (rank == 0)
    printf("%.9g %.9g\n", global, at_root);
  cudaFree(e);
  cudaFree(out);
  MPI_Finalize();
  return 0;
}
