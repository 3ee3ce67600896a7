/* cp/math_exp.cuh - composite exp2, exp10, expm1, log2, log10, log1p and pow, in three tiers,
 * for both backends (built on math.cuh's exp and log; the same names and tiers):
 *   cp_low_F, cp_mid_F, cp_high_F   the tiers by name, F one of exp2 exp10 expm1 log2 log10
 *                                   log1p pow
 *   cp_F                            the tier of the family CP_ALGO selects (as cp_exp)
 *   cp_dd_F                         cp_double (kernels written in double)
 *
 * Tiers (ff backend; no FP64 instruction):
 *   high, mid  float-float algorithms on normalized pairs (mid is high for exp10 and
 *              expm1: no cheaper algorithm at this accuracy yet; mid log2, log10 and log1p
 *              are built on math.cuh's mid log core instead of its high log; mid exp2
 *              evaluates two more terms of its polynomial in float and its float-float steps
 *              unrenormalized; mid pow: below). exp2: k = rint(x), 2^r by its own Taylor
 *              polynomial in r (|r| <= 0.5), 2^k. exp10: a reduction of its own to |r| <=
 *              log10(2)/2, r times ln 10 as a pair (DWTimesDW3), then math.cuh's exp
 *              polynomial and 2^k. expm1: exp's Taylor polynomial without
 *              its constant term for |x| <= 0.34, exp(x) - 1 beyond. log2, log10: x = 2^m f
 *              (f in [sqrt(1/2), sqrt(2))), math.cuh's log of f times log2(e) or log10(e) as a
 *              pair, plus m (exact) or m log10(2) (three floats): log2 of a power of two is
 *              exact. log1p: 2 atanh(x/(2 + x)) for x in [-0.29, 0.41], math.cuh's log of the
 *              pair 1 + x beyond. pow: below.
 *   low        the float function's value plus the first-order propagation of the error
 *              half(s): {f(v), f'(v) e} (pow: f (ye log|x| + y xe/x)).
 * Under the dp backend every tier is the double function on the double (about 2^-52).
 *
 * pow(x, y) = exp(y log x): the error of t = y log x becomes the result's relative error,
 * amplified by |t| (up to 88.7 for a finite result, 104 for a subnormal one), so log x is
 * kept in more than pair precision: x = 2^m f, log f = 2 atanh(s) with s = (f - 1)/(f + 1)
 * as three floats (quotient, remainder quotient, and its remainder), atanh's series tail as
 * a pair, log f as three floats; y m exactly (two TwoProds), its integer part j taken out,
 * y log f as TwoProds of the leading parts, reduced by k ln 2 with ln 2 in three parts (as
 * exp's reduction), so that r = t - (j + k) ln 2 is a pair accurate to about 2^-50 absolute
 * whatever |t|. Then exp(r) 2^(j+k). No table. Mid pow (no division, one reduction, SASS
 * 321 instructions on the longest path against high's 560 and fpmp's 364, bench/math/
 * sass_path.py): log f = 2s + s z Q2(z) with s in three floats from an approximate
 * reciprocal refined by FMA remainders and math.cuh's mid minimax Q2 (degree 6), log x = m
 * ln 2 + log f as three floats (ln 2 in parts of 16, 16 and 24 bits, so that m ln 2 and
 * k ln 2 are exact pairs plus a small third term), t = y log x reduced once by k ln 2, and
 * 2^(r log2 e) 2^k by the mid exp2 core: no second reduction and one scaling.
 *
 * Special values as the float functions give them (error half 0): exp2 and exp10 as exp
 * (overflow above 128 and 38.53, +0 below -150 and -45.15); expm1(+-0) = +-0, expm1(-inf) =
 * -1, expm1 overflows where exp does; log2, log10 as log; log1p(-1) = -inf, log1p(x < -1) =
 * NaN, log1p(+-0) = +-0. pow as powf (C99 F.9.4.4): pow(x, +-0) = 1 and pow(1, y) = 1 even
 * for NaN, a negative x with an integer y (the pair's value v + e: odd when v xor e is odd)
 * gives the sign of |x|^y, with a non-integer y NaN; zeros, infinities and NaN take powf's
 * result on the value halves. Subnormal results carry an absolute error of about 2^-150.
 *
 * Measured bounds (tests/runtime/check_math_exp.c, MPFR at 200 bits, u^2 = 2^-48; 100000
 * random normalized pairs per function and tier (40000 for pow) plus edge cases, relative
 * error of v + e against the exact function of the input's value, plus 2^-149 absolute
 * below 2^-126; where high and mid run the same code, on different random inputs):
 *   high exp2       x in [-150, 128]          max 1.64 u^2, asserted 4 u^2
 *   mid exp2        x in [-150, 128]          max 3.28 u^2, asserted 4 u^2
 *   high/mid exp10  x in [-45.1, 38.5]        max 1.97 u^2, asserted 4 u^2
 *   high/mid expm1  x in [-104, 88.7]         max 4.94 u^2, asserted 6 u^2 (largest just
 *                                             above |x| = 0.34, where exp(x) - 1 cancels)
 *   high log2       x in (0, inf)             max 5.81 u^2, asserted 7 u^2
 *   high log10      x in (0, inf)             max 5.85 u^2, asserted 7 u^2
 *   high log1p      x in (-1, inf)            max 6.12 u^2, asserted 8 u^2
 *   mid log2        x in (0, inf)             max 7.99 u^2, asserted 11 u^2
 *   mid log10       x in (0, inf)             max 8.06 u^2, asserted 11 u^2
 *   mid log1p       x in (-1, inf)            max 6.89 u^2, asserted 11 u^2
 *   high pow        |y log x| <= 103          max 8.35 u^2 (2^-44.9), asserted 14 u^2
 *   mid pow         |y log x| <= 103          max 9.99 u^2 (2^-44.7), asserted 16 u^2
 *                   Both grow with |t| = |y log x| where |y log f| is large (log f's
 *                   relative error, about 2^-50.8 at |log f| = 0.347, times |y log f|;
 *                   |y log f| = |t| for f next to sqrt(2) or sqrt(1/2) and x = f or 2f):
 *                   the test prints the maximum per bin of |t| (13 wide): high 1.75 and mid
 *                   2.56 below |t| = 78, 8.35 and 9.99 in [78, 91). A wider sweep (300 000
 *                   draws with such f and |t| in [80, 88.7], MPFR) reached 12.4 (high) and
 *                   15.7 u^2 (mid, 2^-44.0), at x = 1.409, y = 257, t = 88.
 *   low, every function                       the float function's error plus O(e^2): max
 *                                             1.0 u to 2.2 u on glibc, asserted 2^-22
 *                                             relative (pow: 2^-21)
 * No proof: the bounds are measured maxima with a margin.
 */
#ifndef CP_MATH_EXP_CUH
#define CP_MATH_EXP_CUH

#include "math.cuh"

/* exp10 of a float and of a double: CUDA's, or on a C host (where exp10 is a GNU extension)
 * pow(10, x) in double (host code only: the FP64 audit covers device code). */
