/* cp/math.cuh - composite math functions: exp and log, in three tiers, for both backends.
 *
 * Names, as for the arithmetic (cp.cuh, tiers.cuh):
 *   cp_low_exp, cp_mid_exp, cp_high_exp   the tiers by name (cpconvert --accuracy, the
 *   cp_low_log, cp_mid_log, cp_high_log   pragma's accuracy clause)
 *   cp_exp, cp_log                        the tier of the family CP_ALGO selects: fast ->
 *                                         low, mid -> mid, accurate -> high; paper -> high
 *                                         on the normalized pair
 *   cp_dd_exp, cp_dd_log                  cp_double (kernels written in double)
 *
 * Tiers (ff backend; no FP64 instruction, tests/fp64 checks converted code):
 *   high, mid  float-float algorithms on normalized pairs, accurate to about 2^-47 (high)
 *              and 2^-46 (mid exp) or 2^-45 (mid log) relative (measured bounds below and in
 *              docs/runtime.md). mid exp evaluates two more of its polynomial's terms in
 *              float; mid log has no division (an approximate reciprocal refined by FMA
 *              remainders), a minimax polynomial with three cheaper float-float steps and
 *              Fast2Sum-based sums.
 *   low        the float function's value plus the first-order propagation of the error
 *              half: {f(v), f'(v) e}. The float function's own rounding (about an ulp) stays
 *              in the result: what low keeps is the error term carried through the call, so
 *              a chain of operations keeps its pairs. Accepts unnormalized pairs (fast family).
 * Under the dp backend every tier is the double function on the double (about 2^-52);
 * the pair that cp_store writes adds the split's 2^-49.
 *
 * Special values as the float functions give them: exp(NaN) = NaN, exp(+inf) = +inf,
 * exp(-inf) = +0, overflow (x > 88.72) to +inf, underflow to subnormals and +0 (x < -103.97);
 * log(NaN) = NaN, log(x < 0) = NaN, log(+-0) = -inf, log(+inf) = +inf, log(1) = +0. The
 * error half of such a result is 0. Results in the subnormal range carry an absolute error of
 * about 2^-150 (the error half cannot hold less), so relative bounds hold for results above
 * 2^-100 (exp of x >= -69.3).
 *
 * Measured bounds (tests/runtime/check_math.c, MPFR at 200 bits, u = 2^-24, so u^2 = 2^-48;
 * 100000 random normalized pairs per function and tier plus edge cases): relative error of
 * the pair's value v + e against the exact function of the input's value v + e, plus 2^-149
 * absolute (a subnormal ulp) for results below 2^-126:
 *   high exp      x in [-104, 89]   max 1.92 u^2, asserted 3 u^2    (about 2^-47)
 *   mid exp       x in [-104, 89]   max 3.33 u^2, asserted 5 u^2    (about 2^-46.3)
 *   high log      x in (0, inf)     max 5.40 u^2, asserted 7 u^2    (about 2^-45.6)
 *   mid log       x in (0, inf)     max 6.72 u^2, asserted 11 u^2   (about 2^-45.3; 9.05 u^2
 *                                   over 3e6 reduced arguments f of a wider sweep)
 *   low exp, log                    the float function's error plus O(e^2): max 1.0 u (exp)
 *                                   and 1.17 u (log) on glibc, asserted 2^-22 relative
 * No proof: the bounds are measured maxima with a margin.
 */
#ifndef CP_MATH_CUH
#define CP_MATH_CUH

#include "float_mid.cuh"
#include "double.cuh"
#include "bits.cuh"

#if !CP_BACKEND_IS_DP

/* ---- constants ---- */

/* ln 2 = C1 + C2 + C3 + O(2^-69): C1 has 15 significant bits, so k * C1 is exact for
 * |k| < 2^9; C2 and C3 are the next 24 bits each (Cody and Waite's reduction, in three
 * parts because k reaches 150 and the reduced argument must be exact to about 2^-55). */
#define CP_DETAIL_LN2_1 0x1.62e4p-1f
#define CP_DETAIL_LN2_2 0x1.7f7d1cp-20f
#define CP_DETAIL_LN2_3 0x1.ef357ap-45f
#define CP_DETAIL_LOG2E 0x1.715476p+0f

