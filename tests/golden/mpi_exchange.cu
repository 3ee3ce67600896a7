// Messages between MPI ranks of values copied from paired buffers: the copy back keeps the
// residuals in a companion of the host buffer (allocated zeroed like it, freed with it), the
// send and the receive move pairs, and the copy of the received values into a paired buffer
// moves their errors too. A datatype named through a macro is followed; MPI_Isend, which
// cpconvert does not convert, and a buffer reallocated after its declaration (its companion
// could not follow) get a warning where the error terms are dropped; a receive buffer
// declared with another variable (`float spare[m], count[1];`) gets its companion by
// decltype after that declaration.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

#define REAL_MPI_TYPE MPI_FLOAT

#pragma cp composite
__global__ void drift(float *x, const float *v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v[i] * dt;
}

#pragma cp composite
__global__ void pack(const float *x, float *buf, float shift, int m) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) buf[k] = x[k] + shift;
}

#pragma cp composite pair(buf)
__global__ void unpack(const float *buf, float *x, int base, int m) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) x[base + k] = buf[k];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 1024, m = 64;
  float *x, *v, *d_send, *d_recv;
  cudaMalloc(&x, 2 * n * sizeof(float));
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&d_send, m * sizeof(float));
  cudaMalloc(&d_recv, m * sizeof(float));
  float *h_send = (float *)malloc(m * sizeof(float));
  float *h_recv = new float[m];
  float *h_x = new float[n];
  for (int i = 0; i < n; i++)
    h_x[i] = 1e-3f * i + rank;
  cudaMemcpy(x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(v, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < 1000; s++)
    drift<<<(n + 255) / 256, 256>>>(x, v, 1e-4f, n);
  pack<<<1, m>>>(x, d_send, 10.0f, m);

  cudaMemcpy(h_send, d_send, m * sizeof(float), cudaMemcpyDeviceToHost);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Sendrecv(h_send, m / 2, REAL_MPI_TYPE, next, 1, h_recv, m, REAL_MPI_TYPE, prev, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(h_send + m / 2, m / 2, REAL_MPI_TYPE, prev, 2, h_recv + m / 2, m / 2, REAL_MPI_TYPE,
               next, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  float spare[m], count[1];
  MPI_Sendrecv(h_send, m, REAL_MPI_TYPE, rank, 6, spare, m, REAL_MPI_TYPE, rank, 6, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  count[0] = spare[0];
  cudaMemcpy(d_recv, h_recv, m * sizeof(float), cudaMemcpyHostToDevice);
  unpack<<<1, m>>>(d_recv, x, n, m);

  float last[m];
  cudaMemcpy(last, d_send, m * sizeof(float), cudaMemcpyDeviceToHost);
  if (rank == 0)
    MPI_Send(last, m, MPI_FLOAT, size - 1, 3, MPI_COMM_WORLD);
  if (rank == size - 1) {
    MPI_Recv(h_recv, m, MPI_FLOAT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    cudaMemcpy(d_recv, h_recv, m * sizeof(float), cudaMemcpyHostToDevice);
    unpack<<<1, m>>>(d_recv, x, 0, m);
  }

  float *async = (float *)malloc(m * sizeof(float));
  MPI_Request req;
  cudaMemcpy(async, d_send, m * sizeof(float), cudaMemcpyDeviceToHost);
  MPI_Isend(async, m, MPI_FLOAT, next, 4, MPI_COMM_WORLD, &req);
  MPI_Recv(h_recv, m, MPI_FLOAT, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  float *grown = (float *)malloc(m * sizeof(float));
  grown = (float *)realloc(grown, 2 * m * sizeof(float));
  cudaMemcpy(grown, d_send, m * sizeof(float), cudaMemcpyDeviceToHost);
  MPI_Sendrecv(grown, m, MPI_FLOAT, rank, 5, h_recv, m, MPI_FLOAT, rank, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);

  float got[m];
  cudaMemcpy(got, x + n, m * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_x, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (rank == 0)
    printf("%.9g %.9g %.9g %.9g %.9g %.9g\n", got[0], got[m / 2], got[m - 1], h_x[0], h_x[n - 1],
           count[0]);
  delete[] h_x;
  free(h_send);
  delete[] h_recv;
  free(async);
  free(grown);
  cudaFree(x);
  cudaFree(v);
  cudaFree(d_send);
  cudaFree(d_recv);
  MPI_Finalize();
  return 0;
}
