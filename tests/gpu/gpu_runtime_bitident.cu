// gpu_runtime_bitident.cu - the runtime computes the same bits on the GPU as on the host.
//
// Every operation of the paper, accurate and fast families, of cp_double, and the shared
// conversions, comparisons and rounding functions, runs on the same deterministic inputs
// (tests/runtime/cp_test_gen.h) on the device and on the host, in this process; results
// are compared byte for byte. The one allowance: a NaN matches any NaN (x86 and the GPU
// produce different NaN payloads; the runtime never inspects them). Then the device-only
// pieces: the composite atomic add (many threads into one paired cell, against a host
// double-double reference with a stated bound, and the flush-to-zero model of global
// atomics), the warp sums (every lane equal to a host emulation of the butterfly), and the
// fixed-point atomic (equal to the host fixed-point sum).
//
// Exit status: 0 all identical, 1 a mismatch, 77 no CUDA device (ctest SKIP_RETURN_CODE).
// No Check, no MPFR: the GPU machine has neither.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cp/cp.cuh"
#include "cp_test_gen.h"

#define CUDA_OK(call)                                                                          \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

static const int N = 1 << 18; // inputs per operation

// ---------------------------------------------------------------------------------------
// Inputs and the table of operations
// ---------------------------------------------------------------------------------------

struct In {
  cp_float x, y, z, ax; // ax = |x| for sqrt/rsqrt
  cp_double dx, dy, dz, adx;
  float f;
  double d;
  int i;
  cp_fixed q;
};

struct alignas(16) Slot {
  unsigned char b[32];
};

enum Kind { K_F, K_CF, K_F4, K_D, K_CD, K_I }; // float lanes, double lanes, or exact bytes