/* 2^k for k in [-126, 127], from its bits. */
CP_FUNC float cp_detail_pow2f(int k) { return cp_detail_ffrom((unsigned int)(k + 127) << 23); }

/* ---- building blocks without the special-value check (their callers settle once) ---- */

/* t + {ch, cl}, for a constant {ch, cl} with |ch| >= |t.v| and a pair t whose error half is
 * at most a few ulp of its value (normalization not needed): Fast2Sum of the highs, the lows
 * added, Fast2Sum. Error about 2u^2 |ch + t| where no cancellation (ch and t of one sign or
 * |t| <= |ch|/2, as in every polynomial step here). */
CP_FUNC cp_float cp_detail_add_const(cp_float t, float ch, float cl)
{
  cp_float s = cp_fast_two_sum(ch, t.v);
  float lo = cp_fadd_rn(cp_fadd_rn(s.e, t.e), cl);
  return cp_fast_two_sum(s.v, lo);
}

/* p * f, p a pair, f a float: DWTimesFP3 (JMP17 Alg. 9) without the final Fast2Sum (the
 * next cp_detail_add_const renormalizes). */
CP_FUNC cp_float cp_detail_mul_f(cp_float p, float f)
{
  cp_float c = cp_two_prod(p.v, f);
  return cp_make_float(c.v, cp_fma_rn(p.e, f, c.e));
}

/* DWTimesDW3 (JMP17 Alg. 12): 4u^2 (Muller and Rideau 2022). */
CP_FUNC cp_float cp_detail_mul_dd(cp_float x, cp_float y)
{
  cp_float c = cp_two_prod(x.v, y.v);
  float t = cp_fma_rn(x.v, y.e, cp_fmul_rn(x.e, y.e));
  t = cp_fma_rn(x.e, y.v, t);
  return cp_fast_two_sum(c.v, cp_fadd_rn(c.e, t));
}

/* AccurateDWPlusDW (JMP17 Alg. 6): 3u^2/(1 - 4u). */
CP_FUNC cp_float cp_detail_add_dd(cp_float x, cp_float y)
{
  cp_float s = cp_two_sum(x.v, y.v), t = cp_two_sum(x.e, y.e);
  cp_float v = cp_fast_two_sum(s.v, cp_fadd_rn(s.e, t.v));
  return cp_fast_two_sum(v.v, cp_fadd_rn(t.e, v.e));
}

/* z * 2^k, k in [-152, 129], both halves scaled in two exact steps (each factor a normal
 * float): exact unless a half leaves the normal range; then renormalized (Fast2Sum, exact).
 * An infinite value half gets a zero error half. */
CP_FUNC cp_float cp_detail_scale(cp_float z, int k)
{
  int k1 = k / 2;
  float a = cp_detail_pow2f(k1), b = cp_detail_pow2f(k - k1);
  float v = cp_fmul_rn(cp_fmul_rn(z.v, a), b);
  float e = cp_fmul_rn(cp_fmul_rn(z.e, a), b);
  if (!cp_detail_finitef(v)) return cp_make_float(v, 0.0f);
  return cp_fast_two_sum(v, e); /* renormalized where e was rounded (v below 2^-125) */
}

/* ---- exp ---- */

/* (exp(rh) - 1)/rh for |rh| <= 0.347, as a pair: the Taylor polynomial of exp of degree 12
 * (truncation 2^-51.9 there) less its constant term, over rh. The terms of degree 9 to 12
 * (below 2^-31 relative) by float Horner, in the mid tier (mid = 1) those of degree 8 and 7
 * as well (their float error below 2^-45 of exp(rh)); the rest by float-float Horner steps
 * (a pair times the float rh, plus the coefficient 1/j! as a pair, every step renormalized).
 * exp (below) and expm1 (math_exp.cuh) take it on. */
