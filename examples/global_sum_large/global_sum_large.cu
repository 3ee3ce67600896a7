// Global summation of 10^7 values against an exact reference (the large companion of
// examples/global_sum, after Saponaro/Taufer's summation tables).
//
// Three data sets of n positive values, uniformly random in a range: "small" in
// (1e-1, 1e0), "large" in (1e6, 1e7), "mixed" (each value from either range with equal
// probability), in a shuffled order. Each is summed by 1, 1024 and 2^20 threads: every
// thread sums a strided slice into a local accumulator and adds it into one global total.
// The reference is summed on the host in long double (64-bit mantissa; its own error is
// below 1e-18 relative, far under every variant's). A second kernel computes the residual
// (total - ref_hi) - ref_lo on the device, in the variant's own arithmetic, where
// ref_hi + ref_lo is the reference split into two reals; so the composite total is never
// rounded to one float before it is compared.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 global_sum_large.cu -o gsl_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE global_sum_large.cu -o gsl_double
//   composite:  cpconvert global_sum_large.cu -o global_sum_large_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include global_sum_large_cp.cu \
//                    -o gsl_cp
//   hand-written float-float (TwoSum by hand, not converted):
//               nvcc -O3 -arch=sm_90 -DHAND_FF global_sum_large.cu -o gsl_hand_ff
//   the same, renormalised every add (the converted kernel's accuracy): add -DHAND_FF_NORM
//   run:        ./gsl_float [n=10000000]          quick setting: ./gsl_float 100000
//
// Run time at n = 10^7, measured on an H100 (whole program, host work included): float
// 2.1 s, hand-written float-float 2.0 s, composite 3.0 s, double 3.3 s. The single-thread
// cells dominate the GPU time (one dependent chain of n adds: 0.7 s per set in composite).
//
// Output: CSV `set,threads,sum,reference,abs_err,rel_err,time_ms`: sum is total rounded to
// double (for reading only), abs_err = |residual|, rel_err = abs_err / reference.
#include <cstdio>
#include <cstdlib>

#if defined(HAND_FF) && defined(REAL_DOUBLE)
#error "HAND_FF is the float-float variant: build it without REAL_DOUBLE"
#endif
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

#ifndef HAND_FF
#pragma cp composite
__global__ void global_sum(const real *x, int n, real *total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  real s = 0;
  for (int i = t; i < n; i += stride)
    s += x[i];
  atomicAdd(total, s);
}

// res[0] = (total - ref_hi) - ref_lo, one thread.
#pragma cp composite
__global__ void residual(const real *total, real ref_hi, real ref_lo, real *res) {
  res[0] = total[0] - ref_hi - ref_lo;
}
#else
// Float-float by hand: s + c is the running sum, TwoSum (Knuth) keeps each add's rounding
// error exactly. __fadd_rn/__fsub_rn are never contracted or reassociated by nvcc.
__device__ void two_sum(float a, float b, float *s, float *e) {
  float z = __fadd_rn(a, b);
  float t = __fsub_rn(z, a);
  *s = z;
  *e = __fadd_rn(__fsub_rn(a, __fsub_rn(z, t)), __fsub_rn(b, t));
}

// With HAND_FF_NORM the running pair is renormalised after every add (DWPlusFP, the
// algorithm of the converted kernel's cp_add_cf, without its special-value check): the
// hand-written kernel of the converted one's accuracy. Without it, c is never folded back
// and its own rounding grows with the chain (4e-7 relative on one thread of 10^7 adds).
__global__ void global_sum_ff(const float *x, int n, float *total, float *total_err) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  float s = 0.0f, c = 0.0f, e;
  for (int i = t; i < n; i += stride) {
    two_sum(s, x[i], &s, &e);
    c = __fadd_rn(c, e);
#ifdef HAND_FF_NORM
    float z = __fadd_rn(s, c);                 // Fast2Sum: |s| >= |c|
    c = __fsub_rn(c, __fsub_rn(z, s));
    s = z;
#endif
  }
  two_sum(s, c, &s, &c);                       // renormalize before the atomic
  float old = atomicAdd(total, s);             // the old value makes the lost part exact
  float nv, lost;
  two_sum(old, s, &nv, &lost);
  atomicAdd(total_err, __fadd_rn(lost, c));
}

