// bench/math/trig.cu: the composite trigonometric functions (cp/math_trig.cuh, ff backend)
// against float's functions, the intrinsics (__sinf, __cosf, __tanf) and double's, on the same
// GPU in one run, as bench/math/exp_log.cu does for exp and log. Each thread evaluates the
// function at 32 arguments of its own (a pair read from memory) and sums both halves of the
// results into floats. Prints, per variant, the median time of 7 launches and its ratio to
// the float function's, the double function's and (with -DCP_BENCH_FPMP) CCCL fpmp's.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/math/trig.cu -o trig
//   ./trig
// With -DCP_BENCH_FPMP -I CCCL_INCLUDE, fpmp's sin, cos, tan, asin, atan and atan2
// (fp32mp2) are timed beside on the same pairs; fpmp has no dedicated sinpi.
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

enum { G_SIN, G_COS, G_TAN, G_SINPI, G_ASIN, G_ATAN, G_ATAN2, G_N };
enum { V_FLOAT, V_FAST, V_DOUBLE, V_LOW, V_MID, V_HIGH, V_FPMP, V_N };
static const char *gname[G_N] = {"sin", "cos", "tan", "sinpi", "asin", "atan", "atan2"};
static const char *vname[V_N] = {"float", "intrinsic", "double", "cp_low", "cp_mid", "cp_high", "fpmp"};

template <int G, int V> __device__ float fn_float(float a, float b) {
  switch (G) {
  case G_SIN: return V == V_FAST ? __sinf(a) : sinf(a);
  case G_COS: return V == V_FAST ? __cosf(a) : cosf(a);
  case G_TAN: return V == V_FAST ? __tanf(a) : tanf(a);
  case G_SINPI: return sinpif(a);
  case G_ASIN: return asinf(a);
  case G_ATAN: return atanf(a);
  default: return atan2f(a, b);
  }
}

template <int G> __device__ double fn_double(double a, double b) {
  switch (G) {
  case G_SIN: return sin(a);
  case G_COS: return cos(a);
  case G_TAN: return tan(a);
  case G_SINPI: return sinpi(a);
  case G_ASIN: return asin(a);
  case G_ATAN: return atan(a);
  default: return atan2(a, b);
  }
}

#define CP_BENCH_TIER(T)                                                                       \
  template <int G> __device__ cp_float fn_##T(cp_float a, cp_float b) {                        \
    switch (G) {                                                                               \
    case G_SIN: return cp_##T##_sin(a);                                                        \
    case G_COS: return cp_##T##_cos(a);                                                        \
    case G_TAN: return cp_##T##_tan(a);                                                        \
    case G_SINPI: return cp_##T##_sinpi(a);                                                    \
    case G_ASIN: return cp_##T##_asin(a);                                                      \
    case G_ATAN: return cp_##T##_atan(a);                                                      \
    default: return cp_##T##_atan2(a, b);                                                      \
    }                                                                                          \
  }
CP_BENCH_TIER(low)
CP_BENCH_TIER(mid)
CP_BENCH_TIER(high)

#ifdef CP_BENCH_FPMP
template <int G> __device__ fx::fp32mp2 fn_fpmp(fx::fp32mp2 a, fx::fp32mp2 b) {
  switch (G) {
  case G_SIN: return fx::sin(a);
  case G_COS: return fx::cos(a);
  case G_TAN: return fx::tan(a);
  case G_ASIN: return fx::asin(a);
  case G_ATAN: return fx::atan(a);
  case G_ATAN2: return fx::atan2(a, b);
  default: return a;
  }
}
#endif

template <int G, int V>
__global__ void bench(const float *xv, const float *xe, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = xv[i], e = xe[i], sv = 0.0f, se = 0.0f;
  double sd = 0.0;
  for (int k = 0; k < K; k++) {
    float a = G == G_ASIN ? v * (1.0f / 64.0f) + 0.0234375f * (k - 16) : v + 0.25f * k; /* asin: [-1, 1) */
    float b = 1.0f + 0.5f * v - 0.125f * k;
    cp_float x = {a, e}, y = {b, 0.0f};
    if (V == V_FLOAT || V == V_FAST) sv += fn_float<G, V>(a, b);
    else if (V == V_DOUBLE) sd += fn_double<G>((double)a + e, (double)b);
    else if (V == V_LOW) { cp_float r = fn_low<G>(x, y); sv += r.v; se += r.e; }
    else if (V == V_MID) { cp_float r = fn_mid<G>(x, y); sv += r.v; se += r.e; }
    else if (V == V_HIGH) { cp_float r = fn_high<G>(x, y); sv += r.v; se += r.e; }
#ifdef CP_BENCH_FPMP
    else { fx::fp32mp2 r = fn_fpmp<G>(fx::fp32mp2(a) + fx::fp32mp2(e), fx::fp32mp2(b)); sv += r.hi(); se += r.lo(); }
#endif
  }
  out[i] = sv + se + (float)sd;
}

template <int G, int V>
static float timed(const float *xv, const float *xe, float *out, int n) {
  return cp_bench_median_ms([&] { bench<G, V><<<(n + 255) / 256, 256>>>(xv, xe, out, n); });
}

/* Whether variant V of function G exists: intrinsics for sin, cos, tan; fpmp where it has one. */
static bool has(int g, int v) {
  if (v == V_FAST)
    return g == G_SIN || g == G_COS || g == G_TAN;
#ifdef CP_BENCH_FPMP
  if (v == V_FPMP)
    return g != G_SINPI;
#else
  if (v == V_FPMP)
    return false;
#endif
  return true;
}

template <int I> static void all(float (*t)[V_N], const float *xv, const float *xe, float *out, int n) {
  if (has(I / V_N, I % V_N))
    t[I / V_N][I % V_N] = timed<I / V_N, I % V_N>(xv, xe, out, n);
  if constexpr (I + 1 < G_N * V_N)
    all<I + 1>(t, xv, xe, out, n);
}

int main() {
  const int n = 1 << 22;
  std::vector<float> hv(n), he(n);
  unsigned s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    float u = (s >> 8) * (1.0f / 16777216.0f);
    hv[i] = 100.0f * (u - 0.5f);         /* [-50, 50]; asin scales it into [-1, 1) */
    he[i] = hv[i] * 1e-8f * (u - 0.5f); /* an error half below half an ulp */
  }
  float *xv, *xe, *out;
  cudaMalloc(&xv, n * sizeof(float));
  cudaMalloc(&xe, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(xv, hv.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(xe, he.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  float t[G_N][V_N] = {};
  all<0>(t, xv, xe, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%s, %d x %d evaluations, median of 7 launches\n", p.name, n, K);
  printf("%-18s %10s %10s %10s %10s %12s\n", "function", "ms", "x float", "x double", "x fpmp", "G eval/s");
  for (int g = 0; g < G_N; g++)
    for (int v = 0; v < V_N; v++) {
      if (!has(g, v))
        continue;
      char name[32];
      snprintf(name, sizeof name, "%s %s", vname[v], gname[g]);
      float fp = has(g, V_FPMP) ? t[g][v] / t[g][V_FPMP] : 0.0f;
      printf("%-18s %10.3f %10.2f %10.2f %10.2f %12.1f\n", name, t[g][v], t[g][v] / t[g][V_FLOAT],
             t[g][v] / t[g][V_DOUBLE], fp, (double)n * K / (t[g][v] * 1e6));
    }
  return 0;
}
