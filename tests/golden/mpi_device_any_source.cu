// CUDA-aware MPI: a receive of a paired device buffer from MPI_ANY_SOURCE is not followed by
// a receive of its companion (that receive could match another rank's message): a warning
// says that the error terms are dropped there (mpi_device_send_recv: the mirrored form).
#include <mpi.h>
#include <cstdio>

#pragma cp composite
__global__ void drift(float *x, const float *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += v[i] * dt;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 1024, ghost = 16;
  float *x, *v;
  cudaMalloc(&x, (n + 2 * ghost) * sizeof(float));
  cudaMalloc(&v, (n + 2 * ghost) * sizeof(float));
  cudaMemset(x, 0, (n + 2 * ghost) * sizeof(float));
  cudaMemset(v, 0, (n + 2 * ghost) * sizeof(float));
  int up = (rank + 1) % size;
  for (int s = 0; s < 10; s++) {
    drift<<<(n + 2 * ghost + 255) / 256, 256>>>(x, v, 1e-3f, n + 2 * ghost);
    cudaDeviceSynchronize();
    if (rank % 2 == 0) { MPI_Send(x + n, ghost, MPI_FLOAT, up, 0, MPI_COMM_WORLD); MPI_Recv(x, ghost, MPI_FLOAT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
    else { MPI_Recv(x, ghost, MPI_FLOAT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(x + n, ghost, MPI_FLOAT, up, 0, MPI_COMM_WORLD); }
  }
  float first;
  cudaMemcpy(&first, x + ghost, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", first);
  cudaFree(x);
  cudaFree(v);
  MPI_Finalize();
  return 0;
}
