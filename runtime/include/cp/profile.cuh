/* cp/profile.cuh - recording for `cpconvert --profile` (docs/profile.md): where a composite
 * value carries an error term, how large it is, and what the recombinations saw.
 *
 * Included by cp.cuh when CP_PROFILE is defined (cpconvert --profile writes the define);
 * without it cp.cuh defines the wrappers as nothing, so profiled output compiles either way.
 *
 *   CP_PROFILE_TABLE(T, "site 0", "site 1", ...)   one per output file, after the include:
 *       the sites' static members, their counters (device and host) and the unit's
 *       registration in the process's list (profile_file.cuh).
 *   cp_prof(T, N, x)          device: records composite x (cp_float, cp_float2/3/4,
 *                             cp_double/2/3/4) at site N and returns it, same bits. In host
 *                             code (the host pass of a __host__ __device__ function) it is x.
 *   cp_prof_launch(T, N)      host: counts a launch (an expression of type void).
 *   cp_prof_count(T, N, B)    host: counts a copy or call of B bytes.
 *   cp_profile_write(path)    host: writes the profile now (profile_file.cuh); it is called
 *                             at exit after the first count or recombination.
 *
 * What a device site records, per element (a cp_float2 is two): the element; whether its
 * error term is not 0; and, where v is finite and not 0 and e is finite, |e| in ulps of v:
 *   float pair   u = |e| / 2^(E - 23),  E = floor(log2 |v|), at least -126
 *   double pair  u = |lo| / 2^(E - 52), E = floor(log2 |hi|), at least -1022
 * (so a normalized pair has u <= 0.5; a subnormal v has the ulp of the subnormals). u is a
 * float: the float pair's is exact (|e| scaled by powers of two; beyond FLT_MAX, FLT_MAX),
 * the double pair's is truncated to 24 bits (relative error < 2^-23; below 2^-126, 0).
 * Under the dp backend a cp_float is one double d, recorded as the pair it would store:
 * v = RN_float(d), e = RN_float(d - v) (backend_dp.cuh).
 *
 * The sums: u enters the sum of ulps in 64-bit fixed point with 16 fractional bits, each
 * element's u capped at 2^24 (an error 2^24 ulps above its value is reported by ulps_max,
 * exactly, and would otherwise swamp the mean); the maximum is the float's bits, which
 * order like the values for u >= 0. Each warp adds its active lanes first
 * (__reduce_add_sync / __reduce_max_sync on sm_80 and later; a shuffle tree before, for a
 * full warp, and one lane at a time otherwise) and its first active lane does the atomics.
 * Integer and float operations only: no FP64 instruction (the FP64 audit covers profiled
 * output), except the dp backend's split of its double.
 *
 * Sampling: with CP_PROFILE_SAMPLE S (default 32), about one execution of a site in S records,
 * chosen by the clock, alike for the lanes of a warp that run it together (below); the
 * counts are those of the recorded executions.
 */
#ifndef CP_PROFILE_CUH
#define CP_PROFILE_CUH

#include "config.cuh"
#include "types.cuh"
#include "profile_file.cuh"

#include <string.h>

/* ---- ulps: host and device, integer and float operations only ---- */

CP_FUNC unsigned cp_detail_prof_fbits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  unsigned b;
  memcpy(&b, &f, sizeof b);
  return b;
#endif
}

CP_FUNC float cp_detail_prof_bitsf(unsigned b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
#endif
}

CP_FUNC unsigned long long cp_detail_prof_dbits(double d) {
#if defined(__CUDA_ARCH__)
  return (unsigned long long)__double_as_longlong(d); /* a move, no FP64 operation */
#else
  unsigned long long b;
  memcpy(&b, &d, sizeof b);
  return b;
#endif
}

