/* cp/accum.cuh - accumulation: composite atomics, the fixed-point order-independent
 * accumulator, and Kahan summation.
 *
 * Composite atomic add. A paired cell is two floats, value and error, each updated by a
 * hardware atomicAdd. atomicAdd returns the value the cell held before this thread's add,
 * and the hardware stored RN(old + x.v); so the rounding error of that store is known
 * exactly, TwoSum(old, x.v).error, whatever other threads did before or after. That error
 * plus x.e goes into the error cell. cp_atomic_add_step is that arithmetic, shared by the
 * device atomic and host emulations (tests/runtime).
 *
 * What that leaves is the error cell's own rounding: each add into it rounds, to
 * u * |error cell|, and with many adders those roundings add up (1000 threads each adding
 * one value of magnitude 1e6: 1.9e-5 absolute, on an H100). cp_atomic_add_warp, which
 * generated code calls, makes fewer adds: when the whole warp adds into one cell, the warp
 * first sums its 32 pairs with the accurate pair addition (a butterfly, 31 additions of
 * error <= 3u^2 relative each) and lane 0 makes one composite atomic. 32x fewer adds into
 * each cell, so both the count of roundings and the error cell's magnitude drop. Where the
 * lanes' cells differ, or part of the warp is inactive, each lane adds for itself as
 * before; the test for it is one __activemask and two match instructions, so adds that do
 * not contend cost about what they did.
 *
 * Flush to zero: the CUDA C++ Programming Guide (Floating-Point Standard section) states
 * that single-precision atomic adds on global memory always flush subnormal inputs and
 * results to zero, whatever -ftz says, and that those on shared memory keep subnormals.
 * With ftz != 0 the step models the flushing, so the error term stays exact; what is still
 * lost is an error addend that the error cell's own (flushing) atomic drops because it is
 * below 2^-126 in magnitude.
 *
 * Fixed point (after "Narumi's trick"): each value is rounded to a multiple of 2^-F,
 * F = CP_FIXED_FRAC_BITS (default 32), and added as a 64-bit two's complement integer.
 * Integer addition is associative, so the sum does not depend on the order of additions.
 * Range: |sum| < 2^(63-F) (2^31 for F = 32); resolution 2^-F (2.3e-10 for F = 32). A value
 * whose |x| * 2^F reaches 2^63 saturates at conversion (NaN converts to 0); partial sums
 * may leave the range and come back (the addition wraps around modulo 2^64), only the
 * final sum must be in range.
 */
#ifndef CP_ACCUM_CUH
#define CP_ACCUM_CUH

#include "common.cuh"
#include "float_accurate.cuh"
#include "warp.cuh"

/* ---- composite atomic add ---- */

/* x flushed to a signed zero if subnormal (what flush-to-zero hardware does to it). */
CP_FUNC float cp_detail_ftz(float x) { return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x; }

/* One composite atomic add, given the old value of the value cell. Returns {new value of
 * the value cell, addend for the error cell}. ftz != 0 models a flush-to-zero atomic.
 * Exact: new - old + (error addend - x.e) == x.v; the addend itself is RN(lost + x.e).
 * If the new value is not finite the addend is 0 (so the error cell never holds inf/NaN). */
CP_FUNC cp_ff cp_atomic_add_step(float old, cp_ff x, int ftz)
{
  float lost;
  float nv;
  if (!ftz) {
    cp_ff s = cp_two_sum(old, x.v);
    nv = s.v;
    lost = s.e;
  } else {
    float a = cp_detail_ftz(old), b = cp_detail_ftz(x.v);
    cp_ff s = cp_two_sum(a, b);
    nv = cp_detail_ftz(s.v);
    /* every term below is 0 unless something was flushed; then they are multiples of 2^-149
     * below 2^-125 and their sum is exact */
    lost = cp_fadd_rn(cp_fadd_rn(cp_fsub_rn(old, a), cp_fsub_rn(x.v, b)),
                      cp_fadd_rn(s.e, cp_fsub_rn(s.v, nv)));
  }
  if (!cp_detail_finitef(nv)) return cp_ff_make(nv, 0.0f);
  return cp_ff_make(nv, cp_fadd_rn(lost, x.e));
}

