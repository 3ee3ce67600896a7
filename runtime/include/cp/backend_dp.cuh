/* cp/backend_dp.cuh - the dp backend: every cp_float operation in native double.
 *
 * Selected by CP_BACKEND (config.cuh): in a device pass for an FP64-fast architecture by
 * default, anywhere when forced with CP_BACKEND=CP_BACKEND_DP. A cp_float holds one double d
 * in registers between operations, so a chain of operations rounds to 53 bits at each step
 * and never touches the pair. The pair {v, e} of floats is only the memory format of paired
 * buffers, the same as under ff, so companions, launches, recombination and files do not
 * change:
 *   load  d = RN((double)v + (double)e)   exact when v and e lie within 53 bits of each other
 *                                         (always for pairs stored by either backend)
 *   store v = RN_float(d), e = RN_float(d - v)   (d - v is exact in double)
 * The split keeps 48 of d's 53 bits: |v + e - d| <= 2^-48 |d| (one float rounding of e,
 * |e| <= ulp(v)/2), i.e. a stored value carries relative error <= 2^-48 + 2^-53 after one
 * operation. Operations: each is one correctly rounded IEEE double operation (relative
 * error <= 2^-53), except rsqrt (two roundings, <= 2^-52 + 2^-106) and the comparisons,
 * fabs, fmin, fmax and rounding to integers, which are exact. fma is fused (one rounding),
 * better than ff's. Special values are IEEE double's; a value beyond the float range is
 * kept (double range) and becomes {+-inf, 0} only when stored or converted to float.
 *
 * The family names (cp_accurate_add ...) and CP_ALGO belong to ff and do not exist here.
 * cp_double (double-double) is the same under both backends.
 */
#ifndef CP_BACKEND_DP_CUH
#define CP_BACKEND_DP_CUH

#include "accum.cuh"
#include "double.cuh"

#if CP_BACKEND_IS_DP

/* ---- load, store, construction ---- */

CP_FUNC cp_float cp_detail_dp(double d) { cp_float r; r.d = d; return r; }

/* The pair {v, e} as one double: RN(v + e), exact for stored pairs. */
CP_FUNC cp_float cp_make_float(float v, float e) { return cp_detail_dp(cp_dadd_rn((double)v, (double)e)); }

/* The pair that stores d: v = RN_float(d), e = RN_float(d - v); {+-inf or NaN, 0} when v is
 * not finite (so the error half never holds inf/NaN). */
CP_FUNC cp_ff cp_detail_dp_split(double d)
{
  float v = (float)d;
  if (!cp_detail_finitef(v)) return cp_ff_make(v, 0.0f);
  return cp_ff_make(v, (float)cp_dsub_rn(d, (double)v));
}

CP_FUNC cp_float cp_from_float(float f) { return cp_detail_dp((double)f); }
CP_FUNC cp_float cp_from_int(int i) { return cp_detail_dp((double)i); }           /* exact */
CP_FUNC cp_float cp_from_uint(unsigned int u) { return cp_detail_dp((double)u); } /* exact */
CP_FUNC cp_float cp_from_double(double d) { return cp_detail_dp(d); }             /* exact */
CP_FUNC float cp_to_float(cp_float x) { return (float)x.d; } /* one rounding */
CP_FUNC double cp_to_double(cp_float x) { return x.d; }
CP_FUNC cp_float cp_neg(cp_float x) { return cp_detail_dp(-x.d); }
CP_FUNC cp_float cp_normalize(cp_float x) { return x; } /* a double is always normalized */
CP_FUNC int cp_isnan(cp_float x) { return x.d != x.d; }
CP_FUNC int cp_isinf(cp_float x) { return !cp_isnan(x) && !cp_detail_finite(x.d); }
CP_FUNC int cp_isfinite(cp_float x) { return cp_detail_finite(x.d); }
CP_FUNC cp_double cp_dd_from_cp(cp_float x) { return cp_make_double(x.d, 0.0); }

/* ---- arithmetic: one IEEE double operation each (rounding pinned, config.cuh) ---- */

