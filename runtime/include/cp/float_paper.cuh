/* cp/float_paper.cuh - the paper family: Saponaro/Taufer composite precision, bit for bit.
 *
 * Source: the composite-precision float2 {value, error} arithmetic of Saponaro and Taufer
 * (University of Delaware, 2010; thesis and the group's later slides). add, sub, mul and div
 * are the published formulas, evaluated left to right with one rounding per operation, so
 * the results equal a plain C transcription compiled without contraction (tested). Pairs
 * are not normalized: e may exceed ulp(v)/2 and v may be 0 while e is not.
 *
 *   add: z.v = x.v + y.v; t = z.v - x.v; z.e = x.v - (z.v - t) + (y.v - t) + x.e + y.e
 *   sub: add with y negated
 *   mul: z.v = x.v * y.v; z.e = x.v * y.e + x.e * y.v + x.e * y.e
 *   div: t = 1 / y.v; s = t * x.v; d = x.v - s * y.v; z.v = s; z.e = t * d
 *
 * The first two terms of add's z.e are Knuth's TwoSum error, so add keeps the rounding error
 * of x.v + y.v exactly. mul does not keep the rounding error of x.v * y.v, and div ignores
 * x.e and y.e: both are only about as accurate as float (relative error of order u = 2^-24;
 * the tests measure and assert it). The thesis' Figure 8 prints div's value as
 * z.v = s + t * d, which counts the correction t * d twice once value and error are added
 * back together; the group's later slides print z.v = s, which this file follows.
 *
 * The thesis gives no sqrt, rsqrt, reciprocal or fma: these are the accurate family's,
 * applied to the normalized operands (cp_normalize), since the accurate algorithms assume
 * normalized inputs. The only departure from the formulas is the special-value rule of
 * convert.cuh (non-finite or exactly zero results).
 */
#ifndef CP_FLOAT_PAPER_CUH
#define CP_FLOAT_PAPER_CUH

#include "float_accurate.cuh"
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

