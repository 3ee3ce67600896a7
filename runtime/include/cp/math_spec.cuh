/* cp/math_spec.cuh - composite math functions: sinh, cosh, tanh, erf, erfc, hypot, rhypot,
 * norm3d, rnorm3d and cbrt, in three tiers, for both backends (the model: math.cuh).
 *
 * Names: cp_NAME (the tier of the family CP_ALGO selects, as cp_exp), cp_low_NAME,
 * cp_mid_NAME, cp_high_NAME, and cp_dd_NAME for cp_double (kernels written in double).
 * hypot and rhypot take two pairs, norm3d and rnorm3d three.
 *
 * Tiers (ff backend; no FP64 instruction):
 *   high  float-float algorithms on normalized pairs (each function's comment below).
 *   mid   erfc, sinh, cosh: the high tier's algorithms with cheaper float-float steps, the
 *         mid exp and a cheaper reciprocal; tanh: a minimax polynomial and 1 - 2/(1 + E)
 *         (math_spec_mid.cuh); the others the high tier's algorithm (no cheaper one at this
 *         accuracy yet).
 *   low   the float function's value plus the first-order propagation of the error halves,
 *         {f(v), f'(v) e} (for two or three arguments the sum of the partial derivatives
 *         times the error halves), the derivative in float. The float function's own
 *         rounding stays in the value. Accepts unnormalized pairs (fast family).
 * Under the dp backend every tier is the double function on the double; cp_dd_NAME is the
 * double function plus the first-order propagation of lo (about 2^-52, not double-double).
 *
 * Special values as the float functions give them (NaN in, NaN out; sinh, cosh, tanh, erf,
 * erfc and cbrt of +-inf; sinh and cosh overflow above 89.415; erfc underflows to +0 above
 * 10.06 and erf rounds to +-1; signed zeros kept; hypot of an inf is +inf even with a NaN,
 * rhypot of it +0, rhypot(0, 0) = +inf), with a zero error half. Results below 2^-126 (erfc
 * above 9.19, sinh and tanh of subnormals, rhypot of huge arguments) carry an absolute error of
 * about 2^-149: relative bounds hold for results above 2^-100.
 *
 * Measured bounds (tests/runtime/check_math_spec.c, MPFR at 200 bits, u^2 = 2^-48, random
 * normalized pairs plus edge cases; relative error of v + e against the exact function of the
 * input's value, plus 2^-149 absolute): docs/runtime.md's table lists them; each function's
 * comment gives its maximum and the asserted bound. No proof: measured maxima with a margin.
 */
#ifndef CP_MATH_SPEC_CUH
#define CP_MATH_SPEC_CUH

#include "math.cuh"

/* The float and double functions that CUDA has on the device only, on the host from hypot. */
#if defined(__CUDA_ARCH__)
#define CP_DETAIL_SPEC_RHYPOTF(a, b) rhypotf(a, b)
#define CP_DETAIL_SPEC_NORM3DF(a, b, c) norm3df(a, b, c)
#define CP_DETAIL_SPEC_RNORM3DF(a, b, c) rnorm3df(a, b, c)
#define CP_DETAIL_SPEC_RHYPOT(a, b) rhypot(a, b)
#define CP_DETAIL_SPEC_NORM3D(a, b, c) norm3d(a, b, c)
#define CP_DETAIL_SPEC_RNORM3D(a, b, c) rnorm3d(a, b, c)
#else
#define CP_DETAIL_SPEC_RHYPOTF(a, b) (1.0f / hypotf(a, b))
#define CP_DETAIL_SPEC_NORM3DF(a, b, c) hypotf(hypotf(a, b), c)
#define CP_DETAIL_SPEC_RNORM3DF(a, b, c) (1.0f / hypotf(hypotf(a, b), c))
#define CP_DETAIL_SPEC_RHYPOT(a, b) (1.0 / hypot(a, b))
#define CP_DETAIL_SPEC_NORM3D(a, b, c) hypot(hypot(a, b), c)
#define CP_DETAIL_SPEC_RNORM3D(a, b, c) (1.0 / hypot(hypot(a, b), c))
#endif
#define CP_DETAIL_SPEC_2_SQRTPI 0x1.20dd76p+0f /* 2/sqrt(pi) */

#if !CP_BACKEND_IS_DP

/* ---- building blocks ---- */

/* x^2 for a normalized pair: TwoProd of the highs, 2 v e + e^2 + the product's error by FMA. */
CP_FUNC cp_float cp_detail_spec_sqr(cp_float x)
{
  cp_float c = cp_two_prod(x.v, x.v);
  return cp_fast_two_sum(c.v, cp_fma_rn(cp_fadd_rn(x.v, x.v), x.e, cp_fma_rn(x.e, x.e, c.e)));
}

/* x + y for pairs of one sign: SloppyDWPlusDW (JMP17 Alg. 5), 3u^2 relative without
 * cancellation. */
CP_FUNC cp_float cp_detail_spec_add_pos(cp_float x, cp_float y)
{
  cp_float s = cp_two_sum(x.v, y.v);
  return cp_fast_two_sum(s.v, cp_fadd_rn(s.e, cp_fadd_rn(x.e, y.e)));
}

/* Both halves times f, a power of two (exact unless a half leaves the normal range). */
CP_FUNC cp_float cp_detail_spec_mul2(cp_float x, float f)
{
  return cp_make_float(cp_fmul_rn(x.v, f), cp_fmul_rn(x.e, f));
}

/* exp(-x^2) 2^-k for 0.5 <= x.v <= 10.2 (x^2 <= 104.04), k returned in *k (the caller scales
 * once, after its product: one rounding where the result is subnormal): the reduced r (here)
 * and exp(r) (cp_detail_spec_exp_negsq). x^2 = p + q + e^2
 * with p = TwoProd(v, v) and q = TwoProd(2v, e) exact: the reduction r = -x^2 - k ln 2
 * (Cody-Waite as in math.cuh, ln 2 in three floats) takes its five terms one by one, the
 * large ones exactly (TwoSum), so no rounding of x^2 (about u^2 x^2 absolute, 2^-41.7
 * relative at x = 10) reaches the result: r to about 2^-50 absolute. */