#if defined(__CUDACC__)
#define CP_DETAIL_EXP_EXP10F(v) exp10f(v)
#define CP_DETAIL_EXP_EXP10(d) exp10(d)
#else
#define CP_DETAIL_EXP_EXP10F(v) ((float)pow(10.0, (double)(v)))
#define CP_DETAIL_EXP_EXP10(d) pow(10.0, (d))
#endif

#if !CP_BACKEND_IS_DP

/* ---- constants (python3 decimal at 80 digits, each part rounded to nearest) ---- */
/* pairs: ln 2, ln 10, log2(e), log10(e); the next term is below 2^-51 relative */
#define CP_DETAIL_EXP_LN2_H 0x1.62e43p-1f
#define CP_DETAIL_EXP_LN2_L -0x1.05c61p-29f
#define CP_DETAIL_EXP_LN10_H 0x1.26bb1cp+1f
#define CP_DETAIL_EXP_LN10_L -0x1.12aabap-25f
#define CP_DETAIL_EXP_LOG2E_H 0x1.715476p+0f
#define CP_DETAIL_EXP_LOG2E_L 0x1.4ae0cp-26f
#define CP_DETAIL_EXP_LOG10E_H 0x1.bcb7b2p-2f
#define CP_DETAIL_EXP_LOG10E_L -0x1.5b235ep-27f
#define CP_DETAIL_EXP_LOG2_10 0x1.a934fp+1f
/* log10(2) = G1 + G2 + G3 + O(2^-69): G1 has 11 significant bits (k G1 exact for |k| < 2^13),
 * G2 and G3 the next 24 bits each (Cody-Waite, as math.cuh's ln 2) */
#define CP_DETAIL_EXP_LG2_1 0x1.344p-2f
#define CP_DETAIL_EXP_LG2_2 0x1.3509f8p-18f
#define CP_DETAIL_EXP_LG2_3 -0x1.80433cp-44f

/* Three floats a + b + c, |b| about u|a| and |c| about u^2|a| (not necessarily normalized). */
typedef struct {
  float a, b, c;
} cp_detail_exp_f3;

/* ---- exp2, exp10 ---- */

/* 2^r 2^k for a pair r with |r| <= 1/2 (|r.e| a few ulp of r.v at most) and k in [-152, 130],
 * high (mid = 0) or mid tier (cp_detail_exp_exp2_poly: 2^x for a pair with -151 <= x.v <=
 * 128.5, k = rint(x.v), r = (x.v - k) + x.e, the difference exact; mid pow: its own r and k).
 * 2^r by its own Taylor polynomial,
 * coefficients (ln 2)^j/j! (python3 decimal at 80 digits, each split into a float pair),
 * degree 12 (truncation 2^-52 relative at |r ln 2| <= 0.347): degrees 12 to 9 by float Horner
 * (8 and 7 too in the mid tier: their float error below 2^-46 of 2^r), the rest by
 * float-float steps (cp_detail_exp_exp2_step); 2^(rh + rl) =
 * 2^rh (1 + rl ln 2) to 2^-57 in one FMA; then 2^k in two exact scalings. No product r ln 2
 * and no second reduction (exp(r ln 2) had both). Measured: high 1.64, mid 3.28 u^2. */
/* One Horner step c + rh e of the exp2 polynomial: high: DWTimesFP3 and the constant step
 * (each renormalized); mid: as math.cuh's cp_detail_log_step with a float rh (TwoProd of the
 * highs, e.e rh and cl in float, Fast2Sum of c and the product's high part; |rh e| <= 0.4
 * |c| here), the result not renormalized (its error half a few ulp of its value). */
CP_FUNC cp_float cp_detail_exp_exp2_step(cp_float e, float rh, float ch, float cl, int mid)
{
  if (!mid) return cp_detail_add_const(cp_detail_mul_f(e, rh), ch, cl);
  cp_float m = cp_two_prod(e.v, rh);
  cp_float s = cp_fast_two_sum(ch, m.v);
  return cp_make_float(s.v, cp_fadd_rn(s.e, cp_fma_rn(e.e, rh, cp_fadd_rn(m.e, cl))));
}

CP_FUNC cp_float cp_detail_exp_exp2_core(cp_float r, int k, int mid)
{
  float rh = r.v;
  float q = 0x1.c3bd66p-36f;             /* (ln 2)^12/12! */
  q = cp_fma_rn(q, rh, 0x1.e8cac8p-32f); /* 11 */
  q = cp_fma_rn(q, rh, 0x1.e4cf52p-28f); /* 10 */
  q = cp_fma_rn(q, rh, 0x1.b5253ep-24f); /* 9 */
  if (mid) {
    q = cp_fma_rn(q, rh, 0x1.62c022p-20f); /* 8 */
    q = cp_fma_rn(q, rh, 0x1.ffcbfcp-17f); /* 7 */
  }
  cp_float e = cp_make_float(q, 0.0f);
  if (!mid) {
    e = cp_detail_exp_exp2_step(e, rh, 0x1.62c022p-20f, 0x1.d2e412p-47f, mid); /* 8 */
    e = cp_detail_exp_exp2_step(e, rh, 0x1.ffcbfcp-17f, 0x1.622c32p-43f, mid); /* 7 */
  }
  e = cp_detail_exp_exp2_step(e, rh, 0x1.430912p-13f, 0x1.f0d8fp-38f, mid);  /* 6 */
  e = cp_detail_exp_exp2_step(e, rh, 0x1.5d87fep-10f, 0x1.e299ccp-36f, mid); /* 5 */
  e = cp_detail_exp_exp2_step(e, rh, 0x1.3b2ab6p-7f, 0x1.f749cep-32f, mid);  /* 4 */
  e = cp_detail_exp_exp2_step(e, rh, 0x1.c6b08ep-5f, -0x1.1f6be8p-30f, mid); /* 3 */
  e = cp_detail_exp_exp2_step(e, rh, 0x1.ebfbep-3f, -0x1.f4e9c6p-33f, mid);  /* 2 */
  e = cp_detail_exp_exp2_step(e, rh, 0x1.62e43p-1f, -0x1.05c61p-29f, mid);   /* 1 */
  e = cp_detail_exp_exp2_step(e, rh, 1.0f, 0.0f, mid);
  e = cp_fast_two_sum(e.v, cp_fma_rn(e.v, cp_fmul_rn(r.e, CP_DETAIL_EXP_LN2_H), e.e)); /* times 1 + rl ln 2 */
  return cp_detail_scale(e, k);
}

CP_FUNC cp_float cp_detail_exp_exp2_poly(cp_float x, int mid)
{
  float kf = rintf(x.v);
  return cp_detail_exp_exp2_core(cp_two_sum(cp_fsub_rn(x.v, kf), x.e), (int)kf, mid);
}

/* exp2 in the high (mid = 0) or mid tier, special values settled. */
CP_FUNC cp_float cp_detail_exp_exp2_tier(cp_float x, int mid)
{
  cp_float z;
  if (x.v != x.v) z = cp_make_float(x.v, 0.0f);
  else if (x.v > 128.5f) z = cp_make_float(INFINITY, 0.0f);
  else if (x.v < -151.0f) z = cp_make_float(0.0f, 0.0f);
  else z = cp_detail_exp_exp2_poly(x, mid);
  CP_DETAIL_SETTLE(z, exp2f(cp_to_float(x)));
  return z;
}

