// bench/math/exp.cu: the composite exp2, exp10, expm1, log2, log10, log1p and pow
// (cp/math_exp.cuh, ff backend) against float's functions, the intrinsics (__exp10f,
// __log2f, __log10f, __powf), double's functions and, with -DCP_BENCH_FPMP, CCCL fpmp's
// (fp32mp2, its mid level), on the same GPU in one run. As exp_log.cu: each thread
// evaluates the function at 32 arguments of its own (made from a value read from memory, so
// nothing folds) and sums both halves of the results; median of 7 launches. Prints one line
// per variant: its time and its ratio to the float function, to double and to fpmp.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/math/exp.cu -o exp
//   ./exp
// With -DCP_BENCH_FPMP -I CCCL_INCLUDE (as exp_log.cu), fpmp's functions are timed beside.
#define CP_BACKEND CP_BACKEND_FF
#include <cp/cp.cuh>

#ifdef CP_BENCH_FPMP
#include <cuda/fpmp>
#include <cuda/fpmp_math>
namespace fx = cuda::experimental;
#endif

#include <cstdio>
#include <vector>

#include "timing.cuh"

#define K 32

/* variants of one function, in this order; a group per function */
enum { S_FLOAT, S_INTR, S_DOUBLE, S_LOW, S_MID, S_HIGH, S_FPMP, S_N };
enum { G_EXP2, G_EXP10, G_EXPM1, G_LOG2, G_LOG10, G_LOG1P, G_POW, G_N };
static const char *gnames[G_N] = {"exp2", "exp10", "expm1", "log2", "log10", "log1p", "pow"};
static const char *intr[G_N] = {NULL, "__exp10f", NULL, "__log2f", "__log10f", NULL, "__powf"};

/* The argument of evaluation k from u in [0, 1): exp2 [-100, 100], exp10 [-30, 30], expm1
 * [-4, 4], the logarithms (0, 4000), log1p (-0.5, 4000), pow x in [0.1, 10], y = 2.5 + 0.37 k. */
__device__ float arg(int g, float u, int k) {
  switch (g) {
  case G_EXP2: return -100.0f + 200.0f * u + 0.03f * k;
  case G_EXP10: return -30.0f + 60.0f * u + 0.01f * k;
  case G_EXPM1: return -4.0f + 8.0f * u + 0.001f * k;
  case G_LOG1P: return -0.5f + 50.0f * u * (1.0f + 0.125f * k);
  case G_POW: return 0.1f + 9.9f * u * (1.0f - 0.01f * k);
  default: return 1e-3f + 50.0f * u * (1.0f + 0.125f * k);
  }
}

#define CP_ADD(r) { cp_float q_ = (r); sv += q_.v; se += q_.e; }
#define FP_ADD(r) { fx::fp32mp2 q_ = (r); sv += q_.hi(); se += q_.lo(); }

