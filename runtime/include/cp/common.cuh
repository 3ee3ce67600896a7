/* cp/common.cuh - operations that do not depend on the family: comparisons, fabs, fmin,
 * fmax, floor, ceil, rint, trunc and the conversion to int.
 *
 * All of them work on the represented value v + e, for normalized and unnormalized pairs
 * alike: the operands are first normalized with TwoSum (exact: same value, RN(v + e) == v;
 * a non-finite v gets e = 0), and two normalized pairs order like their values when
 * compared lexicographically, v first, then e (RN is monotonic). All results are exact.
 * NaN compares false with everything except by cp_ne, like float.
 */
#ifndef CP_COMMON_CUH
#define CP_COMMON_CUH

#include "convert.cuh"

/* ---- comparisons ---- */

CP_FUNC int cp_lt(cp_float x, cp_float y)
{
  cp_float a = cp_normalize(x), b = cp_normalize(y);
  return a.v < b.v || (a.v == b.v && a.e < b.e);
}
CP_FUNC int cp_le(cp_float x, cp_float y)
{
  cp_float a = cp_normalize(x), b = cp_normalize(y);
  return a.v < b.v || (a.v == b.v && a.e <= b.e);
}
CP_FUNC int cp_eq(cp_float x, cp_float y)
{
  cp_float a = cp_normalize(x), b = cp_normalize(y);
  return a.v == b.v && a.e == b.e;
}
CP_FUNC int cp_gt(cp_float x, cp_float y) { return cp_lt(y, x); }
CP_FUNC int cp_ge(cp_float x, cp_float y) { return cp_le(y, x); }
CP_FUNC int cp_ne(cp_float x, cp_float y) { return !cp_eq(x, y); }

/* With one float operand: only the pair needs normalizing ({f, 0} already is). */
CP_FUNC int cp_lt_cf(cp_float x, float f) { cp_float a = cp_normalize(x); return a.v < f || (a.v == f && a.e < 0.0f); }
CP_FUNC int cp_le_cf(cp_float x, float f) { cp_float a = cp_normalize(x); return a.v < f || (a.v == f && a.e <= 0.0f); }
CP_FUNC int cp_gt_cf(cp_float x, float f) { cp_float a = cp_normalize(x); return a.v > f || (a.v == f && a.e > 0.0f); }
CP_FUNC int cp_ge_cf(cp_float x, float f) { cp_float a = cp_normalize(x); return a.v > f || (a.v == f && a.e >= 0.0f); }
CP_FUNC int cp_eq_cf(cp_float x, float f) { cp_float a = cp_normalize(x); return a.v == f && a.e == 0.0f; }
CP_FUNC int cp_ne_cf(cp_float x, float f) { return !cp_eq_cf(x, f); }
CP_FUNC int cp_lt_fc(float f, cp_float y) { return cp_gt_cf(y, f); }
CP_FUNC int cp_le_fc(float f, cp_float y) { return cp_ge_cf(y, f); }
CP_FUNC int cp_gt_fc(float f, cp_float y) { return cp_lt_cf(y, f); }
CP_FUNC int cp_ge_fc(float f, cp_float y) { return cp_le_cf(y, f); }
CP_FUNC int cp_eq_fc(float f, cp_float y) { return cp_eq_cf(y, f); }
CP_FUNC int cp_ne_fc(float f, cp_float y) { return !cp_eq_cf(y, f); }

/* ---- sign, min, max ---- */

/* |x|: x or -x by the sign of the represented value (-0 counts as negative, like fabsf). */
CP_FUNC cp_float cp_fabs(cp_float x)
{
  cp_float n = cp_normalize(x);
  return copysignf(1.0f, n.v) < 0.0f ? cp_neg(x) : x;
}

/* Like fminf: the smaller value; a NaN operand is ignored unless both are NaN. */
CP_FUNC cp_float cp_fmin(cp_float x, cp_float y)
{
  if (cp_isnan(x)) return y;
  if (cp_isnan(y)) return x;
  return cp_lt(y, x) ? y : x;
}

/* Like fmaxf: the larger value; a NaN operand is ignored unless both are NaN. */
CP_FUNC cp_float cp_fmax(cp_float x, cp_float y)
{
  if (cp_isnan(x)) return y;
  if (cp_isnan(y)) return x;
  return cp_lt(x, y) ? y : x;
}

/* ---- rounding to integers (exact; results normalized) ---- */

/* An integral v plus the rounded e, renormalized; a zero result takes the sign of x. */
CP_FUNC cp_float cp_detail_int_sum(float h, float l, float sign_of)
{
  cp_float z = cp_fast_two_sum(h, l); /* |l| <= |h|: both integral, |e| <= ulp(v)/2 */
  if (z.v == 0.0f) z = cp_make_float(copysignf(0.0f, sign_of), 0.0f);
  return z;
}

/* floor of v + e (QD's dd_real floor: floor(v), and floor(e) when v is already integral). */
CP_FUNC cp_float cp_floor(cp_float x)
{
  cp_float n = cp_normalize(x);
  float h = floorf(n.v);
  if (h != n.v || n.e == 0.0f || !cp_detail_finitef(h)) return cp_make_float(h, 0.0f);
  return cp_detail_int_sum(h, floorf(n.e), n.v);
}

/* ceil of v + e (as cp_floor). */
CP_FUNC cp_float cp_ceil(cp_float x)
{
  cp_float n = cp_normalize(x);
  float h = ceilf(n.v);
  if (h != n.v || n.e == 0.0f || !cp_detail_finitef(h)) return cp_make_float(h, 0.0f);
  return cp_detail_int_sum(h, ceilf(n.e), n.v);
}

/* trunc of v + e: floor for positive values, ceil for negative ones. */
CP_FUNC cp_float cp_trunc(cp_float x)
{
  cp_float n = cp_normalize(x);
  return copysignf(1.0f, n.v) < 0.0f ? cp_ceil(n) : cp_floor(n);
}

/* Round to nearest integer, ties to even, like rintf in the default rounding mode. When v
 * is a half-integer and e != 0 there is no tie: e says which way. When v is integral and
 * |e| == 1/2, normalization made v even, so rintf(e) == 0 breaks the tie correctly. */
CP_FUNC cp_float cp_rint(cp_float x)
{
  cp_float n = cp_normalize(x);
  float h = rintf(n.v);
  if (!cp_detail_finitef(h)) return cp_make_float(h, 0.0f);
  if (h == n.v) {
    if (n.e == 0.0f) return cp_make_float(h, 0.0f);
    return cp_detail_int_sum(h, rintf(n.e), n.v);
  }
  if (n.e != 0.0f) {
    float twice = cp_fmul_rn(n.v, 2.0f); /* exact: v is below 2^23 here */
    if (floorf(twice) == twice) h = n.e > 0.0f ? ceilf(n.v) : floorf(n.v);
  }
  return cp_make_float(h, 0.0f);
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

#endif /* CP_COMMON_CUH */