CP_FUNC cp_float cp_detail_spec_negsq_reduce(cp_float x, int *k)
{
  cp_float p = cp_two_prod(x.v, x.v);
  cp_float q = cp_two_prod(cp_fadd_rn(x.v, x.v), x.e);
  float kf = rintf(cp_fmul_rn(-p.v, CP_DETAIL_LOG2E));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_LN2_1, -p.v); /* exact */
  cp_float pk = cp_two_prod(kf, CP_DETAIL_LN2_2);    /* k C2, exact */
  cp_float s = cp_two_sum(t1, -pk.v);
  cp_float m = cp_two_sum(-p.e, -q.v);
  cp_float w = cp_two_sum(s.v, m.v);
  float lo = cp_fsub_rn(cp_fsub_rn(cp_fadd_rn(w.e, s.e), pk.e), cp_fmul_rn(kf, CP_DETAIL_LN2_3));
  lo = cp_fsub_rn(cp_fadd_rn(lo, m.e), cp_fma_rn(x.e, x.e, q.e));
  *k = (int)kf;
  return cp_two_sum(w.v, lo);
}

CP_FUNC cp_float cp_detail_spec_exp_negsq(cp_float x, int *k)
{
  return cp_detail_exp_poly(cp_detail_spec_negsq_reduce(x, k), 0);
}

/* The mid tiers' Horner step (math_spec_mid.cuh): p h + {ch, cl} as TwoProd(p.v, h) plus p.e h
 * by FMA, Fast2Sum of the constant's high part and the product's, the low parts added in
 * float, not renormalized (8-9 instructions, against 11-16 for the high tier's renormalized
 * DWTimesFP3 or DWTimesDW3 plus add). h a float, |ch| >= |p h|. For a zero cl pass
 * -0.0f (adding -0 is the identity, which the compiler drops). */
CP_FUNC cp_float cp_detail_specm_step_f(cp_float p, float h, float ch, float cl)
{
  float ph = cp_fmul_rn(p.v, h);
  float pl = cp_fma_rn(p.e, h, cp_fma_rn(p.v, h, -ph));
  cp_float s = cp_fast_two_sum(ch, ph);
  return cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, cl), pl));
}

/* The same, h a pair: p.v h.e + p.e h.v by FMA (p.e h.e dropped). */
CP_FUNC cp_float cp_detail_specm_step(cp_float p, cp_float h, float ch, float cl)
{
  float ph = cp_fmul_rn(p.v, h.v);
  float pl = cp_fma_rn(p.e, h.v, cp_fma_rn(p.v, h.e, cp_fma_rn(p.v, h.v, -ph)));
  cp_float s = cp_fast_two_sum(ch, ph);
  return cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, cl), pl));
}

/* One Horner step p h + {ch, cl}, h a pair: the high tier's (mid = 0; DWTimesDW3, then the
 * constant added and renormalized) or the mid tier's (cp_detail_specm_step). */
CP_FUNC cp_float cp_detail_spec_step(cp_float p, cp_float h, float ch, float cl, int mid)
{
  return mid ? cp_detail_specm_step(p, h, ch, cl) : cp_detail_add_const(cp_detail_mul_dd(p, h), ch, cl);
}

/* ---- sinh, cosh, tanh ---- */

/* sinh(x) for |x.v| < 1, x.v != 0: the odd Taylor series x (1 + z P(z)), z = x^2 (a pair),
 * P(z) = sum_j z^j / (2j + 3)! to z^7 / 17! (truncation 2^-56.7 relative); P's terms from
 * 1/11! on (below 2^-25 relative) by float Horner, the last four steps in float-float with
 * pair constants (1/(2j+1)! rounded to pairs by scripts/math_spec_coeffs.c). No cancellation:
 * every term is positive. The mid tier (mid = 1): the cheaper steps, x + x z P by Fast2Sum
 * (|x| > |x z P|) and the low parts in float. */
CP_FUNC cp_float cp_detail_spec_sinh_small(cp_float x, int mid)
{
  cp_float z = cp_detail_spec_sqr(x);
  float q = 0x1.952c78p-49f;              /* 1/17! */
  q = cp_fma_rn(q, z.v, 0x1.ae7f3ep-41f); /* 1/15! */
  q = cp_fma_rn(q, z.v, 0x1.612462p-33f); /* 1/13! */
  q = cp_fma_rn(q, z.v, 0x1.ae6456p-26f); /* 1/11! */
  cp_float p = cp_make_float(q, 0.0f);
  p = cp_detail_spec_step(p, z, 0x1.71de3ap-19f, 0x1.55b1ccp-45f, mid);  /* 1/9! */
  p = cp_detail_spec_step(p, z, 0x1.a01a02p-13f, -0x1.7f97fap-39f, mid); /* 1/7! */
  p = cp_detail_spec_step(p, z, 0x1.111112p-7f, -0x1.dddddep-32f, mid);  /* 1/5! */
  p = cp_detail_spec_step(p, z, 0x1.555556p-3f, -0x1.555556p-28f, mid);  /* 1/3! */
  if (!mid) return cp_detail_add_dd(x, cp_detail_mul_dd(x, cp_detail_mul_dd(z, p)));
  cp_float y = cp_detail_mul_dd(x, cp_detail_mul_dd(z, p)); /* z P below 0.17 */
  cp_float s = cp_fast_two_sum(x.v, y.v);                   /* |x| > |x z P| */
  return cp_fast_two_sum(s.v, cp_fadd_rn(s.e, cp_fadd_rn(x.e, y.e)));
}

/* exp(a)/2 for 20 <= a.v < 90: exp(a) directly up to 88, above it exp(a - 1) times the pair
 * e/2 (a.v - 1 is exact), since exp(a) overflows before exp(a)/2 does (89.415). An overflow
 * gives +inf with a zero error half. */
CP_FUNC cp_float cp_detail_spec_exp_half(cp_float a)
{
  if (a.v <= 88.0f) return cp_detail_spec_mul2(cp_detail_exp_ff(a), 0.5f);
  cp_float y = cp_detail_mul_dd(cp_detail_exp_ff(cp_make_float(cp_fsub_rn(a.v, 1.0f), a.e)),
                                cp_make_float(0x1.5bf0a8p+0f, 0x1.628aeep-25f)); /* e/2 */
  return cp_detail_finitef(y.v) ? y : cp_make_float(INFINITY, 0.0f);
}