CP_FUNC cp_float cp_add(cp_float x, cp_float y) { return cp_detail_dp(cp_dadd_rn(x.d, y.d)); }
CP_FUNC cp_float cp_sub(cp_float x, cp_float y) { return cp_detail_dp(cp_dsub_rn(x.d, y.d)); }
CP_FUNC cp_float cp_mul(cp_float x, cp_float y) { return cp_detail_dp(cp_dmul_rn(x.d, y.d)); }
CP_FUNC cp_float cp_div(cp_float x, cp_float y) { return cp_detail_dp(cp_ddiv_rn(x.d, y.d)); }
CP_FUNC cp_float cp_sqr(cp_float x) { return cp_detail_dp(cp_dmul_rn(x.d, x.d)); }
/* f a power of two (common.cuh): exact unless the product leaves double's normal range. */
CP_FUNC cp_float cp_mul_pow2(cp_float x, float f) { return cp_detail_dp(cp_dmul_rn(x.d, (double)f)); }
CP_FUNC cp_float cp_add_cf(cp_float x, float f) { return cp_detail_dp(cp_dadd_rn(x.d, (double)f)); }
CP_FUNC cp_float cp_sub_cf(cp_float x, float f) { return cp_detail_dp(cp_dsub_rn(x.d, (double)f)); }
CP_FUNC cp_float cp_mul_cf(cp_float x, float f) { return cp_detail_dp(cp_dmul_rn(x.d, (double)f)); }
CP_FUNC cp_float cp_div_cf(cp_float x, float f) { return cp_detail_dp(cp_ddiv_rn(x.d, (double)f)); }
CP_FUNC cp_float cp_add_fc(float f, cp_float y) { return cp_detail_dp(cp_dadd_rn((double)f, y.d)); }
CP_FUNC cp_float cp_sub_fc(float f, cp_float y) { return cp_detail_dp(cp_dsub_rn((double)f, y.d)); }
CP_FUNC cp_float cp_mul_fc(float f, cp_float y) { return cp_detail_dp(cp_dmul_rn((double)f, y.d)); }
CP_FUNC cp_float cp_div_fc(float f, cp_float y) { return cp_detail_dp(cp_ddiv_rn((double)f, y.d)); }
CP_FUNC cp_float cp_sqrt(cp_float x) { return cp_detail_dp(cp_dsqrt_rn(x.d)); }
CP_FUNC cp_float cp_rcp(cp_float x) { return cp_detail_dp(cp_ddiv_rn(1.0, x.d)); }
CP_FUNC cp_float cp_rsqrt(cp_float x) { return cp_detail_dp(cp_ddiv_rn(1.0, cp_dsqrt_rn(x.d))); }
CP_FUNC cp_float cp_fma(cp_float a, cp_float b, cp_float c) { return cp_detail_dp(cp_dfma_rn(a.d, b.d, c.d)); }

/* ---- comparisons, sign, min, max, rounding to integers: exact ---- */

CP_FUNC int cp_lt(cp_float x, cp_float y) { return x.d < y.d; }
CP_FUNC int cp_le(cp_float x, cp_float y) { return x.d <= y.d; }
CP_FUNC int cp_gt(cp_float x, cp_float y) { return x.d > y.d; }
CP_FUNC int cp_ge(cp_float x, cp_float y) { return x.d >= y.d; }
CP_FUNC int cp_eq(cp_float x, cp_float y) { return x.d == y.d; }
CP_FUNC int cp_ne(cp_float x, cp_float y) { return x.d != y.d; }
CP_FUNC int cp_lt_cf(cp_float x, float f) { return x.d < (double)f; }
CP_FUNC int cp_le_cf(cp_float x, float f) { return x.d <= (double)f; }
CP_FUNC int cp_gt_cf(cp_float x, float f) { return x.d > (double)f; }
CP_FUNC int cp_ge_cf(cp_float x, float f) { return x.d >= (double)f; }
CP_FUNC int cp_eq_cf(cp_float x, float f) { return x.d == (double)f; }
CP_FUNC int cp_ne_cf(cp_float x, float f) { return x.d != (double)f; }
CP_FUNC int cp_lt_fc(float f, cp_float y) { return (double)f < y.d; }
CP_FUNC int cp_le_fc(float f, cp_float y) { return (double)f <= y.d; }
CP_FUNC int cp_gt_fc(float f, cp_float y) { return (double)f > y.d; }
CP_FUNC int cp_ge_fc(float f, cp_float y) { return (double)f >= y.d; }
CP_FUNC int cp_eq_fc(float f, cp_float y) { return (double)f == y.d; }
CP_FUNC int cp_ne_fc(float f, cp_float y) { return (double)f != y.d; }

