// A sum of a paired device buffer itself (CUDA-aware MPI): the reduction moves values
// without their error terms. Converted as it is, with a warning (a host copy's sum keeps
// them: mpi_sum).
#include <mpi.h>

#pragma cp composite
__global__ void partial(const float *x, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i] * x[i]);
}

void norm(const float *d_x, float *d_s, float *d_total, int n) {
  partial<<<(n + 255) / 256, 256>>>(d_x, d_s, n);
  MPI_Allreduce(d_s, d_total, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(MPI_IN_PLACE, d_s, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  float *d_x, *d_s, *d_total;
  cudaMalloc(&d_x, 1024 * sizeof(float));
  cudaMalloc(&d_s, sizeof(float));
  cudaMalloc(&d_total, sizeof(float));
  norm(d_x, d_s, d_total, 1024);
  MPI_Finalize();
  return 0;
}