/* E = exp(|x|) and R = 1/E (DWDivDW2's reciprocal, float_accurate.cuh) for |x.v| < 20. */
CP_FUNC void cp_detail_spec_exp_pm(cp_float a, cp_float *E, cp_float *R)
{
  *E = cp_detail_exp_ff(a);
  *R = cp_accurate_rcp(*E);
}

/* tanh, high tier. |x| < 1: S/sqrt(1 + S^2) with S the sinh series (no cancellation; the
 * accurate family's sqrt and division); 1 <= |x| < 20: (E - 1/E)/(E + 1/E); |x| >= 20: +-1
 * (the rest, 2 e^-40, is below 2^-56). Odd. Measured: max 6.1 u^2. */
CP_FUNC cp_float cp_high_tanh(cp_float x)
{
  float a = fabsf(x.v);
  cp_float ax = x.v < 0.0f ? cp_neg(x) : x, z;
  if (x.v != x.v || x.v == 0.0f) return cp_make_float(x.v, 0.0f);
  if (a < 1.0f) {
    cp_float s = cp_detail_spec_sinh_small(x, 0);
    cp_float c = cp_accurate_sqrt(cp_detail_spec_add_pos(cp_detail_spec_sqr(s), cp_make_float(1.0f, 0.0f)));
    return cp_accurate_div(s, c);
  }
  if (a >= 20.0f) z = cp_make_float(1.0f, 0.0f);
  else {
    cp_float E, R;
    cp_detail_spec_exp_pm(ax, &E, &R);
    z = cp_accurate_div(cp_detail_add_dd(E, cp_neg(R)), cp_detail_add_dd(E, R));
  }
  return x.v < 0.0f ? cp_neg(z) : z;
}

/* ---- erf, erfc ---- */

/* erf(x) for |x.v| < 0.5, x.v != 0: the Taylor series x sum_m a_m z^m, z = x^2 (a pair),
 * a_m = (2/sqrt(pi)) (-1)^m / (m! (2m + 1)) to m = 12 (truncation 2^-57 relative); m >= 6
 * (below 2^-26 relative) by float Horner, m = 5..0 in float-float with pair constants
 * (scripts/math_spec_coeffs.c). The series alternates but |a_{m+1} z| < |a_m|/3: no
 * cancellation worth a bit. The mid tier (mid = 1): the cheaper steps, the sum renormalized
 * before the product (without it erfc below 0.5 measured 5.4 u^2). */
CP_FUNC cp_float cp_detail_spec_erf_small(cp_float x, int mid)
{
  cp_float z = cp_detail_spec_sqr(x);
  float q = 0x1.9e6ad6p-34f;               /* a_12 */
  q = cp_fma_rn(q, z.v, -0x1.51d718p-30f); /* a_11 */
  q = cp_fma_rn(q, z.v, 0x1.fcc572p-27f);  /* a_10 */
  q = cp_fma_rn(q, z.v, -0x1.5f742ep-23f); /* a_9 */
  q = cp_fma_rn(q, z.v, 0x1.b9e6cap-20f);  /* a_8 */
  q = cp_fma_rn(q, z.v, -0x1.f4d25cp-17f); /* a_7 */
  q = cp_fma_rn(q, z.v, 0x1.f9a326p-14f);  /* a_6 */
  cp_float p = cp_make_float(q, 0.0f);
  p = cp_detail_spec_step(p, z, -0x1.c02db4p-11f, -0x1.02e162p-45f, mid); /* a_5 */
  p = cp_detail_spec_step(p, z, 0x1.565bcep-8f, -0x1.e32b58p-33f, mid);   /* a_4 */
  p = cp_detail_spec_step(p, z, -0x1.b82ce4p-6f, 0x1.daee96p-31f, mid);   /* a_3 */
  p = cp_detail_spec_step(p, z, 0x1.ce2f22p-4f, -0x1.7ef508p-30f, mid);   /* a_2 */
  p = cp_detail_spec_step(p, z, -0x1.812746p-2f, -0x1.606f3cp-27f, mid);  /* a_1 */
  p = cp_detail_spec_step(p, z, 0x1.20dd76p+0f, -0x1.f7ac92p-25f, mid);   /* a_0 */
  if (mid)
    p = cp_fast_two_sum(p.v, p.e);
  return cp_detail_mul_dd(x, p);
}

/* erfcx(x) = exp(x^2) erfc(x) for 0.5 <= x.v < 10.5: the interval's polynomial in s = x - c
 * (detail/math_spec_erfc.inc: degree 15, within 2^-49.1 of erfcx; s = (x.v - c) + x.e, the
 * difference exact by Sterbenz), degrees 15-9 (below 2^-27 relative) by float Horner, 8-0 by
 * float-float Horner steps (DWTimesDW3 with the pair s, pair constants). The mid tier (mid =
 * 1): degree 8 in float too (below 2^-23 of erfcx on every interval), the cheaper steps, the
 * sum renormalized at the end. */
CP_FUNC cp_float cp_detail_spec_erfcx(cp_float x, int mid)
{
#include "detail/math_spec_erfc.inc"
  int i = (int)cp_fmul_rn(cp_fsub_rn(x.v, 0.5f), 2.0f);
  cp_float s = cp_two_sum(cp_fsub_rn(x.v, cp_fadd_rn(0.75f, cp_fmul_rn(0.5f, (float)i))), x.e);
  const float(*t)[2] = cp_detail_spec_erfcx_tab[i];
  float q = t[15][0];
  if (mid) { /* a loop bound of `mid ? 8 : 9` instead compiles to 8 instructions more */
    for (int j = 14; j >= 8; --j) q = cp_fma_rn(q, s.v, t[j][0]);
    cp_float p = cp_make_float(q, 0.0f);
    for (int j = 7; j >= 0; --j) p = cp_detail_specm_step(p, s, t[j][0], t[j][1]);
    return cp_fast_two_sum(p.v, p.e);
  }
  for (int j = 14; j >= 9; --j) q = cp_fma_rn(q, s.v, t[j][0]);
  cp_float p = cp_make_float(q, 0.0f);
  for (int j = 8; j >= 0; --j) p = cp_detail_add_const(cp_detail_mul_dd(p, s), t[j][0], t[j][1]);
  return p;
}