CP_FUNC cp_float cp_detail_exp_taylor_q(float rh, int mid)
{
  float q = 0x1.1eed8ep-29f; /* 1/12! */
  q = cp_fma_rn(q, rh, 0x1.ae6456p-26f); /* 1/11! */
  q = cp_fma_rn(q, rh, 0x1.27e4fcp-22f); /* 1/10! */
  q = cp_fma_rn(q, rh, 0x1.71de3ap-19f); /* 1/9! */
  if (mid) {
    q = cp_fma_rn(q, rh, 0x1.a01a02p-16f);
    q = cp_fma_rn(q, rh, 0x1.a01a02p-13f);
  }
  cp_float e = cp_make_float(q, 0.0f);
  if (!mid) {
    e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.a01a02p-16f, -0x1.7f97fap-42f); /* 1/8! */
    e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.a01a02p-13f, -0x1.7f97fap-39f); /* 1/7! */
  }
  e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.6c16c2p-10f, -0x1.27d27ep-35f); /* 1/6! */
  e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.111112p-7f, -0x1.dddddep-32f); /* 1/5! */
  e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.555556p-5f, -0x1.555556p-30f);  /* 1/4! */
  e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0x1.555556p-3f, -0x1.555556p-28f);  /* 1/3! */
  e = cp_detail_add_const(cp_detail_mul_f(e, rh), 0.5f, 0.0f);
  return cp_detail_add_const(cp_detail_mul_f(e, rh), 1.0f, 0.0f);
}

/* exp(rh + rl) for |rh| <= 0.347, |rl| <= 2^-24 |rh|, not scaled: 1 + rh q (q above), then
 * exp(rh)(1 + rl), to 2^-57, by one FMA. */
CP_FUNC cp_float cp_detail_exp_poly(cp_float r, int mid)
{
  cp_float e = cp_detail_add_const(cp_detail_mul_f(cp_detail_exp_taylor_q(r.v, mid), r.v), 1.0f, 0.0f);
  return cp_fast_two_sum(e.v, cp_fma_rn(e.v, r.e, e.e)); /* times 1 + rl */
}

/* exp(x) for a pair with -104 <= x.v <= 89 (the callers take the rest).
 * Range reduction (Cody-Waite): k = rint(x.v / ln 2), r = x - k ln 2 with ln 2 in three
 * floats: x.v - k C1 is exact (k C1 has 23 bits and Sterbenz's lemma holds), k C2 is exact
 * by TwoProd, the small terms are summed in float: |r| <= ln2/2 + 2^-16, r = rh + rl with an
 * absolute error below 2^-50. exp(r) by its Taylor polynomial (cp_detail_exp_poly). Then 2^k,
 * in two exact scalings (k reaches 128 and -150). */
CP_FUNC cp_float cp_detail_exp_ff_tier(cp_float x, int mid)
{
  float kf = rintf(cp_fmul_rn(x.v, CP_DETAIL_LOG2E));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_LN2_1, x.v); /* exact */
  cp_float p = cp_two_prod(kf, CP_DETAIL_LN2_2);   /* k C2, exact */
  cp_float s = cp_two_sum(t1, -p.v);
  cp_float w = cp_two_sum(s.v, x.e);
  float lo = cp_fsub_rn(cp_fsub_rn(cp_fadd_rn(w.e, s.e), p.e), cp_fmul_rn(kf, CP_DETAIL_LN2_3));
  return cp_detail_scale(cp_detail_exp_poly(cp_two_sum(w.v, lo), mid), (int)kf);
}

/* The high tier's exp(x) (the other functions build on it). */
CP_FUNC cp_float cp_detail_exp_ff(cp_float x) { return cp_detail_exp_ff_tier(x, 0); }

/* exp in the high (mid = 0) or mid tier, special values settled. */
CP_FUNC cp_float cp_detail_exp_tier(cp_float x, int mid)
{
  cp_float z;
  if (x.v != x.v) z = cp_make_float(x.v, 0.0f);
  else if (x.v > 89.0f) z = cp_make_float(INFINITY, 0.0f);
  else if (x.v < -104.0f) z = cp_make_float(0.0f, 0.0f);
  else z = cp_detail_exp_ff_tier(x, mid);
  CP_DETAIL_SETTLE(z, expf(cp_to_float(x)));
  return z;
}

/* exp, high tier: the algorithm above on a normalized pair (an error half of a few ulp is
 * also fine). Measured: 1.92 u^2 relative (module comment). */
CP_FUNC cp_float cp_high_exp(cp_float x) { return cp_detail_exp_tier(x, 0); }

/* exp, mid tier: the same with the polynomial's degrees 7 and 8 in float (two float-float
 * Horner steps fewer), about 2^-45 (module comment). */