#if defined(__CUDACC__)
#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
/* Composite atomicAdd into the paired cell (*v, *e). Returns {old *v, old *e}: each half is
 * what its own cell held just before this thread's add; the two are not one snapshot. */
CP_DEVICE_FUNC cp_float cp_atomic_add(float *v, float *e, cp_float x)
{
  x = CP_DETAIL_STORED(x); /* a boundary: see convert.cuh */
  float old = atomicAdd(v, x.v);
  cp_float st = cp_atomic_add_step(old, x, __isGlobal(v) ? 1 : 0);
  float olde = atomicAdd(e, st.e);
  return cp_make_float(old, olde);
}

#endif /* !CP_BACKEND_IS_DP */

/* Double-double atomicAdd into the paired cell (*hi, *lo): the double atomicAdd rounds to
 * nearest and keeps subnormals, so TwoSum(old, x.hi) is exactly what it dropped. Returns
 * {old *hi, old *lo}, not one snapshot. */
CP_DEVICE_FUNC cp_double cp_dd_atomic_add(double *hi, double *lo, cp_double x)
{
  double old = atomicAdd(hi, x.hi);
  cp_double s = cp_dd_two_sum(old, x.hi);
  double add = cp_detail_finite(s.hi) ? cp_dadd_rn(s.lo, x.lo) : 0.0;
  double olo = atomicAdd(lo, add);
  return cp_make_double(old, olo);
}

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
/* Composite atomicAdd into (*v, *e), summed over the warp first when every lane of the warp
 * is active and adds into the same cell (see the top of this file); returns nothing, as no
 * lane's add is then its own. Needs sm_70 (match); older targets add lane by lane. */
CP_DEVICE_FUNC void cp_atomic_add_warp(float *v, float *e, cp_float x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  unsigned mask = __activemask();
  if (mask == 0xffffffffu) {
    int same_v = 0, same_e = 0;
    __match_all_sync(mask, (unsigned long long)v, &same_v);
    __match_all_sync(mask, (unsigned long long)e, &same_e);
    if (same_v && same_e) {
      x = cp_accurate_warp_sum(mask, x);
      if (cp_detail_lane_id() == 0) cp_atomic_add(v, e, x);
      return;
    }
  }
#endif
  cp_atomic_add(v, e, x);
}

/* Composite atomicAdd of a plain float (x.e = 0). */
CP_DEVICE_FUNC cp_float cp_atomic_add_f(float *v, float *e, float x)
{
  return cp_atomic_add(v, e, cp_from_float(x));
}
#endif /* !CP_BACKEND_IS_DP */
#endif

/* ---- fixed point ---- */

#ifndef CP_FIXED_FRAC_BITS
#define CP_FIXED_FRAC_BITS 32
#endif
#if CP_FIXED_FRAC_BITS < 0 || CP_FIXED_FRAC_BITS > 62
#error "CP_FIXED_FRAC_BITS must be between 0 and 62"
#endif

typedef long long cp_fixed;

/* Each conversion has a form that takes the fractional bits F as its last argument, 0 to 62
 * (the _bits functions; accumulate(fixed(F)) in a pragma writes them), and one that takes
 * CP_FIXED_FRAC_BITS. Inlined with a constant F, the two compile alike. Values of one
 * accumulator, and the sums added into it, must all have the same F: a cp_fixed does not
 * say its own. */

/* 2^f and 2^-f, exactly (0 <= f <= 62). */
CP_FUNC float cp_detail_fixed_scale(int f) { return (float)(1ULL << f); }
CP_FUNC float cp_detail_fixed_unit(int f) { return 1.0f / (float)(1ULL << f); }

/* x rounded to the nearest multiple of 2^-f (ties to even), as an integer count of 2^-f.
 * Error <= 2^-(f+1). Saturates when |x| >= 2^(63-f); NaN gives 0. */
