/* bench/fpmp/common.cuh - what every shape's benchmark shares: timing, the variants, the
 * error against a higher-precision reference, and one printed row per variant.
 *
 * A shape is one kernel users write, in four forms: the annotated float kernel
 * (shapes/NAME.cu, converted by cpconvert at benchmark time: NAME_cp.cu), and one template
 * written by hand over the number type T (shapes/NAME_anchor.cuh) instantiated for float,
 * double and CCCL's cuda::experimental::fp32mp2 at its three accuracy levels (low, mid,
 * high). Every variant runs in the same process on the same inputs; each time is the median
 * of REPS launches timed with CUDA events; the error is measured against a reference computed
 * on the host in long double (64-bit significand), on every output or a fixed sample.
 */
#pragma once
#include <cuda/fpmp>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace fx = cuda::experimental;

#define CK(call)                                                                               \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));         \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

struct bench_opts {
  int reps = 9;
  double scale = 1.0; /* problem-size factor (--quick: smaller) */
  FILE *csv = nullptr;
};

/* Median time in ms of reps launches of f (after one warm-up launch). */
inline double time_ms(const bench_opts &o, const std::function<void()> &f)
{
  f();
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int r = 0; r < o.reps; ++r) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/* One variant's result: time and the error of its outputs against the reference. */
struct result {
  std::string variant;
  double ms;
  double max_rel; /* largest |got - ref| / |ref| (for counts: the fraction that differ) */
  double rms_rel;
};

/* got[i] = hi[i] + lo[i] (lo may be empty) against ref[i] over the indices idx. Relative to
 * max(|ref[i]|, floor) so that outputs near zero do not dominate. */
inline void rel_error(const std::vector<float> &hi, const std::vector<float> &lo,
                      const std::vector<long double> &ref, const std::vector<size_t> &idx, double floor,
                      double *max_rel, double *rms_rel)
{
  long double mx = 0, ss = 0;
  for (size_t k = 0; k < idx.size(); ++k) {
    size_t i = idx[k];
    long double got = (long double)hi[i] + (lo.empty() ? 0.0L : (long double)lo[i]);
    long double r = ref[k];
    long double d = std::fabs(got - r) / std::max(std::fabs(r), (long double)floor);
    if (!(d == d)) d = INFINITY;
    mx = std::max(mx, d);
    ss += d * d;
  }
  *max_rel = (double)mx;
  *rms_rel = (double)std::sqrt(ss / (long double)std::max<size_t>(idx.size(), 1));
}

inline std::vector<size_t> sample(size_t n, size_t count)
{
  std::vector<size_t> idx;
  size_t step = std::max<size_t>(n / count, 1);
  for (size_t i = 0; i < n && idx.size() < count; i += step) idx.push_back(i);
  return idx;
}

/* Prints the rows of one shape: time, ratios against float, double and fpmp mid measured in
 * this run, and the error. */
inline void report(const bench_opts &o, const char *shape, const std::vector<result> &rows)
{
  double tf = 0, td = 0, tm = 0;
  for (const result &r : rows) {
    if (r.variant == "float") tf = r.ms;
    if (r.variant == "double") td = r.ms;
    if (r.variant == "fpmp_mid") tm = r.ms;
  }
  std::printf("\n== %s\n%-16s %10s %9s %9s %9s %11s %11s\n", shape, "variant", "ms", "x float",
              "x double", "x fpmp_mid", "max rel err", "rms rel err");
  for (const result &r : rows) {
    std::printf("%-16s %10.4f %9.2f %9.2f %9.2f %11.3g %11.3g\n", r.variant.c_str(), r.ms, r.ms / tf,
                r.ms / td, r.ms / tm, r.max_rel, r.rms_rel);
    if (o.csv) /* the shape's name: its title up to the first blank */
      std::fprintf(o.csv, "%.*s,%s,%.5f,%.4f,%.4f,%.4f,%.4g,%.4g\n", (int)std::strcspn(shape, " "), shape,
                   r.variant.c_str(), r.ms,
                   r.ms / tf, r.ms / td, r.ms / tm, r.max_rel, r.rms_rel);
  }
  std::fflush(stdout);
}

/* The converted launcher NAME of a shape is built once per tier and rule (run.sh): as the tool
 * wrote it (the high tier, the default), at the mid and low tiers (-DCP_ALGO), and high under
 * the strict special-value rule. CP_LAUNCHERS declares the four; CP_MEASURE times them. */
#define CP_LAUNCHERS(name, params)                                                             \
  void name params;                                                                            \
  void name##_mid params;                                                                      \
  void name##_low params;                                                                      \
  void name##_strict params
#define CP_MEASURE(measure, name, args)                                                        \
  do {                                                                                         \
    measure("cp_ff_high", [&] { name args; });                                                 \
    measure("cp_ff_mid", [&] { name##_mid args; });                                            \
    measure("cp_ff_low", [&] { name##_low args; });                                            \
    measure("cp_ff_strict", [&] { name##_strict args; });                                      \
  } while (0)

/* A pair of float device buffers: value (hi) and error (lo). */
struct dpair {
  float *hi = nullptr, *lo = nullptr;
  size_t n = 0;
  explicit dpair(size_t n_) : n(n_)
  {
    CK(cudaMalloc(&hi, n * sizeof(float)));
    CK(cudaMalloc(&lo, n * sizeof(float)));
    zero();
  }
  ~dpair() { cudaFree(hi); cudaFree(lo); }
  void zero() { CK(cudaMemset(hi, 0, n * sizeof(float))); CK(cudaMemset(lo, 0, n * sizeof(float))); }
  std::vector<float> get_hi() const { std::vector<float> h(n); CK(cudaMemcpy(h.data(), hi, n * 4, cudaMemcpyDeviceToHost)); return h; }
  std::vector<float> get_lo() const { std::vector<float> h(n); CK(cudaMemcpy(h.data(), lo, n * 4, cudaMemcpyDeviceToHost)); return h; }
};

/* The rows of a shape whose output is one pair buffer: measure() zeroes it, times f and takes
 * the error of what f left in it against ref at the indices idx. */
struct shape_rows {
  const bench_opts &o;
  dpair &out;
  const std::vector<long double> &ref;
  const std::vector<size_t> &idx;
  double floor;
  std::vector<result> rows;
  void measure(const char *name, const std::function<void()> &f)
  {
    out.zero();
    result r{name, time_ms(o, f), 0, 0};
    rel_error(out.get_hi(), out.get_lo(), ref, idx, floor, &r.max_rel, &r.rms_rel);
    rows.push_back(r);
  }
};

inline float *to_device(const std::vector<float> &h)
{
  float *d;
  CK(cudaMalloc(&d, h.size() * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

/* Numbers of the anchors: float and double as they are, fpmp pairs by their two halves. */
__host__ __device__ inline float num_hi(float x) { return x; }
__host__ __device__ inline float num_lo(float) { return 0.0f; }
__host__ __device__ inline float num_hi(double x) { return (float)x; }
__host__ __device__ inline float num_lo(double x) { return (float)(x - (double)(float)x); }
template <fx::fpmp2_accuracy A> __host__ __device__ inline float num_hi(const fx::fpmp2<float, A> &x) { return x.hi(); }
template <fx::fpmp2_accuracy A> __host__ __device__ inline float num_lo(const fx::fpmp2<float, A> &x) { return x.lo(); }