CP_FUNC cp_float cp_mid_exp(cp_float x) { return cp_detail_exp_tier(x, 1); }

/* exp, low tier: {expf(v), expf(v) e}, the first-order propagation of e (relative error
 * expf's own plus e^2/2); e = 0 where expf(v) is not finite. Overflows where expf(v) does,
 * also where v + e is just below the threshold (88.7228) and exp(v + e) is not. */
CP_FUNC cp_float cp_low_exp(cp_float x)
{
  float y = expf(x.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fmul_rn(y, x.e) : 0.0f);
}

/* ---- log ---- */

/* m c as a pair, for a constant c = c1 + c2 + c3 in three floats whose first has few enough
 * bits that m c1 is exact (|m| < 2^9): m c2 by TwoProd, the small terms in float. */
CP_FUNC cp_float cp_detail_times_3(int m, float c1, float c2, float c3)
{
  float mf = (float)m;
  cp_float pm = cp_two_prod(mf, c2);
  cp_float hm = cp_two_sum(cp_fmul_rn(mf, c1), pm.v); /* m c1 exact */
  float ml = cp_fadd_rn(cp_fadd_rn(hm.e, pm.e), cp_fmul_rn(mf, c3));
  return cp_fast_two_sum(hm.v, ml);
}

/* x = 2^m f for a normalized pair with 0 < x.v < inf: f.v in [sqrt(1/2), sqrt(2)) from the
 * bits (subnormals scaled by 2^24 first), both halves scaled exactly. */
CP_FUNC cp_float cp_detail_log_split(cp_float x, int *m)
{
  float v = x.v, xe = x.e;
  int mm = 0;
  if (v < 0x1p-126f) { /* subnormal: exact scaling (its error half is 0 or tiny) */
    v = cp_fmul_rn(v, 0x1p24f);
    xe = cp_fmul_rn(xe, 0x1p24f);
    mm = -24;
  }
  unsigned int b = cp_detail_fbits(v);
  int ex = (int)((b >> 23) & 0xffu) - 127;
  unsigned int fb = (b & 0x007fffffu) | 0x3f800000u;
  if (fb >= 0x3fb504f3u) { /* f >= sqrt(2): f/2 */
    fb -= 0x00800000u;
    ex += 1;
  }
  *m = mm + ex;
  int h = ex / 2;
  return cp_make_float(cp_detail_ffrom(fb), cp_fmul_rn(cp_fmul_rn(xe, cp_detail_pow2f(-h)), cp_detail_pow2f(h - ex)));
}

/* 2 atanh(num/den) for pairs with |num/den| <= 0.1716 and |num.v| >= 2^-100 (log's core, and
 * log1p's). The quotient s is the float quotient th plus the remainder num - th den (th den.v
 * by TwoProd, num.v - th den.v exact by Sterbenz, the small terms in float) divided by den.v:
 * about 2u^2, against DWDivDW2's 4.7u^2 measured here. With z = s^2: 2 atanh(s) = 2s (1 +
 * z Q(z)), Q(z) = sum_j z^j/(2j + 3), truncated after z^9 (2^-54 relative); Q's terms from
 * z^4 on by float Horner, the last four steps in float-float (DWTimesDW3, pair constants). */
CP_FUNC cp_float cp_detail_atanh2(cp_float num, cp_float den)
{
  float th = cp_fdiv_rn(num.v, den.v);
  cp_float pr = cp_two_prod(th, den.v);
  float rem = cp_fadd_rn(cp_fsub_rn(cp_fsub_rn(num.v, pr.v), pr.e), num.e); /* first - exact */
  rem = cp_fma_rn(-th, den.e, rem);
  cp_float s = cp_fast_two_sum(th, cp_fdiv_rn(rem, den.v));
  cp_float zc = cp_two_prod(s.v, s.v);
  cp_float z = cp_fast_two_sum(zc.v, cp_fma_rn(cp_fadd_rn(s.v, s.v), s.e, zc.e));
  float q = 0x1.861862p-5f;              /* 1/21 */
  q = cp_fma_rn(q, z.v, 0x1.af286cp-5f); /* 1/19 */
  q = cp_fma_rn(q, z.v, 0x1.e1e1e2p-5f); /* 1/17 */
  q = cp_fma_rn(q, z.v, 0x1.111112p-4f); /* 1/15 */
  q = cp_fma_rn(q, z.v, 0x1.3b13b2p-4f); /* 1/13 */
  q = cp_fma_rn(q, z.v, 0x1.745d18p-4f); /* 1/11 */
  cp_float p = cp_make_float(q, 0.0f);
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.c71c72p-4f, -0x1.c71c72p-31f); /* 1/9 */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.24924ap-3f, -0x1.b6db6ep-28f); /* 1/7 */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.99999ap-3f, -0x1.99999ap-29f); /* 1/5 */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.555556p-2f, -0x1.555556p-27f); /* 1/3 */
  cp_float l = cp_detail_add_dd(s, cp_detail_mul_dd(s, cp_detail_mul_dd(z, p))); /* s + s z Q */
  return cp_make_float(cp_fmul_rn(l.v, 2.0f), cp_fmul_rn(l.e, 2.0f)); /* exact */
}