/* erfc(x) for 0.5 <= x.v < 10.2: erfcx(x) exp(-x^2) (DWTimesDW3), scaled by 2^k last. */
CP_FUNC cp_float cp_detail_spec_erfc_pos(cp_float a)
{
  int k;
  cp_float e = cp_detail_spec_exp_negsq(a, &k);
  return cp_detail_scale(cp_detail_mul_dd(cp_detail_spec_erfcx(a, 0), e), k);
}

/* erfc, high tier. |x| < 0.5: 1 - erf(x) (the series; result in (0.47, 1.53)); 0.5 <= x <
 * 10.2: erfcx(x) exp(-x^2); x <= -0.5: 2 - erfc(-x); x >= 10.2: +0 (erfc < 2^-154); x <=
 * -10.2: 2. Relative accuracy on [-10.2, 9.19] (results above 2^-126): measured max 3.2 u^2;
 * beyond 9.19 the result is subnormal and only 2^-149 absolute holds (as for any float). */
CP_FUNC cp_float cp_high_erfc(cp_float x)
{
  float a = fabsf(x.v);
  if (x.v != x.v) return cp_make_float(x.v, 0.0f);
  if (a < 0.5f) return cp_detail_add_const(cp_neg(cp_detail_spec_erf_small(x, 0)), 1.0f, 0.0f);
  if (a >= 10.2f) return cp_make_float(x.v > 0.0f ? 0.0f : 2.0f, 0.0f);
  if (x.v > 0.0f) return cp_detail_spec_erfc_pos(x);
  return cp_detail_add_const(cp_neg(cp_detail_spec_erfc_pos(cp_neg(x))), 2.0f, 0.0f);
}

/* erf, high tier: the series for |x| < 0.5; 1 - erfc(|x|) above (erfc(0.5) = 0.48: no
 * cancellation), +-1 from 10.2 on. Odd. Measured: max 3.7 u^2. */
CP_FUNC cp_float cp_high_erf(cp_float x)
{
  float a = fabsf(x.v);
  cp_float z;
  if (x.v != x.v || x.v == 0.0f) return cp_make_float(x.v, 0.0f);
  if (a < 0.5f) return cp_detail_spec_erf_small(x, 0);
  if (a >= 10.2f) z = cp_make_float(1.0f, 0.0f);
  else z = cp_detail_add_const(cp_neg(cp_detail_spec_erfc_pos(x.v < 0.0f ? cp_neg(x) : x)), 1.0f, 0.0f);
  return x.v < 0.0f ? cp_neg(z) : z;
}

/* ---- hypot, rhypot, norm3d, rnorm3d ---- */

/* The scaling exponent of m = max |component| (finite, nonzero): its binade, clamped to
 * [-126, 126] so that 2^-ex and 2^ex are normal floats. The scaled maximum lies in [2^-23,
 * 4): the sum of squares neither overflows nor underflows. */
CP_FUNC int cp_detail_spec_expo(float m)
{
  int ex = (int)((cp_detail_fbits(m) >> 23) & 0xffu) - 127;
  return ex < -126 ? -126 : (ex > 126 ? 126 : ex);
}

/* sqrt(s) 2^ex or 2^-ex / sqrt(s) (recip): the accurate family's sqrt (4.125u^2) or rsqrt
 * (rcp of sqrt), scaled back by one exact multiplication (an overflow gives +inf with a zero
 * error half; a result below 2^-126 keeps 2^-149 absolute). */
CP_FUNC cp_float cp_detail_spec_root(cp_float s, int ex, int recip)
{
  cp_float r = recip ? cp_accurate_rsqrt(s) : cp_accurate_sqrt(s);
  float f = cp_detail_pow2f(recip ? -ex : ex);
  float v = cp_fmul_rn(r.v, f);
  return cp_make_float(v, cp_detail_finitef(v) ? cp_fmul_rn(r.e, f) : 0.0f);
}

/* hypot and rhypot (recip) of normalized pairs: special values first (an inf wins over a
 * NaN, as hypotf), then both pairs scaled by 2^-ex (exact; a component 2^150 times smaller
 * than the largest may lose its bits, which are below 2^-250 of the sum), the squares as
 * pairs (TwoProd and FMA, about u^2), their sum (SloppyDWPlusDW: of one sign, 3u^2), the
 * root. No FP64 instruction (CCCL fpmp computes these in double). */
CP_FUNC cp_float cp_detail_spec_hypot(cp_float x, cp_float y, int recip)
{
  float ax = fabsf(x.v), ay = fabsf(y.v), m = ax > ay ? ax : ay;
  if (ax == INFINITY || ay == INFINITY) return cp_make_float(recip ? 0.0f : INFINITY, 0.0f);
  if (ax != ax || ay != ay) return cp_make_float(cp_fadd_rn(x.v, y.v), 0.0f);
  if (m == 0.0f) return cp_make_float(recip ? INFINITY : 0.0f, 0.0f);
  int ex = cp_detail_spec_expo(m);
  float f = cp_detail_pow2f(-ex);
  cp_float s = cp_detail_spec_add_pos(cp_detail_spec_sqr(cp_detail_spec_mul2(x, f)),
                                      cp_detail_spec_sqr(cp_detail_spec_mul2(y, f)));
  return cp_detail_spec_root(s, ex, recip);
}

/* norm3d and rnorm3d (recip): as hypot with a third component. */
CP_FUNC cp_float cp_detail_spec_norm3d(cp_float x, cp_float y, cp_float w, int recip)
{
  float ax = fabsf(x.v), ay = fabsf(y.v), aw = fabsf(w.v), m = ax > ay ? ax : ay;
  m = m > aw ? m : aw;
  if (ax == INFINITY || ay == INFINITY || aw == INFINITY) return cp_make_float(recip ? 0.0f : INFINITY, 0.0f);
  if (ax != ax || ay != ay || aw != aw) return cp_make_float(cp_fadd_rn(cp_fadd_rn(x.v, y.v), w.v), 0.0f);
  if (m == 0.0f) return cp_make_float(recip ? INFINITY : 0.0f, 0.0f);
  int ex = cp_detail_spec_expo(m);
  float f = cp_detail_pow2f(-ex);
  cp_float s = cp_detail_spec_add_pos(cp_detail_spec_sqr(cp_detail_spec_mul2(x, f)),
                                      cp_detail_spec_sqr(cp_detail_spec_mul2(y, f)));
  s = cp_detail_spec_add_pos(s, cp_detail_spec_sqr(cp_detail_spec_mul2(w, f)));
  return cp_detail_spec_root(s, ex, recip);
}