template <int W>
__global__ void bench(const float *xu, const float *xr, float *out, int n) {
  constexpr int g = W / S_N, s = W % S_N;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float u = xu[i], rel = xr[i], sv = 0.0f, se = 0.0f;
  double sd = 0.0;
  for (int k = 0; k < K; k++) {
    float a = arg(g, u, k), e = a * rel, b = 2.5f + 0.37f * k;
    cp_float x = {a, e}, y = {b, 0.0f};
    (void)x; (void)y;
    if constexpr (s == S_FLOAT) {
      if constexpr (g == G_EXP2) sv += exp2f(a);
      if constexpr (g == G_EXP10) sv += exp10f(a);
      if constexpr (g == G_EXPM1) sv += expm1f(a);
      if constexpr (g == G_LOG2) sv += log2f(a);
      if constexpr (g == G_LOG10) sv += log10f(a);
      if constexpr (g == G_LOG1P) sv += log1pf(a);
      if constexpr (g == G_POW) sv += powf(a, b);
    } else if constexpr (s == S_INTR) {
      if constexpr (g == G_EXP10) sv += __exp10f(a);
      if constexpr (g == G_LOG2) sv += __log2f(a);
      if constexpr (g == G_LOG10) sv += __log10f(a);
      if constexpr (g == G_POW) sv += __powf(a, b);
    } else if constexpr (s == S_DOUBLE) {
      double d = (double)a + e;
      if constexpr (g == G_EXP2) sd += exp2(d);
      if constexpr (g == G_EXP10) sd += exp10(d);
      if constexpr (g == G_EXPM1) sd += expm1(d);
      if constexpr (g == G_LOG2) sd += log2(d);
      if constexpr (g == G_LOG10) sd += log10(d);
      if constexpr (g == G_LOG1P) sd += log1p(d);
      if constexpr (g == G_POW) sd += pow(d, (double)b);
    } else if constexpr (s == S_LOW) {
      if constexpr (g == G_EXP2) CP_ADD(cp_low_exp2(x));
      if constexpr (g == G_EXP10) CP_ADD(cp_low_exp10(x));
      if constexpr (g == G_EXPM1) CP_ADD(cp_low_expm1(x));
      if constexpr (g == G_LOG2) CP_ADD(cp_low_log2(x));
      if constexpr (g == G_LOG10) CP_ADD(cp_low_log10(x));
      if constexpr (g == G_LOG1P) CP_ADD(cp_low_log1p(x));
      if constexpr (g == G_POW) CP_ADD(cp_low_pow(x, y));
    } else if constexpr (s == S_MID) {
      if constexpr (g == G_EXP2) CP_ADD(cp_mid_exp2(x));
      if constexpr (g == G_EXP10) CP_ADD(cp_mid_exp10(x));
      if constexpr (g == G_EXPM1) CP_ADD(cp_mid_expm1(x));
      if constexpr (g == G_LOG2) CP_ADD(cp_mid_log2(x));
      if constexpr (g == G_LOG10) CP_ADD(cp_mid_log10(x));
      if constexpr (g == G_LOG1P) CP_ADD(cp_mid_log1p(x));
      if constexpr (g == G_POW) CP_ADD(cp_mid_pow(x, y));
    } else if constexpr (s == S_HIGH) {
      if constexpr (g == G_EXP2) CP_ADD(cp_high_exp2(x));
      if constexpr (g == G_EXP10) CP_ADD(cp_high_exp10(x));
      if constexpr (g == G_EXPM1) CP_ADD(cp_high_expm1(x));
      if constexpr (g == G_LOG2) CP_ADD(cp_high_log2(x));
      if constexpr (g == G_LOG10) CP_ADD(cp_high_log10(x));
      if constexpr (g == G_LOG1P) CP_ADD(cp_high_log1p(x));
      if constexpr (g == G_POW) CP_ADD(cp_high_pow(x, y));
    } else {
#ifdef CP_BENCH_FPMP
      fx::fp32mp2 fa = fx::fp32mp2(a) + fx::fp32mp2(e);
      if constexpr (g == G_EXP2) FP_ADD(fx::exp2(fa));
      if constexpr (g == G_EXP10) FP_ADD(fx::exp10(fa));
      if constexpr (g == G_EXPM1) FP_ADD(fx::expm1(fa));
      if constexpr (g == G_LOG2) FP_ADD(fx::log2(fa));
      if constexpr (g == G_LOG10) FP_ADD(fx::log10(fa));
      if constexpr (g == G_LOG1P) FP_ADD(fx::log1p(fa));
      if constexpr (g == G_POW) FP_ADD(fx::pow(fa, fx::fp32mp2(b)));
#endif
    }
  }
  out[i] = sv + se + (float)sd;
}

template <int W>
static float timed(const float *xu, const float *xr, float *out, int n) {
  return cp_bench_median_ms([&] { bench<W><<<(n + 255) / 256, 256>>>(xu, xr, out, n); });
}

static bool runs(int w) {
#ifndef CP_BENCH_FPMP
  if (w % S_N == S_FPMP)
    return false;
#endif
  return w % S_N != S_INTR || intr[w / S_N];
}

template <int W> static void all(float *t, const float *xu, const float *xr, float *out, int n) {
  t[W] = runs(W) ? timed<W>(xu, xr, out, n) : 0.0f;
  if constexpr (W + 1 < G_N * S_N)
    all<W + 1>(t, xu, xr, out, n);
}

int main() {
  const int n = 1 << 24;
  std::vector<float> hu(n), hr(n);
  unsigned s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    float u = (s >> 8) * (1.0f / 16777216.0f);
    hu[i] = u;
    hr[i] = 1e-8f * (u - 0.5f); /* the error half, relative: below half an ulp */
  }
  float *xu, *xr, *out;
  cudaMalloc(&xu, n * sizeof(float));
  cudaMalloc(&xr, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(xu, hu.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(xr, hr.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  static float t[G_N * S_N];
  all<0>(t, xu, xr, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%s, %d x %d evaluations, median of 7 launches\n", p.name, n, K);
  printf("%-16s %10s %10s %10s %10s %12s\n", "function", "ms", "x float", "x double", "x fpmp", "G eval/s");
  for (int w = 0; w < G_N * S_N; w++) {
    if (!runs(w))
      continue;
    int g = w / S_N, sl = w % S_N;
    char name[40];
    static const char *slot[S_N] = {"f", "", "(double)", "cp_low_", "cp_mid_", "cp_high_", "fpmp "};
    if (sl == S_FLOAT) snprintf(name, sizeof name, "%sf", gnames[g]);
    else if (sl == S_INTR) snprintf(name, sizeof name, "%s", intr[g]);
    else if (sl == S_DOUBLE) snprintf(name, sizeof name, "%s (double)", gnames[g]);
    else snprintf(name, sizeof name, "%s%s", slot[sl], gnames[g]);
    float fp = t[g * S_N + S_FPMP];
    printf("%-16s %10.3f %10.2f %10.2f %10.2f %12.1f\n", name, t[w], t[w] / t[g * S_N + S_FLOAT],
           t[w] / t[g * S_N + S_DOUBLE], fp > 0.0f ? t[w] / fp : 0.0f, (double)n * K / (t[w] * 1e6));
  }
  return 0;
}