CP_FUNC cp_float cp_fabs(cp_float x) { return cp_detail_dp(fabs(x.d)); }
/* Like fminf/fmaxf: a NaN operand is ignored unless both are NaN; between -0 and +0 the
 * first operand, as the ff versions. */
CP_FUNC cp_float cp_fmin(cp_float x, cp_float y)
{
  if (cp_isnan(x)) return y;
  if (cp_isnan(y)) return x;
  return y.d < x.d ? y : x;
}
CP_FUNC cp_float cp_fmax(cp_float x, cp_float y)
{
  if (cp_isnan(x)) return y;
  if (cp_isnan(y)) return x;
  return x.d < y.d ? y : x;
}
CP_FUNC cp_float cp_floor(cp_float x) { return cp_detail_dp(floor(x.d)); }
CP_FUNC cp_float cp_ceil(cp_float x) { return cp_detail_dp(ceil(x.d)); }
CP_FUNC cp_float cp_trunc(cp_float x) { return cp_detail_dp(trunc(x.d)); }
CP_FUNC cp_float cp_rint(cp_float x) { return cp_detail_dp(rint(x.d)); }

/* (int) of the value, toward zero; NaN gives 0, out of range saturates (as under ff). */
CP_FUNC int cp_to_int(cp_float x)
{
  double t = trunc(x.d);
  if (t != t) return 0;
  if (t >= 2147483647.0) return INT_MAX;
  if (t <= -2147483648.0) return INT_MIN;
  return (int)t;
}

/* ---- paired buffers (see pair.cuh) ---- */

/* Two plain floats: add, sub and mul exact (a float sum or product fits in 53 bits, unless
 * the exponents are more than 29 apart for add/sub: then correctly rounded); div rounded. */
CP_FUNC cp_float cp_add_ff(float a, float b) { return cp_detail_dp(cp_dadd_rn((double)a, (double)b)); }
CP_FUNC cp_float cp_sub_ff(float a, float b) { return cp_detail_dp(cp_dsub_rn((double)a, (double)b)); }
CP_FUNC cp_float cp_mul_ff(float a, float b) { return cp_detail_dp(cp_dmul_rn((double)a, (double)b)); }
CP_FUNC cp_float cp_div_ff(float a, float b) { return cp_detail_dp(cp_ddiv_rn((double)a, (double)b)); }

CP_FUNC void cp_store(float *v, float *e, cp_float x)
{
  cp_ff p = cp_detail_dp_split(x.d);
  *v = p.v;
  *e = p.e;
}
CP_FUNC void cp_add_to(float *v, float *e, cp_float x) { cp_store(v, e, cp_add(cp_make_float(*v, *e), x)); }

/* ---- accumulators (see accum.cuh) ---- */

/* x rounded once to a multiple of 2^-F: error <= 2^-(F+1) (half of ff's, which rounds v and
 * e separately). Saturates like cp_fixed_from_float. */
CP_FUNC cp_fixed cp_fixed_from_cp_bits(cp_float x, int f)
{
  double s = rint(cp_dmul_rn(x.d, (double)(1ULL << f))); /* exact scaling */
  if (s != s) return 0;
  if (s >= 9223372036854775808.0) return LLONG_MAX;
  if (s <= -9223372036854775808.0) return LLONG_MIN;
  return (cp_fixed)s;
}
CP_FUNC cp_fixed cp_fixed_from_cp(cp_float x) { return cp_fixed_from_cp_bits(x, CP_FIXED_FRAC_BITS); }
CP_FUNC cp_float cp_fixed_to_cp_bits(cp_fixed q, int f) { return cp_detail_dp(cp_fixed_to_double_bits(q, f)); }
CP_FUNC cp_float cp_fixed_to_cp(cp_fixed q) { return cp_fixed_to_cp_bits(q, CP_FIXED_FRAC_BITS); }
CP_FUNC cp_float cp_kahan_to_cp(cp_kahan k) { return cp_detail_dp(cp_dsub_rn((double)k.sum, (double)k.c)); }

