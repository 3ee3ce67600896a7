// bench/math/exp_log.cu: the composite exp and log (cp/math.cuh, ff backend) against float's
// expf/logf, the intrinsics __expf/__logf and double's exp/log, on the same GPU in one run.
// Each thread evaluates the function at 32 arguments of its own (a pair read from memory,
// so no half of it is a constant the compiler could fold) and sums both halves of the
// results into floats: compute-bound, one store per thread. Prints the median time of 7
// launches and its ratio to float's and double's.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/math/exp_log.cu -o exp_log
//   ./exp_log
// With -DCP_BENCH_FPMP -I CCCL_INCLUDE (the cuda-cccl wheel's cuda/cccl/headers/include,
// as bench/fpmp/run.sh build installs it), CCCL fpmp's exp and log (fp32mp2, its mid level)
// are timed beside, on the same pairs (hi + lo added in fp32mp2).
#define CP_BACKEND CP_BACKEND_FF
#include <cp/cp.cuh>

#ifdef CP_BENCH_FPMP /* CCCL's <cuda/fpmp> beside: -DCP_BENCH_FPMP -I CCCL_INCLUDE (bench/fpmp) */
#include <cuda/fpmp>
#include <cuda/fpmp_math>
namespace fx = cuda::experimental;
#endif

#include <cstdio>
#include <vector>

#include "timing.cuh"

#define K 32

enum { F_EXPF, F_FAST_EXPF, F_DEXP, F_LOW_EXP, F_MID_EXP, F_HIGH_EXP, F_FPMP_EXP,
       F_LOGF, F_FAST_LOGF, F_DLOG, F_LOW_LOG, F_MID_LOG, F_HIGH_LOG, F_FPMP_LOG, F_N };
static const char *names[F_N] = {"expf", "__expf", "exp (double)", "cp_low_exp", "cp_mid_exp",
                                 "cp_high_exp", "fpmp exp", "logf", "__logf", "log (double)",
                                 "cp_low_log", "cp_mid_log", "cp_high_log", "fpmp log"};

template <int W>
__global__ void bench(const float *xv, const float *xe, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = xv[i], e = xe[i], sv = 0.0f, se = 0.0f;
  double sd = 0.0;
  for (int k = 0; k < K; k++) {
    float a = W < F_LOGF ? v + 0.25f * k : v * (1.0f + 0.125f * k); /* exp: [-80, 88]; log: > 0 */
    cp_float x = {a, e};
    switch (W) {
    case F_EXPF: sv += expf(a); break;
    case F_FAST_EXPF: sv += __expf(a); break;
    case F_DEXP: sd += exp((double)a + e); break;
    case F_LOW_EXP: { cp_float r = cp_low_exp(x); sv += r.v; se += r.e; } break;
    case F_MID_EXP: { cp_float r = cp_mid_exp(x); sv += r.v; se += r.e; } break;
    case F_HIGH_EXP: { cp_float r = cp_high_exp(x); sv += r.v; se += r.e; } break;
#ifdef CP_BENCH_FPMP
    case F_FPMP_EXP: { fx::fp32mp2 r = fx::exp(fx::fp32mp2(a) + fx::fp32mp2(e)); sv += r.hi(); se += r.lo(); } break;
    case F_FPMP_LOG: { fx::fp32mp2 r = fx::log(fx::fp32mp2(a) + fx::fp32mp2(e)); sv += r.hi(); se += r.lo(); } break;
#endif
    case F_LOGF: sv += logf(a); break;
    case F_FAST_LOGF: sv += __logf(a); break;
    case F_DLOG: sd += log((double)a + e); break;
    case F_LOW_LOG: { cp_float r = cp_low_log(x); sv += r.v; se += r.e; } break;
    case F_MID_LOG: { cp_float r = cp_mid_log(x); sv += r.v; se += r.e; } break;
    case F_HIGH_LOG: { cp_float r = cp_high_log(x); sv += r.v; se += r.e; } break;
    }
  }
  out[i] = sv + se + (float)sd;
}

template <int W>
static float timed(const float *xv, const float *xe, float *out, int n) {
  return cp_bench_median_ms([&] { bench<W><<<(n + 255) / 256, 256>>>(xv, xe, out, n); });
}

template <int W> static void all(float *t, const float *xv, const float *xe, float *out, int n) {
  t[W] = timed<W>(xv, xe, out, n);
  if constexpr (W + 1 < F_N)
    all<W + 1>(t, xv, xe, out, n);
}

int main() {
  const int n = 1 << 24;
  std::vector<float> hv(n), he(n);
  unsigned s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    float u = (s >> 8) * (1.0f / 16777216.0f);
    hv[i] = 1e-3f + 80.0f * u;           /* exp: to about 88 with k*0.25; log: positive */
    he[i] = hv[i] * 1e-8f * (u - 0.5f); /* an error half below half an ulp */
  }
  float *xv, *xe, *out;
  cudaMalloc(&xv, n * sizeof(float));
  cudaMalloc(&xe, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(xv, hv.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(xe, he.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  float first[F_N];
  all<0>(first, xv, xe, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%s, %d x %d evaluations, median of 7 launches\n", p.name, n, K);
  printf("%-14s %10s %10s %10s %12s\n", "function", "ms", "x float", "x double", "G eval/s");
  for (int w = 0; w < F_N; w++) {
#ifndef CP_BENCH_FPMP
    if (w == F_FPMP_EXP || w == F_FPMP_LOG)
      continue;
#endif
    int base = w < F_LOGF ? F_EXPF : F_LOGF, dbl = w < F_LOGF ? F_DEXP : F_DLOG;
    printf("%-14s %10.3f %10.2f %10.2f %12.1f\n", names[w], first[w], first[w] / first[base],
           first[w] / first[dbl], (double)n * K / (first[w] * 1e6));
  }
  return 0;
}