/* exp2, high tier. Measured: 1.64 u^2 (module comment). */
CP_FUNC cp_float cp_high_exp2(cp_float x) { return cp_detail_exp_exp2_tier(x, 0); }

/* 10^x for a pair with -45.5 <= x.v <= 38.9 (so k stays in [-151, 129]). Cody-Waite:
 * k = rint(x.v log2(10)), r = x - k log10(2) with log10(2) in three floats (x.v - k G1 exact:
 * k G1 has at most 19 bits and the difference is below 0.16, a multiple of ulp(x.v)),
 * |r| <= 0.151, r as a pair to about 2^-52 absolute; exp(r ln 10) (DWTimesDW3) by
 * math.cuh's exp, times 2^k. */
CP_FUNC cp_float cp_detail_exp_exp10_ff(cp_float x)
{
  float kf = rintf(cp_fmul_rn(x.v, CP_DETAIL_EXP_LOG2_10));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_EXP_LG2_1, x.v); /* exact */
  cp_float p = cp_two_prod(kf, CP_DETAIL_EXP_LG2_2);
  cp_float s = cp_two_sum(t1, -p.v);
  cp_float w = cp_two_sum(s.v, x.e);
  float lo = cp_fsub_rn(cp_fsub_rn(cp_fadd_rn(w.e, s.e), p.e), cp_fmul_rn(kf, CP_DETAIL_EXP_LG2_3));
  cp_float r = cp_two_sum(w.v, lo);
  cp_float t = cp_detail_mul_dd(r, cp_make_float(CP_DETAIL_EXP_LN10_H, CP_DETAIL_EXP_LN10_L));
  return cp_detail_scale(cp_detail_exp_ff(t), (int)kf);
}


/* exp10, high tier. Measured: 1.97 u^2 (module comment). */
CP_FUNC cp_float cp_high_exp10(cp_float x)
{
  cp_float z;
  if (x.v != x.v) z = cp_make_float(x.v, 0.0f);
  else if (x.v > 38.9f) z = cp_make_float(INFINITY, 0.0f);
  else if (x.v < -45.5f) z = cp_make_float(0.0f, 0.0f);
  else z = cp_detail_exp_exp10_ff(x);
  CP_DETAIL_SETTLE(z, CP_DETAIL_EXP_EXP10F(cp_to_float(x)));
  return z;
}

/* ---- expm1 ---- */

/* expm1(x) for a pair with 2^-30 <= |x.v| <= 0.34: math.cuh's exp polynomial (Taylor, degree
 * 12, truncation 2^-51.9 relative here) without its constant term, so the result keeps its
 * relative accuracy near 0: P = rh (1 + rh/2 + ... + rh^11/12!), then expm1(rh + rl) =
 * P + rl (1 + P) (to rl^2/2, below 2^-60 relative). */
CP_FUNC cp_float cp_detail_exp_expm1_small(cp_float x)
{
  float rh = x.v;
  cp_float e = cp_detail_exp_taylor_q(rh, 0);
  cp_float p = cp_detail_mul_f(e, rh);
  p = cp_fast_two_sum(p.v, p.e);
  return cp_fast_two_sum(p.v, cp_fadd_rn(p.e, cp_fma_rn(x.e, p.v, x.e)));
}

/* expm1, high tier: x + x^2/2 below 2^-30 (the next term is 2^-61 relative), the polynomial
 * above to 0.34, exp(x) - 1 (AccurateDWPlusDW; the subtraction loses at most a factor 3.4 at
 * x = 0.34 and 2.4 at x = -0.34) beyond; -1 below -104. Measured: 4.94 u^2. */
CP_FUNC cp_float cp_high_expm1(cp_float x)
{
  cp_float z;
  float ax = fabsf(x.v);
  if (x.v != x.v || x.v == 0.0f) z = cp_make_float(x.v, 0.0f);
  else if (x.v > 89.0f) z = cp_make_float(INFINITY, 0.0f);
  else if (x.v < -104.0f) z = cp_make_float(-1.0f, 0.0f);
  else if (ax < 0x1p-30f) z = cp_fast_two_sum(x.v, cp_fma_rn(cp_fmul_rn(0.5f, x.v), x.v, x.e));
  else if (ax <= 0.34f) z = cp_detail_exp_expm1_small(x);
  else {
    z = cp_detail_exp_ff(x);
    if (cp_detail_finitef(z.v)) z = cp_detail_add_dd(z, cp_make_float(-1.0f, 0.0f));
  }
  CP_DETAIL_SETTLE(z, expm1f(cp_to_float(x)));
  return z;
}

/* ---- log2, log10, log1p ---- */

/* log2(x) = m + log(f) log2(e): log f by math.cuh (its reduction leaves f as it is),
 * |log f| <= 0.347, times log2(e) as a pair (DWTimesDW3); m added exactly where it is 0,
 * else by the constant step (|m| >= 1 > |log2 f|). */
CP_FUNC cp_float cp_detail_exp_log2_ff(cp_float x)
{
  int m;
  cp_float l = cp_detail_mul_dd(cp_detail_log_ff(cp_detail_log_split(x, &m)),
                                cp_make_float(CP_DETAIL_EXP_LOG2E_H, CP_DETAIL_EXP_LOG2E_L));
  return m == 0 ? l : cp_detail_add_const(l, (float)m, 0.0f);
}

/* log10(x) = m log10(2) + log(f) log10(e): m log10(2) from its three parts
 * (cp_detail_times_3), AccurateDWPlusDW. */
CP_FUNC cp_float cp_detail_exp_log10_ff(cp_float x)
{
  int m;
  cp_float l = cp_detail_mul_dd(cp_detail_log_ff(cp_detail_log_split(x, &m)),
                                cp_make_float(CP_DETAIL_EXP_LOG10E_H, CP_DETAIL_EXP_LOG10E_L));
  if (m == 0) return l;
  return cp_detail_add_dd(
      cp_detail_times_3(m, CP_DETAIL_EXP_LG2_1, CP_DETAIL_EXP_LG2_2, CP_DETAIL_EXP_LG2_3), l);
}

/* log1p for a normalized pair with x.v > -1 (or x.v = -1, x.e > 0) and |x.v| >= 2^-30:
 * 2 atanh(x/(2 + x)) for x.v in [-0.2929, 0.4142] (no rounding of 1 + x; 2 + x as a pair),
 * else log(1 + x), 1 + x as a pair (two_sum, then e; relative error about u^2, which log
 * turns into at most 3u^2 absolute since |log(1 + x)| >= 0.34 there). */
CP_FUNC cp_float cp_detail_exp_log1p_ff(cp_float x)
{
  if (x.v >= -0.2929f && x.v <= 0.4142f) {
    cp_float d = cp_two_sum(2.0f, x.v);
    return cp_detail_atanh2(x, cp_fast_two_sum(d.v, cp_fadd_rn(d.e, x.e)));
  }
  cp_float w = cp_two_sum(1.0f, x.v);
  w = cp_fast_two_sum(w.v, cp_fadd_rn(w.e, x.e));
  if (!(w.v > 0.0f)) return cp_make_float(logf(w.v), 0.0f); /* 1 + x <= 0: -inf or NaN */
  if (w.v > FLT_MAX) return cp_make_float(w.v, 0.0f);
  return cp_detail_log_ff(w);
}