/* High tiers. Measured: hypot 2.9, rhypot 5.6, norm3d 2.9, rnorm3d 5.5 u^2 (docs/runtime.md). */
CP_FUNC cp_float cp_high_hypot(cp_float x, cp_float y) { return cp_detail_spec_hypot(x, y, 0); }
CP_FUNC cp_float cp_high_rhypot(cp_float x, cp_float y) { return cp_detail_spec_hypot(x, y, 1); }
CP_FUNC cp_float cp_high_norm3d(cp_float x, cp_float y, cp_float w) { return cp_detail_spec_norm3d(x, y, w, 0); }
CP_FUNC cp_float cp_high_rnorm3d(cp_float x, cp_float y, cp_float w) { return cp_detail_spec_norm3d(x, y, w, 1); }

/* ---- cbrt ---- */

/* cbrt, high tier: one correction of the float root to second order. y0 = cbrtf(x.v)
 * (within an ulp), the residual d = x - y0^3 from y0^2 = TwoProd and y0^2 y0 = TwoProd
 * (x.v - hi exact by Sterbenz, the small terms in float), eps = d / y0^3, y = y0 (1 + eps/3 -
 * eps^2/9): the truncation (5/81) eps^3 is below 2^-62, what remains is the rounding of the
 * residual and of the correction. Arguments below 2^-100 or above 2^100 scaled
 * by 2^96 or 2^-96 first (root scaled by 2^-32 or 2^32, exact). Odd; cbrtf's value for
 * +-0, +-inf, NaN. Measured: max 5.3 u^2. */
CP_FUNC cp_float cp_high_cbrt(cp_float x)
{
  float a = fabsf(x.v), back = 1.0f;
  cp_float y = x;
  if (!(a > 0.0f && a <= FLT_MAX)) return cp_make_float(cbrtf(x.v), 0.0f);
  if (a < 0x1p-100f) {
    y = cp_detail_spec_mul2(x, 0x1p96f);
    back = 0x1p-32f;
  } else if (a > 0x1p100f) {
    y = cp_detail_spec_mul2(x, 0x1p-96f);
    back = 0x1p32f;
  }
  float r0 = cbrtf(y.v);
  cp_float q = cp_two_prod(r0, r0);
  cp_float t = cp_two_prod(q.v, r0); /* r0^3 = t.v + t.e + q.e r0 */
  float d = cp_fadd_rn(cp_fsub_rn(cp_fsub_rn(y.v, t.v), t.e), y.e); /* first - exact */
  d = cp_fma_rn(-q.e, r0, d);
  float g = cp_fdiv_rn(d, cp_fmul_rn(3.0f, t.v)); /* eps/3, x = r0^3 (1 + eps) */
  float c = cp_fmul_rn(g, r0);
  cp_float z = cp_fast_two_sum(r0, cp_fma_rn(-g, c, c)); /* r0 (1 + eps/3 - eps^2/9) */
  return cp_detail_spec_mul2(z, back);
}

/* ---- mid: erfc, tanh and sinh's and cosh's steps in math_spec_mid.cuh (sinh and cosh below,
 * one function for both tiers); the others are the high tiers (no cheaper algorithm at this
 * accuracy yet) ---- */
#include "math_spec_mid.cuh"

/* sinh in the high (mid = 0) or mid tier. |x| < 1: the series (cp_detail_spec_sinh_small, or
 * the mid tier's cheaper steps); 1 <= |x| < 20: (E - 1/E)/2 with E = exp(|x|) (high: math.cuh's
 * exp, 1.9u^2, and DWDivDW2's 1/E, their difference by AccurateDWPlusDW; mid: the mid exp, a
 * Newton-corrected reciprocal, SloppyDWPlusDW; the cancellation loses at most a factor coth(1)
 * = 1.31); |x| >= 20: exp(|x|)/2 (1/E below 2^-57 relative); +-inf from 89.42 on. Odd:
 * computed on |x|. A constant flag: each tier compiles to its own branches only. Measured:
 * high 2.38, mid 2.79 u^2 (docs/runtime.md). */
CP_FUNC cp_float cp_detail_spec_sinh_tier(cp_float x, int mid)
{
  float a = fabsf(x.v);
  cp_float ax = x.v < 0.0f ? cp_neg(x) : x, z;
  if (x.v != x.v || x.v == 0.0f) return cp_make_float(x.v, 0.0f);
  if (a < 1.0f) return cp_detail_spec_sinh_small(x, mid);
  if (a >= 90.0f) z = cp_make_float(INFINITY, 0.0f);
  else if (a >= 20.0f) z = cp_detail_spec_exp_half(ax);
  else {
    cp_float E, R;
    if (mid) cp_detail_specm_exp_pm(ax, &E, &R);
    else cp_detail_spec_exp_pm(ax, &E, &R);
    R = cp_neg(R);
    z = cp_detail_spec_mul2(mid ? cp_detail_specm_pm(E, R) : cp_detail_add_dd(E, R), 0.5f);
  }
  return x.v < 0.0f ? cp_neg(z) : z;
}

/* cosh in the high or mid tier: (E + 1/E)/2 for |x| < 20 (no cancellation, no small-argument
 * case needed; E and 1/E as for sinh), exp(|x|)/2 above, +inf from 89.42 on. Measured: high
 * 2.81, mid 3.17 u^2. */
