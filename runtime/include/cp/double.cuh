/* cp/double.cuh - cp_double: double-double arithmetic for kernels written in double.
 *
 * The same accurate double-word algorithms as the float family (detail/dw_accurate.inc,
 * Joldes, Muller, Popescu, ACM TOMS 2017), with u = 2^-53: relative errors of a few u^2
 * (about 2^-104), about 104 significant bits, while nothing underflows (results above about
 * 2^-900) or overflows. Names: cp_dd_add (pair, pair), cp_dd_add_cd (pair, double),
 * cp_dd_add_dc (double, pair); likewise sub, mul, div; cp_dd_sqrt, cp_dd_rsqrt, cp_dd_rcp,
 * cp_dd_fma. There is only one family for double: the paper never had one, and the
 * normalization-free shortcuts save little when FP64 is the bottleneck anyway.
 */
#ifndef CP_DOUBLE_CUH
#define CP_DOUBLE_CUH

#include "convert.cuh"

#define CP_DW_T cp_double
#define CP_DW_S double
#define CP_DW_H hi
#define CP_DW_L lo
#define CP_DW_FN(op) cp_dd_##op
#define CP_DW_CS(op) cp_dd_##op##_cd
#define CP_DW_SC(op) cp_dd_##op##_dc
#define CP_DW_ADD cp_dadd_rn
#define CP_DW_SUB cp_dsub_rn
#define CP_DW_MUL cp_dmul_rn
#define CP_DW_DIV cp_ddiv_rn
#define CP_DW_SQRT cp_dsqrt_rn
#define CP_DW_FMA cp_dfma_rn
#define CP_DW_TWO_SUM cp_dd_two_sum
#define CP_DW_FAST_TWO_SUM cp_dd_fast_two_sum
#define CP_DW_TWO_PROD cp_dd_two_prod
#define CP_DW_MAKE cp_make_double
#define CP_DW_NEG cp_dd_neg
#define CP_DW_TO_S cp_dd_to_double
#define CP_DW_SETTLE CP_DD_DETAIL_SETTLE
#include "detail/dw_accurate.inc"
#include "detail/dw_undef.inc"

/* ---- comparisons on the represented value (operands normalized first, exact) ---- */

CP_FUNC int cp_dd_lt(cp_double x, cp_double y)
{
  cp_double a = cp_dd_normalize(x), b = cp_dd_normalize(y);
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
CP_FUNC int cp_dd_le(cp_double x, cp_double y)
{
  cp_double a = cp_dd_normalize(x), b = cp_dd_normalize(y);
  return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo);
}
CP_FUNC int cp_dd_eq(cp_double x, cp_double y)
{
  cp_double a = cp_dd_normalize(x), b = cp_dd_normalize(y);
  return a.hi == b.hi && a.lo == b.lo;
}
CP_FUNC int cp_dd_gt(cp_double x, cp_double y) { return cp_dd_lt(y, x); }
CP_FUNC int cp_dd_ge(cp_double x, cp_double y) { return cp_dd_le(y, x); }
CP_FUNC int cp_dd_ne(cp_double x, cp_double y) { return !cp_dd_eq(x, y); }

CP_FUNC int cp_dd_lt_cd(cp_double x, double d) { return cp_dd_lt(x, cp_dd_from_double(d)); }
CP_FUNC int cp_dd_le_cd(cp_double x, double d) { return cp_dd_le(x, cp_dd_from_double(d)); }
CP_FUNC int cp_dd_gt_cd(cp_double x, double d) { return cp_dd_lt(cp_dd_from_double(d), x); }
CP_FUNC int cp_dd_ge_cd(cp_double x, double d) { return cp_dd_le(cp_dd_from_double(d), x); }
CP_FUNC int cp_dd_eq_cd(cp_double x, double d) { return cp_dd_eq(x, cp_dd_from_double(d)); }
CP_FUNC int cp_dd_ne_cd(cp_double x, double d) { return !cp_dd_eq(x, cp_dd_from_double(d)); }

/* |x| of the represented value: x or -x, by the sign of the normalized pair. Exact. */
CP_FUNC cp_double cp_dd_fabs(cp_double x)
{
  cp_double n = cp_dd_normalize(x);
  return copysign(1.0, n.hi) < 0.0 ? cp_dd_neg(x) : x;
}


/* ---- min, max and rounding to integers, as the cp_float versions in common.cuh ---- */

/* Like fmin: the smaller value; a NaN operand is ignored unless both are NaN. */
CP_FUNC cp_double cp_dd_fmin(cp_double x, cp_double y)
{
  if (cp_dd_isnan(x)) return y;
  if (cp_dd_isnan(y)) return x;
  return cp_dd_lt(y, x) ? y : x;
}

/* Like fmax: the larger value; a NaN operand is ignored unless both are NaN. */
CP_FUNC cp_double cp_dd_fmax(cp_double x, cp_double y)
{
  if (cp_dd_isnan(x)) return y;
  if (cp_dd_isnan(y)) return x;
  return cp_dd_lt(x, y) ? y : x;
}

/* An integral hi plus the rounded lo, renormalized; a zero result takes the sign of x. */
CP_FUNC cp_double cp_dd_detail_int_sum(double h, double l, double sign_of)
{
  cp_double z = cp_dd_fast_two_sum(h, l); /* |l| <= |h|: both integral */
  if (z.hi == 0.0) z = cp_make_double(copysign(0.0, sign_of), 0.0);
  return z;
}

/* floor of hi + lo (QD's dd_real floor). Exact. */
CP_FUNC cp_double cp_dd_floor(cp_double x)
{
  cp_double n = cp_dd_normalize(x);
  double h = floor(n.hi);
  if (h != n.hi || n.lo == 0.0 || !cp_detail_finite(h)) return cp_make_double(h, 0.0);
  return cp_dd_detail_int_sum(h, floor(n.lo), n.hi);
}

/* ceil of hi + lo. Exact. */
CP_FUNC cp_double cp_dd_ceil(cp_double x)
{
  cp_double n = cp_dd_normalize(x);
  double h = ceil(n.hi);
  if (h != n.hi || n.lo == 0.0 || !cp_detail_finite(h)) return cp_make_double(h, 0.0);
  return cp_dd_detail_int_sum(h, ceil(n.lo), n.hi);
}

/* Round to nearest integer, ties to even (see cp_rint). Exact. */
CP_FUNC cp_double cp_dd_rint(cp_double x)
{
  cp_double n = cp_dd_normalize(x);
  double h = rint(n.hi);
  if (!cp_detail_finite(h)) return cp_make_double(h, 0.0);
  if (h == n.hi) {
    if (n.lo == 0.0) return cp_make_double(h, 0.0);
    return cp_dd_detail_int_sum(h, rint(n.lo), n.hi);
  }
  if (n.lo != 0.0) {
    double twice = cp_dmul_rn(n.hi, 2.0); /* exact: hi is below 2^52 here */
    if (floor(twice) == twice) h = n.lo > 0.0 ? ceil(n.hi) : floor(n.hi);
  }
  return cp_make_double(h, 0.0);
}

#endif /* CP_DOUBLE_CUH */