CP_FUNC cp_fixed cp_fixed_from_float_bits(float x, int f)
{
  float s = rintf(cp_fmul_rn(x, cp_detail_fixed_scale(f))); /* scaling by 2^f is exact */
  if (s != s) return 0;
  if (s >= 9223372036854775808.0f) return LLONG_MAX;
  if (s <= -9223372036854775808.0f) return LLONG_MIN;
  return (cp_fixed)s;
}
CP_FUNC cp_fixed cp_fixed_from_float(float x) { return cp_fixed_from_float_bits(x, CP_FIXED_FRAC_BITS); }

/* v and e converted separately and added: error <= 2^-F. */
CP_FUNC cp_fixed cp_fixed_add(cp_fixed a, cp_fixed b)
{
  return (cp_fixed)((unsigned long long)a + (unsigned long long)b); /* wraps, never UB */
}

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
CP_FUNC cp_fixed cp_fixed_from_cp_bits(cp_float x, int f)
{
  x = cp_settle(x); /* a boundary: see convert.cuh */
  return cp_fixed_add(cp_fixed_from_float_bits(x.v, f), cp_fixed_from_float_bits(x.e, f));
}
CP_FUNC cp_fixed cp_fixed_from_cp(cp_float x) { return cp_fixed_from_cp_bits(x, CP_FIXED_FRAC_BITS); }
#endif /* !CP_BACKEND_IS_DP */

/* Correctly rounded to double (exact when |q| < 2^53). */
CP_FUNC double cp_fixed_to_double_bits(cp_fixed q, int f)
{
  return cp_dmul_rn((double)q, 1.0 / (double)(1ULL << f));
}
CP_FUNC double cp_fixed_to_double(cp_fixed q) { return cp_fixed_to_double_bits(q, CP_FIXED_FRAC_BITS); }

/* Correctly rounded to float: (float)q is RN, the scaling is exact (barring underflow). */
CP_FUNC float cp_fixed_to_float_bits(cp_fixed q, int f)
{
  return cp_fmul_rn((float)q, cp_detail_fixed_unit(f));
}
CP_FUNC float cp_fixed_to_float(cp_fixed q) { return cp_fixed_to_float_bits(q, CP_FIXED_FRAC_BITS); }

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
/* As a normalized pair: hi = RN(q), lo = RN(q - hi), scaled. Exact when q has at most 48
 * significant bits; else relative error <= 2^-48. */
CP_FUNC cp_float cp_fixed_to_cp_bits(cp_fixed q, int f)
{
  float hi = (float)q;
  unsigned long long hu = hi >= 9223372036854775808.0f ? 0x8000000000000000ULL
                                                       : (unsigned long long)(long long)hi;
  long long rest = (long long)((unsigned long long)q - hu); /* |rest| <= 2^39 */
  cp_float z = cp_fast_two_sum(hi, (float)rest);
  float scale = cp_detail_fixed_unit(f);
  return cp_make_float(cp_fmul_rn(z.v, scale), cp_fmul_rn(z.e, scale));
}
CP_FUNC cp_float cp_fixed_to_cp(cp_fixed q) { return cp_fixed_to_cp_bits(q, CP_FIXED_FRAC_BITS); }
#endif /* !CP_BACKEND_IS_DP */

#if defined(CP_REPORT)
#include <stdio.h>
/* -DCP_REPORT: a fixed-point sum read back (cp_fixed_to_cp, cp_fixed_to_cp_bits; the macros
 * at the end of cp.cuh route the generated calls here) whose integer q is 0 < |q| < 2^24 has
 * at most 24 significant bits, a float's precision: |sum| < 2^(24-F), where a float's own
 * spacing, 2^(floor(log2|sum|) - 23), is at most the fixed resolution 2^-F. The terms added
 * into it were rounded to 2^-F, so the sum is no more accurate than a float sum could be;
 * more fractional bits (accumulate(fixed(N))) would help. Said once per call site (the
 * line, modulo CP_DETAIL_FIXED_SITES: two sites of one line number in different files of
 * one translation unit share the flag), on standard error (printf on the device). q == 0
 * is not reported: an exact zero sum is common (terms in +/- pairs). */
#define CP_DETAIL_FIXED_SITES 256
#if defined(__CUDACC__)
static __device__ int cp_detail_fixed_warned_d[CP_DETAIL_FIXED_SITES];
#endif
static int cp_detail_fixed_warned_h[CP_DETAIL_FIXED_SITES];