/* |e| in ulps of v (float pair); -1 when not measured (v 0 or not finite, e not finite). */
CP_FUNC float cp_prof_ulps(float v, float e) {
  unsigned bv = cp_detail_prof_fbits(v) & 0x7fffffffu, be = cp_detail_prof_fbits(e) & 0x7fffffffu;
  if (bv == 0 || bv >= 0x7f800000u || be >= 0x7f800000u)
    return -1.0f;
  int ev = (int)(bv >> 23), x = ev == 0 ? -126 : ev - 127;
  int k = 23 - x, k1 = k / 2, k2 = k - k1; /* 2^k1 and 2^k2 are normal floats */
  float u = cp_fmul_rn(cp_fmul_rn(cp_detail_prof_bitsf(be), cp_detail_prof_bitsf((unsigned)(k1 + 127) << 23)),
                       cp_detail_prof_bitsf((unsigned)(k2 + 127) << 23));
  return u > FLT_MAX ? FLT_MAX : u;
}

/* |lo| in ulps of hi (double pair), truncated to a float; -1 when not measured. */
CP_FUNC float cp_prof_ulps_dd(double hi, double lo) {
  const unsigned long long mag = 0x7fffffffffffffffull, inf = 0x7ff0000000000000ull;
  unsigned long long bh = cp_detail_prof_dbits(hi) & mag, bl = cp_detail_prof_dbits(lo) & mag;
  if (bh == 0 || bh >= inf || bl >= inf)
    return -1.0f;
  if (bl == 0)
    return 0.0f;
  int eh = (int)(bh >> 52), x = eh == 0 ? -1022 : eh - 1023;
  int el = (int)(bl >> 52);
  unsigned long long m = bl & 0xfffffffffffffull; /* |lo| = m 2^q, m normalized to 53 bits */
  int q = el ? el - 1075 : -1074;
  if (el)
    m |= 1ull << 52;
#if defined(__CUDA_ARCH__)
  int shift = __clzll((long long)m) - 11;
#else
  int shift = __builtin_clzll(m) - 11;
#endif
  m <<= shift;
  q -= shift;
  int E = q - x + 104; /* u = (m / 2^52) 2^E */
  if (E > 127)
    return FLT_MAX;
  if (E < -126)
    return 0.0f;
  return cp_detail_prof_bitsf(((unsigned)(E + 127) << 23) | (unsigned)((m >> 29) & 0x7fffffu));
}

/* One lane's elements at a site, summed before the warp adds its lanes. */
typedef struct cp_detail_prof_lane {
  unsigned n, nonzero, measured, max_bits;
  unsigned long long fixed; /* sum of min(u, 2^24) in units of 2^-16 */
} cp_detail_prof_lane;

CP_FUNC void cp_detail_prof_element(cp_detail_prof_lane *l, float u, int nonzero) {
  l->n++;
  l->nonzero += nonzero != 0;
  if (u >= 0.0f) {
    float c = u < 16777216.0f ? u : 16777216.0f;
    unsigned b = cp_detail_prof_fbits(u);
    l->measured++;
    l->fixed += (unsigned long long)cp_fmul_rn(c, 65536.0f); /* exact, then truncated */
    l->max_bits = b > l->max_bits ? b : l->max_bits;
  }
}

CP_FUNC void cp_detail_prof_add(cp_detail_prof_lane *l, cp_float x) {
#if CP_BACKEND_IS_DP
  cp_ff p = cp_detail_dp_split(x.d);
#else
  cp_ff p = x;
#endif
  cp_detail_prof_element(l, cp_prof_ulps(p.v, p.e), (cp_detail_prof_fbits(p.e) & 0x7fffffffu) != 0);
}

CP_FUNC void cp_detail_prof_add_dd(cp_detail_prof_lane *l, cp_double x) {
  cp_detail_prof_element(l, cp_prof_ulps_dd(x.hi, x.lo),
                         (cp_detail_prof_dbits(x.lo) & 0x7fffffffffffffffull) != 0);
}

/* ---- device: the warp's sums, one lane's atomics ---- */

#if defined(__CUDACC__)
/* Whether this execution of a site records (CP_PROFILE_SAMPLE S): about one execution in S,
 * in every warp. The choice hashes the SM clock (Fibonacci hashing: the clock times
 * 2^32/phi, modulo 2^32, below 2^32/S), so the lanes of a warp that run the site together
 * read one clock and choose alike, and warps and iterations that run at different times
 * choose independently. Tested before anything is measured: the executions that do not
 * record pay a clock read, a multiply and a comparison. Sampling executions, not warps,
 * spreads the recording over every warp, so no recording warp becomes the critical path of
 * a kernel of one wave of warps. */
