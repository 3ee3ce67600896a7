/* cp/float_fast.cuh - the fast family: error-free transformations without renormalization.
 *
 * After Narumi et al. (2011), "fast quasi double precision": the rounding error of the value
 * half is captured exactly (TwoSum, FMA TwoProd, FMA remainder), the error halves are
 * propagated to first order, and the final Fast2Sum that would renormalize the pair is
 * dropped. Pairs are therefore not normalized (|e| can reach a few ulp(v), and a value half
 * that cancelled to zero may carry a non-zero error half); every function accepts such
 * pairs. Bounds below are derived to first order in u = 2^-24 for normalized inputs and
 * asserted by tests/runtime; with unnormalized inputs they grow with |e|/|v|. So the pairs
 * are normalized (cp_normalize, exact) where that growth has no limit: where they are
 * stored into memory (convert.cuh, CP_DETAIL_STORED: across the steps of a simulation the
 * float run and the composite run diverge), and before the divisor of div, the operand of
 * rcp and of sqrt (where a value half near zero whose pair is not would give inf - inf).
 * Comparisons, fabs and the roundings normalize their operands (convert.cuh, common.cuh).
 *
 * add is the same computation as the paper's add (TwoSum error + x.e + y.e, no Fast2Sum).
 */
#ifndef CP_FLOAT_FAST_CUH
#define CP_FLOAT_FAST_CUH

#include "float_accurate.cuh"
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

/* TwoSum, then e = err + x.e + y.e (Narumi 2011). |error| <= 4u^2 (|x| + |y|) + O(u^3). */
CP_FUNC cp_float cp_fast_add(cp_float x, cp_float y)
{
  cp_float s = cp_two_sum(x.v, y.v);
  s.e = cp_fadd_rn(cp_fadd_rn(s.e, x.e), y.e);
  CP_DETAIL_SETTLE(s, cp_fadd_rn(cp_to_float(x), cp_to_float(y)));
  return s;
}

/* Fast add with y negated (exact). Same bound. */
CP_FUNC cp_float cp_fast_sub(cp_float x, cp_float y) { return cp_fast_add(x, cp_neg(y)); }

/* TwoSum, then e = err + x.e. |error| <= 2u^2 (|x| + |f|) + O(u^3). */
CP_FUNC cp_float cp_fast_add_cf(cp_float x, float f)
{
  cp_float s = cp_two_sum(x.v, f);
  s.e = cp_fadd_rn(s.e, x.e);
  CP_DETAIL_SETTLE(s, cp_fadd_rn(cp_to_float(x), f));
  return s;
}

/* Float + pair: TwoSum is symmetric, so this is cp_fast_add_cf. */
CP_FUNC cp_float cp_fast_add_fc(float f, cp_float y) { return cp_fast_add_cf(y, f); }
CP_FUNC cp_float cp_fast_sub_cf(cp_float x, float f) { return cp_fast_add_cf(x, -f); }
CP_FUNC cp_float cp_fast_sub_fc(float f, cp_float y) { return cp_fast_add_cf(cp_neg(y), f); }

/* FMA TwoProd, e = fma(x.v, y.e, fma(x.e, y.v, err)) (Narumi 2011; x.e*y.e dropped).
 * |error| <= 6u^2 |x y| + O(u^3). */
CP_FUNC cp_float cp_fast_mul(cp_float x, cp_float y)
{
  cp_float p = cp_two_prod(x.v, y.v);
  p.e = cp_fma_rn(x.v, y.e, cp_fma_rn(x.e, y.v, p.e));
  CP_DETAIL_SETTLE(p, cp_fmul_rn(cp_to_float(x), cp_to_float(y)));
  return p;
}

/* FMA TwoProd, e = fma(x.e, f, err). |error| <= 2u^2 |x f| + O(u^3). */
/* x * x: the product above with equal operands, its two cross products in one FMA:
 * TwoProd(v, v), then e = RN(2v*e + p.e). Same bound as cp_fast_mul; one rounding where cp_fast_mul has two, so
 * never above its bound; one FMA shallower. */
CP_FUNC cp_float cp_fast_sqr(cp_float x)
{
  cp_float p = cp_two_prod(x.v, x.v);
  p.e = cp_fma_rn(cp_fadd_rn(x.v, x.v), x.e, p.e);
  CP_DETAIL_SETTLE(p, cp_fmul_rn(cp_to_float(x), cp_to_float(x)));
  return p;
}

CP_FUNC cp_float cp_fast_mul_cf(cp_float x, float f)
{
  cp_float p = cp_two_prod(x.v, f);
  p.e = cp_fma_rn(x.e, f, p.e);
  CP_DETAIL_SETTLE(p, cp_fmul_rn(cp_to_float(x), f));
  return p;
}

/* Float * pair: the product and the FMA are symmetric, so this is cp_fast_mul_cf. */
CP_FUNC cp_float cp_fast_mul_fc(float f, cp_float y) { return cp_fast_mul_cf(y, f); }