__global__ void residual_ff(const float *total, const float *total_err, float ref_hi,
                            float ref_lo, float *res) {
  float s, e;
  two_sum(total[0], -ref_hi, &s, &e);
  res[0] = __fadd_rn(s, __fsub_rn(__fadd_rn(e, total_err[0]), ref_lo));
}
#endif

static double uniform01(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

// Set 0 small, 1 large, 2 mixed; shuffled (Fisher-Yates, fixed seed); returns the sum of
// the values as stored (rounded to real), in long double.
static long double make_set(real *x, int n, int set) {
  unsigned long long state = 2026 + set;
  long double ref = 0;
  for (int i = 0; i < n; i++) {
    int big = set == 1 || (set == 2 && uniform01(&state) < 0.5);
    double lo = big ? 1e6 : 1e-1;
    x[i] = (real)(lo + 9 * lo * uniform01(&state));
  }
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(uniform01(&state) * (i + 1));
    real t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
  for (int i = 0; i < n; i++)
    ref += (long double)x[i];
  return ref;
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  int n = argc > 1 ? atoi(argv[1]) : 10000000;
  if (n < 1) {
    fprintf(stderr, "usage: %s [n=10000000]\n", argv[0]);
    return 2;
  }
  const char *sets[] = {"small", "large", "mixed"};
  const int threads[] = {1, 1024, 1 << 20};
#if defined(HAND_FF) && defined(HAND_FF_NORM)
  const char *variant = "hand_ff_norm";
#elif defined(HAND_FF)
  const char *variant = "hand_ff";
#elif defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  real *h_x = (real *)malloc((size_t)n * sizeof(real));

  real *d_x, *d_total, *d_res;
  CHECK(cudaMalloc(&d_x, (size_t)n * sizeof(real)));
  CHECK(cudaMalloc(&d_total, sizeof(real)));
  CHECK(cudaMalloc(&d_res, sizeof(real)));
#ifdef HAND_FF
  float *d_total_ff_err;
  CHECK(cudaMalloc(&d_total_ff_err, sizeof(float)));
#endif
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  printf("# global_sum_large variant=%s n=%d small=(1e-1,1e0) large=(1e6,1e7) "
         "reference=host_long_double\n", variant, n);
  printf("set,threads,sum,reference,abs_err,rel_err,time_ms\n");
  for (int s = 0; s < 3; s++) {
    long double ref = make_set(h_x, n, s);
    real ref_hi = (real)ref, ref_lo = (real)(ref - (long double)ref_hi);
    CHECK(cudaMemcpy(d_x, h_x, (size_t)n * sizeof(real), cudaMemcpyHostToDevice));
    for (int k = 0; k < 3; k++) {
      int block = threads[k] < 256 ? threads[k] : 256;
      int grid = (threads[k] + block - 1) / block;
      real total = 0, res = 0;
      float ms = 0;
      CHECK(cudaMemset(d_total, 0, sizeof(real)));
#ifdef HAND_FF
      float total_err = 0;
      CHECK(cudaMemset(d_total_ff_err, 0, sizeof(float)));
      CHECK(cudaEventRecord(start));
      global_sum_ff<<<grid, block>>>(d_x, n, d_total, d_total_ff_err);
      CHECK(cudaEventRecord(stop));
      residual_ff<<<1, 1>>>(d_total, d_total_ff_err, ref_hi, ref_lo, d_res);
      CHECK(cudaMemcpy(&total_err, d_total_ff_err, sizeof(float), cudaMemcpyDeviceToHost));
#else
      CHECK(cudaEventRecord(start));
      global_sum<<<grid, block>>>(d_x, n, d_total);
      CHECK(cudaEventRecord(stop));
      residual<<<1, 1>>>(d_total, ref_hi, ref_lo, d_res);
#endif
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(&total, d_total, sizeof(real), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&res, d_res, sizeof(real), cudaMemcpyDeviceToHost));
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      double sum = (double)total;
#ifdef HAND_FF
      sum += (double)total_err;
#endif
      double err = res < 0 ? -(double)res : (double)res;
      printf("%s,%d,%.9e,%.9e,%.9e,%.9e,%.9e\n", sets[s], threads[k], sum, (double)ref, err,
             err / (double)ref, (double)ms);
    }
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_total));
  CHECK(cudaFree(d_res));
#ifdef HAND_FF
  CHECK(cudaFree(d_total_ff_err));
#endif
  free(h_x);
  return 0;
}