// X(name, kind, expression over `in`)
#define FAMILY_OPS(X, fam)                                                                     \
  X(fam##_add, K_CF, cp_##fam##_add(in.x, in.y))                                               \
  X(fam##_sub, K_CF, cp_##fam##_sub(in.x, in.y))                                               \
  X(fam##_mul, K_CF, cp_##fam##_mul(in.x, in.y))                                               \
  X(fam##_div, K_CF, cp_##fam##_div(in.x, in.y))                                               \
  X(fam##_add_cf, K_CF, cp_##fam##_add_cf(in.x, in.f))                                         \
  X(fam##_sub_cf, K_CF, cp_##fam##_sub_cf(in.x, in.f))                                         \
  X(fam##_mul_cf, K_CF, cp_##fam##_mul_cf(in.x, in.f))                                         \
  X(fam##_div_cf, K_CF, cp_##fam##_div_cf(in.x, in.f))                                         \
  X(fam##_add_fc, K_CF, cp_##fam##_add_fc(in.f, in.y))                                         \
  X(fam##_sub_fc, K_CF, cp_##fam##_sub_fc(in.f, in.y))                                         \
  X(fam##_mul_fc, K_CF, cp_##fam##_mul_fc(in.f, in.y))                                         \
  X(fam##_div_fc, K_CF, cp_##fam##_div_fc(in.f, in.y))                                         \
  X(fam##_sqrt, K_CF, cp_##fam##_sqrt(in.ax))                                                  \
  X(fam##_rsqrt, K_CF, cp_##fam##_rsqrt(in.ax))                                                \
  X(fam##_rcp, K_CF, cp_##fam##_rcp(in.x))                                                     \
  X(fam##_sqr, K_CF, cp_##fam##_sqr(in.x))                                                     \
  X(fam##_fma, K_CF, cp_##fam##_fma(in.x, in.y, in.z))

#define DD_OPS(X)                                                                              \
  X(dd_add, K_CD, cp_dd_add(in.dx, in.dy))                                                     \
  X(dd_sub, K_CD, cp_dd_sub(in.dx, in.dy))                                                     \
  X(dd_mul, K_CD, cp_dd_mul(in.dx, in.dy))                                                     \
  X(dd_div, K_CD, cp_dd_div(in.dx, in.dy))                                                     \
  X(dd_add_cd, K_CD, cp_dd_add_cd(in.dx, in.d))                                                \
  X(dd_sub_cd, K_CD, cp_dd_sub_cd(in.dx, in.d))                                                \
  X(dd_mul_cd, K_CD, cp_dd_mul_cd(in.dx, in.d))                                                \
  X(dd_div_cd, K_CD, cp_dd_div_cd(in.dx, in.d))                                                \
  X(dd_add_dc, K_CD, cp_dd_add_dc(in.d, in.dy))                                                \
  X(dd_sub_dc, K_CD, cp_dd_sub_dc(in.d, in.dy))                                                \
  X(dd_mul_dc, K_CD, cp_dd_mul_dc(in.d, in.dy))                                                \
  X(dd_div_dc, K_CD, cp_dd_div_dc(in.d, in.dy))                                                \
  X(dd_sqrt, K_CD, cp_dd_sqrt(in.adx))                                                         \
  X(dd_rsqrt, K_CD, cp_dd_rsqrt(in.adx))                                                       \
  X(dd_rcp, K_CD, cp_dd_rcp(in.dx))                                                            \
  X(dd_sqr, K_CD, cp_dd_sqr(in.dx))                                                            \
  X(dd_mul_pow2, K_CD, cp_dd_mul_pow2(in.dx, 0.25))                                            \
  X(dd_fma, K_CD, cp_dd_fma(in.dx, in.dy, in.dz))                                              \
  X(dd_to_double, K_D, cp_dd_to_double(in.dx))                                                 \
  X(dd_to_float, K_F, cp_dd_to_float(in.dx))                                                   \
  X(dd_lt, K_I, cp_dd_lt(in.dx, in.dy) | cp_dd_le(in.dx, in.dy) << 1 | cp_dd_eq(in.dx, in.dy) << 2) \
  X(dd_fabs, K_CD, cp_dd_fabs(in.dx))                                                          \
  X(dd_from_cp, K_CD, cp_dd_from_cp(in.x))

#define SHARED_OPS(X)                                                                          \
  X(generic_add, K_CF, cp_add(in.x, in.y))                                                     \
  X(generic_div, K_CF, cp_div(in.x, in.y))                                                     \
  X(neg, K_CF, cp_neg(in.x))                                                                   \
  X(mul_pow2, K_CF, cp_mul_pow2(in.x, 8.0f))                                                   \
  X(normalize, K_CF, cp_normalize(in.z))                                                       \
  X(fabs, K_CF, cp_fabs(in.x))                                                                 \
  X(fmin, K_CF, cp_fmin(in.x, in.y))                                                           \
  X(fmax, K_CF, cp_fmax(in.x, in.y))                                                           \
  X(floor, K_CF, cp_floor(in.z))                                                               \
  X(ceil, K_CF, cp_ceil(in.z))                                                                 \
  X(trunc, K_CF, cp_trunc(in.z))                                                               \
  X(rint, K_CF, cp_rint(in.z))                                                                 \
  X(to_int, K_I, cp_to_int(in.z))                                                              \
  X(to_float, K_F, cp_to_float(in.x))                                                          \
  X(to_double, K_D, cp_to_double(in.x))                                                        \
  X(from_int, K_CF, cp_from_int(in.i))                                                         \
  X(from_uint, K_CF, cp_from_uint((unsigned)in.i))                                             \
  X(from_double, K_CF, cp_from_double(in.d))                                                   \
  X(compare, K_I,                                                                              \
    cp_lt(in.x, in.y) | cp_le(in.x, in.y) << 1 | cp_eq(in.x, in.y) << 2 | cp_gt(in.x, in.y) << 3 \
        | cp_ge(in.x, in.y) << 4 | cp_ne(in.x, in.y) << 5 | cp_lt_cf(in.x, in.f) << 6          \
        | cp_eq_cf(in.x, in.f) << 7 | cp_ge_fc(in.f, in.x) << 8)                               \
  X(fixed_from_cp, K_I, cp_fixed_from_cp(in.x))                                              \
  X(fixed_to_cp, K_CF, cp_fixed_to_cp(in.q))                                                   \
  X(fixed_to_float, K_F, cp_fixed_to_float(in.q))                                              \
  X(fixed_to_double, K_D, cp_fixed_to_double(in.q))                                            \
  X(kahan, K_CF, kahan_pair(in))                                                               \
  X(atomic_step, K_CF, cp_atomic_add_step(in.f, in.x, 0))                                      \
  X(atomic_step_ftz, K_CF, cp_atomic_add_step(in.f, in.x, 1))                                  \
  X(to_float4, K_F4, cp_to_float4(cp_make_float4(in.x, in.y, in.z, in.ax)))                   \
  X(from_float2, K_CF, cp_from_float2(make_float2(in.f, in.x.v)))

#define ALL_OPS(X)                                                                             \
  FAMILY_OPS(X, paper) FAMILY_OPS(X, accurate) FAMILY_OPS(X, fast) DD_OPS(X) SHARED_OPS(X)

enum Op {
#define X(name, kind, expr) OP_##name,
  ALL_OPS(X)
#undef X
      OP_COUNT
};

static const char *const op_names[] = {
#define X(name, kind, expr) #name,
  ALL_OPS(X)
#undef X
};

static const Kind op_kinds[] = {
#define X(name, kind, expr) kind,
  ALL_OPS(X)
#undef X
};

__host__ __device__ static cp_float kahan_pair(const In &in)
{
  cp_kahan k = cp_kahan_init();
  k = cp_kahan_add(k, in.x.v);
  k = cp_kahan_add(k, in.f);
  k = cp_kahan_add(k, in.y.v);
  return cp_make_float(k.sum, k.c);
}

template <typename T> __host__ __device__ static void store(Slot &s, const T &v)
{
  static_assert(sizeof(T) <= sizeof(Slot), "result too large for a slot");
  for (unsigned k = 0; k < sizeof s.b; ++k) s.b[k] = 0;
  memcpy(s.b, &v, sizeof v); // (::memcpy exists on both sides)
}

__host__ __device__ static void apply(int op, const In &in, Slot &out)
{
  switch (op) {
#define X(name, kind, expr)                                                                    \
  case OP_##name: store(out, expr); break;
    ALL_OPS(X)
#undef X
  default: break;
  }
}

__global__ void k_apply(int op, const In *in, Slot *out, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    apply(op, in[i], out[i]);
}

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

static const float f_special[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, FLT_MIN,
                                   1e-40f, -1e-40f, 0x1p-149f, 1.0f, -3.0f, 1e30f, 0.5f, 2.5f };
static const double d_special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, DBL_MAX, DBL_MIN, 1e-310,
                                    1.0, -3.0, 1e300, 0.5 };

static cp_float special_pair(gen_rng *r)
{
  const int n = sizeof f_special / sizeof f_special[0];
  float v = f_special[gen_int(r, 0, n - 1)];
  float e = (gen_one_in(r, 2) && std::isfinite(v) && v != 0.0f) ? v * 0x1p-30f : 0.0f;
  return cp_make_float(v, e);
}

static void make_inputs(std::vector<In> &in)
{
  gen_rng r = gen_seed(2026);
  const int nd = sizeof d_special / sizeof d_special[0];
  for (In &c : in) {
    c.x = gen_pair(&r, -30, 30);
    c.y = gen_one_in(&r, 5) ? gen_near_neg(&r, c.x) : gen_pair(&r, -30, 30);
    c.z = gen_pair(&r, -4, 30); // integers, halves, large values for floor/ceil/rint/to_int
    if (gen_one_in(&r, 3)) c.z.v = rintf(c.z.v) + (gen_one_in(&r, 2) ? 0.5f : 0.0f);
    c.f = gen_float(&r, -30, 30);
    c.dx = gen_dd(&r, -250, 250);
    c.dy = gen_one_in(&r, 5) ? gen_dd_near_neg(&r, c.dx) : gen_dd(&r, -250, 250);
    c.dz = gen_dd(&r, -500, 500);
    c.d = gen_double(&r, -130, 130); // also beyond the float range, for cp_from_double
    c.i = (int)(uint32_t)gen_u64(&r);
    c.q = (cp_fixed)gen_u64(&r) >> gen_int(&r, 0, 60);
    if (gen_one_in(&r, 10)) { // special values everywhere
      c.x = special_pair(&r);
      c.y = special_pair(&r);
      c.z = special_pair(&r);
      c.f = special_pair(&r).v;
      c.dx = cp_dd_from_double(d_special[gen_int(&r, 0, nd - 1)]);
      c.dy = cp_dd_from_double(d_special[gen_int(&r, 0, nd - 1)]);
      c.d = d_special[gen_int(&r, 0, nd - 1)];
    }
    c.ax = cp_fabs(c.x);
    c.adx = cp_dd_fabs(c.dx);
  }
}

// ---------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------

// 0 identical, 1 identical except NaN payloads (a NaN lane matches any NaN), 2 mismatch.
static int compare(Kind k, const Slot &a, const Slot &b)
{
  if (std::memcmp(&a, &b, sizeof a) == 0) return 0;
  int lanes = k == K_F || k == K_D ? 1 : k == K_F4 ? 4 : k == K_I ? 0 : 2;
  size_t w = k == K_D || k == K_CD ? 8 : 4;
  for (int j = 0; j < lanes; ++j) {
    const unsigned char *p = a.b + w * j, *q = b.b + w * j;
    if (std::memcmp(p, q, w) == 0) continue;
    if (w == 4) {
      float x, y;
      std::memcpy(&x, p, 4);
      std::memcpy(&y, q, 4);
      if (!(x != x && y != y)) return 2;
    } else {
      double x, y;
      std::memcpy(&x, p, 8);
      std::memcpy(&y, q, 8);
      if (!(x != x && y != y)) return 2;
    }
  }
  return lanes ? 1 : 2;
}

static int run_bit_identity(const std::vector<In> &in)
{
  In *d_in;
  Slot *d_out;
  CUDA_OK(cudaMalloc(&d_in, N * sizeof(In)));
  CUDA_OK(cudaMalloc(&d_out, N * sizeof(Slot)));
  CUDA_OK(cudaMemcpy(d_in, in.data(), N * sizeof(In), cudaMemcpyHostToDevice));
  std::vector<Slot> dev(N), host(N);
  long total_bad = 0;
  for (int op = 0; op < OP_COUNT; ++op) {
    k_apply<<<264, 256>>>(op, d_in, d_out, N);
    CUDA_OK(cudaGetLastError());
    for (int i = 0; i < N; ++i) apply(op, in[i], host[i]);
    CUDA_OK(cudaMemcpy(dev.data(), d_out, N * sizeof(Slot), cudaMemcpyDeviceToHost));
    long same = 0, nan = 0, bad = 0;
    for (int i = 0; i < N; ++i) {
      int c = compare(op_kinds[op], dev[i], host[i]);
      if (c == 0) ++same;
      else if (c == 1) ++nan;
      else if (bad++ < 2) {
        float a[2], b[2];
        std::memcpy(a, dev[i].b, 8);
        std::memcpy(b, host[i].b, 8);
        std::printf("  MISMATCH %s input %d: device %a %a, host %a %a\n", op_names[op], i, a[0], a[1],
                    b[0], b[1]);
      }
    }
    std::printf("%-18s %7ld identical %6ld NaN (payload free) %ld mismatches\n", op_names[op], same, nan,
                bad);
    total_bad += bad;
  }
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  return total_bad == 0;
}

// ---------------------------------------------------------------------------------------
// Composite atomics
// ---------------------------------------------------------------------------------------

__global__ void k_atomic(const cp_float *x, int n, float *cell, cp_float *olds)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    olds[i] = cp_atomic_add(&cell[0], &cell[1], x[i]);
    atomicAdd(&cell[2], cp_to_float(x[i])); // plain float, for comparison
  }
}

// One thread, a fixed sequence: global (flushing) and shared (not flushing) cells.
__global__ void k_atomic_sequence(const cp_float *x, int n, float *gcell, float *trace)
{
  __shared__ float s[2];
  s[0] = 0.0f;
  s[1] = 0.0f;
  for (int i = 0; i < n; ++i) {
    trace[4 * i + 0] = cp_atomic_add(&gcell[0], &gcell[1], x[i]).v;
    trace[4 * i + 1] = cp_atomic_add(&s[0], &s[1], x[i]).v;
    trace[4 * i + 2] = gcell[1];
    trace[4 * i + 3] = s[1];
  }
}

static int run_atomic_sum()
{
  const int n = 1 << 20;
  std::vector<cp_float> x(n);
  gen_rng r = gen_seed(77);
  for (cp_float &v : x) {
    v = gen_pair(&r, -10, 10);
    if (gen_one_in(&r, 2)) v = cp_neg(cp_fabs(v)); // a drift, so plain float loses digits
  }
  cp_float *d_x, *d_olds;
  float *d_cell;
  CUDA_OK(cudaMalloc(&d_x, n * sizeof(cp_float)));
  CUDA_OK(cudaMalloc(&d_cell, 4 * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_olds, n * sizeof(cp_float)));
  CUDA_OK(cudaMemcpy(d_x, x.data(), n * sizeof(cp_float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(d_cell, 0, 4 * sizeof(float)));
  k_atomic<<<264, 256>>>(d_x, n, d_cell, d_olds);
  CUDA_OK(cudaGetLastError());
  float cell[4];
  std::vector<cp_float> olds(n);
  CUDA_OK(cudaMemcpy(cell, d_cell, sizeof cell, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(olds.data(), d_olds, n * sizeof(cp_float), cudaMemcpyDeviceToHost));

  // From each thread's old values the host recomputes what its atomics did (the step is a
  // pure function). Value cell: v_final + sum(lost_k) must equal sum(x_k.v) exactly, lost_k
  // the rounding error the step attributes to that add (checked in double-double, to far
  // below a float ulp). Bound of the recombined sum, a posteriori: each addend a_k is one
  // rounding of lost_k + x_k.e (<= u|a_k|), and each add into the error cell one rounding of
  // its new value (<= u|new e|): |v + e - sum| <= u sum_k (|a_k| + |new e_k|).
  const double u = 0x1p-24;
  cp_double exact = cp_dd_from_double(0.0), vsum = exact, lost = exact;
  double bound = 0.0, sum_abs_v = 0.0;
  for (int k = 0; k < n; ++k) {
    exact = cp_dd_add_cd(cp_dd_add_cd(exact, x[k].v), x[k].e);
    vsum = cp_dd_add_cd(vsum, x[k].v);
    sum_abs_v += std::fabs(x[k].v);
    lost = cp_dd_add_cd(lost, cp_atomic_add_step(olds[k].v, cp_from_float(x[k].v), 1).e);
    float a = cp_atomic_add_step(olds[k].v, x[k], 1).e;
    float new_e = cp_detail_ftz(cp_detail_ftz(olds[k].e) + cp_detail_ftz(a));
    bound += u * (std::fabs(a) + std::fabs(new_e));
  }
  bound = bound * (1 + 4 * u) + 0x1p-51 * std::fabs(cp_dd_to_double(exact)); // + the double roundings
  cp_double vcheck = cp_dd_sub(cp_dd_add_cd(lost, cell[0]), vsum);
  bool v_exact = std::fabs(cp_dd_to_double(vcheck)) <= 0x1p-80 * sum_abs_v;
  double got = (double)cell[0] + (double)cell[1]; // exact in double for these magnitudes
  double err = std::fabs(got - cp_dd_to_double(exact));
  double plain_err = std::fabs((double)cell[2] - cp_dd_to_double(exact));
  std::printf("atomic add: %d threads into one paired cell; value cell reproduced exactly from "
              "the old values: %s\n", n, v_exact ? "yes" : "NO");
  std::printf("atomic add: error %.3g (a posteriori bound %.3g), plain float atomicAdd error %.3g, "
              "sum %.9g\n", err, bound, plain_err, cp_dd_to_double(exact));
  CUDA_OK(cudaFree(d_x));
  CUDA_OK(cudaFree(d_cell));
  CUDA_OK(cudaFree(d_olds));
  return v_exact && err <= bound;
}

// Flush-to-zero model: a fixed single-thread sequence with subnormal values, into a global
// cell (atomics flush) and a shared one (they do not), against cp_atomic_add_step.
static int run_atomic_ftz()
{
  const int m = 64;
  gen_rng r = gen_seed(79);
  cp_float *d_x;
  float *d_cell;
  CUDA_OK(cudaMalloc(&d_x, m * sizeof(cp_float)));
  CUDA_OK(cudaMalloc(&d_cell, 4 * sizeof(float)));
  std::vector<cp_float> s(m);
  for (int k = 0; k < m; ++k) {
    float v = (k % 3 == 0) ? gen_float(&r, -149, -127) : gen_float(&r, -126, -100);
    s[k] = cp_from_float((k % 2) ? -v : v);
    if (k % 5 == 4) s[k] = cp_neg(s[k - 1]); // cancel to zero and below
  }
  float *d_trace;
  CUDA_OK(cudaMalloc(&d_trace, 4 * m * sizeof(float)));
  CUDA_OK(cudaMemcpy(d_x, s.data(), m * sizeof(cp_float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(d_cell, 0, 4 * sizeof(float)));
  k_atomic_sequence<<<1, 1>>>(d_x, m, d_cell, d_trace);
  CUDA_OK(cudaGetLastError());
  std::vector<float> trace(4 * m);
  CUDA_OK(cudaMemcpy(trace.data(), d_trace, 4 * m * sizeof(float), cudaMemcpyDeviceToHost));
  float gv = 0, ge = 0, sv = 0, se = 0;
  int bad_g = 0, bad_s = 0;
  for (int k = 0; k < m; ++k) {
    if (gen_fbits(trace[4 * k + 0]) != gen_fbits(gv)) ++bad_g;
    if (gen_fbits(trace[4 * k + 1]) != gen_fbits(sv)) ++bad_s;
    cp_float g = cp_atomic_add_step(gv, s[k], 1), h = cp_atomic_add_step(sv, s[k], 0);
    gv = g.v;
    ge = cp_detail_ftz(cp_detail_ftz(ge) + cp_detail_ftz(g.e)); // the error cell's atomic flushes too
    sv = h.v;
    se = se + h.e;
    if (gen_fbits(trace[4 * k + 2]) != gen_fbits(ge)) ++bad_g;
    if (gen_fbits(trace[4 * k + 3]) != gen_fbits(se)) ++bad_s;
  }
  std::printf("atomic add, subnormals: global memory matches the flush-to-zero model: %s; shared "
              "memory matches the IEEE model: %s\n", bad_g ? "NO" : "yes", bad_s ? "NO" : "yes");
  CUDA_OK(cudaFree(d_trace));
  CUDA_OK(cudaFree(d_x));
  CUDA_OK(cudaFree(d_cell));
  return bad_g == 0 && bad_s == 0;
}

// ---------------------------------------------------------------------------------------
// Warp sums and the fixed-point atomic
// ---------------------------------------------------------------------------------------

__global__ void k_warp(const cp_float *x, const cp_double *dx, cp_float *out, cp_double *dout, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x; // n is a multiple of the block size
  if (i >= n) return;
  out[4 * i + 0] = cp_paper_warp_sum(0xffffffffu, x[i]);
  out[4 * i + 1] = cp_accurate_warp_sum(0xffffffffu, x[i]);
  out[4 * i + 2] = cp_fast_warp_sum(0xffffffffu, x[i]);
  out[4 * i + 3] = cp_warp_sum(0xffffffffu, x[i]);
  dout[i] = cp_dd_warp_sum(0xffffffffu, dx[i]);
}

// The butterfly on the host: level o pairs lane l with l ^ o, the lower lane on the left.
template <typename T, typename F> static T host_warp_sum(const T *lanes, F add)
{
  T v[32], w[32];
  for (int l = 0; l < 32; ++l) v[l] = lanes[l];
  for (int o = 16; o > 0; o >>= 1) {
    for (int l = 0; l < 32; ++l) w[l] = (l & o) ? add(v[l ^ o], v[l]) : add(v[l], v[l ^ o]);
    for (int l = 0; l < 32; ++l) v[l] = w[l];
  }
  return v[0];
}

__global__ void k_fixed(const cp_float *x, int n, unsigned long long *cell)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    cp_fixed_atomic_add(cell, cp_fixed_from_cp(x[i]));
}

static int run_warp()
{
  const int n = 1 << 16;
  std::vector<cp_float> x(n);
  std::vector<cp_double> dx(n);
  gen_rng r = gen_seed(78);
  for (int i = 0; i < n; ++i) {
    x[i] = gen_pair(&r, -20, 20);
    dx[i] = gen_dd(&r, -100, 100);
  }
  cp_float *d_x, *d_out;
  cp_double *d_dx, *d_dout;
  CUDA_OK(cudaMalloc(&d_x, n * sizeof(cp_float)));
  CUDA_OK(cudaMalloc(&d_out, 4 * n * sizeof(cp_float)));
  CUDA_OK(cudaMalloc(&d_dx, n * sizeof(cp_double)));
  CUDA_OK(cudaMalloc(&d_dout, n * sizeof(cp_double)));
  CUDA_OK(cudaMemcpy(d_x, x.data(), n * sizeof(cp_float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_dx, dx.data(), n * sizeof(cp_double), cudaMemcpyHostToDevice));
  k_warp<<<n / 256, 256>>>(d_x, d_dx, d_out, d_dout, n);
  CUDA_OK(cudaGetLastError());
  std::vector<cp_float> out(4 * n);
  std::vector<cp_double> dout(n);
  CUDA_OK(cudaMemcpy(out.data(), d_out, 4 * n * sizeof(cp_float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(dout.data(), d_dout, n * sizeof(cp_double), cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int w = 0; w < n / 32; ++w) {
    const cp_float *lanes = &x[32 * w];
    cp_float want[4] = { host_warp_sum(lanes, cp_paper_add), host_warp_sum(lanes, cp_accurate_add),
                         host_warp_sum(lanes, cp_fast_add), host_warp_sum(lanes, cp_add) };
    cp_double dwant = host_warp_sum(&dx[32 * w], cp_dd_add);
    for (int l = 0; l < 32; ++l) {
      int i = 32 * w + l;
      for (int f = 0; f < 4; ++f)
        if (std::memcmp(&out[4 * i + f], &want[f], sizeof(cp_float)) != 0) ++bad;
      if (std::memcmp(&dout[i], &dwant, sizeof(cp_double)) != 0) ++bad;
    }
  }
  std::printf("warp sums: %d warps x (paper, accurate, fast, generic, double): %ld lane results differ "
              "from the host butterfly\n", n / 32, bad);
  CUDA_OK(cudaFree(d_x));
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_dx));
  CUDA_OK(cudaFree(d_dout));
  return bad == 0;
}

// Fixed point: many threads' atomics equal the host's sequential sum, bit for bit.
static int run_fixed()
{
  const int n = 1 << 20;
  std::vector<cp_float> x(n);
  gen_rng r = gen_seed(80);
  for (cp_float &v : x) v = gen_pair(&r, -20, 20);
  cp_float *d_x;
  unsigned long long *d_cell;
  CUDA_OK(cudaMalloc(&d_x, n * sizeof(cp_float)));
  CUDA_OK(cudaMalloc(&d_cell, sizeof(unsigned long long)));
  CUDA_OK(cudaMemcpy(d_x, x.data(), n * sizeof(cp_float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(d_cell, 0, sizeof(unsigned long long)));
  k_fixed<<<264, 256>>>(d_x, n, d_cell);
  CUDA_OK(cudaGetLastError());
  unsigned long long dev_sum;
  CUDA_OK(cudaMemcpy(&dev_sum, d_cell, sizeof dev_sum, cudaMemcpyDeviceToHost));
  cp_fixed host_sum = 0;
  for (int i = n - 1; i >= 0; --i) host_sum = cp_fixed_add(host_sum, cp_fixed_from_cp(x[i]));
  bool fixed_ok = (cp_fixed)dev_sum == host_sum;
  std::printf("fixed point: device atomic sum %lld, host sum %lld (%.17g): %s\n", (long long)dev_sum,
              (long long)host_sum, cp_fixed_to_double(host_sum), fixed_ok ? "identical" : "DIFFERENT");
  CUDA_OK(cudaFree(d_x));
  CUDA_OK(cudaFree(d_cell));
  return fixed_ok;
}

// The driver's release (e.g. 580.xx) from NVML, loaded at run time so the test needs no NVML
// at build time; empty if the library is absent.
static void driver_release(char *buf, unsigned len)
{
  buf[0] = 0;
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  if (!lib) return;
  typedef int (*init_fn)(void);
  typedef int (*version_fn)(char *, unsigned);
  init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
  version_fn version = (version_fn)dlsym(lib, "nvmlSystemGetDriverVersion");
  init_fn shutdown = (init_fn)dlsym(lib, "nvmlShutdown");
  if (init && version && init() == 0) {
    if (version(buf, len) != 0) buf[0] = 0;
    if (shutdown) shutdown();
  }
  dlclose(lib);
}

int main()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  cudaDeviceProp prop;
  int driver = 0, runtime = 0;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  CUDA_OK(cudaDriverGetVersion(&driver));
  CUDA_OK(cudaRuntimeGetVersion(&runtime));
  char release[96];
  driver_release(release, sizeof release);
  std::printf("GPU: %s (sm_%d%d), driver %s (CUDA driver API %d.%d), runtime %d.%d\n", prop.name,
              prop.major, prop.minor, release[0] ? release : "release unknown", driver / 1000,
              driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);

  std::vector<In> in(N);
  make_inputs(in);
  std::printf("%d operations x %d inputs, device vs host:\n", (int)OP_COUNT, N);
  bool ok = run_bit_identity(in);
  ok = run_atomic_sum() && ok;
  ok = run_atomic_ftz() && ok;
  ok = run_warp() && ok;
  ok = run_fixed() && ok;
  std::printf("%s\n", ok ? "all identical" : "FAILED");
  return ok ? 0 : 1;
}