/* log1p, high tier (log2 and log10: after the mid tier's algorithms below): the algorithm
 * above on a normalized pair; the float function with a zero error half for the special
 * values. Measured: 6.81 u^2. */
CP_FUNC cp_float cp_high_log1p(cp_float x)
{
  cp_float z;
  if (x.v != x.v || x.v == 0.0f) z = cp_make_float(x.v, 0.0f);
  else if (fabsf(x.v) < 0x1p-30f) /* x - x^2/2 (x^3/3 is below 2^-60 relative) */
    z = cp_fast_two_sum(x.v, cp_fma_rn(cp_fmul_rn(-0.5f, x.v), x.v, x.e));
  else if (x.v >= -1.0f && x.v <= FLT_MAX) z = cp_detail_exp_log1p_ff(x);
  else z = cp_make_float(log1pf(x.v), 0.0f);
  CP_DETAIL_SETTLE(z, log1pf(cp_to_float(x)));
  return z;
}

/* ---- log2, log10, log1p: mid tier (math.cuh's mid log: cheaper, about 2^-46) ---- */

/* log10(2) as a pair (python3 decimal, each part rounded to nearest; the rest 2^-52.2) */
#define CP_DETAIL_EXP_LG2_H 0x1.344136p-2f
#define CP_DETAIL_EXP_LG2_L -0x1.ec10cp-27f

/* log2(x) = m + log f log2(e), log10(x) = m log10(2) + log f log10(e): log f from math.cuh's
 * mid tier (cp_detail_log_f_mid, unnormalized), times the constant pair (TwoProd of the
 * highs, the cross terms in float), the sum with m (exact) or m log10(2) (TwoProd and the
 * low part's product) by Fast2Sum (|m| > |log2 f| and |m log10(2)| > |log10 f| where m != 0),
 * the small terms in float, Fast2Sum. */
CP_FUNC cp_float cp_detail_exp_log2_mid(cp_float x)
{
  int m;
  cp_float l = cp_detail_log_f_mid(x, &m);
  cp_float p = cp_two_prod(l.v, CP_DETAIL_EXP_LOG2E_H);
  p.e = cp_fma_rn(l.v, CP_DETAIL_EXP_LOG2E_L, cp_fma_rn(l.e, CP_DETAIL_EXP_LOG2E_H, p.e));
  cp_float y = cp_fast_two_sum((float)m, p.v);
  return cp_fast_two_sum(y.v, cp_fadd_rn(y.e, p.e));
}

CP_FUNC cp_float cp_detail_exp_log10_mid(cp_float x)
{
  int m;
  cp_float l = cp_detail_log_f_mid(x, &m);
  cp_float p = cp_two_prod(l.v, CP_DETAIL_EXP_LOG10E_H);
  p.e = cp_fma_rn(l.v, CP_DETAIL_EXP_LOG10E_L, cp_fma_rn(l.e, CP_DETAIL_EXP_LOG10E_H, p.e));
  float mf = (float)m;
  cp_float g = cp_two_prod(mf, CP_DETAIL_EXP_LG2_H);
  cp_float y = cp_fast_two_sum(g.v, p.v);
  return cp_fast_two_sum(y.v, cp_fadd_rn(y.e, cp_fadd_rn(cp_fma_rn(mf, CP_DETAIL_EXP_LG2_L, g.e), p.e)));
}

/* log1p, mid tier, for the arguments of cp_detail_exp_log1p_ff: 2 atanh(x/(2 + x)) by
 * math.cuh's mid core for x.v in [-0.2929, 0.4142] (2 + x.v by Fast2Sum, exact, its error
 * plus x.e as the denominator's low part), math.cuh's mid log of the pair 1 + x beyond. */
CP_FUNC cp_float cp_detail_exp_log1p_mid(cp_float x)
{
  if (x.v >= -0.2929f && x.v <= 0.4142f) {
    cp_float d = cp_fast_two_sum(2.0f, x.v);
    cp_float l = cp_detail_log_atanh_mid(x, d.v, cp_fadd_rn(d.e, x.e));
    return cp_fast_two_sum(l.v, l.e);
  }
  cp_float w = cp_two_sum(1.0f, x.v);
  w = cp_fast_two_sum(w.v, cp_fadd_rn(w.e, x.e));
  if (!(w.v > 0.0f)) return cp_make_float(logf(w.v), 0.0f); /* 1 + x <= 0: -inf or NaN */
  if (w.v > FLT_MAX) return cp_make_float(w.v, 0.0f);
  return cp_detail_log_mid(w);
}

/* log2 (ten = 0) and log10 (ten = 1) in the high (mid = 0) or mid tier: the algorithms above
 * on a normalized pair; the float function with a zero error half for the special values.
 * Measured: high 6.14, 5.85, mid 7.99, 8.06 u^2 (module comment). */
CP_FUNC cp_float cp_detail_exp_logb_tier(cp_float x, int ten, int mid)
{
  cp_float z;
  if (x.v > 0.0f && x.v <= FLT_MAX)
    z = ten ? (mid ? cp_detail_exp_log10_mid(x) : cp_detail_exp_log10_ff(x))
            : (mid ? cp_detail_exp_log2_mid(x) : cp_detail_exp_log2_ff(x));
  else z = cp_make_float(ten ? log10f(x.v) : log2f(x.v), 0.0f);
  CP_DETAIL_SETTLE(z, ten ? log10f(cp_to_float(x)) : log2f(cp_to_float(x)));
  return z;
}

CP_FUNC cp_float cp_high_log2(cp_float x) { return cp_detail_exp_logb_tier(x, 0, 0); }
CP_FUNC cp_float cp_high_log10(cp_float x) { return cp_detail_exp_logb_tier(x, 1, 0); }
CP_FUNC cp_float cp_mid_log2(cp_float x) { return cp_detail_exp_logb_tier(x, 0, 1); }
CP_FUNC cp_float cp_mid_log10(cp_float x) { return cp_detail_exp_logb_tier(x, 1, 1); }

/* log1p, mid tier: the algorithm above, the special values as the high tier's. Measured: 6.89
 * u^2 (module comment). */
CP_FUNC cp_float cp_mid_log1p(cp_float x)
{
  cp_float z;
  if (x.v != x.v || x.v == 0.0f) z = cp_make_float(x.v, 0.0f);
  else if (fabsf(x.v) < 0x1p-30f) /* x - x^2/2, as the high tier */
    z = cp_fast_two_sum(x.v, cp_fma_rn(cp_fmul_rn(-0.5f, x.v), x.v, x.e));
  else if (x.v >= -1.0f && x.v <= FLT_MAX) z = cp_detail_exp_log1p_mid(x);
  else z = cp_make_float(log1pf(x.v), 0.0f);
  CP_DETAIL_SETTLE(z, log1pf(cp_to_float(x)));
  return z;
}

/* ---- pow ---- */