/* Whether a fixed-point sum holds no more significant bits than a float: 0 < |q| < 2^24. */
CP_FUNC int cp_fixed_coarse(cp_fixed q) { return q != 0 && q > -(1LL << 24) && q < (1LL << 24); }

CP_FUNC cp_fixed cp_detail_fixed_report(cp_fixed q, int f, const char *file, int line, const char *what)
{
  if (!cp_fixed_coarse(q)) return q;
  unsigned k = (unsigned)line % CP_DETAIL_FIXED_SITES;
#if defined(__CUDA_ARCH__)
  if (atomicExch(&cp_detail_fixed_warned_d[k], 1) == 0)
    printf("cp report: %s:%d %s: warning: fixed-point sum %.9g with %d fractional bits holds "
           "fewer significant bits than a float (|sum| < 2^%d); use more fractional bits, "
           "accumulate(fixed(N))\n", file, line, what, cp_fixed_to_double_bits(q, f), f, 24 - f);
#else
  if (!cp_detail_fixed_warned_h[k]) {
    cp_detail_fixed_warned_h[k] = 1;
    fprintf(stderr, "cp report: %s:%d %s: warning: fixed-point sum %.9g with %d fractional bits "
            "holds fewer significant bits than a float (|sum| < 2^%d); use more fractional "
            "bits, accumulate(fixed(N))\n", file, line, what, cp_fixed_to_double_bits(q, f), f,
            24 - f);
  }
#endif
  return q;
}
#endif /* CP_REPORT */

#if defined(__CUDACC__)
/* Shuffles of a fixed-point value move the 64-bit integer itself (two 32-bit shuffles), so
 * a sum across lanes stays exact and order-independent; a pair would keep 48 bits. */
CP_DEVICE_FUNC cp_fixed cp_fixed_shfl_sync(unsigned mask, cp_fixed q, int src_lane, int width = 32)
{
  return __shfl_sync(mask, q, src_lane, width);
}
CP_DEVICE_FUNC cp_fixed cp_fixed_shfl_up_sync(unsigned mask, cp_fixed q, unsigned delta, int width = 32)
{
  return __shfl_up_sync(mask, q, delta, width);
}
CP_DEVICE_FUNC cp_fixed cp_fixed_shfl_down_sync(unsigned mask, cp_fixed q, unsigned delta, int width = 32)
{
  return __shfl_down_sync(mask, q, delta, width);
}
CP_DEVICE_FUNC cp_fixed cp_fixed_shfl_xor_sync(unsigned mask, cp_fixed q, int lane_mask, int width = 32)
{
  return __shfl_xor_sync(mask, q, lane_mask, width);
}

/* Order-independent atomic accumulation into a 64-bit cell (wrap-around addition). */
CP_DEVICE_FUNC void cp_fixed_atomic_add(unsigned long long *cell, cp_fixed q)
{
  atomicAdd(cell, (unsigned long long)q);
}
#endif

/* ---- Kahan summation ---- */

/* Running sum and compensation c (c holds minus the low-order part lost so far). */
typedef struct cp_kahan {
  float sum;
  float c;
} cp_kahan;

CP_FUNC cp_kahan cp_kahan_init(void) { cp_kahan k; k.sum = 0.0f; k.c = 0.0f; return k; }

/* Kahan (1965) compensated summation step. After n steps |error| <= (2u + O(n u^2)) sum|x_i|
 * (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., sec. 4.3). */
CP_FUNC cp_kahan cp_kahan_add(cp_kahan k, float x)
{
  float y = cp_fsub_rn(x, k.c);
  float t = cp_fadd_rn(k.sum, y);
  k.c = cp_fsub_rn(cp_fsub_rn(t, k.sum), y);
  k.sum = t;
  return k;
}

/* The compensated sum, RN(sum - c). */
CP_FUNC float cp_kahan_value(cp_kahan k) { return cp_fsub_rn(k.sum, k.c); }

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
/* The compensated sum as a normalized pair (sum - c, exactly). */
CP_FUNC cp_float cp_kahan_to_cp(cp_kahan k) { return cp_normalize(cp_make_float(k.sum, -k.c)); }
#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_ACCUM_CUH */
