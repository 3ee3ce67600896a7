// bench/math/spec.cu: the composite sinh, cosh, tanh, erf, erfc, cbrt, hypot, rhypot, norm3d
// and rnorm3d (cp/math_spec.cuh, ff backend) against float's functions and double's, on the
// same GPU in one run (the method of exp_log.cu: each thread evaluates the function at 32
// arguments of its own, pairs read from memory, both result halves summed into floats;
// median of 7 launches). Prints, per variant: time, ratio to the float function, to the
// double function and to CCCL fpmp's (where built with it).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/math/spec.cu -o spec && ./spec
// With -DCP_BENCH_FPMP -I CCCL_INCLUDE, CCCL fpmp's functions (fp32mp2) are timed beside, on
// the same pairs; its hypot, rhypot, norm3d and rnorm3d compute in double.
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
enum { V_FLOAT, V_DOUBLE, V_LOW, V_MID, V_HIGH, V_FPMP, V_N };
enum { S_SINH, S_COSH, S_TANH, S_ERF, S_ERFC, S_CBRT, S_HYPOT, S_RHYPOT, S_NORM3D, S_RNORM3D, S_N };
static const char *fname[S_N] = {"sinh", "cosh", "tanh", "erf", "erfc", "cbrt", "hypot", "rhypot", "norm3d", "rnorm3d"};
static const char *vname[V_N] = {"float", "double", "cp_low", "cp_mid", "cp_high", "fpmp"};