/* log(x) for a normalized pair with 0 < x.v < inf: x = 2^m f (cp_detail_log_split), log f =
 * 2 atanh(s) with s = (f - 1)/(f + 1), |s| <= 0.1716 (f.v - 1 is exact by Sterbenz;
 * cp_detail_atanh2). Then y = m ln2 + log f, m ln2 as a pair from the three parts of ln 2
 * (m C1 exact, m C2 by TwoProd) and AccurateDWPlusDW. */
CP_FUNC cp_float cp_detail_log_ff(cp_float x)
{
  int m;
  cp_float f = cp_detail_log_split(x, &m);
  cp_float num = cp_two_sum(cp_fsub_rn(f.v, 1.0f), f.e); /* f.v - 1 exact */
  cp_float d1 = cp_fast_two_sum(1.0f, f.v); /* exact: f.v's exponent is 0 or -1 */
  cp_float l = cp_detail_atanh2(num, cp_fast_two_sum(d1.v, cp_fadd_rn(d1.e, f.e)));
  return cp_detail_add_dd(cp_detail_times_3(m, CP_DETAIL_LN2_1, CP_DETAIL_LN2_2, CP_DETAIL_LN2_3), l);
}

/* ---- log, mid tier: the same reduction, a cheaper quotient and polynomial (about 2^-46) ---- */

/* ln 2 as a pair (python3 decimal, each part rounded to nearest): ln 2 - H - L is 2^-52.8
 * relative. */
#define CP_DETAIL_LN2_H 0x1.62e43p-1f
#define CP_DETAIL_LN2_L -0x1.05c61p-29f

/* A low tier's result: the float value y with the error half d, d dropped where y or d is not
 * finite (math_trig.cuh, math_spec.cuh). */
CP_FUNC cp_float cp_detail_low(float y, float d)
{
  return cp_make_float(y, cp_detail_finitef(y) && cp_detail_finitef(d) ? d : 0.0f);
}

/* The low tiers' error half d beside the float value y of a function whose values lie in [lo,
 * hi]: dropped where y is already on a bound and d points out of the range (erff(v) rounds
 * to 1 and erf' > 0: the pair would exceed 1, which the exact erf(v + e) never does, and a
 * caller's `u >= 0` or `c <= 1` would fail where float's and double's hold). */
CP_FUNC float cp_detail_low_inside(float y, float d, float lo, float hi)
{
  return (y == hi && d > 0.0f) || (y == lo && d < 0.0f) ? 0.0f : d;
}

/* 1/a to about an ulp, for a in [1, 4): the GPU's approximate reciprocal (MUFU.RCP, one
 * instruction, about 1 ulp), the correctly rounded quotient on a host. Its callers refine
 * every quotient they make with it by an FMA remainder, so that either gives their result
 * to within a rounding. */
