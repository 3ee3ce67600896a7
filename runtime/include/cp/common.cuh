/* cp/common.cuh - operations that do not depend on the family: comparisons, fabs, fmin,
 * fmax, floor, ceil, rint, trunc, the conversion to int and the exact scaling by a power of
 * two (cp_mul_pow2).
 *
 * All of them work on the represented value v + e, for normalized and unnormalized pairs
 * alike: the operands are first normalized with TwoSum (exact: same value, RN(v + e) == v;
 * a non-finite v gets e = 0), and two normalized pairs order like their values when
 * compared lexicographically, v first, then e (RN is monotonic). All results are exact.
 * NaN compares false with everything except by cp_ne, like float.
 *
 * Comparisons, fabs, fmin, fmax, floor, ceil and rint are in detail/dw_common.inc, shared
 * with cp_double (double.cuh); trunc and the conversion to int are cp_float's own.
 */
#ifndef CP_COMMON_CUH
#define CP_COMMON_CUH

#include "convert.cuh"
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

#include "detail/dw_float.inc"
#define CP_DW_FN(op) cp_##op
#define CP_DW_CS(op) cp_##op##_cf
#include "detail/dw_common.inc"
#include "detail/dw_undef.inc"

/* Float op pair: the mirrored pair-op-float comparison (only cp_float has these forms). */
CP_FUNC int cp_lt_fc(float f, cp_float y) { return cp_gt_cf(y, f); }
CP_FUNC int cp_le_fc(float f, cp_float y) { return cp_ge_cf(y, f); }
CP_FUNC int cp_gt_fc(float f, cp_float y) { return cp_lt_cf(y, f); }
CP_FUNC int cp_ge_fc(float f, cp_float y) { return cp_le_cf(y, f); }
CP_FUNC int cp_eq_fc(float f, cp_float y) { return cp_eq_cf(y, f); }
CP_FUNC int cp_ne_fc(float f, cp_float y) { return !cp_eq_cf(y, f); }

/* trunc of v + e: floor for positive values, ceil for negative ones. */
CP_FUNC cp_float cp_trunc(cp_float x)
{
  cp_float n = cp_normalize(x);
  return copysignf(1.0f, n.v) < 0.0f ? cp_ceil(n) : cp_floor(n);
}

/* (int) of the represented value: truncation toward zero, like a C cast of a float, but
 * defined everywhere: NaN gives 0, values beyond the int range saturate to INT_MIN/INT_MAX
 * (what the GPU's cvt.rzi.s32.f32 does). Exact: {5, -2^-30} gives 4, not 5. */
CP_FUNC int cp_to_int(cp_float x)
{
  cp_float t = cp_trunc(x);
  if (t.v != t.v) return 0;
  if (t.v >= 4294967296.0f) return INT_MAX;
  if (t.v <= -4294967296.0f) return INT_MIN;
  long long r = (long long)t.v + (long long)t.e; /* both integral, |t.e| <= 256 */
  if (r > INT_MAX) return INT_MAX;
  if (r < INT_MIN) return INT_MIN;
  return (int)r;
}

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_COMMON_CUH */