/* q = x.v / y.v, r = x.v - q y.v exactly (FMA), e = (r + x.e - q y.e) / y.v, with the
 * divisor normalized first (cp_normalize, exact): the family's pairs need not be, and a
 * divisor whose value half cancelled to zero while its error half did not ({0, e}) would
 * give inf - inf. |error| <= 11u^2 |x / y| + O(u^3). */
CP_FUNC cp_float cp_fast_div(cp_float x, cp_float y)
{
  y = cp_normalize(y);
  float q = cp_fdiv_rn(x.v, y.v);
  float r = cp_fma_rn(-q, y.v, x.v);
  float n = cp_fma_rn(-q, y.e, cp_fadd_rn(r, x.e));
  cp_float z = cp_make_float(q, cp_fdiv_rn(n, y.v));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* Pair / float: e = (r + x.e) / f. |error| <= 4u^2 |x / f| + O(u^3). */
CP_FUNC cp_float cp_fast_div_cf(cp_float x, float f)
{
  float q = cp_fdiv_rn(x.v, f);
  float r = cp_fma_rn(-q, f, x.v);
  cp_float z = cp_make_float(q, cp_fdiv_rn(cp_fadd_rn(r, x.e), f));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(cp_to_float(x), f));
  return z;
}

/* Float / pair: e = (r - q y.e) / y.v, the divisor normalized first (as in cp_fast_div).
 * |error| <= 6u^2 |f / y| + O(u^3). */
CP_FUNC cp_float cp_fast_div_fc(float f, cp_float y)
{
  y = cp_normalize(y);
  float q = cp_fdiv_rn(f, y.v);
  float r = cp_fma_rn(-q, y.v, f);
  cp_float z = cp_make_float(q, cp_fdiv_rn(cp_fma_rn(-q, y.e, r), y.v));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(f, cp_to_float(y)));
  return z;
}

/* Accurate sqrt without its final Fast2Sum: the same represented value (Fast2Sum is exact),
 * so the same bound, 4.125u^2 + O(u^3), for the operand normalized first (cp_normalize,
 * exact): sqrtf of an unnormalized value half reads the wrong number ({0, e} would give 0,
 * {-tiny, e} with v + e > 0 NaN). */
CP_FUNC cp_float cp_fast_sqrt(cp_float x)
{
  x = cp_normalize(x);
  float s = cp_fsqrt_rn(x.v);
  float r = cp_fadd_rn(cp_fma_rn(-s, s, x.v), x.e);
  cp_float z = cp_make_float(s, s != 0.0f ? cp_fdiv_rn(r, cp_fmul_rn(2.0f, s)) : 0.0f); /* sqrt(+-0) */
  CP_DETAIL_SETTLE(z, cp_fsqrt_rn(cp_to_float(x)));
  return z;
}

/* Reciprocal: cp_fast_div_fc(1, x) with its one quotient reused: q = RN(1/x.v), r = 1 - q x.v
 * exactly, e = RN((r - q x.e) q), a product where div_fc divides by x.v. With |x.e| <= a u|x.v|
 * the error is (1 + a)(3 + a)u^2 |1/x| + O(u^3) (div_fc: (1 + a)(2 + a)): 8u^2 for
 * normalized operands, which it makes first (cp_normalize, exact: a = 1/2, so 5.25u^2; an
 * operand {0, e} would otherwise give inf - inf). One division instead of two. */
CP_FUNC cp_float cp_detail_fast_rcp_of(cp_float x)
{
  float q = cp_frcp_rn(x.v);
  float r = cp_fma_rn(-q, x.v, 1.0f);
  cp_float z = cp_make_float(q, cp_fmul_rn(cp_fma_rn(-q, x.e, r), q));
  CP_DETAIL_SETTLE(z, cp_fdiv_rn(1.0f, cp_to_float(x)));
  return z;
}
CP_FUNC cp_float cp_fast_rcp(cp_float x) { return cp_detail_fast_rcp_of(cp_normalize(x)); }

/* rcp(sqrt(x)), sqrt normalizing x; the root's e may reach 1.5u|v|, which widens rcp's
 * 8u^2 to 11.25u^2 (the root is not normalized again):
 * |error| <= 15.375u^2 |1/sqrt(x)| + O(u^3). */
CP_FUNC cp_float cp_fast_rsqrt(cp_float x) { return cp_detail_fast_rcp_of(cp_fast_sqrt(x)); }

/* add(mul(a, b), c); the product's e may reach 3u|ab|:
 * |error| <= 14u^2 |ab| + 3u^2 |c| + O(u^3). */
CP_FUNC cp_float cp_fast_fma(cp_float a, cp_float b, cp_float c)
{
  return cp_fast_add(cp_fast_mul(a, b), c);
}

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_FLOAT_FAST_CUH */
