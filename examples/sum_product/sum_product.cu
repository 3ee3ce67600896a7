// Sum-product: electrostatic energy through a dense matrix-vector product and block
// reductions (the GPU patterns Sakalli describes for MD/BD codes).
//
// n charges q_i (magnitude in (0.5, 1), random sign) at random positions in a cube of side
// 10. The dense matrix of pair potentials A_ij = 1 / r_ij (A_ii = 0) is built on the
// device, then phi = A q (one block per row, a shared-memory reduction tree) and
// E = 1/2 sum_i q_i phi_i (per-block trees, one atomic add per block). All three kernels
// are converted, so in composite precision the matrix, the potentials and the energy are
// float pairs.
//
// Accuracy: the reference phi and E are computed on the host in long double from the same
// positions and charges (1/r_ij exact to long double). Kernels compute |phi_i - ref_i| and
// |E - ref| on the device in the variant's own arithmetic (ref passed as two reals,
// hi + lo), so composite results are compared before they are rounded to one float. The
// program prints the norm-wise relative error of phi, sqrt(sum err_i^2 / sum ref_i^2), and
// the relative error of E.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 sum_product.cu -o sp_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE sum_product.cu -o sp_double
//   composite:  cpconvert sum_product.cu -o sum_product_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include sum_product_cp.cu -o sp_cp
//   run:        ./sp_float [n=8192]           quick setting: ./sp_float 2048
//
// Run time at n = 8192, measured on an H100: under 0.8 s per variant, whole program (the
// host reference included); the kernels take about 1 ms. The matrix has n^2 = 6.7e7
// entries: 256 MB in float, 512 MB in double and composite.
//
// Output: CSV `n,phi_rel_err,energy,energy_ref,energy_rel_err,matrix_ms,matvec_ms,
// energy_ms` (kernel times, cudaEvents).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#ifdef REAL_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));      \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

#define THREADS 128                            // threads per block (a power of 2)

// a[i * n + j] = 1 / r_ij, 0 on the diagonal; grid (ceil(n / THREADS), n).
#pragma cp composite
__global__ void pair_matrix(const real *x, const real *y, const real *z, real *a, int n) {
  int j = blockIdx.x * THREADS + threadIdx.x;
  int i = blockIdx.y;
  if (j >= n) return;
  real dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
  if (i == j)
    a[i * n + j] = 0;
  else
    a[i * n + j] = 1 / sqrt(dx * dx + dy * dy + dz * dz);
}

// phi = a q: one block per row, strided partial sums, then a reduction tree.
#pragma cp composite
__global__ void matvec(const real *a, const real *q, real *phi, int n) {
  __shared__ real part[THREADS];
  int i = blockIdx.x;
  real s = 0;
  for (int j = threadIdx.x; j < n; j += THREADS)
    s += a[i * n + j] * q[j];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) phi[i] = part[0];
}

// e += 1/2 sum q_i phi_i: a reduction tree per block, one atomic add per block.
#pragma cp composite
__global__ void energy(const real *q, const real *phi, real *e, int n) {
  __shared__ real part[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n)
    part[threadIdx.x] = q[i] * phi[i];
  else
    part[threadIdx.x] = 0;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(e, part[0] / 2);
}

// err[i] = |v[i] - (ref_hi[i] + ref_lo[i])|.
#pragma cp composite
__global__ void abs_error(const real *v, const real *ref_hi, const real *ref_lo, int n,
                          real *err) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  err[i] = fabs(v[i] - ref_hi[i] - ref_lo[i]);
}

static double uniform01(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

// phi_i = sum_j q_j / r_ij in long double (each pair once); returns E = 1/2 sum q_i phi_i.
static long double reference(const real *x, const real *y, const real *z, const real *q,
                             int n, long double *phi) {
  for (int i = 0; i < n; i++)
    phi[i] = 0;
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      long double dx = (long double)x[i] - x[j], dy = (long double)y[i] - y[j],
                  dz = (long double)z[i] - z[j];
      long double inv = 1 / sqrtl(dx * dx + dy * dy + dz * dz);
      phi[i] += q[j] * inv;
      phi[j] += q[i] * inv;
    }
  }
  long double e = 0;
  for (int i = 0; i < n; i++)
    e += q[i] * phi[i];
  return e / 2;
}

