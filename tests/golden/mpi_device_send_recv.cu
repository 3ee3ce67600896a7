// CUDA-aware MPI with blocking sends and receives of paired device buffers (even ranks send
// then receive, odd ranks the other way round): each MPI_Send and MPI_Recv is followed by the
// same call on the companion (same peer, tag and communicator; MPI keeps the messages between
// two ranks on one tag in order), so the ghosts arrive with their error terms. Before, the
// companions were dropped with no word (mpi_device_sendrecv: the MPI_Sendrecv form). A
// receive from MPI_ANY_SOURCE is warned about instead (mpi_device_any_source).
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
  int up = (rank + 1) % size, down = (rank + size - 1) % size;
  for (int s = 0; s < 10; s++) {
    drift<<<(n + 2 * ghost + 255) / 256, 256>>>(x, v, 1e-3f, n + 2 * ghost);
    cudaDeviceSynchronize();
    if (rank % 2 == 0) { MPI_Send(x + n, ghost, MPI_FLOAT, up, 0, MPI_COMM_WORLD); MPI_Recv(x, ghost, MPI_FLOAT, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
    else { MPI_Recv(x, ghost, MPI_FLOAT, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(x + n, ghost, MPI_FLOAT, up, 0, MPI_COMM_WORLD); }
  }
  float first;
  cudaMemcpy(&first, x + ghost, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", first);
  cudaFree(x);
  cudaFree(v);
  MPI_Finalize();
  return 0;
}