/* Saponaro/Taufer add. Measured bound: see tests/runtime (error of order u^2 |x|+|y|). */
CP_FUNC cp_float cp_paper_add(cp_float x, cp_float y)
{
  cp_float z;
  z.v = cp_fadd_rn(x.v, y.v);
  float t = cp_fsub_rn(z.v, x.v);
  float e = cp_fsub_rn(x.v, cp_fsub_rn(z.v, t));
  e = cp_fadd_rn(e, cp_fsub_rn(y.v, t));
  e = cp_fadd_rn(e, x.e);
  z.e = cp_fadd_rn(e, y.e);
  CP_DETAIL_SETTLE(z, cp_fadd_rn(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* Saponaro/Taufer sub: add with y negated (negation is exact). */
CP_FUNC cp_float cp_paper_sub(cp_float x, cp_float y) { return cp_paper_add(x, cp_neg(y)); }

/* Saponaro/Taufer add with y = {f, 0}; the + 0 term is dropped (changes at most a zero's sign). */
CP_FUNC cp_float cp_paper_add_cf(cp_float x, float f)
{
  cp_float z;
  z.v = cp_fadd_rn(x.v, f);
  float t = cp_fsub_rn(z.v, x.v);
  float e = cp_fsub_rn(x.v, cp_fsub_rn(z.v, t));
  e = cp_fadd_rn(e, cp_fsub_rn(f, t));
  z.e = cp_fadd_rn(e, x.e);
  CP_DETAIL_SETTLE(z, cp_fadd_rn(cp_to_float(x), f));
  return z;
}

/* Saponaro/Taufer add with x = {f, 0}: the formula is not symmetric, so written out. */
CP_FUNC cp_float cp_paper_add_fc(float f, cp_float y)
{
  cp_float z;
  z.v = cp_fadd_rn(f, y.v);
  float t = cp_fsub_rn(z.v, f);
  float e = cp_fsub_rn(f, cp_fsub_rn(z.v, t));
  e = cp_fadd_rn(e, cp_fsub_rn(y.v, t));
  z.e = cp_fadd_rn(e, y.e);
  CP_DETAIL_SETTLE(z, cp_fadd_rn(f, cp_to_float(y)));
  return z;
}

/* Saponaro/Taufer sub, one float operand: add with the subtrahend negated. */
CP_FUNC cp_float cp_paper_sub_cf(cp_float x, float f) { return cp_paper_add_cf(x, -f); }
CP_FUNC cp_float cp_paper_sub_fc(float f, cp_float y) { return cp_paper_add_fc(f, cp_neg(y)); }

/* Saponaro/Taufer mul. Measured bound ~u relative (the rounding of x.v*y.v is not kept). */
CP_FUNC cp_float cp_paper_mul(cp_float x, cp_float y)
{
  cp_float z;
  z.v = cp_fmul_rn(x.v, y.v);
  float e = cp_fadd_rn(cp_fmul_rn(x.v, y.e), cp_fmul_rn(x.e, y.v));
  z.e = cp_fadd_rn(e, cp_fmul_rn(x.e, y.e));
  CP_DETAIL_SETTLE(z, cp_fmul_rn(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* x * x: the Saponaro/Taufer mul itself (the family is the published formulas). */
CP_FUNC cp_float cp_paper_sqr(cp_float x) { return cp_paper_mul(x, x); }

/* Saponaro/Taufer mul with y = {f, 0}: z.e = x.e * f (the zero terms dropped). ~u relative. */
CP_FUNC cp_float cp_paper_mul_cf(cp_float x, float f)
{
  cp_float z = cp_make_float(cp_fmul_rn(x.v, f), cp_fmul_rn(x.e, f));
  CP_DETAIL_SETTLE(z, cp_fmul_rn(cp_to_float(x), f));
  return z;
}

/* Saponaro/Taufer mul with x = {f, 0}: z.e = f * y.e. ~u relative. */
CP_FUNC cp_float cp_paper_mul_fc(float f, cp_float y)
{
  cp_float z = cp_make_float(cp_fmul_rn(f, y.v), cp_fmul_rn(f, y.e));
  CP_DETAIL_SETTLE(z, cp_fmul_rn(f, cp_to_float(y)));
  return z;
}

/* Saponaro/Taufer div with z.v = s (slides), not s + t*d (thesis Fig. 8). ~u relative. */
CP_FUNC cp_float cp_paper_div(cp_float x, cp_float y)
{
  float t = cp_fdiv_rn(1.0f, y.v);
  float s = cp_fmul_rn(t, x.v);
  float d = cp_fsub_rn(x.v, cp_fmul_rn(s, y.v));
  cp_float z = cp_make_float(s, cp_fmul_rn(t, d));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* Saponaro/Taufer div, one float operand: the formula never reads x.e or y.e. ~u relative. */
CP_FUNC cp_float cp_paper_div_cf(cp_float x, float f)
{
  float t = cp_fdiv_rn(1.0f, f);
  float s = cp_fmul_rn(t, x.v);
  float d = cp_fsub_rn(x.v, cp_fmul_rn(s, f));
  cp_float z = cp_make_float(s, cp_fmul_rn(t, d));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(cp_to_float(x), f));
  return z;
}

CP_FUNC cp_float cp_paper_div_fc(float f, cp_float y)
{
  float t = cp_fdiv_rn(1.0f, y.v);
  float s = cp_fmul_rn(t, f);
  float d = cp_fsub_rn(f, cp_fmul_rn(s, y.v));
  cp_float z = cp_make_float(s, cp_fmul_rn(t, d));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(f, cp_to_float(y)));
  return z;
}

/* Not in the thesis: accurate sqrt on the normalized operand. Bound 4.125u^2 + O(u^3). */
CP_FUNC cp_float cp_paper_sqrt(cp_float x) { return cp_accurate_sqrt(cp_normalize(x)); }
/* Not in the thesis: accurate rsqrt on the normalized operand. Bound 19.125u^2 + O(u^3). */
CP_FUNC cp_float cp_paper_rsqrt(cp_float x) { return cp_accurate_rsqrt(cp_normalize(x)); }
/* Not in the thesis: accurate reciprocal (DWDivDW2) on the normalized operand. 15u^2+56u^3. */
CP_FUNC cp_float cp_paper_rcp(cp_float x) { return cp_accurate_rcp(cp_normalize(x)); }
/* Not in the thesis: accurate fma on normalized operands (bound as cp_accurate_fma). */
CP_FUNC cp_float cp_paper_fma(cp_float a, cp_float b, cp_float c)
{
  return cp_accurate_fma(cp_normalize(a), cp_normalize(b), cp_normalize(c));
}

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_FLOAT_PAPER_CUH */