CP_FUNC cp_float cp_detail_spec_cosh_tier(cp_float x, int mid)
{
  float a = fabsf(x.v);
  cp_float ax = x.v < 0.0f ? cp_neg(x) : x;
  if (x.v != x.v) return cp_make_float(x.v, 0.0f);
  if (a >= 90.0f) return cp_make_float(INFINITY, 0.0f);
  if (a >= 20.0f) return cp_detail_spec_exp_half(ax);
  cp_float E, R;
  if (mid) cp_detail_specm_exp_pm(ax, &E, &R);
  else cp_detail_spec_exp_pm(ax, &E, &R);
  return cp_detail_spec_mul2(mid ? cp_detail_specm_pm(E, R) : cp_detail_add_dd(E, R), 0.5f);
}

CP_FUNC cp_float cp_high_sinh(cp_float x) { return cp_detail_spec_sinh_tier(x, 0); }
CP_FUNC cp_float cp_mid_sinh(cp_float x) { return cp_detail_spec_sinh_tier(x, 1); }
CP_FUNC cp_float cp_high_cosh(cp_float x) { return cp_detail_spec_cosh_tier(x, 0); }
CP_FUNC cp_float cp_mid_cosh(cp_float x) { return cp_detail_spec_cosh_tier(x, 1); }
CP_FUNC cp_float cp_mid_erf(cp_float x) { return cp_high_erf(x); }
CP_FUNC cp_float cp_mid_cbrt(cp_float x) { return cp_high_cbrt(x); }
CP_FUNC cp_float cp_mid_hypot(cp_float x, cp_float y) { return cp_high_hypot(x, y); }
CP_FUNC cp_float cp_mid_rhypot(cp_float x, cp_float y) { return cp_high_rhypot(x, y); }
CP_FUNC cp_float cp_mid_norm3d(cp_float x, cp_float y, cp_float w) { return cp_high_norm3d(x, y, w); }
CP_FUNC cp_float cp_mid_rnorm3d(cp_float x, cp_float y, cp_float w) { return cp_high_rnorm3d(x, y, w); }

/* ---- low: {f(v), f'(v) e}, on the normalized pair; e = 0 where f(v) is not finite ---- */

/* sinh: cosh(v) e, cosh from sinhf's value (sqrt(1 + s^2), or |s| where s^2 would overflow). */
CP_FUNC cp_float cp_low_sinh(cp_float x)
{
  cp_float n = cp_normalize(x);
  float s = sinhf(n.v), as = fabsf(s);
  float c = as > 0x1p60f ? as : cp_fsqrt_rn(cp_fma_rn(s, s, 1.0f));
  return cp_detail_low(s, cp_fmul_rn(c, n.e));
}

/* cosh: sinh(v) e, sinh from coshf's value (sign of v, sqrt(c^2 - 1) or c); never below 1
 * (cp_detail_low_inside, as tanh and erf inside [-1, 1], erfc inside [0, 2]). */
CP_FUNC cp_float cp_low_cosh(cp_float x)
{
  cp_float n = cp_normalize(x);
  float c = coshf(n.v);
  float s = c > 0x1p60f ? c : cp_fsqrt_rn(cp_fma_rn(c, c, -1.0f));
  return cp_detail_low(c, cp_detail_low_inside(c, cp_fmul_rn(copysignf(s, n.v), n.e), 1.0f, INFINITY));
}

/* tanh: (1 - t^2) e. */
CP_FUNC cp_float cp_low_tanh(cp_float x)
{
  cp_float n = cp_normalize(x);
  float t = tanhf(n.v);
  return cp_detail_low(t, cp_detail_low_inside(t, cp_fmul_rn(cp_fma_rn(-t, t, 1.0f), n.e), -1.0f, 1.0f));
}

/* erf: (2/sqrt(pi)) exp(-v^2) e (expf of the float square). */
CP_FUNC cp_float cp_low_erf(cp_float x)
{
  cp_float n = cp_normalize(x);
  float d = cp_fmul_rn(cp_fmul_rn(CP_DETAIL_SPEC_2_SQRTPI, expf(-cp_fmul_rn(n.v, n.v))), n.e);
  float y = erff(n.v);
  return cp_detail_low(y, cp_detail_low_inside(y, d, -1.0f, 1.0f));
}

/* erfc: -(2/sqrt(pi)) exp(-v^2) e. */
CP_FUNC cp_float cp_low_erfc(cp_float x)
{
  cp_float n = cp_normalize(x);
  float d = cp_fmul_rn(cp_fmul_rn(-CP_DETAIL_SPEC_2_SQRTPI, expf(-cp_fmul_rn(n.v, n.v))), n.e);
  float y = erfcf(n.v);
  return cp_detail_low(y, cp_detail_low_inside(y, d, 0.0f, 2.0f));
}

/* cbrt: e / (3 y^2); 0 for |y| below 2^-60 (y^2 would leave the normal range). */
CP_FUNC cp_float cp_low_cbrt(cp_float x)
{
  cp_float n = cp_normalize(x);
  float y = cbrtf(n.v);
  float d = fabsf(y) >= 0x1p-60f ? cp_fdiv_rn(n.e, cp_fmul_rn(3.0f, cp_fmul_rn(y, y))) : 0.0f;
  return cp_detail_low(y, d);
}

/* The distance functions' arguments as pairs with the best float first, by Fast2Sum without
 * cp_normalize's checks (3 instructions, not 9-10 each: a third of low rnorm3d's cost): an
 * infinite half gives a NaN error half, which cp_detail_spec_low drops with the term it makes;
 * |e| > |v| (an unnormalized pair of the fast family) leaves Fast2Sum's error half inexact by
 * a second-order amount, far below the low tier's bound. */
CP_FUNC cp_float cp_detail_spec_low_arg(cp_float x) { return cp_fast_two_sum(x.v, x.e); }

/* hypot: (v1 e1 + v2 e2) / h, as (v1/h) e1 + (v2/h) e2 (no overflow); 0 for h below 2^-126. */
CP_FUNC cp_float cp_low_hypot(cp_float x, cp_float y)
{
  cp_float a = cp_detail_spec_low_arg(x), b = cp_detail_spec_low_arg(y);
  float h = hypotf(a.v, b.v);
  float r = h >= 0x1p-126f ? cp_fdiv_rn(1.0f, h) : 0.0f;
  return cp_detail_low(h, cp_fma_rn(cp_fmul_rn(a.v, r), a.e, cp_fmul_rn(cp_fmul_rn(b.v, r), b.e)));
}