/* ---- CUDA vector types: member by member ---- */
#if defined(__CUDACC__) || defined(__VECTOR_TYPES_H__)
CP_FUNC cp_float2 cp_from_float2(float2 f) { return cp_make_float2(cp_from_float(f.x), cp_from_float(f.y)); }
CP_FUNC cp_float3 cp_from_float3(float3 f)
{
  return cp_make_float3(cp_from_float(f.x), cp_from_float(f.y), cp_from_float(f.z));
}
CP_FUNC cp_float4 cp_from_float4(float4 f)
{
  return cp_make_float4(cp_from_float(f.x), cp_from_float(f.y), cp_from_float(f.z), cp_from_float(f.w));
}
CP_FUNC float2 cp_to_float2(cp_float2 x) { return make_float2(cp_to_float(x.x), cp_to_float(x.y)); }
CP_FUNC float3 cp_to_float3(cp_float3 x)
{
  return make_float3(cp_to_float(x.x), cp_to_float(x.y), cp_to_float(x.z));
}
CP_FUNC float4 cp_to_float4(cp_float4 x)
{
  return make_float4(cp_to_float(x.x), cp_to_float(x.y), cp_to_float(x.z), cp_to_float(x.w));
}
CP_FUNC cp_float2 cp_pair_float2(float2 v, float2 e)
{
  return cp_make_float2(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y));
}
CP_FUNC cp_float3 cp_pair_float3(float3 v, float3 e)
{
  return cp_make_float3(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y), cp_make_float(v.z, e.z));
}
CP_FUNC cp_float4 cp_pair_float4(float4 v, float4 e)
{
  return cp_make_float4(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y), cp_make_float(v.z, e.z),
                        cp_make_float(v.w, e.w));
}
CP_FUNC void cp_store_float2(float2 *v, float2 *e, cp_float2 x)
{
  cp_store(&v->x, &e->x, x.x); cp_store(&v->y, &e->y, x.y);
}
CP_FUNC void cp_store_float3(float3 *v, float3 *e, cp_float3 x)
{
  cp_store(&v->x, &e->x, x.x); cp_store(&v->y, &e->y, x.y); cp_store(&v->z, &e->z, x.z);
}
CP_FUNC void cp_store_float4(float4 *v, float4 *e, cp_float4 x)
{
  cp_store(&v->x, &e->x, x.x); cp_store(&v->y, &e->y, x.y);
  cp_store(&v->z, &e->z, x.z); cp_store(&v->w, &e->w, x.w);
}
#endif

/* ---- device only: atomics, shuffles, warp sums ---- */
#if defined(__CUDACC__)
/* Composite atomicAdd into a paired cell of floats: x split into its pair, then the ff
 * composite atomic (accum.cuh's cp_atomic_add_step), so the cell format and its exactness
 * argument are the same under both backends. Returns the old pair as a cp_float. */
CP_DEVICE_FUNC cp_float cp_atomic_add(float *v, float *e, cp_float x)
{
  cp_ff p = cp_detail_dp_split(x.d);
  float old = atomicAdd(v, p.v);
  cp_ff st = cp_atomic_add_step(old, p, __isGlobal(v) ? 1 : 0);
  float olde = atomicAdd(e, st.e);
  return cp_make_float(old, olde);
}
CP_DEVICE_FUNC cp_float cp_atomic_add_f(float *v, float *e, float x)
{
  return cp_atomic_add(v, e, cp_from_float(x));
}

/* A cp_float variable as the cell (`&x.v, &x.e` of converted code): one double atomicAdd,
 * rounded once to 53 bits. Before sm_60 (dp forced there) a compare-and-swap loop. */