#define CP_BENCH_CASE1(S, fn)                                                                 \
  case S:                                                                                     \
    if (V == V_FLOAT) sv += fn##f(a);                                                         \
    else if (V == V_DOUBLE) sd += fn((double)a + e);                                          \
    else if (V == V_LOW) { cp_float r = cp_low_##fn(x); sv += r.v; se += r.e; }             \
    else if (V == V_MID) { cp_float r = cp_mid_##fn(x); sv += r.v; se += r.e; }            \
    else if (V == V_HIGH) { cp_float r = cp_high_##fn(x); sv += r.v; se += r.e; }           \
    else FPMP1(fn);                                                                           \
    break;
#define CP_BENCH_CASEN(S, fn, dfn, ...)                                                       \
  case S:                                                                                     \
    if (V == V_FLOAT) sv += fn##f(__VA_ARGS__);                                               \
    else if (V == V_DOUBLE) sd += dfn;                                                        \
    else if (V == V_LOW) { cp_float r = cp_low_##fn(x, y, w); sv += r.v; se += r.e; }        \
    else if (V == V_MID) { cp_float r = cp_mid_##fn(x, y, w); sv += r.v; se += r.e; }       \
    else if (V == V_HIGH) { cp_float r = cp_high_##fn(x, y, w); sv += r.v; se += r.e; }     \
    else FPMPN(fn);                                                                           \
    break;
#ifdef CP_BENCH_FPMP
#define FPMP1(fn) { fx::fp32mp2 r = fx::fn(fx::fp32mp2(a) + fx::fp32mp2(e)); sv += r.hi(); se += r.lo(); }
#define FPMPN(fn) { fx::fp32mp2 r = FPMP_ARGS_##fn; sv += r.hi(); se += r.lo(); }
#define FPMP_ARGS_hypot fx::hypot(fa, fb)
#define FPMP_ARGS_rhypot fx::rhypot(fa, fb)
#define FPMP_ARGS_norm3d fx::norm3d(fa, fb, fc)
#define FPMP_ARGS_rnorm3d fx::rnorm3d(fa, fb, fc)
#else
#define FPMP1(fn) (void)0
#define FPMPN(fn) (void)0
#endif


template <int S, int V>
__global__ void bench(const float *xv, const float *xe, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = xv[i], e = xe[i], sv = 0.0f, se = 0.0f;
  double sd = 0.0;
  for (int k = 0; k < K; k++) {
    float a = v + 0.0625f * k, b = 0.5f * a + 0.25f, c = 1.5f - 0.25f * a; /* a in [-3, 4] */
    cp_float x = cp_make_float(a, e), y = cp_make_float(b, 0.5f * e), w = cp_make_float(c, -0.25f * e);
#ifdef CP_BENCH_FPMP
    fx::fp32mp2 fa = fx::fp32mp2(a) + fx::fp32mp2(e), fb = fx::fp32mp2(b) + fx::fp32mp2(0.5f * e),
                fc = fx::fp32mp2(c) + fx::fp32mp2(-0.25f * e);
#endif
    switch (S) {
      CP_BENCH_CASE1(S_SINH, sinh)
      CP_BENCH_CASE1(S_COSH, cosh)
      CP_BENCH_CASE1(S_TANH, tanh)
      CP_BENCH_CASE1(S_ERF, erf)
      CP_BENCH_CASE1(S_ERFC, erfc)
      CP_BENCH_CASE1(S_CBRT, cbrt)
    case S_HYPOT:
      if (V == V_FLOAT) sv += hypotf(a, b);
      else if (V == V_DOUBLE) sd += hypot((double)a + e, (double)b + 0.5 * e);
      else if (V == V_LOW) { cp_float r = cp_low_hypot(x, y); sv += r.v; se += r.e; }
      else if (V == V_MID) { cp_float r = cp_mid_hypot(x, y); sv += r.v; se += r.e; }
      else if (V == V_HIGH) { cp_float r = cp_high_hypot(x, y); sv += r.v; se += r.e; }
      else FPMPN(hypot);
      break;
    case S_RHYPOT:
      if (V == V_FLOAT) sv += rhypotf(a, b);
      else if (V == V_DOUBLE) sd += rhypot((double)a + e, (double)b + 0.5 * e);
      else if (V == V_LOW) { cp_float r = cp_low_rhypot(x, y); sv += r.v; se += r.e; }
      else if (V == V_MID) { cp_float r = cp_mid_rhypot(x, y); sv += r.v; se += r.e; }
      else if (V == V_HIGH) { cp_float r = cp_high_rhypot(x, y); sv += r.v; se += r.e; }
      else FPMPN(rhypot);
      break;
      CP_BENCH_CASEN(S_NORM3D, norm3d, norm3d((double)a + e, (double)b + 0.5 * e, (double)c - 0.25 * e), a, b, c)
      CP_BENCH_CASEN(S_RNORM3D, rnorm3d, rnorm3d((double)a + e, (double)b + 0.5 * e, (double)c - 0.25 * e), a, b, c)
    }
  }
  out[i] = sv + se + (float)sd;
}

template <int S, int V>
static float timed(const float *xv, const float *xe, float *out, int n) {
  return cp_bench_median_ms([&] { bench<S, V><<<(n + 255) / 256, 256>>>(xv, xe, out, n); });
}

template <int S, int V> static void all(float (*t)[V_N], const float *xv, const float *xe, float *out, int n) {
#ifndef CP_BENCH_FPMP
  if (V != V_FPMP)
#endif
    t[S][V] = timed<S, V>(xv, xe, out, n);
  if constexpr (V + 1 < V_N)
    all<S, V + 1>(t, xv, xe, out, n);
  else if constexpr (S + 1 < S_N)
    all<S + 1, 0>(t, xv, xe, out, n);
}

int main() {
  const int n = 1 << 22;
  std::vector<float> hv(n), he(n);
  unsigned s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    float u = (s >> 8) * (1.0f / 16777216.0f);
    hv[i] = -3.0f + 5.0f * u;           /* with k/16: [-3, 4] */
    he[i] = hv[i] * 1e-8f * (u - 0.5f); /* an error half below half an ulp */
  }
  float *xv, *xe, *out;
  cudaMalloc(&xv, n * sizeof(float));
  cudaMalloc(&xe, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(xv, hv.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(xe, he.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  static float t[S_N][V_N];
  all<0, 0>(t, xv, xe, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%s, %d x %d evaluations, median of 7 launches\n", p.name, n, K);
  printf("%-18s %10s %10s %10s %10s\n", "function", "ms", "x float", "x double", "x fpmp");
  for (int f = 0; f < S_N; f++)
    for (int v = 0; v < V_N; v++) {
#ifndef CP_BENCH_FPMP
      if (v == V_FPMP)
        continue;
#endif
      char name[32];
      snprintf(name, sizeof name, "%s %s", vname[v], fname[f]);
#ifdef CP_BENCH_FPMP
      double fp = t[f][v] / t[f][V_FPMP];
#else
      double fp = 0.0 / 0.0;
#endif
      printf("%-18s %10.3f %10.2f %10.2f %10.2f\n", name, t[f][v], t[f][v] / t[f][V_FLOAT], t[f][v] / t[f][V_DOUBLE], fp);
    }
  return 0;
}