/* rhypot: -r^3 (v1 e1 + v2 e2), as -r ((v1 r) e1 + (v2 r) e2) r. */
CP_FUNC cp_float cp_low_rhypot(cp_float x, cp_float y)
{
  cp_float a = cp_detail_spec_low_arg(x), b = cp_detail_spec_low_arg(y);
  float r = CP_DETAIL_SPEC_RHYPOTF(a.v, b.v);
  float g = cp_fma_rn(cp_fmul_rn(a.v, r), a.e, cp_fmul_rn(cp_fmul_rn(b.v, r), b.e));
  return cp_detail_low(r, r <= 0x1p126f ? -cp_fmul_rn(cp_fmul_rn(g, r), r) : 0.0f);
}

/* norm3d: (v1 e1 + v2 e2 + v3 e3) / h. */
CP_FUNC cp_float cp_low_norm3d(cp_float x, cp_float y, cp_float w)
{
  cp_float a = cp_detail_spec_low_arg(x), b = cp_detail_spec_low_arg(y), c = cp_detail_spec_low_arg(w);
  float h = CP_DETAIL_SPEC_NORM3DF(a.v, b.v, c.v);
  float r = h >= 0x1p-126f ? cp_fdiv_rn(1.0f, h) : 0.0f;
  float g = cp_fma_rn(cp_fmul_rn(a.v, r), a.e, cp_fma_rn(cp_fmul_rn(b.v, r), b.e, cp_fmul_rn(cp_fmul_rn(c.v, r), c.e)));
  return cp_detail_low(h, g);
}

/* rnorm3d: -r^3 (v1 e1 + v2 e2 + v3 e3). */
CP_FUNC cp_float cp_low_rnorm3d(cp_float x, cp_float y, cp_float w)
{
  cp_float a = cp_detail_spec_low_arg(x), b = cp_detail_spec_low_arg(y), c = cp_detail_spec_low_arg(w);
  float r = CP_DETAIL_SPEC_RNORM3DF(a.v, b.v, c.v);
  float g = cp_fma_rn(cp_fmul_rn(a.v, r), a.e, cp_fma_rn(cp_fmul_rn(b.v, r), b.e, cp_fmul_rn(cp_fmul_rn(c.v, r), c.e)));
  return cp_detail_low(r, r <= 0x1p126f ? -cp_fmul_rn(cp_fmul_rn(g, r), r) : 0.0f);
}

/* ---- the generic names: the tier of the family CP_ALGO selects ---- */
#if CP_ALGO == CP_ALGO_FAST
#define CP_DETAIL_SPEC_T(name) cp_low_##name
#define CP_DETAIL_SPEC_N(x) (x)
#elif CP_ALGO == CP_ALGO_MID
#define CP_DETAIL_SPEC_T(name) cp_mid_##name
#define CP_DETAIL_SPEC_N(x) (x)
#elif CP_ALGO == CP_ALGO_PAPER /* unnormalized pairs: normalized first (exact) */
#define CP_DETAIL_SPEC_T(name) cp_high_##name
#define CP_DETAIL_SPEC_N(x) cp_normalize(x)
#else
#define CP_DETAIL_SPEC_T(name) cp_high_##name
#define CP_DETAIL_SPEC_N(x) (x)
#endif
#define CP_DETAIL_SPEC_GEN1(name) \
  CP_FUNC cp_float cp_##name(cp_float x) { return CP_DETAIL_SPEC_T(name)(CP_DETAIL_SPEC_N(x)); }
CP_DETAIL_SPEC_GEN1(sinh)
CP_DETAIL_SPEC_GEN1(cosh)
CP_DETAIL_SPEC_GEN1(tanh)
CP_DETAIL_SPEC_GEN1(erf)
CP_DETAIL_SPEC_GEN1(erfc)
CP_DETAIL_SPEC_GEN1(cbrt)
CP_FUNC cp_float cp_hypot(cp_float x, cp_float y)
{
  return CP_DETAIL_SPEC_T(hypot)(CP_DETAIL_SPEC_N(x), CP_DETAIL_SPEC_N(y));
}
CP_FUNC cp_float cp_rhypot(cp_float x, cp_float y)
{
  return CP_DETAIL_SPEC_T(rhypot)(CP_DETAIL_SPEC_N(x), CP_DETAIL_SPEC_N(y));
}
CP_FUNC cp_float cp_norm3d(cp_float x, cp_float y, cp_float w)
{
  return CP_DETAIL_SPEC_T(norm3d)(CP_DETAIL_SPEC_N(x), CP_DETAIL_SPEC_N(y), CP_DETAIL_SPEC_N(w));
}
CP_FUNC cp_float cp_rnorm3d(cp_float x, cp_float y, cp_float w)
{
  return CP_DETAIL_SPEC_T(rnorm3d)(CP_DETAIL_SPEC_N(x), CP_DETAIL_SPEC_N(y), CP_DETAIL_SPEC_N(w));
}
#undef CP_DETAIL_SPEC_GEN1
#undef CP_DETAIL_SPEC_T
#undef CP_DETAIL_SPEC_N

#else /* CP_BACKEND_IS_DP: the double function, every tier (about 2^-52 relative) */

#define CP_DETAIL_SPEC_DP1(name, expr)                                                      \
  CP_FUNC cp_float cp_##name(cp_float x) { return cp_detail_dp(expr); }                     \
  CP_FUNC cp_float cp_low_##name(cp_float x) { return cp_##name(x); }                       \
  CP_FUNC cp_float cp_mid_##name(cp_float x) { return cp_##name(x); }                       \
  CP_FUNC cp_float cp_high_##name(cp_float x) { return cp_##name(x); }
#define CP_DETAIL_SPEC_DP2(name, expr)                                                      \
  CP_FUNC cp_float cp_##name(cp_float x, cp_float y) { return cp_detail_dp(expr); }         \
  CP_FUNC cp_float cp_low_##name(cp_float x, cp_float y) { return cp_##name(x, y); }        \
  CP_FUNC cp_float cp_mid_##name(cp_float x, cp_float y) { return cp_##name(x, y); }        \
  CP_FUNC cp_float cp_high_##name(cp_float x, cp_float y) { return cp_##name(x, y); }