/* log f as three floats for a normalized pair f with f.v in [sqrt(1/2), sqrt(2)) (f = 1 + d
 * with d below 2^-23 included): s = (f - 1)/(f + 1) with f - 1 exact as a pair and f + 1
 * exact as three floats; the quotient th, the remainder's quotient sl, and the remainder of
 * that, s3 (each remainder by TwoProds, its leading difference exact by Sterbenz), so s is
 * exact to about u^3; log f = 2 (s + s z Q(z)), z = s^2, Q as in math.cuh (z^9, its last
 * steps in float-float) on the pair th + sl: s z Q <= 0.0099 s, so its pair error (about
 * 10 u^2 of it) is below 0.1 u^2 of log f. */
CP_FUNC cp_detail_exp_f3 cp_detail_exp_log3(cp_float f)
{
  cp_float n = cp_two_sum(cp_fsub_rn(f.v, 1.0f), f.e); /* f.v - 1 exact */
  cp_float d1 = cp_fast_two_sum(1.0f, f.v);
  cp_float d2 = cp_two_sum(d1.e, f.e);
  cp_float d = cp_fast_two_sum(d1.v, d2.v); /* f + 1 = d.v + d.e + d2.e exactly */
  float th = cp_fdiv_rn(n.v, d.v);
  cp_float p = cp_two_prod(th, d.v), q = cp_two_prod(th, d.e);
  cp_float r1 = cp_two_sum(cp_fsub_rn(n.v, p.v), -p.e); /* n.v - p.v exact */
  cp_float r2 = cp_two_sum(r1.v, n.e);
  cp_float r3 = cp_two_sum(r2.v, -q.v);
  float rl = cp_fadd_rn(cp_fadd_rn(r1.e, r2.e), cp_fsub_rn(r3.e, cp_fma_rn(th, d2.e, q.e)));
  float sl = cp_fdiv_rn(r3.v, d.v);
  cp_float g = cp_two_prod(sl, d.v);
  float s3 = cp_fsub_rn(cp_fsub_rn(r3.v, g.v), g.e); /* first - exact */
  s3 = cp_fdiv_rn(cp_fma_rn(-sl, d.e, cp_fadd_rn(s3, rl)), d.v);
  cp_float s = cp_fast_two_sum(th, sl);
  cp_float zc = cp_two_prod(s.v, s.v);
  cp_float z = cp_fast_two_sum(zc.v, cp_fma_rn(cp_fadd_rn(s.v, s.v), s.e, zc.e));
  float qq = 0x1.861862p-5f;               /* 1/21 */
  qq = cp_fma_rn(qq, z.v, 0x1.af286cp-5f); /* 1/19 */
  qq = cp_fma_rn(qq, z.v, 0x1.e1e1e2p-5f); /* 1/17 */
  qq = cp_fma_rn(qq, z.v, 0x1.111112p-4f); /* 1/15 */
  qq = cp_fma_rn(qq, z.v, 0x1.3b13b2p-4f); /* 1/13 */
  qq = cp_fma_rn(qq, z.v, 0x1.745d18p-4f); /* 1/11 */
  cp_float pq = cp_make_float(qq, 0.0f);
  pq = cp_detail_add_const(cp_detail_mul_dd(pq, z), 0x1.c71c72p-4f, -0x1.c71c72p-31f); /* 1/9 */
  pq = cp_detail_add_const(cp_detail_mul_dd(pq, z), 0x1.24924ap-3f, -0x1.b6db6ep-28f); /* 1/7 */
  pq = cp_detail_add_const(cp_detail_mul_dd(pq, z), 0x1.99999ap-3f, -0x1.99999ap-29f); /* 1/5 */
  pq = cp_detail_add_const(cp_detail_mul_dd(pq, z), 0x1.555556p-2f, -0x1.555556p-27f); /* 1/3 */
  cp_float u = cp_detail_mul_dd(s, cp_detail_mul_dd(z, pq)); /* s z Q */
  cp_float a = cp_two_sum(th, u.v);
  cp_float b = cp_two_sum(sl, a.e);
  cp_float c = cp_fast_two_sum(a.v, b.v);
  cp_float t = cp_two_sum(c.e, cp_fadd_rn(cp_fadd_rn(b.e, u.e), s3));
  cp_detail_exp_f3 l;
  l.a = cp_fmul_rn(c.v, 2.0f);
  l.b = cp_fmul_rn(t.v, 2.0f);
  l.c = cp_fmul_rn(t.e, 2.0f);
  return l;
}

/* x^y for a positive finite pair x and a finite pair y (no special values; callers settle):
 * t = y log x with x = 2^m f: y m = a + b exactly (TwoProds of y.v m and y.e m), j its
 * nearest integer, (y m - j) ln 2 as a pair (DWTimesDW3, |.| <= 0.35); y log f from the
 * three floats of log f (TwoProds of the leading products, the u^2-size ones in float),
 * reduced by k ln 2 (k = rint(y.v F1 / ln 2), ln 2 in three parts, the leading difference
 * exact as in exp), the middle terms summed by TwoSums: r = t - (j + k) ln 2 as a pair,
 * |r| <= 0.7, with an absolute error near 2^-50 whatever |t|. Then exp(r) (math.cuh) times
 * 2^(j + k); t beyond [-105, 90] (overflow, underflow) settled from a float estimate. */
CP_FUNC cp_float cp_detail_exp_pow_ff(cp_float x, cp_float y)
{
  int m;
  cp_detail_exp_f3 l = cp_detail_exp_log3(cp_detail_log_split(x, &m));
  float mf = (float)m;
  float t0 = cp_fmul_rn(y.v, cp_fma_rn(mf, CP_DETAIL_EXP_LN2_H, l.a));
  if (t0 > 90.0f) return cp_make_float(INFINITY, 0.0f);
  if (t0 < -105.0f) return cp_make_float(0.0f, 0.0f);
  cp_float a = cp_two_prod(y.v, mf), b = cp_two_prod(y.e, mf); /* y m, |y m| < 304 */
  float jf = rintf(a.v);
  cp_float d1 = cp_two_sum(cp_fsub_rn(a.v, jf), a.e); /* a.v - j exact */
  cp_float d2 = cp_two_sum(d1.v, b.v);
  cp_float dm = cp_two_sum(d2.v, cp_fadd_rn(cp_fadd_rn(d1.e, d2.e), b.e));
  cp_float rd = cp_detail_mul_dd(dm, cp_make_float(CP_DETAIL_EXP_LN2_H, CP_DETAIL_EXP_LN2_L));
  cp_float p1 = cp_two_prod(y.v, l.a), p2 = cp_two_prod(y.v, l.b), e1 = cp_two_prod(y.e, l.a);
  float small = cp_fma_rn(y.v, l.c, cp_fmul_rn(y.e, l.b));
  float kf = rintf(cp_fmul_rn(p1.v, CP_DETAIL_LOG2E));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_LN2_1, p1.v); /* exact, as in exp */
  cp_float q = cp_two_prod(kf, CP_DETAIL_LN2_2);
  cp_float s1 = cp_two_sum(t1, -q.v);
  cp_float s2 = cp_two_sum(s1.v, p1.e);
  cp_float s3 = cp_two_sum(s2.v, p2.v);
  cp_float s4 = cp_two_sum(s3.v, e1.v);
  float lo = cp_fadd_rn(cp_fadd_rn(s1.e, s2.e), cp_fadd_rn(s3.e, s4.e));
  lo = cp_fadd_rn(lo, cp_fsub_rn(cp_fadd_rn(p2.e, e1.e), q.e));
  lo = cp_fadd_rn(lo, cp_fsub_rn(small, cp_fmul_rn(kf, CP_DETAIL_LN2_3)));
  cp_float r = cp_detail_add_dd(rd, cp_two_sum(s4.v, lo));
  int k = (int)jf + (int)kf;
  if (k > 129) return cp_make_float(INFINITY, 0.0f);
  if (k < -152) return cp_make_float(0.0f, 0.0f);
  return cp_detail_scale(cp_detail_exp_ff(r), k);
}