__device__ static inline int cp_detail_prof_sampled(void) {
#if CP_PROFILE_SAMPLE > 1
  unsigned t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t)); /* clock(), without its header */
  return t * 2654435769u < 4294967295u / (unsigned)(CP_PROFILE_SAMPLE);
#else
  return 1;
#endif
}

__device__ static inline void cp_detail_prof_record(cp_prof_counter *c, cp_detail_prof_lane l) {
  unsigned mask = __activemask(), lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  /* the sum of ulps in two parts that cannot overflow 32 bits over 32 lanes (each lane's
   * fixed < 4 * 2^40) */
  unsigned hi = (unsigned)(l.fixed >> 16), lo = (unsigned)(l.fixed & 0xffffu);
#if __CUDA_ARCH__ >= 800
  l.n = __reduce_add_sync(mask, l.n);
  l.nonzero = __reduce_add_sync(mask, l.nonzero);
  l.measured = __reduce_add_sync(mask, l.measured);
  hi = __reduce_add_sync(mask, hi);
  lo = __reduce_add_sync(mask, lo);
  l.max_bits = __reduce_max_sync(mask, l.max_bits);
  if (lane != (unsigned)(__ffs(mask) - 1))
    return;
#else
  if (mask == 0xffffffffu) { /* a full warp: a shuffle tree; otherwise each lane adds its own */
    for (int off = 16; off > 0; off >>= 1) {
      l.n += __shfl_xor_sync(mask, l.n, off);
      l.nonzero += __shfl_xor_sync(mask, l.nonzero, off);
      l.measured += __shfl_xor_sync(mask, l.measured, off);
      hi += __shfl_xor_sync(mask, hi, off);
      lo += __shfl_xor_sync(mask, lo, off);
      unsigned m = __shfl_xor_sync(mask, l.max_bits, off);
      l.max_bits = m > l.max_bits ? m : l.max_bits;
    }
    if (lane != 0)
      return;
  }
#endif
  atomicAdd(&c->count, (unsigned long long)l.n);
  if (l.nonzero)
    atomicAdd(&c->nonzero, (unsigned long long)l.nonzero);
  if (l.measured) {
    atomicAdd(&c->measured, (unsigned long long)l.measured);
    atomicAdd(&c->ulps_fixed, ((unsigned long long)hi << 16) + lo);
    atomicMax(&c->ulps_max_bits, l.max_bits);
  }
}

/* cp_prof's device forms: each records its elements (ADD of each member named, or of the
 * whole pair) and returns its argument. */
#define CP_DETAIL_PROF_FORM(T, ...)                                                          \
  __device__ static inline T cp_detail_prof(cp_prof_counter *c, T x) {                       \
    if (!cp_detail_prof_sampled())                                                          \
      return x;                                                                             \
    cp_detail_prof_lane l = {0, 0, 0, 0, 0};                                                \
    __VA_ARGS__                                                                             \
    cp_detail_prof_record(c, l);                                                            \
    return x;                                                                               \
  }
#define CP_DETAIL_PROF_F(m) cp_detail_prof_add(&l, x m);
#define CP_DETAIL_PROF_D(m) cp_detail_prof_add_dd(&l, x m);
CP_DETAIL_PROF_FORM(cp_float, CP_DETAIL_PROF_F())
CP_DETAIL_PROF_FORM(cp_float2, CP_DETAIL_PROF_F(.x) CP_DETAIL_PROF_F(.y))
CP_DETAIL_PROF_FORM(cp_float3, CP_DETAIL_PROF_F(.x) CP_DETAIL_PROF_F(.y) CP_DETAIL_PROF_F(.z))
CP_DETAIL_PROF_FORM(cp_float4, CP_DETAIL_PROF_F(.x) CP_DETAIL_PROF_F(.y) CP_DETAIL_PROF_F(.z)
                                   CP_DETAIL_PROF_F(.w))
