/* cp/tiers.cuh - the accuracy tiers by name, for code that mixes them in one file.
 *
 * CP_ALGO selects one family for a whole translation unit (cp.cuh). A converted function
 * whose pragma names its own tier (`accuracy(low|mid|high)`, cpconvert --accuracy) calls
 * the tier's names instead of the generic ones:
 *
 *   cp_low_OP    the fast family's OP (no renormalization)
 *   cp_mid_OP    the mid family's OP (defined by float_mid.cuh under ff)
 *   cp_high_OP   the accurate family's OP
 *
 * for OP in add, sub, mul, div, their _cf, _fc and _ff forms, sqr, sqrt, rsqrt, rcp, fma and
 * (device) warp_sum; exp and log are math.cuh's (cp_low_exp ... cp_high_log). Under the dp backend every tier is the one double operation: a tier
 * chooses among float-float algorithms and has no meaning in native double. Bounds: the
 * families' (docs/runtime.md, "Accuracy tiers").
 */
#ifndef CP_TIERS_CUH
#define CP_TIERS_CUH

#include "pair.cuh"

/* The tier TIER's operations, each FAM(op) of the family or backend behind it. */
#define CP_DETAIL_TIER_OPS(TIER, FAM)                                                          \
  CP_FUNC cp_float cp_##TIER##_add(cp_float x, cp_float y) { return FAM(add)(x, y); }         \
  CP_FUNC cp_float cp_##TIER##_sub(cp_float x, cp_float y) { return FAM(sub)(x, y); }         \
  CP_FUNC cp_float cp_##TIER##_mul(cp_float x, cp_float y) { return FAM(mul)(x, y); }         \
  CP_FUNC cp_float cp_##TIER##_div(cp_float x, cp_float y) { return FAM(div)(x, y); }         \
  CP_FUNC cp_float cp_##TIER##_sqr(cp_float x) { return FAM(sqr)(x); }                        \
  CP_FUNC cp_float cp_##TIER##_add_cf(cp_float x, float f) { return FAM(add_cf)(x, f); }      \
  CP_FUNC cp_float cp_##TIER##_sub_cf(cp_float x, float f) { return FAM(sub_cf)(x, f); }      \
  CP_FUNC cp_float cp_##TIER##_mul_cf(cp_float x, float f) { return FAM(mul_cf)(x, f); }      \
  CP_FUNC cp_float cp_##TIER##_div_cf(cp_float x, float f) { return FAM(div_cf)(x, f); }      \
  CP_FUNC cp_float cp_##TIER##_add_fc(float f, cp_float y) { return FAM(add_fc)(f, y); }      \
  CP_FUNC cp_float cp_##TIER##_sub_fc(float f, cp_float y) { return FAM(sub_fc)(f, y); }      \
  CP_FUNC cp_float cp_##TIER##_mul_fc(float f, cp_float y) { return FAM(mul_fc)(f, y); }      \
  CP_FUNC cp_float cp_##TIER##_div_fc(float f, cp_float y) { return FAM(div_fc)(f, y); }      \
  CP_FUNC cp_float cp_##TIER##_sqrt(cp_float x) { return FAM(sqrt)(x); }                      \
  CP_FUNC cp_float cp_##TIER##_rsqrt(cp_float x) { return FAM(rsqrt)(x); }                    \
  CP_FUNC cp_float cp_##TIER##_rcp(cp_float x) { return FAM(rcp)(x); }                        \
  CP_FUNC cp_float cp_##TIER##_fma(cp_float a, cp_float b, cp_float c) { return FAM(fma)(a, b, c); }

/* The scalar-scalar forms: the tier's pair-op-float on the exact pair of a (as pair.cuh). */
#define CP_DETAIL_TIER_FF(TIER)                                                                \
  CP_FUNC cp_float cp_##TIER##_add_ff(float a, float b) { return cp_##TIER##_add_cf(cp_from_float(a), b); } \
  CP_FUNC cp_float cp_##TIER##_sub_ff(float a, float b) { return cp_##TIER##_sub_cf(cp_from_float(a), b); } \
  CP_FUNC cp_float cp_##TIER##_mul_ff(float a, float b) { return cp_##TIER##_mul_cf(cp_from_float(a), b); } \
  CP_FUNC cp_float cp_##TIER##_div_ff(float a, float b) { return cp_##TIER##_div_cf(cp_from_float(a), b); }

#if !CP_BACKEND_IS_DP
#define CP_DETAIL_FAM_FAST(op) cp_fast_##op
#define CP_DETAIL_FAM_ACCURATE(op) cp_accurate_##op
CP_DETAIL_TIER_OPS(low, CP_DETAIL_FAM_FAST)
CP_DETAIL_TIER_OPS(high, CP_DETAIL_FAM_ACCURATE)
#if defined(__CUDACC__)
CP_DEVICE_FUNC cp_float cp_low_warp_sum(unsigned mask, cp_float x) { return cp_fast_warp_sum(mask, x); }
CP_DEVICE_FUNC cp_float cp_high_warp_sum(unsigned mask, cp_float x) { return cp_accurate_warp_sum(mask, x); }
#endif
#else
#define CP_DETAIL_FAM_DP(op) cp_##op
CP_DETAIL_TIER_OPS(low, CP_DETAIL_FAM_DP)
CP_DETAIL_TIER_OPS(mid, CP_DETAIL_FAM_DP)
CP_DETAIL_TIER_OPS(high, CP_DETAIL_FAM_DP)
#if defined(__CUDACC__)
CP_DEVICE_FUNC cp_float cp_low_warp_sum(unsigned mask, cp_float x) { return cp_warp_sum(mask, x); }
CP_DEVICE_FUNC cp_float cp_mid_warp_sum(unsigned mask, cp_float x) { return cp_warp_sum(mask, x); }
CP_DEVICE_FUNC cp_float cp_high_warp_sum(unsigned mask, cp_float x) { return cp_warp_sum(mask, x); }
#endif
#endif
CP_DETAIL_TIER_FF(low)
CP_DETAIL_TIER_FF(mid)
CP_DETAIL_TIER_FF(high)

#endif /* CP_TIERS_CUH */