/* Mid pow's log f as three floats, for a normalized pair f with f.v in [sqrt(1/2), sqrt(2)):
 * log f = 2s + s z Q2(z), s = (f - 1)/(f + 1), z = s^2, Q2 math.cuh's mid minimax polynomial
 * (cp_detail_log_atanh_mid, its constants and steps), with no division. f - 1 = (f.v - 1) +
 * f.e (the difference exact), f + 1 = d + de.v + de.e exactly (d = RN(1 + f.v); its error,
 * 0 or an ulp of f.v, and f.e, below half of it, by Fast2Sum). The quotient in three floats:
 * q1 = (f.v - 1)/d faithful (the approximate reciprocal refined by an FMA remainder, as
 * cp_detail_log_quot), the remainder R = f - 1 - q1 (f + 1) as a pair (f.v - 1 - q1 d exact
 * by FMA, plus f.e, minus q1 de.v's TwoProd: two TwoSums), sl = R.v/d to about an ulp (one
 * product with the reciprocal), s3 = (R - sl (f + 1))/(f + 1) in float: s = q1 + sl + s3 to
 * about 2^-60 relative (f - 1 as a normalized pair, or sl may hold most of s next to f = 1).
 * T = s z Q2 (|T| <= 0.0101 |2s|) on s renormalized (Fast2Sum; s3 in its low part) and Q2's
 * degree 3 pair renormalized (math.cuh's mid log leaves it a float plus an unrenormalized
 * product, about 2^-42 of Q2 through the steps' dropped cross terms: too much here): T to
 * about 2^-45, then a = 2 s.v + T.v by Fast2Sum, b = 2 s.e + a.e by TwoSum, c the rest.
 * Measured (2e6 random f, MPFR): 4.5 * 2^-53 (2^-50.8) relative at f next to sqrt(2) or
 * sqrt(1/2), below 2^-56 near f = 1; the high tier's log f: 5.0 * 2^-53. */
CP_FUNC cp_detail_exp_f3 cp_detail_exp_log3_mid(cp_float f)
{
  cp_float n = cp_fast_two_sum(cp_fsub_rn(f.v, 1.0f), f.e); /* f.v - 1 exact */
  float nv = n.v;
  float d = cp_fadd_rn(1.0f, f.v);
  cp_float de = cp_fast_two_sum(cp_fsub_rn(f.v, cp_fsub_rn(d, 1.0f)), f.e); /* d - 1 exact */
  float rc = cp_detail_rcp_approx(d);
  float q0 = cp_fmul_rn(nv, rc);
  float q1 = cp_fma_rn(cp_fma_rn(-q0, d, nv), rc, q0);
  cp_float g = cp_two_prod(q1, de.v);
  cp_float r1 = cp_two_sum(cp_fma_rn(-q1, d, nv), n.e); /* the FMA exact */
  cp_float r2 = cp_two_sum(r1.v, -g.v);
  float rl = cp_fsub_rn(cp_fadd_rn(r1.e, r2.e), cp_fma_rn(q1, de.e, g.e));
  float sl = cp_fmul_rn(r2.v, rc);
  float s3 = cp_fmul_rn(cp_fma_rn(-sl, de.v, cp_fadd_rn(cp_fma_rn(-sl, d, r2.v), rl)), rc);
  s3 = cp_fma_rn(-s3, cp_fmul_rn(de.v, rc), s3); /* over f + 1, not d: sl may be most of s */
  cp_float sp = cp_fast_two_sum(q1, sl); /* sl may reach a few ulp of q1 */
  float se = cp_fadd_rn(sp.e, s3);
  float zh = cp_fmul_rn(sp.v, sp.v);
  cp_float z = cp_make_float(zh, cp_fma_rn(cp_fadd_rn(sp.v, sp.v), se, cp_fma_rn(sp.v, sp.v, -zh)));
  float w = cp_fma_rn(0x1.2f0578p-3f, z.v, 0x1.39a1bep-3f);
  w = cp_fma_rn(w, z.v, 0x1.74663ep-3f);
  cp_float q = cp_fast_two_sum(0x1.c71c52p-3f, cp_fmul_rn(w, z.v));
  q = cp_detail_log_step(z, q, 0x1.24924ap-2f, -0x1.7b2058p-27f);
  q = cp_detail_log_step(z, q, 0x1.99999ap-2f, -0x1.9a0a9cp-28f);
  q = cp_detail_log_step(z, q, 0x1.555556p-1f, -0x1.55554ap-26f);
  cp_float p = cp_two_prod(sp.v, z.v); /* s z */
  p.e = cp_fma_rn(sp.v, z.e, cp_fma_rn(se, z.v, p.e));
  cp_float t = cp_two_prod(p.v, q.v); /* s z Q2 */
  t.e = cp_fma_rn(p.v, q.e, cp_fma_rn(p.e, q.v, t.e));
  cp_float a = cp_fast_two_sum(cp_fadd_rn(sp.v, sp.v), t.v);
  cp_float b = cp_two_sum(cp_fadd_rn(sp.e, sp.e), a.e);
  cp_detail_exp_f3 l;
  l.a = a.v;
  l.b = b.v;
  l.c = cp_fadd_rn(cp_fma_rn(s3, 2.0f, b.e), t.e);
  return l;
}

/* ln 2 = P1 + P2 + P3 + O(2^-61.9) for mid pow (python3 decimal at 80 digits, each part the
 * rest rounded to 16, 16 and 24 bits): n P1 and n P2 are exact for |n| < 2^8, so that m ln 2
 * and k ln 2 are exact pairs plus n P3, and the two meet exactly where y m = k. */
#define CP_DETAIL_EXP_PLN2_1 0x1.62e4p-1f
#define CP_DETAIL_EXP_PLN2_2 0x1.7f7ep-20f
#define CP_DETAIL_EXP_PLN2_3 -0x1.c610cap-37f

/* Mid pow's x^y, for the arguments of cp_detail_exp_pow_ff. log x = m (P1 + P2) + log f as
 * three floats first (m P1, m P2 exact; a Fast2Sum, two TwoSums, a Fast2Sum), then t = y
 * log x as high's y log f (TwoProds of the leading products, the small ones in float),
 * reduced once by k (P1 + P2) (k = rint(t / ln 2), t - k P1 exact as in exp, k P2 exact),
 * and (y m - k) P3 for the third part: r = t - k ln 2 as a pair, |r| <= 0.347 + 2^-16, to
 * about 2^-50 absolute whatever |t|, exactly 0 where x = 2^m and y m = k; then
 * 2^(r log2 e) 2^k by the mid exp2 core (r log2 e: TwoProd and the cross terms, |.| <=
 * 0.5 + 2^-15). */
