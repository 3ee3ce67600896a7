// Rule template-instance: a function template with a type parameter converts one instance
// at a time. Each instance this file launches or calls with float arguments becomes a
// function that is not a template, NAME_cp_ARGS, written after the template with its
// parameters written out (T: float, SHIFT: true), and the launches and calls of that
// instance call it; the template stays for its other instances (axpy<double, 2> and
// axpy<int, 2> are left as they are). Unannotated device templates called from a
// converted instance convert the same way (warp_sum<T>, pair_energy deduced). A member
// named like a parameter (p.T) is not the parameter.
#include <cstdio>

typedef float real;

struct Params {
  float T; /* a temperature, not the template's T */
  float eps;
};

template <typename T>
__device__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

template <typename T>
__device__ T pair_energy(T r2) { return T(1) / r2 - T(0.5) / (r2 * r2); }

#pragma cp composite
template <typename T, bool SHIFT>
__global__ void total(const T *r2, T *out, int n, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T e = i < n ? pair_energy(r2[i]) * p.eps / p.T : T(0);
  if (SHIFT)
    e -= T(1) / 3;
  e = warp_sum<T>(e);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, e);
}

#pragma cp composite
template <typename T, int B>
__global__ void axpy(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T t = a * x[i] / 7;
  for (int k = 0; k < B; k++)
    y[i] += t;
}

int main() {
  const int n = 4096;
  real h[n];
  for (int i = 0; i < n; i++)
    h[i] = 1.0f + (float)i / 7.0f;
  real *r2, *out, *y;
  cudaMalloc(&r2, n * sizeof(real));
  cudaMalloc(&out, sizeof(real));
  cudaMalloc(&y, n * sizeof(real));
  cudaMemcpy(r2, h, n * sizeof(real), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof(real));
  cudaMemset(y, 0, n * sizeof(real));
  Params p = {1.5f, 0.75f};
  for (int k = 0; k < 10; k++) {
    total<float, true><<<n / 256, 256>>>(r2, out, n, p);
    axpy<real, 2><<<n / 256, 256>>>(y, r2, 0.1f, n);
  }
  double hd[64], *xd, *yd;
  int hi[64], *xi, *yi;
  for (int i = 0; i < 64; i++) {
    hd[i] = 1.0 / (i + 1);
    hi[i] = i;
  }
  cudaMalloc(&xd, 64 * sizeof(double));
  cudaMalloc(&yd, 64 * sizeof(double));
  cudaMalloc(&xi, 64 * sizeof(int));
  cudaMalloc(&yi, 64 * sizeof(int));
  cudaMemcpy(xd, hd, 64 * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(xi, hi, 64 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(yd, 0, 64 * sizeof(double));
  cudaMemset(yi, 0, 64 * sizeof(int));
  axpy<double, 2><<<1, 64>>>(yd, xd, 3.0, 64);
  axpy<int, 2><<<1, 64>>>(yi, xi, 3, 64);
  real total_e, hy[n];
  cudaMemcpy(&total_e, out, sizeof(real), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy, y, n * sizeof(real), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, yd, 64 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, yi, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%.9g\n", total_e);
  for (int i = 0; i < n; i += 455)
    printf("%.9g\n", hy[i]);
  printf("%.17g %d\n", hd[5], hi[63]);
  cudaFree(r2);
  cudaFree(out);
  cudaFree(y);
  cudaFree(xd);
  cudaFree(yd);
  cudaFree(xi);
  cudaFree(yi);
  return 0;
}