#define CP_DETAIL_SPEC_DP3(name, expr)                                                      \
  CP_FUNC cp_float cp_##name(cp_float x, cp_float y, cp_float w) { return cp_detail_dp(expr); } \
  CP_FUNC cp_float cp_low_##name(cp_float x, cp_float y, cp_float w) { return cp_##name(x, y, w); } \
  CP_FUNC cp_float cp_mid_##name(cp_float x, cp_float y, cp_float w) { return cp_##name(x, y, w); } \
  CP_FUNC cp_float cp_high_##name(cp_float x, cp_float y, cp_float w) { return cp_##name(x, y, w); }
CP_DETAIL_SPEC_DP1(sinh, sinh(x.d))
CP_DETAIL_SPEC_DP1(cosh, cosh(x.d))
CP_DETAIL_SPEC_DP1(tanh, tanh(x.d))
CP_DETAIL_SPEC_DP1(erf, erf(x.d))
CP_DETAIL_SPEC_DP1(erfc, erfc(x.d))
CP_DETAIL_SPEC_DP1(cbrt, cbrt(x.d))
CP_DETAIL_SPEC_DP2(hypot, hypot(x.d, y.d))
CP_DETAIL_SPEC_DP2(rhypot, CP_DETAIL_SPEC_RHYPOT(x.d, y.d))
CP_DETAIL_SPEC_DP3(norm3d, CP_DETAIL_SPEC_NORM3D(x.d, y.d, w.d))
CP_DETAIL_SPEC_DP3(rnorm3d, CP_DETAIL_SPEC_RNORM3D(x.d, y.d, w.d))
#undef CP_DETAIL_SPEC_DP1
#undef CP_DETAIL_SPEC_DP2
#undef CP_DETAIL_SPEC_DP3

#endif /* CP_BACKEND_IS_DP */

/* ---- cp_double: the double function plus the first-order propagation of lo ----
 * About 2^-52 relative (the double function's), not double-double; kernels written in double. */
CP_FUNC cp_double cp_detail_spec_dd(double y, double d)
{
  if (!cp_detail_finite(y) || !cp_detail_finite(d)) return cp_make_double(y, 0.0);
  return cp_dd_two_sum(y, d);
}

CP_FUNC cp_double cp_dd_sinh(cp_double x) { return cp_detail_spec_dd(sinh(x.hi), cp_dmul_rn(cosh(x.hi), x.lo)); }
CP_FUNC cp_double cp_dd_cosh(cp_double x) { return cp_detail_spec_dd(cosh(x.hi), cp_dmul_rn(sinh(x.hi), x.lo)); }

CP_FUNC cp_double cp_dd_tanh(cp_double x)
{
  double t = tanh(x.hi);
  return cp_detail_spec_dd(t, cp_dmul_rn(cp_dfma_rn(-t, t, 1.0), x.lo));
}

CP_FUNC cp_double cp_dd_erf(cp_double x)
{
  double g = cp_dmul_rn(0x1.20dd750429b6dp+0, exp(-cp_dmul_rn(x.hi, x.hi))); /* 2/sqrt(pi) */
  return cp_detail_spec_dd(erf(x.hi), cp_dmul_rn(g, x.lo));
}

CP_FUNC cp_double cp_dd_erfc(cp_double x)
{
  double g = cp_dmul_rn(0x1.20dd750429b6dp+0, exp(-cp_dmul_rn(x.hi, x.hi)));
  return cp_detail_spec_dd(erfc(x.hi), -cp_dmul_rn(g, x.lo));
}

CP_FUNC cp_double cp_dd_cbrt(cp_double x)
{
  double y = cbrt(x.hi);
  double d = fabs(y) >= 0x1p-500 ? cp_ddiv_rn(x.lo, cp_dmul_rn(3.0, cp_dmul_rn(y, y))) : 0.0;
  return cp_detail_spec_dd(y, d);
}

CP_FUNC cp_double cp_dd_hypot(cp_double x, cp_double y)
{
  double h = hypot(x.hi, y.hi), r = h >= 0x1p-1022 ? cp_ddiv_rn(1.0, h) : 0.0;
  return cp_detail_spec_dd(h, cp_dfma_rn(cp_dmul_rn(x.hi, r), x.lo, cp_dmul_rn(cp_dmul_rn(y.hi, r), y.lo)));
}

CP_FUNC cp_double cp_dd_rhypot(cp_double x, cp_double y)
{
  double r = CP_DETAIL_SPEC_RHYPOT(x.hi, y.hi);
  double g = cp_dfma_rn(cp_dmul_rn(x.hi, r), x.lo, cp_dmul_rn(cp_dmul_rn(y.hi, r), y.lo));
  return cp_detail_spec_dd(r, r <= 0x1p1022 ? -cp_dmul_rn(cp_dmul_rn(g, r), r) : 0.0);
}

CP_FUNC cp_double cp_dd_norm3d(cp_double x, cp_double y, cp_double w)
{
  double h = CP_DETAIL_SPEC_NORM3D(x.hi, y.hi, w.hi), r = h >= 0x1p-1022 ? cp_ddiv_rn(1.0, h) : 0.0;
  double g = cp_dfma_rn(cp_dmul_rn(x.hi, r), x.lo,
                        cp_dfma_rn(cp_dmul_rn(y.hi, r), y.lo, cp_dmul_rn(cp_dmul_rn(w.hi, r), w.lo)));
  return cp_detail_spec_dd(h, g);
}

CP_FUNC cp_double cp_dd_rnorm3d(cp_double x, cp_double y, cp_double w)
{
  double r = CP_DETAIL_SPEC_RNORM3D(x.hi, y.hi, w.hi);
  double g = cp_dfma_rn(cp_dmul_rn(x.hi, r), x.lo,
                        cp_dfma_rn(cp_dmul_rn(y.hi, r), y.lo, cp_dmul_rn(cp_dmul_rn(w.hi, r), w.lo)));
  return cp_detail_spec_dd(r, r <= 0x1p1022 ? -cp_dmul_rn(cp_dmul_rn(g, r), r) : 0.0);
}

#endif /* CP_MATH_SPEC_CUH */
