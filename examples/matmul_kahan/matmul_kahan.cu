// Matrix product with a growing inner dimension: float, Kahan, composite and double
// (after Anderson et al.'s Kahan summation in GPU matrix products).
//
// C = A * B with A m x K, B K x n, entries uniform in (0, 1), for K = 256, 1024, 4096,
// 16384 and 65536 (up to kmax). The dot products' rounding errors grow with K in float;
// Kahan summation (float products, compensated sum) and composite precision (exact
// products, float-pair sums) keep them small. One thread per element of C.
//
// Accuracy: on a sample of 256 elements of C (a fixed pseudo-random set) the reference is
// computed on the host in long double (the products of two floats are exact in double, the
// long double sum keeps 64 bits). A second kernel computes each sample's relative error
// |c - ref| / ref on the device in the variant's own arithmetic (ref passed as two reals,
// hi + lo), so a composite c is compared before it is rounded to one float.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 matmul_kahan.cu -o mk_float
//               (nvcc contracts the multiply-add into an FMA, as float code gets by default)
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE matmul_kahan.cu -o mk_double
//   composite:  cpconvert matmul_kahan.cu -o matmul_kahan_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include matmul_kahan_cp.cu -o mk_cp
//   Kahan:      cpconvert -DKAHAN matmul_kahan.cu -o matmul_kahan_kahan.cu
//               nvcc -O3 -arch=sm_90 -DKAHAN -I<cpconvert>/runtime/include \
//                    matmul_kahan_kahan.cu -o mk_kahan
//               (-DKAHAN selects the pragma `scope(accumulators) accumulate(kahan)`: the
//               products stay float, the sum is Kahan's; the result is stored as the pair
//               (sum, -compensation). nvcc needs -DKAHAN only for the variant's name.)
//   run:        ./mk_float [m=256] [n=256] [kmax=65536]
//               quick setting: ./mk_float 64 64 16384
//
// Run time at full size (m * n * sum of the K = 5.7e9 multiply-adds), measured on an H100:
// under 1 s per variant, whole program; the product kernels take 5 ms (float), 10 ms
// (Kahan, double) and 35 ms (composite) in all.
//
// Output: CSV `K,samples,mean_rel_err,max_rel_err,time_ms,gflops` (time of the product
// kernel, cudaEvents; gflops = 2 m n K / time).
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

#define SAMPLES 256

// c = a * b; a is m x k with row stride lda, b is k x n, c is m x n (row-major).
#ifdef KAHAN
#pragma cp composite scope(accumulators) accumulate(kahan)
#else
#pragma cp composite
#endif
__global__ void matmul(const real *a, const real *b, real *c, int m, int n, int k, int lda) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n) return;
  real s = 0;
  for (int p = 0; p < k; p++)
    s += a[i * lda + p] * b[p * n + j];
  c[i * n + j] = s;
}

// Relative error of the sampled elements; ref = ref_hi + ref_lo > 0.
#pragma cp composite
__global__ void sample_error(const real *c, const int *idx, const real *ref_hi,
                             const real *ref_lo, int samples, real *err) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= samples) return;
  real ref = ref_hi[s] + ref_lo[s];
  err[s] = fabs(c[idx[s]] - ref) / ref;
}

static double uniform01(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  int m = argc > 1 ? atoi(argv[1]) : 256;
  int n = argc > 2 ? atoi(argv[2]) : 256;
  int kmax = argc > 3 ? atoi(argv[3]) : 65536;
  if (m < 1 || n < 1 || kmax < 256) {
    fprintf(stderr, "usage: %s [m=256] [n=256] [kmax=65536, >= 256]\n", argv[0]);
    return 2;
  }
#if defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(KAHAN)
  const char *variant = "kahan";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  size_t asize = (size_t)m * kmax, bsize = (size_t)kmax * n, csize = (size_t)m * n;
  real *h_a = (real *)malloc(asize * sizeof(real));
  real *h_b = (real *)malloc(bsize * sizeof(real));
  real *h_ref = (real *)malloc(2 * SAMPLES * sizeof(real));
  real *h_err = (real *)malloc(SAMPLES * sizeof(real));
  int *h_idx = (int *)malloc(SAMPLES * sizeof(int));
  unsigned long long state = 7;
  for (size_t i = 0; i < asize; i++)
    h_a[i] = (real)(float)uniform01(&state);
  for (size_t i = 0; i < bsize; i++)
    h_b[i] = (real)(float)uniform01(&state);
  for (int s = 0; s < SAMPLES; s++)
    h_idx[s] = (int)(uniform01(&state) * csize);

  real *d_a, *d_b, *d_c, *d_ref_hi, *d_ref_lo, *d_err;
  int *d_idx;
  CHECK(cudaMalloc(&d_a, asize * sizeof(real)));
  CHECK(cudaMalloc(&d_b, bsize * sizeof(real)));
  CHECK(cudaMalloc(&d_c, csize * sizeof(real)));
  CHECK(cudaMalloc(&d_ref_hi, SAMPLES * sizeof(real)));
  CHECK(cudaMalloc(&d_ref_lo, SAMPLES * sizeof(real)));
  CHECK(cudaMalloc(&d_err, SAMPLES * sizeof(real)));
  CHECK(cudaMalloc(&d_idx, SAMPLES * sizeof(int)));
  CHECK(cudaMemcpy(d_a, h_a, asize * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b, bsize * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_idx, h_idx, SAMPLES * sizeof(int), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  printf("# matmul_kahan variant=%s m=%d n=%d entries=(0,1) samples=%d "
         "reference=host_long_double\n", variant, m, n, SAMPLES);
  printf("K,samples,mean_rel_err,max_rel_err,time_ms,gflops\n");
  dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
  for (int k = 256; k <= kmax; k *= 4) {
    for (int s = 0; s < SAMPLES; s++) {
      int i = h_idx[s] / n, j = h_idx[s] % n;
      long double r = 0;
      for (int p = 0; p < k; p++)
        r += (long double)h_a[(size_t)i * kmax + p] * (long double)h_b[(size_t)p * n + j];
      h_ref[s] = (real)r;
      h_ref[SAMPLES + s] = (real)(r - (long double)h_ref[s]);
    }
    CHECK(cudaMemcpy(d_ref_hi, h_ref, SAMPLES * sizeof(real), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_ref_lo, h_ref + SAMPLES, SAMPLES * sizeof(real), cudaMemcpyHostToDevice));

    float ms = 0;
    CHECK(cudaEventRecord(start));
    matmul<<<grid, block>>>(d_a, d_b, d_c, m, n, k, kmax);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaGetLastError());
    sample_error<<<1, SAMPLES>>>(d_c, d_idx, d_ref_hi, d_ref_lo, SAMPLES, d_err);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_err, d_err, SAMPLES * sizeof(real), cudaMemcpyDeviceToHost));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    double mean = 0, max = 0;
    for (int s = 0; s < SAMPLES; s++) {
      double e = (double)h_err[s];
      mean += e / SAMPLES;
      max = e > max ? e : max;
    }
    printf("%d,%d,%.9e,%.9e,%.9e,%.9e\n", k, SAMPLES, mean, max, (double)ms,
           2.0 * m * n * k / (ms * 1e6));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  CHECK(cudaFree(d_ref_hi));
  CHECK(cudaFree(d_ref_lo));
  CHECK(cudaFree(d_err));
  CHECK(cudaFree(d_idx));
  free(h_a);
  free(h_b);
  free(h_ref);
  free(h_err);
  free(h_idx);
  return 0;
}