#if defined(__CUDA_ARCH__)
CP_FUNC float cp_detail_rcp_approx(float a)
{
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
#else
CP_FUNC float cp_detail_rcp_approx(float a) { return cp_fdiv_rn(1.0f, a); }
#endif

/* a/b for floats, the quotient MUFU.RCP gives refined once by its FMA remainder (a - q0 b is
 * exact): within about half an ulp plus 2^-46 relative where b and 1/b are normal (the IEEE
 * division's last bit, not its slow path); b = 0 gives +-inf for a finite nonzero a, and on the
 * GPU |a/b| above 2^126 may give inf (|b| below 2^-126 flushes to 0). The correctly rounded
 * quotient on a host. For the low tiers, whose value needs a few ulp. */
CP_FUNC float cp_detail_fdiv_approx(float a, float b)
{
  float r = cp_detail_rcp_approx(b);
  float q0 = cp_fmul_rn(a, r);
  float q1 = cp_fma_rn(cp_fma_rn(-q0, b, a), r, q0);
  return q1 == q1 ? q1 : q0; /* b = 0: q0 is +-inf, the remainder NaN */
}

/* 1/sqrt(a) to about 2 ulp (MUFU.RSQ on the GPU, inf at 0; 1/sqrtf(a) correctly rounded on a
 * host), for first-order terms, whose factor of an error half needs no more (low asin, acos). */
#if defined(__CUDA_ARCH__)
CP_FUNC float cp_detail_rsqrt_approx(float a)
{
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}
#else
CP_FUNC float cp_detail_rsqrt_approx(float a) { return cp_fdiv_rn(1.0f, sqrtf(a)); }
#endif

/* c + z p for pairs z, p and a constant {ch, cl}, with |z p| <= |ch|/16: z.v p.v by TwoProd,
 * the cross terms and cl in float, the sum's high part by Fast2Sum; the result is not
 * renormalized (its error half may reach a few ulp of its value). Relative error about
 * 2u^2 + 2^-24 |z.e p.e| (the one product dropped): about 2^-46, the polynomial below needs
 * 2^-42 where it uses it. */
CP_FUNC cp_float cp_detail_log_step(cp_float z, cp_float p, float ch, float cl)
{
  cp_float m = cp_two_prod(z.v, p.v);
  float lo = cp_fma_rn(z.v, p.e, cp_fma_rn(z.e, p.v, m.e));
  cp_float s = cp_fast_two_sum(ch, m.v);
  return cp_make_float(s.v, cp_fadd_rn(s.e, cp_fadd_rn(lo, cl)));
}

/* The mid tier's quotient s = num/(d + de) for a normalized pair num and a denominator
 * d + de in [1.7, 2.42] (de a few ulp of d at most, not renormalized), |s| <= 0.1716: r the
 * approximate reciprocal, q0 = num.v r, q1 = q0 + (num.v - q0 d) r (faithful: within half
 * an ulp and 2^-21 ulp of num.v/d, for r within 2^-22 of 1/d), so that num.v - q1 d is exact
 * (FMA; Sterbenz-like: it is a multiple of ulp(q1) ulp(d) below 2^24 of them); that remainder
 * plus num.e - q1 de, over d (the product with r refined once more): s = q1 + sl, |sl| a few
 * ulp of q1 (not renormalized), to about 2^-48 |s| plus sl's rounding. No division. */
CP_FUNC cp_float cp_detail_log_quot(cp_float num, float d, float de)
{
  float r = cp_detail_rcp_approx(d);
  float q0 = cp_fmul_rn(num.v, r);
  float q1 = cp_fma_rn(cp_fma_rn(-q0, d, num.v), r, q0);
  float rem = cp_fma_rn(-q1, de, cp_fadd_rn(cp_fma_rn(-q1, d, num.v), num.e)); /* first FMA exact */
  float sl = cp_fmul_rn(rem, r);
  sl = cp_fma_rn(cp_fma_rn(-sl, d, rem), r, sl);
  return cp_make_float(q1, sl);
}

/* The mid tier's 2 atanh(num/(d + de)) for the arguments of cp_detail_log_quot (log's core,
 * and log1p's), as an unnormalized pair (its error half up to a few ulp). With s = q1 + sl
 * and z = s^2 (a pair: TwoProd of q1 plus 2 q1 sl): 2 atanh(s) = 2s + s z Q2(z), Q2(z) a
 * minimax polynomial of degree 6 for 2 sum_j z^j/(2j + 3) on [0, 0.1716^2], weighted so that
 * its error is log f's relative error (z (Q2 - P)/(2 + z Q2)): 2^-57.7 with the coefficients
 * as stored (Remez in python3 decimal at 60 digits, the degrees 3 to 6 rounded to floats and
 * the pairs of degrees 0 to 2 refitted to them). Needed accuracy: s z Q2 is below 0.0101 of
 * 2s, so Q2 to about 2^-42 relative makes 2^-48.6 of log f. The degrees 3 to 6 by float
 * Horner (their rounding, about 2^-24 of z^3 Q2's tail, is 2^-47.5 of log f at |s| =
 * 0.1716: the largest term of this tier's budget), degree 2 added as a pair by one FMA,
 * degrees 1 and 0 by cp_detail_log_step, s z as a pair (TwoProd and the cross terms), times
 * Q2 the same way; 2 q1 + s z Q2 by Fast2Sum (|s z Q2| <= 0.0101 |2 q1|), the small terms in
 * float. */
CP_FUNC cp_float cp_detail_log_atanh_mid(cp_float num, float d, float de)
{
  cp_float s = cp_detail_log_quot(num, d, de);
  float zh = cp_fmul_rn(s.v, s.v);
  cp_float z = cp_make_float(zh, cp_fma_rn(cp_fadd_rn(s.v, s.v), s.e, cp_fma_rn(s.v, s.v, -zh)));
  float w = cp_fma_rn(0x1.2f0578p-3f, z.v, 0x1.39a1bep-3f);
  w = cp_fma_rn(w, z.v, 0x1.74663ep-3f);
  cp_float q = cp_make_float(0x1.c71c52p-3f, cp_fmul_rn(w, z.v)); /* degree 3 (a float) */
  q = cp_detail_log_step(z, q, 0x1.24924ap-2f, -0x1.7b2058p-27f);
  q = cp_detail_log_step(z, q, 0x1.99999ap-2f, -0x1.9a0a9cp-28f);
  q = cp_detail_log_step(z, q, 0x1.555556p-1f, -0x1.55554ap-26f);
  cp_float p = cp_two_prod(s.v, z.v); /* s z */
  p.e = cp_fma_rn(s.v, z.e, cp_fma_rn(s.e, z.v, p.e));
  cp_float t = cp_two_prod(p.v, q.v); /* s z Q2 */
  t.e = cp_fma_rn(p.v, q.e, cp_fma_rn(p.e, q.v, t.e));
  cp_float a = cp_fast_two_sum(cp_fadd_rn(s.v, s.v), t.v);
  return cp_make_float(a.v, cp_fadd_rn(a.e, cp_fma_rn(s.e, 2.0f, t.e)));
}

/* log(x), mid tier, for a normalized pair with 0 < x.v < inf: x = 2^m f as the high tier's
 * (cp_detail_log_split), log f = 2 atanh((f - 1)/(f + 1)) by cp_detail_log_atanh_mid
 * (cp_detail_log_f_mid, which log2 and log10 share: m and log f unnormalized; f - 1
 * normalized by Fast2Sum: f.v - 1 is exact and a multiple of ulp(f.v) unless 0; f + 1 left as
 * RN(1 + f.v) plus its exact error and f.e), m ln 2 as a pair (TwoProd of m and ln 2's high
 * part, m times its low part in float: 2^-48 of m ln 2), the sum by Fast2Sum (|m ln 2| >= 0.69
 * > |log f| where m != 0), the small terms in float, Fast2Sum. */
CP_FUNC cp_float cp_detail_log_f_mid(cp_float x, int *m)
{
  cp_float f = cp_detail_log_split(x, m);
  float d = cp_fadd_rn(1.0f, f.v);
  float de = cp_fadd_rn(cp_fsub_rn(f.v, cp_fsub_rn(d, 1.0f)), f.e); /* d - 1 exact */
  return cp_detail_log_atanh_mid(cp_fast_two_sum(cp_fsub_rn(f.v, 1.0f), f.e), d, de);
}

CP_FUNC cp_float cp_detail_log_mid(cp_float x)
{
  int m;
  cp_float l = cp_detail_log_f_mid(x, &m);
  float mf = (float)m;
  cp_float ml = cp_two_prod(mf, CP_DETAIL_LN2_H);
  cp_float y = cp_fast_two_sum(ml.v, l.v);
  return cp_fast_two_sum(y.v, cp_fadd_rn(y.e, cp_fadd_rn(cp_fma_rn(mf, CP_DETAIL_LN2_L, ml.e), l.e)));
}

/* log, high tier: the algorithm above on a normalized pair; logf(v) with a zero error half
 * for v <= 0, inf and NaN. Measured: 5.85 u^2 relative (module comment). */
CP_FUNC cp_float cp_high_log(cp_float x)
{
  cp_float z;
  if (x.v > 0.0f && x.v <= FLT_MAX) z = cp_detail_log_ff(x);
  else z = cp_make_float(logf(x.v), 0.0f);
  CP_DETAIL_SETTLE(z, logf(cp_to_float(x)));
  return z;
}

/* log, mid tier: cp_detail_log_mid on a normalized pair, the special values as the high
 * tier's. Measured: 6.72 u^2 relative (module comment). */
CP_FUNC cp_float cp_mid_log(cp_float x)
{
  cp_float z;
  if (x.v > 0.0f && x.v <= FLT_MAX) z = cp_detail_log_mid(x);
  else z = cp_make_float(logf(x.v), 0.0f);
  CP_DETAIL_SETTLE(z, logf(cp_to_float(x)));
  return z;
}

/* log, low tier: {logf(v), e/v} on the normalized pair (a fast-family pair may hold its
 * value in e), the first-order propagation of e; e = 0 where logf(v) is not finite. */
CP_FUNC cp_float cp_low_log(cp_float x)
{
  cp_float n = cp_normalize(x);
  float y = logf(n.v);
  return cp_make_float(y, cp_detail_finitef(y) ? cp_fdiv_rn(n.e, n.v) : 0.0f);
}

/* ---- the generic names: the tier of the family CP_ALGO selects ---- */
#if CP_ALGO == CP_ALGO_FAST
CP_FUNC cp_float cp_exp(cp_float x) { return cp_low_exp(x); }
CP_FUNC cp_float cp_log(cp_float x) { return cp_low_log(x); }
#elif CP_ALGO == CP_ALGO_MID
CP_FUNC cp_float cp_exp(cp_float x) { return cp_mid_exp(x); }
CP_FUNC cp_float cp_log(cp_float x) { return cp_mid_log(x); }
#elif CP_ALGO == CP_ALGO_PAPER /* unnormalized pairs: normalized first (exact) */
CP_FUNC cp_float cp_exp(cp_float x) { return cp_high_exp(cp_normalize(x)); }
CP_FUNC cp_float cp_log(cp_float x) { return cp_high_log(cp_normalize(x)); }
#else
CP_FUNC cp_float cp_exp(cp_float x) { return cp_high_exp(x); }
CP_FUNC cp_float cp_log(cp_float x) { return cp_high_log(x); }
#endif

#else /* CP_BACKEND_IS_DP: the double function, every tier (about 2^-52 relative) */

CP_FUNC cp_float cp_exp(cp_float x) { return cp_detail_dp(exp(x.d)); }
CP_FUNC cp_float cp_log(cp_float x) { return cp_detail_dp(log(x.d)); }
CP_FUNC cp_float cp_low_exp(cp_float x) { return cp_exp(x); }
CP_FUNC cp_float cp_mid_exp(cp_float x) { return cp_exp(x); }
CP_FUNC cp_float cp_high_exp(cp_float x) { return cp_exp(x); }
CP_FUNC cp_float cp_low_log(cp_float x) { return cp_log(x); }
CP_FUNC cp_float cp_mid_log(cp_float x) { return cp_log(x); }
CP_FUNC cp_float cp_high_log(cp_float x) { return cp_log(x); }

#endif /* CP_BACKEND_IS_DP */

/* ---- cp_double: the double function plus the first-order propagation of lo ----
 * Not double-double accuracy: about 2^-52 relative (the double function's), the lo half
 * carried to first order so that a chain keeps its pairs. Kernels written in double only. */
CP_FUNC cp_double cp_dd_exp(cp_double x)
{
  double y = exp(x.hi);
  if (!cp_detail_finite(y) || y == 0.0) return cp_make_double(y, 0.0);
  return cp_dd_fast_two_sum(y, cp_dmul_rn(y, x.lo));
}

CP_FUNC cp_double cp_dd_log(cp_double x)
{
  double y = log(x.hi);
  if (!cp_detail_finite(y)) return cp_make_double(y, 0.0);
  return cp_dd_two_sum(y, cp_ddiv_rn(x.lo, x.hi));
}

#endif /* CP_MATH_CUH */
