// Global summation of values that cancel (Saponaro/Taufer's synthetic test).
//
// 1000 values of magnitude 1e6 and 1e-6 come in +/- pairs, so the exact sum is 0.
// They are summed in 6 orders (4 shuffles with fixed seeds, ascending, descending) by
// 1, 10, 100 and 1000 threads: 24 cells. Each thread sums a strided slice of the array
// into a local accumulator and adds its partial sum into one global total. In float the
// large values swamp the small ones and the total is far from 0; in composite precision
// the lost low-order parts are kept and the total comes out near 0.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 global_sum.cu -o gs_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE global_sum.cu -o gs_double
//   composite:  cpconvert global_sum.cu -o global_sum_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include global_sum_cp.cu -o gs_cp
//   hand-written float-float (TwoSum by hand, not converted; the converted code should
//   lose nothing against it):
//               nvcc -O3 -arch=sm_90 -DHAND_FF global_sum.cu -o gs_hand_ff
//   run:        ./gs_float [n=1000]     (n even; the default is also the quick setting:
//               measured on an H100, under 0.5 s per variant, start-up included)
//
// Output: CSV `order,threads,abs_sum,time_ms`, one row per cell; abs_sum is |sum| (the
// exact sum is 0), time_ms the kernel time of that cell (cudaEvents).
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
#else
// Float-float by hand: s + c is the running sum, TwoSum (Knuth) keeps each add's rounding
// error exactly. __fadd_rn/__fsub_rn are never contracted or reassociated by nvcc.
__device__ void two_sum(float a, float b, float *s, float *e) {
  float z = __fadd_rn(a, b);
  float t = __fsub_rn(z, a);
  *s = z;
  *e = __fadd_rn(__fsub_rn(a, __fsub_rn(z, t)), __fsub_rn(b, t));
}

__global__ void global_sum_ff(const float *x, int n, float *total, float *total_err) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  float s = 0.0f, c = 0.0f, e;
  for (int i = t; i < n; i += stride) {
    two_sum(s, x[i], &s, &e);
    c = __fadd_rn(c, e);
  }
  two_sum(s, c, &s, &c);                       // renormalize before the atomic
  float old = atomicAdd(total, s);             // the old value makes the lost part exact
  float nv, lost;
  two_sum(old, s, &nv, &lost);
  atomicAdd(total_err, __fadd_rn(lost, c));
}
#endif

// x_i = 1 + (x_i mod 2^31) / 2^31 from a 64-bit LCG: the same on every host.
static double uniform12(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return 1.0 + (double)(*state >> 33) / 2147483648.0;
}

// Values in +/- pairs (exact sum 0): pair k has magnitude 1e6 (k odd) or 1e-6 (k even).
static void make_values(real *x, int n) {
  unsigned long long state = 12345;
  for (int i = 0; i + 1 < n; i += 2) {
    double m = (i / 2) % 2 ? 1e6 : 1e-6;
    real v = (real)(m * uniform12(&state));
    x[i] = v;
    x[i + 1] = -v;
  }
}

static void shuffle(real *x, int n, unsigned long long seed) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)((uniform12(&seed) - 1.0) * (i + 1));
    real t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
}

static int ascending(const void *a, const void *b) {
  real u = *(const real *)a, v = *(const real *)b;
  return (u > v) - (u < v);
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

// Order o: 0-3 shuffles with seeds 1-4, 4 ascending, 5 descending (by signed value).
static void make_order(real *x, int n, int o) {
  make_values(x, n);
  if (o < 4)
    shuffle(x, n, (unsigned long long)(o + 1));
  else
    qsort(x, n, sizeof(real), o == 4 ? ascending : descending);
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  if (n < 2 || n % 2) {
    fprintf(stderr, "usage: %s [n=1000, even]\n", argv[0]);
    return 2;
  }
  const char *orders[] = {"shuffle1", "shuffle2", "shuffle3", "shuffle4", "ascending",
                          "descending"};
  const int threads[] = {1, 10, 100, 1000};
#if defined(HAND_FF)
  const char *variant = "hand_ff";
#elif defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  real *h_x = (real *)malloc(n * sizeof(real));

  real *d_x, *d_total;
  CHECK(cudaMalloc(&d_x, n * sizeof(real)));
  CHECK(cudaMalloc(&d_total, sizeof(real)));
#ifdef HAND_FF
  float *d_total_ff_err;
  CHECK(cudaMalloc(&d_total_ff_err, sizeof(float)));
#endif
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  printf("# global_sum variant=%s n=%d magnitudes=1e6,1e-6 exact_sum=0\n", variant, n);
  printf("order,threads,abs_sum,time_ms\n");
  for (int o = 0; o < 6; o++) {
    make_order(h_x, n, o);
    CHECK(cudaMemcpy(d_x, h_x, n * sizeof(real), cudaMemcpyHostToDevice));
    for (int k = 0; k < 4; k++) {
      int block = threads[k] < 100 ? threads[k] : 100;
      int grid = (threads[k] + block - 1) / block;
      real total = 0;
      float ms = 0;
      CHECK(cudaMemset(d_total, 0, sizeof(real)));
#ifdef HAND_FF
      float total_err = 0;
      CHECK(cudaMemset(d_total_ff_err, 0, sizeof(float)));
      CHECK(cudaEventRecord(start));
      global_sum_ff<<<grid, block>>>(d_x, n, d_total, d_total_ff_err);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaMemcpy(&total_err, d_total_ff_err, sizeof(float), cudaMemcpyDeviceToHost));
#else
      CHECK(cudaEventRecord(start));
      global_sum<<<grid, block>>>(d_x, n, d_total);
      CHECK(cudaEventRecord(stop));
#endif
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(&total, d_total, sizeof(real), cudaMemcpyDeviceToHost));
#ifdef HAND_FF
      total += total_err;                      // the final value+error recombination
#endif
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      printf("%s,%d,%.9e,%.9e\n", orders[o], threads[k], total < 0 ? -(double)total : (double)total,
             (double)ms);
    }
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_total));
#ifdef HAND_FF
  CHECK(cudaFree(d_total_ff_err));
#endif
  free(h_x);
  return 0;
}
