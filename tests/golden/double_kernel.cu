// Kernels written in double convert to cp_double (double-double): every floating-point
// variable, parameter and result of the function is double, so the same rules apply with
// cp_dd_ operations, and the host side recombines with cp_recombine_double.
#pragma cp composite
__device__ double potential(double r2) {
  double inv6 = 1.0 / (r2 * r2 * r2);
  return 4.0 * (inv6 * inv6 - inv6);
}

#pragma cp composite
__global__ void energy(const double *r2, double *e, double *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double u = i < n ? potential(r2[i]) : 0.0;
  if (u > 1e3) u = 1e3;
  u = floor(u * 1e6) / 1e6 + sqrt(fabs(u)) * 0;
  for (int offset = 16; offset > 0; offset /= 2)
    u += __shfl_down_sync(0xffffffff, u, offset);
  if (i < n) e[i] = u;
  if (threadIdx.x % 32 == 0) atomicAdd(total, u);
}

int main() {
  const int n = 1024;
  double h_r2[n], *d_r2, *d_e, *d_total, total = 0;
  for (int i = 0; i < n; i++)
    h_r2[i] = 0.9 + 0.01 * i;
  cudaMalloc(&d_r2, n * sizeof(double));
  cudaMemcpy(d_r2, h_r2, sizeof h_r2, cudaMemcpyHostToDevice);
  cudaMalloc(&d_e, n * sizeof(double));
  cudaMalloc(&d_total, sizeof(double));
  cudaMemset(d_total, 0, sizeof(double));
  energy<<<n / 256, 256>>>(d_r2, d_e, d_total, n);
  cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_r2);
  cudaFree(d_e);
  cudaFree(d_total);
  return total > 0 ? 0 : 1;
}