CP_DEVICE_FUNC double cp_detail_dp_atomic_add(double *cell, double x)
{
#if __CUDA_ARCH__ >= 600
  return atomicAdd(cell, x);
#else
  unsigned long long *p = (unsigned long long *)cell, old = *p, seen;
  do {
    seen = old;
    old = atomicCAS(p, seen, __double_as_longlong(__longlong_as_double(seen) + x));
  } while (seen != old);
  return __longlong_as_double(old);
#endif
}
CP_DEVICE_FUNC cp_float cp_atomic_add(cp_detail_cell_v *v, cp_detail_cell_e *e, cp_float x)
{
  (void)e; /* the same cell as v: both name the union's double */
  return cp_detail_dp(cp_detail_dp_atomic_add((double *)(void *)v, x.d));
}
CP_DEVICE_FUNC cp_float cp_atomic_add_f(cp_detail_cell_v *v, cp_detail_cell_e *e, float x)
{
  return cp_atomic_add(v, e, cp_from_float(x));
}

/* Shuffles move the double (two 32-bit shuffles, as the ff pair). Exact. */
CP_DEVICE_FUNC cp_float cp_shfl_sync(unsigned mask, cp_float x, int src_lane, int width = 32)
{
  return cp_detail_dp(__shfl_sync(mask, x.d, src_lane, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_up_sync(unsigned mask, cp_float x, unsigned delta, int width = 32)
{
  return cp_detail_dp(__shfl_up_sync(mask, x.d, delta, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_down_sync(unsigned mask, cp_float x, unsigned delta, int width = 32)
{
  return cp_detail_dp(__shfl_down_sync(mask, x.d, delta, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_xor_sync(unsigned mask, cp_float x, int lane_mask, int width = 32)
{
  return cp_detail_dp(__shfl_xor_sync(mask, x.d, lane_mask, width));
}

/* Butterfly warp sum (warp.cuh's tree): 31 double additions, every lane the same bits. */
CP_DEVICE_FUNC cp_float cp_warp_sum(unsigned mask, cp_float x)
{
  CP_DETAIL_WARP_SUM(cp_float, cp_shfl_xor_sync, cp_add, mask, x);
  return x;
}

/* accum.cuh's warp-aggregated composite atomic: the warp's addends summed in double
 * (cp_warp_sum), then one composite atomic, when all 32 lanes add into the same cell;
 * for a paired float cell and for a cp_float variable (`&x.v, &x.e`). */
#if __CUDA_ARCH__ >= 700
#define CP_DETAIL_DP_ATOMIC_WARP(v, e, x)                                                   \
  do {                                                                                      \
    unsigned mask_ = __activemask();                                                        \
    if (mask_ == 0xffffffffu) {                                                             \
      int same_v_ = 0, same_e_ = 0;                                                         \
      __match_all_sync(mask_, (unsigned long long)(v), &same_v_);                           \
      __match_all_sync(mask_, (unsigned long long)(e), &same_e_);                           \
      if (same_v_ && same_e_) {                                                             \
        cp_float s_ = cp_warp_sum(mask_, x);                                                \
        if (cp_detail_lane_id() == 0) cp_atomic_add(v, e, s_);                              \
        return;                                                                             \
      }                                                                                     \
    }                                                                                       \
    cp_atomic_add(v, e, x);                                                                 \
  } while (0)
#else
#define CP_DETAIL_DP_ATOMIC_WARP(v, e, x) cp_atomic_add(v, e, x)
#endif
CP_DEVICE_FUNC void cp_atomic_add_warp(float *v, float *e, cp_float x)
{
  CP_DETAIL_DP_ATOMIC_WARP(v, e, x);
}
CP_DEVICE_FUNC void cp_atomic_add_warp(cp_detail_cell_v *v, cp_detail_cell_e *e, cp_float x)
{
  CP_DETAIL_DP_ATOMIC_WARP(v, e, x);
}
#undef CP_DETAIL_DP_ATOMIC_WARP

#if defined(__cplusplus)
template <class Group>
__device__ static inline cp_float cp_group_shfl(const Group &g, cp_float x, unsigned src) {
  return cp_detail_dp(g.shfl(x.d, src));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_down(const Group &g, cp_float x, unsigned delta) {
  return cp_detail_dp(g.shfl_down(x.d, delta));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_up(const Group &g, cp_float x, unsigned delta) {
  return cp_detail_dp(g.shfl_up(x.d, delta));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_xor(const Group &g, cp_float x, unsigned mask) {
  return cp_detail_dp(g.shfl_xor(x.d, mask));
}
#endif
#endif /* __CUDACC__ */

#endif /* CP_BACKEND_IS_DP */

#endif /* CP_BACKEND_DP_CUH */
