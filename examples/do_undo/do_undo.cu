// Do/undo: multiply and divide by the same number, a million times (Saponaro/Taufer's
// synthetic test, the thesis' do/undo table and drift figure).
//
// Each of `trials` threads starts from x0 in [1, 2) and repeats, for `iters` iterations,
//   op "muldiv":  x = (x * y) / y        or    op "divmul":  x = (x / y) * y
// with y taken from a table of random values in one of three ranges, (1e-3, 1), (1, 1e3)
// and (1e3, 1e6) (thread t at iteration i uses y[(i + t) mod table size], so loads are
// coalesced). In exact arithmetic x never moves; in float every operation rounds and x
// walks away from x0. Every `every` iterations the kernel writes each trial's drift
// |x - x0| / |x0|, computed on the device in the variant's own arithmetic (so a composite x
// is compared before it is rounded to one float), and the host prints the mean and the
// maximum over the trials. All variants see the same x0 and y (generated as floats).
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 do_undo.cu -o du_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE do_undo.cu -o du_double
//   composite:  cpconvert do_undo.cu -o do_undo_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include do_undo_cp.cu -o du_cp
//               (cpconvert --algo paper: the thesis' own algorithms, whose mul keeps no
//               error of its own rounding)
//   run:        ./du_float [iters=1000000] [every=10000] [trials=4096]
//               quick setting: ./du_float 100000 1000 1024
//
// Run time at full size, measured on an H100 (whole program): float 0.8 s, double 1.1 s,
// composite 1.8 s. Each thread runs one dependent chain of 2 * iters operations, so the run
// is latency-bound and nearly independent of `trials` up to a few ten thousand.
//
// Output: CSV `op,y_range,iter,mean_drift,max_drift,time_ms`; time_ms is the kernel time
// of that (op, range) so far (cudaEvents); the row with iter = iters is the final drift.
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

// `iters` do/undo steps from iteration `first`, then each trial's drift.
#pragma cp composite
__global__ void do_undo(real *x, const real *x0, const real *y, int mask, int first,
                        int iters, int op, real *drift, int trials) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= trials) return;
  real v = x[t];
  for (int i = 0; i < iters; i++) {
    real yi = y[(first + i + t) & mask];
    if (op == 0)
      v = v * yi / yi;
    else
      v = v / yi * yi;
  }
  x[t] = v;
  drift[t] = fabs(v - x0[t]) / fabs(x0[t]);
}

static double uniform01(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  int iters = argc > 1 ? atoi(argv[1]) : 1000000;
  int every = argc > 2 ? atoi(argv[2]) : 10000;
  int trials = argc > 3 ? atoi(argv[3]) : 4096;
  if (iters < 1 || every < 1 || trials < 1) {
    fprintf(stderr, "usage: %s [iters=1000000] [every=10000] [trials=4096]\n", argv[0]);
    return 2;
  }
  const int table = 1 << 20;                   // y values per range (a power of 2)
  const char *ops[] = {"muldiv", "divmul"};
  const char *ranges[] = {"1e-3:1", "1:1e3", "1e3:1e6"};
  const double lo[] = {1e-3, 1.0, 1e3}, hi[] = {1.0, 1e3, 1e6};
#if defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  real *h_x0 = (real *)malloc(trials * sizeof(real));
  real *h_y = (real *)malloc(table * sizeof(real));
  real *h_drift = (real *)malloc(trials * sizeof(real));
  unsigned long long state = 42;
  for (int t = 0; t < trials; t++)
    h_x0[t] = (real)(float)(1.0 + uniform01(&state));

  real *d_x, *d_x0, *d_y, *d_drift;
  CHECK(cudaMalloc(&d_x, trials * sizeof(real)));
  CHECK(cudaMalloc(&d_x0, trials * sizeof(real)));
  CHECK(cudaMalloc(&d_y, table * sizeof(real)));
  CHECK(cudaMalloc(&d_drift, trials * sizeof(real)));
  CHECK(cudaMemcpy(d_x0, h_x0, trials * sizeof(real), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  printf("# do_undo variant=%s iters=%d every=%d trials=%d x0=[1,2)\n", variant, iters,
         every, trials);
  printf("op,y_range,iter,mean_drift,max_drift,time_ms\n");
  int block = 128, grid = (trials + block - 1) / block;
  for (int op = 0; op < 2; op++) {
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < table; k++)
        h_y[k] = (real)(float)(lo[r] + (hi[r] - lo[r]) * uniform01(&state));
      CHECK(cudaMemcpy(d_y, h_y, table * sizeof(real), cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(d_x, h_x0, trials * sizeof(real), cudaMemcpyHostToDevice));
      double total_ms = 0;
      for (int first = 0; first < iters; first += every) {
        int n = iters - first < every ? iters - first : every;
        float ms = 0;
        CHECK(cudaEventRecord(start));
        do_undo<<<grid, block>>>(d_x, d_x0, d_y, table - 1, first, n, op, d_drift, trials);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_drift, d_drift, trials * sizeof(real), cudaMemcpyDeviceToHost));
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        total_ms += ms;
        double mean = 0, max = 0;
        for (int t = 0; t < trials; t++) {
          double d = (double)h_drift[t];
          mean += d / trials;
          max = d > max ? d : max;
        }
        printf("%s,%s,%d,%.9e,%.9e,%.9e\n", ops[op], ranges[r], first + n, mean, max,
               total_ms);
      }
    }
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_x0));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_drift));
  free(h_x0);
  free(h_y);
  free(h_drift);
  return 0;
}