CP_FUNC cp_float cp_detail_exp_pow_mid(cp_float x, cp_float y)
{
  int m;
  cp_detail_exp_f3 l = cp_detail_exp_log3_mid(cp_detail_log_split(x, &m));
  float mf = (float)m;
  cp_float h = cp_fast_two_sum(cp_fmul_rn(mf, CP_DETAIL_EXP_PLN2_1), l.a); /* |m P1| > |log f| or m = 0 */
  cp_float u1 = cp_two_sum(cp_fmul_rn(mf, CP_DETAIL_EXP_PLN2_2), l.b);
  cp_float u2 = cp_two_sum(u1.v, h.e);
  cp_float lx = cp_fast_two_sum(h.v, u2.v);
  float lc = cp_fadd_rn(cp_fadd_rn(u1.e, u2.e), l.c);
  cp_float p1 = cp_two_prod(y.v, lx.v);
  if (p1.v > 90.0f) return cp_make_float(INFINITY, 0.0f);
  if (p1.v < -105.0f) return cp_make_float(0.0f, 0.0f);
  cp_float p2 = cp_two_prod(y.v, lx.e), e1 = cp_two_prod(y.e, lx.v);
  float kf = rintf(cp_fmul_rn(p1.v, CP_DETAIL_LOG2E));
  float small = cp_fma_rn(y.v, lc, cp_fma_rn(y.e, lx.e, cp_fmul_rn(cp_fma_rn(y.v, mf, -kf), CP_DETAIL_EXP_PLN2_3)));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_EXP_PLN2_1, p1.v); /* exact, as in exp */
  cp_float s1 = cp_two_sum(t1, -cp_fmul_rn(kf, CP_DETAIL_EXP_PLN2_2));
  cp_float s2 = cp_two_sum(s1.v, p1.e);
  cp_float s3 = cp_two_sum(s2.v, p2.v);
  cp_float s4 = cp_two_sum(s3.v, e1.v);
  float lo = cp_fadd_rn(cp_fadd_rn(s1.e, s2.e), cp_fadd_rn(s3.e, s4.e));
  lo = cp_fadd_rn(lo, cp_fadd_rn(cp_fadd_rn(p2.e, e1.e), small));
  cp_float r = cp_two_sum(s4.v, lo);
  cp_float r2 = cp_two_prod(r.v, CP_DETAIL_EXP_LOG2E_H);
  r2.e = cp_fma_rn(r.v, CP_DETAIL_EXP_LOG2E_L, cp_fma_rn(r.e, CP_DETAIL_EXP_LOG2E_H, r2.e));
  return cp_detail_exp_exp2_core(r2, (int)kf, 1);
}

/* Whether a float is an integer; odd (for an integer: its half is not an integer; |v| >=
 * 2^24 is even). */
CP_FUNC int cp_detail_exp_is_int(float v) { return rintf(v) == v; }
CP_FUNC int cp_detail_exp_is_odd(float v) { float h = cp_fmul_rn(v, 0.5f); return rintf(h) != h; }

/* pow in the high (mid = 0) or mid tier: powf's special cases (module comment), |x|^y by
 * the algorithms above, the sign of a negative x with an odd integer y (the pair's value is
 * an integer when both halves are: a normalized e is below half an ulp of v). */