CP_DETAIL_PROF_FORM(cp_double, CP_DETAIL_PROF_D())
CP_DETAIL_PROF_FORM(cp_double2, CP_DETAIL_PROF_D(.x) CP_DETAIL_PROF_D(.y))
CP_DETAIL_PROF_FORM(cp_double3, CP_DETAIL_PROF_D(.x) CP_DETAIL_PROF_D(.y) CP_DETAIL_PROF_D(.z))
CP_DETAIL_PROF_FORM(cp_double4, CP_DETAIL_PROF_D(.x) CP_DETAIL_PROF_D(.y) CP_DETAIL_PROF_D(.z)
                                    CP_DETAIL_PROF_D(.w))
#undef CP_DETAIL_PROF_D
#undef CP_DETAIL_PROF_F
#undef CP_DETAIL_PROF_FORM
#endif /* __CUDACC__ */

/* Each name goes through one more macro, so that T may itself be a macro. */
#if defined(__CUDA_ARCH__)
#define cp_prof(T, N, x) CP_DETAIL_PROF_DEV(T, N, x)
#define CP_DETAIL_PROF_DEV(T, N, x) cp_detail_prof(T##_dev + (N), (x))
#else
#define cp_prof(T, N, x) (x)
#endif

/* ---- host sites ---- */

static inline void cp_detail_prof_host(cp_prof_unit *u, size_t i, unsigned long long bytes) {
  __atomic_fetch_add(&u->host[i].count, 1ull, __ATOMIC_RELAXED);
  __atomic_fetch_add(&u->host[i].bytes, bytes, __ATOMIC_RELAXED);
  cp_detail_prof_arm();
}
#define cp_prof_launch(T, N) CP_DETAIL_PROF_HOST(T, N, 0)
#define cp_prof_count(T, N, B) CP_DETAIL_PROF_HOST(T, N, B)
#define CP_DETAIL_PROF_HOST(T, N, B) cp_detail_prof_host(&T##_unit, (N), (unsigned long long)(B))

/* ---- the table ---- */

#if defined(__CUDACC__)
/* The device counters, and their copy to the host (the unit's read_device). */
#define CP_DETAIL_PROF_DEVICE(T)                                                              \
  static __device__ cp_prof_counter T##_dev[sizeof(T##_sites) / sizeof(T##_sites[0])];       \
  static __device__ int T##_dev_backend = CP_BACKEND_IS_DP; /* the device pass's backend */  \
  static const char *T##_read(cp_prof_counter *dst, size_t n, int *backend_dp) {             \
    cudaError_t e = cudaMemcpyFromSymbol(dst, T##_dev, n * sizeof *dst);                     \
    if (e == cudaSuccess)                                                                    \
      e = cudaMemcpyFromSymbol(backend_dp, T##_dev_backend, sizeof *backend_dp);             \
    return e == cudaSuccess ? (const char *)0 : cudaGetErrorString(e);                       \
  }
#define CP_DETAIL_PROF_READ(T) T##_read
#else
#define CP_DETAIL_PROF_DEVICE(T)
#define CP_DETAIL_PROF_READ(T) 0
#endif

#if defined(__cplusplus)
#define CP_DETAIL_PROF_REGISTER(T)                                                            \
  static struct T##_registration {                                                           \
    T##_registration() { cp_detail_prof_register(&T##_unit); }                               \
  } T##_registration_;
#else
#define CP_DETAIL_PROF_REGISTER(T)                                                            \
  __attribute__((constructor)) static void T##_registration(void) {                          \
    cp_detail_prof_register(&T##_unit);                                                      \
  }
#endif

#define CP_PROFILE_TABLE(...) CP_DETAIL_PROF_TABLE(__VA_ARGS__)
#define CP_DETAIL_PROF_TABLE(T, ...)                                                          \
  static const char *const T##_sites[] = {__VA_ARGS__};                                      \
  static cp_prof_host_counter T##_host[sizeof(T##_sites) / sizeof(T##_sites[0])];            \
  CP_DETAIL_PROF_DEVICE(T)                                                                   \
  static cp_prof_unit T##_unit = {0, cp_detail_prof_collect_table, #T, T##_sites,           \
                                  sizeof(T##_sites) / sizeof(T##_sites[0]), T##_host,        \
                                  CP_DETAIL_PROF_READ(T), CP_BACKEND_IS_DP,                  \
                                  CP_DETAIL_PROF_TIER, 0};                                   \
  CP_DETAIL_PROF_REGISTER(T)

#endif /* CP_PROFILE_CUH */