static float elapsed(cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0;
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  int n = argc > 1 ? atoi(argv[1]) : 8192;
  if (n < 1 || n > 32768) {
    fprintf(stderr, "usage: %s [n=8192, at most 32768]\n", argv[0]);
    return 2;
  }
#if defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  size_t bytes = n * sizeof(real);
  real *h = (real *)malloc(7 * bytes);         // x, y, z, q, phi_hi, phi_lo, err
  real *h_x = h, *h_y = h + n, *h_z = h + 2 * n, *h_q = h + 3 * n;
  real *h_ref_hi = h + 4 * n, *h_ref_lo = h + 5 * n, *h_err = h + 6 * n;
  long double *phi_ref = (long double *)malloc(n * sizeof(long double));
  unsigned long long state = 99;
  for (int i = 0; i < n; i++) {
    h_x[i] = (real)(float)(10 * uniform01(&state));
    h_y[i] = (real)(float)(10 * uniform01(&state));
    h_z[i] = (real)(float)(10 * uniform01(&state));
    double m = 0.5 + 0.5 * uniform01(&state);
    h_q[i] = (real)(float)(uniform01(&state) < 0.5 ? -m : m);
  }
  long double e_ref = reference(h_x, h_y, h_z, h_q, n, phi_ref);
  long double norm_ref = 0;
  for (int i = 0; i < n; i++) {
    h_ref_hi[i] = (real)phi_ref[i];
    h_ref_lo[i] = (real)(phi_ref[i] - (long double)h_ref_hi[i]);
    norm_ref += phi_ref[i] * phi_ref[i];
  }
  real e_hi = (real)e_ref, e_lo = (real)(e_ref - (long double)e_hi);

  real *d_x, *d_y, *d_z, *d_q, *d_a, *d_phi, *d_e, *d_ref_hi, *d_ref_lo, *d_err;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_z, bytes));
  CHECK(cudaMalloc(&d_q, bytes));
  CHECK(cudaMalloc(&d_a, (size_t)n * n * sizeof(real)));
  CHECK(cudaMalloc(&d_phi, bytes));
  CHECK(cudaMalloc(&d_e, sizeof(real)));
  CHECK(cudaMalloc(&d_ref_hi, bytes));
  CHECK(cudaMalloc(&d_ref_lo, bytes));
  CHECK(cudaMalloc(&d_err, bytes));
  CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_z, h_z, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_q, h_q, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ref_hi, h_ref_hi, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ref_lo, h_ref_lo, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_e, 0, sizeof(real)));
  cudaEvent_t t0, t1, t2, t3;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  CHECK(cudaEventCreate(&t2));
  CHECK(cudaEventCreate(&t3));

  int blocks = (n + THREADS - 1) / THREADS;
  CHECK(cudaEventRecord(t0));
  pair_matrix<<<dim3(blocks, n), THREADS>>>(d_x, d_y, d_z, d_a, n);
  CHECK(cudaEventRecord(t1));
  matvec<<<n, THREADS>>>(d_a, d_q, d_phi, n);
  CHECK(cudaEventRecord(t2));
  energy<<<blocks, THREADS>>>(d_q, d_phi, d_e, n);
  CHECK(cudaEventRecord(t3));
  CHECK(cudaGetLastError());
  double matrix_ms = elapsed(t0, t1), matvec_ms = elapsed(t1, t2), energy_ms = elapsed(t2, t3);

  // The errors, on the device: phi against its reference, E against e_hi + e_lo.
  real e = 0, e_abs_err = 0;
  abs_error<<<blocks, THREADS>>>(d_phi, d_ref_hi, d_ref_lo, n, d_err);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_err, d_err, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d_ref_hi, &e_hi, sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ref_lo, &e_lo, sizeof(real), cudaMemcpyHostToDevice));
  abs_error<<<1, THREADS>>>(d_e, d_ref_hi, d_ref_lo, 1, d_err);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&e_abs_err, d_err, sizeof(real), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&e, d_e, sizeof(real), cudaMemcpyDeviceToHost));
  double sq = 0;
  for (int i = 0; i < n; i++)
    sq += (double)h_err[i] * (double)h_err[i];

  printf("# sum_product variant=%s n=%d box=10 charges=+-(0.5,1) reference=host_long_double\n",
         variant, n);
  printf("n,phi_rel_err,energy,energy_ref,energy_rel_err,matrix_ms,matvec_ms,energy_ms\n");
  printf("%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e\n", n, sqrt(sq / (double)norm_ref), (double)e,
         (double)e_ref, (double)e_abs_err / fabs((double)e_ref), matrix_ms, matvec_ms, energy_ms);

  CHECK(cudaEventDestroy(t0));
  CHECK(cudaEventDestroy(t1));
  CHECK(cudaEventDestroy(t2));
  CHECK(cudaEventDestroy(t3));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_q));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_phi));
  CHECK(cudaFree(d_e));
  CHECK(cudaFree(d_ref_hi));
  CHECK(cudaFree(d_ref_lo));
  CHECK(cudaFree(d_err));
  free(h);
  free(phi_ref);
  return 0;
}