CP_FUNC cp_float cp_detail_exp_pow_tier(cp_float x, cp_float y, int mid)
{
  cp_float z;
  float ax = fabsf(x.v);
  if (y.v == 0.0f || (x.v == 1.0f && x.e == 0.0f)) z = cp_make_float(1.0f, 0.0f);
  else if (!(ax > 0.0f && ax <= FLT_MAX && fabsf(y.v) <= FLT_MAX)) z = cp_make_float(powf(x.v, y.v), 0.0f);
  else if (x.v < 0.0f && !(cp_detail_exp_is_int(y.v) && cp_detail_exp_is_int(y.e))) z = cp_make_float(NAN, 0.0f);
  else {
    cp_float a = x.v < 0.0f ? cp_neg(x) : x;
    z = mid ? cp_detail_exp_pow_mid(a, y) : cp_detail_exp_pow_ff(a, y);
    if (x.v < 0.0f && cp_detail_exp_is_odd(y.v) != cp_detail_exp_is_odd(y.e)) z = cp_neg(z);
  }
  CP_DETAIL_SETTLE(z, powf(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* pow, high and mid tiers. Measured: 8.35 and 9.99 u^2 for |y log x| <= 103, growing with
 * |y log x| (module comment). */
CP_FUNC cp_float cp_high_pow(cp_float x, cp_float y) { return cp_detail_exp_pow_tier(x, y, 0); }

/* mid tiers: exp2 and pow by the algorithms above; exp10 and expm1 the high tiers'
 * algorithms (no cheaper one at this accuracy yet). */
CP_FUNC cp_float cp_mid_exp2(cp_float x) { return cp_detail_exp_exp2_tier(x, 1); }
CP_FUNC cp_float cp_mid_exp10(cp_float x) { return cp_high_exp10(x); }
CP_FUNC cp_float cp_mid_expm1(cp_float x) { return cp_high_expm1(x); }
CP_FUNC cp_float cp_mid_pow(cp_float x, cp_float y) { return cp_detail_exp_pow_tier(x, y, 1); }

/* ---- low tiers: {f(v), f'(v) e}; e = 0 where f(v) is not finite ---- */
CP_FUNC cp_float cp_low_exp2(cp_float x)
{
  float y = exp2f(x.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fmul_rn(y, cp_fmul_rn(x.e, CP_DETAIL_EXP_LN2_H)) : 0.0f);
}

CP_FUNC cp_float cp_low_exp10(cp_float x)
{
  float y = CP_DETAIL_EXP_EXP10F(x.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fmul_rn(y, cp_fmul_rn(x.e, CP_DETAIL_EXP_LN10_H)) : 0.0f);
}

CP_FUNC cp_float cp_low_expm1(cp_float x)
{
  float y = expm1f(x.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fma_rn(y, x.e, x.e) : 0.0f); /* exp(v) e */
}

/* log2, log10, log1p on the normalized pair (a fast-family pair may hold its value in e) */
CP_FUNC cp_float cp_low_log2(cp_float x)
{
  cp_float n = cp_normalize(x);
  float y = log2f(n.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fmul_rn(cp_fdiv_rn(n.e, n.v), CP_DETAIL_EXP_LOG2E_H) : 0.0f);
}

CP_FUNC cp_float cp_low_log10(cp_float x)
{
  cp_float n = cp_normalize(x);
  float y = log10f(n.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fmul_rn(cp_fdiv_rn(n.e, n.v), CP_DETAIL_EXP_LOG10E_H) : 0.0f);
}

CP_FUNC cp_float cp_low_log1p(cp_float x)
{
  cp_float n = cp_normalize(x);
  if (n.v < -0.5f) return cp_low_log(cp_make_float(cp_fadd_rn(1.0f, n.v), n.e)); /* 1 + v exact */
  float y = log1pf(n.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fdiv_rn(n.e, cp_fadd_rn(1.0f, n.v)) : 0.0f);
}

/* pow: {p, p expm1(d)}, p = powf(xv, yv), d = ye log|xv| + yv xe/xv the first-order change
 * of t = y log x (its second order, yv (xe/xv)^2/2, is below 2^-40 for |t| <= 104; d itself
 * reaches 2^-7 for y near 2^18, where p d alone would miss d^2/2); e = 0 where the result
 * is exact or special (y = 0, x = 1, infinite y, a zero or infinite result). */
CP_FUNC cp_float cp_low_pow(cp_float x, cp_float y)
{
  cp_float nx = cp_normalize(x), ny = cp_normalize(y);
  float p = powf(nx.v, ny.v);
  if (!cp_detail_finitef(p) || p == 0.0f || ny.v == 0.0f || !cp_detail_finitef(ny.v) ||
      (nx.v == 1.0f && nx.e == 0.0f))
    return cp_make_float(p, 0.0f);
  float d = cp_fma_rn(ny.e, logf(fabsf(nx.v)), cp_fmul_rn(ny.v, cp_fdiv_rn(nx.e, nx.v)));
  return cp_make_float(p, cp_fmul_rn(p, expm1f(d)));
}

/* ---- the generic names: the tier of the family CP_ALGO selects ---- */
#if CP_ALGO == CP_ALGO_FAST
#define CP_DETAIL_EXP_GENERIC(f) CP_FUNC cp_float cp_##f(cp_float x) { return cp_low_##f(x); }
CP_FUNC cp_float cp_pow(cp_float x, cp_float y) { return cp_low_pow(x, y); }
#elif CP_ALGO == CP_ALGO_MID
#define CP_DETAIL_EXP_GENERIC(f) CP_FUNC cp_float cp_##f(cp_float x) { return cp_mid_##f(x); }
CP_FUNC cp_float cp_pow(cp_float x, cp_float y) { return cp_mid_pow(x, y); }
#elif CP_ALGO == CP_ALGO_PAPER /* unnormalized pairs: normalized first (exact) */
#define CP_DETAIL_EXP_GENERIC(f) CP_FUNC cp_float cp_##f(cp_float x) { return cp_high_##f(cp_normalize(x)); }
CP_FUNC cp_float cp_pow(cp_float x, cp_float y) { return cp_high_pow(cp_normalize(x), cp_normalize(y)); }
#else
#define CP_DETAIL_EXP_GENERIC(f) CP_FUNC cp_float cp_##f(cp_float x) { return cp_high_##f(x); }
CP_FUNC cp_float cp_pow(cp_float x, cp_float y) { return cp_high_pow(x, y); }
#endif
CP_DETAIL_EXP_GENERIC(exp2)
CP_DETAIL_EXP_GENERIC(exp10)
CP_DETAIL_EXP_GENERIC(expm1)
CP_DETAIL_EXP_GENERIC(log2)
CP_DETAIL_EXP_GENERIC(log10)
CP_DETAIL_EXP_GENERIC(log1p)
#undef CP_DETAIL_EXP_GENERIC

#else /* CP_BACKEND_IS_DP: the double function, every tier (about 2^-52 relative) */

#define CP_DETAIL_EXP_DP(f, expr)                                                             \
  CP_FUNC cp_float cp_##f(cp_float x) { return cp_detail_dp(expr); }                         \
  CP_FUNC cp_float cp_low_##f(cp_float x) { return cp_##f(x); }                              \
  CP_FUNC cp_float cp_mid_##f(cp_float x) { return cp_##f(x); }                              \
  CP_FUNC cp_float cp_high_##f(cp_float x) { return cp_##f(x); }
CP_DETAIL_EXP_DP(exp2, exp2(x.d))
CP_DETAIL_EXP_DP(exp10, CP_DETAIL_EXP_EXP10(x.d))
CP_DETAIL_EXP_DP(expm1, expm1(x.d))
CP_DETAIL_EXP_DP(log2, log2(x.d))
CP_DETAIL_EXP_DP(log10, log10(x.d))
CP_DETAIL_EXP_DP(log1p, log1p(x.d))
#undef CP_DETAIL_EXP_DP
CP_FUNC cp_float cp_pow(cp_float x, cp_float y) { return cp_detail_dp(pow(x.d, y.d)); }
CP_FUNC cp_float cp_low_pow(cp_float x, cp_float y) { return cp_pow(x, y); }
CP_FUNC cp_float cp_mid_pow(cp_float x, cp_float y) { return cp_pow(x, y); }
CP_FUNC cp_float cp_high_pow(cp_float x, cp_float y) { return cp_pow(x, y); }

#endif /* CP_BACKEND_IS_DP */

/* ---- cp_double: the double function plus the first-order propagation of lo ----
 * Not double-double accuracy: about 2^-52 relative (the double function's), lo carried to
 * first order (as cp_dd_exp). Kernels written in double only. */
#define CP_DETAIL_EXP_DD(f, fn, deriv)                                                        \
  CP_FUNC cp_double cp_dd_##f(cp_double x)                                                    \
  {                                                                                           \
    double y = fn(x.hi);                                                                      \
    if (!cp_detail_finite(y) || y == 0.0 || x.lo == 0.0) return cp_make_double(y, 0.0);       \
    return cp_dd_two_sum(y, cp_dmul_rn(deriv, x.lo));                                         \
  }
CP_DETAIL_EXP_DD(exp2, exp2, cp_dmul_rn(y, 0x1.62e42fefa39efp-1))
CP_DETAIL_EXP_DD(exp10, CP_DETAIL_EXP_EXP10, cp_dmul_rn(y, 0x1.26bb1bbb55516p+1))
CP_DETAIL_EXP_DD(expm1, expm1, cp_dadd_rn(1.0, y))
CP_DETAIL_EXP_DD(log2, log2, cp_ddiv_rn(0x1.71547652b82fep+0, x.hi))
CP_DETAIL_EXP_DD(log10, log10, cp_ddiv_rn(0x1.bcb7b1526e50ep-2, x.hi))
CP_DETAIL_EXP_DD(log1p, log1p, cp_ddiv_rn(1.0, cp_dadd_rn(1.0, x.hi)))
#undef CP_DETAIL_EXP_DD

CP_FUNC cp_double cp_dd_pow(cp_double x, cp_double y)
{
  double p = pow(x.hi, y.hi);
  if (!cp_detail_finite(p) || p == 0.0 || y.hi == 0.0 || !cp_detail_finite(y.hi) ||
      (x.lo == 0.0 && y.lo == 0.0))
    return cp_make_double(p, 0.0);
  double d = cp_dfma_rn(y.lo, log(fabs(x.hi)), cp_dmul_rn(y.hi, cp_ddiv_rn(x.lo, x.hi)));
  return cp_dd_two_sum(p, cp_dmul_rn(p, d));
}

#endif /* CP_MATH_EXP_CUH */
