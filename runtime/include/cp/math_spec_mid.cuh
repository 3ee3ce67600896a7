/* cp/math_spec_mid.cuh - the mid tiers of erfc, sinh, cosh and tanh (ff backend). erfc: the
 * high tier's algorithm (math_spec.cuh: erfcx(x) exp(-x^2) on [0.5, 10.2), 1 - erf below 0.5,
 * 2 - erfc(-x) for x < 0) with cheaper float-float steps, and the result for negative x from
 * one evaluation of erfc(|x|) (the high tier's two calls become two copies of the code, both
 * executed where a warp holds arguments of both signs). Included by math_spec.cuh where the mid tier is
 * defined (it uses that file's reductions and tables); not a header of its own.
 *
 * The steps (cp_detail_specm_step and _f, in math_spec.cuh beside the high tier's, with
 * cp_detail_spec_step choosing by the tier flag): p h + c (h a float or a pair) as
 * TwoProd(p.v, h.v) plus p.v h.e + p.e h.v by FMA (p.e h.e dropped), Fast2Sum of the
 * constant's high part and the product's, the low parts added in float, not renormalized
 * (8-9 instructions, against 11-16 for the high tier's renormalized DWTimesFP3 or DWTimesDW3
 * plus add). The polynomials are the high tier's (same coefficients; erf's series, erfcx and
 * sinh's series are one function for both tiers, with the flag mid = 1): exp(r) with
 * degrees 12 to 7 in float (two more than high, their float error below 2^-45 of the
 * result, as math.cuh's mid exp), erfcx with degrees 15 to 8 in float (one more: the
 * degree-8 term is below 2^-23 of erfcx on every interval), erf's series with a_12 to a_6
 * in float (as high).
 * Measured (tests/runtime/check_math_spec.c): see cp_mid_erfc. SASS (sm_90, CUDA 13.0, as
 * docs/runtime.md counts it), the path for |x| >= 0.5: 297 instructions for both signs; high
 * 407 for one sign, 788 for both; CCCL fpmp 579. GPU (H200): 0.78x fpmp's time, docs/runtime.md.
 * tanh: an algorithm of its own (cp_mid_tanh): a minimax polynomial below 0.55, 1 - 2/(1 + E)
 * with E = exp(2|x|) and a division-free reciprocal above.
 * sinh and cosh: the high tiers' algorithms with the steps above in sinh's series (1/9! to
 * 1/3!), math.cuh's mid exp, 1/E by one Newton correction of the float reciprocal instead of
 * DWDivDW2, E +- 1/E by SloppyDWPlusDW (the functions: math_spec.cuh's
 * cp_detail_spec_sinh_tier and cp_detail_spec_cosh_tier, with the flag mid = 1): measured 2.79 and 3.17 u^2 (high 2.38, 2.81); H200:
 * 0.81x and 0.93x fpmp's time (high 1.04x, 1.12x).
 */
#ifndef CP_MATH_SPEC_MID_CUH
#define CP_MATH_SPEC_MID_CUH

#if !CP_BACKEND_IS_DP

/* exp(rh + rl), |rh| <= 0.347: math.cuh's Taylor polynomial of degree 12, degrees 12-7 in
 * float, 6-0 by the steps above, then times 1 + rl. */
CP_FUNC cp_float cp_detail_specm_exp_poly(cp_float r)
{
  float rh = r.v;
  float q = 0x1.1eed8ep-29f;              /* 1/12! */
  q = cp_fma_rn(q, rh, 0x1.ae6456p-26f);  /* 1/11! */
  q = cp_fma_rn(q, rh, 0x1.27e4fcp-22f);  /* 1/10! */
  q = cp_fma_rn(q, rh, 0x1.71de3ap-19f);  /* 1/9! */
  q = cp_fma_rn(q, rh, 0x1.a01a02p-16f);  /* 1/8! */
  q = cp_fma_rn(q, rh, 0x1.a01a02p-13f);  /* 1/7! */
  float ph = cp_fmul_rn(q, rh);
  cp_float s = cp_fast_two_sum(0x1.6c16c2p-10f, ph);
  cp_float e = cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, -0x1.27d27ep-35f), cp_fma_rn(q, rh, -ph))); /* 1/6! */
  e = cp_detail_specm_step_f(e, rh, 0x1.111112p-7f, -0x1.dddddep-32f); /* 1/5! */
  e = cp_detail_specm_step_f(e, rh, 0x1.555556p-5f, -0x1.555556p-30f); /* 1/4! */
  e = cp_detail_specm_step_f(e, rh, 0x1.555556p-3f, -0x1.555556p-28f); /* 1/3! */
  e = cp_detail_specm_step_f(e, rh, 0.5f, -0.0f);
  e = cp_detail_specm_step_f(e, rh, 1.0f, -0.0f);
  e = cp_detail_specm_step_f(e, rh, 1.0f, -0.0f);
  return cp_fast_two_sum(e.v, cp_fma_rn(e.v, r.e, e.e)); /* times 1 + rl */
}

/* erfc, mid tier: as cp_high_erfc (same domains and special values), one evaluation of
 * erfc(|x|) for |x| >= 0.5, then 2 - it for x < 0. Measured max 4.14 u^2 on [-10.2, 10.2]
 * (relative where the result is above 2^-126), asserted 6. */
CP_FUNC cp_float cp_mid_erfc(cp_float x)
{
  float a = fabsf(x.v);
  if (x.v != x.v) return cp_make_float(x.v, 0.0f);
  if (a < 0.5f) return cp_detail_add_const(cp_neg(cp_detail_spec_erf_small(x, 1)), 1.0f, 0.0f);
  if (a >= 10.2f) return cp_make_float(x.v > 0.0f ? 0.0f : 2.0f, 0.0f);
  int k, neg = x.v < 0.0f;
  cp_float ax = neg ? cp_neg(x) : x;
  cp_float e = cp_detail_specm_exp_poly(cp_detail_spec_negsq_reduce(ax, &k));
  cp_float z = cp_detail_scale(cp_detail_mul_dd(cp_detail_spec_erfcx(ax, 1), e), k);
  return neg ? cp_detail_add_const(cp_neg(z), 2.0f, 0.0f) : z;
}

/* E = exp(a) (math.cuh's mid exp) and R = 1/E for 0 <= a.v < 20: R from the correctly
 * rounded float reciprocal r0 of E.v, whose residual 1 - E.v r0 an FMA gives exactly, less
 * E.e r0, one Newton correction (about 2^-47 relative, against the accurate family's
 * DWDivDW2). */
CP_FUNC void cp_detail_specm_exp_pm(cp_float a, cp_float *E, cp_float *R)
{
  *E = cp_detail_exp_ff_tier(a, 1);
  float r0 = cp_fdiv_rn(1.0f, E->v);
  float t = cp_fma_rn(-E->e, r0, cp_fma_rn(-E->v, r0, 1.0f));
  *R = cp_fast_two_sum(r0, cp_fmul_rn(r0, t));
}

/* E +- R as a pair: TwoSum of the highs, the low parts in float (SloppyDWPlusDW: no
 * cancellation beyond coth(1) = 1.31 for sinh from |x| = 1 on). */
CP_FUNC cp_float cp_detail_specm_pm(cp_float E, cp_float R)
{
  cp_float s = cp_two_sum(E.v, R.v);
  return cp_fast_two_sum(s.v, cp_fadd_rn(s.e, cp_fadd_rn(E.e, R.e)));
}

/* ---- tanh, mid tier ---- */

/* tanh(a) for 0 < a < 0.55, as an unnormalized pair {*h, *l}, and *g = 1 - tanh(a)^2 (for
 * the caller's first-order term): a (1 + z Q(z)), z = a^2 (exact: TwoProd), Q of degree 9 a
 * minimax polynomial for (tanh(a)/a - 1)/z on [0, 0.55^2], weighted so that its error is
 * tanh's relative error (z a (Q - P)/tanh(a)): 2^-55.5 (Remez in python3 decimal at 70
 * digits; the pairs c0-c7 each rounded to a float and its remainder, c8 and c9 to floats).
 * c9 and c8 by float Horner (c8 z^9 is below 2^-27.7 of the result), c7 to c0 by the steps
 * above; W = z P and a W as pairs (TwoProd and the cross terms: |W| <= 0.092, so their
 * roundings count a tenth), a + a W by Fast2Sum. */
CP_FUNC void cp_detail_specm_tanh_small(float a, float *h, float *l, float *g)
{
  cp_float z = cp_two_prod(a, a);
  float q = cp_fma_rn(0x1.abffcap-15f, z.v, -0x1.b9093ep-13f); /* c9, c8 */
  float ph = cp_fmul_rn(q, z.v);
  cp_float s = cp_fast_two_sum(0x1.2fa274p-11f, ph);
  cp_float p = cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, 0x1.3fb464p-37f), cp_fma_rn(q, z.e, cp_fma_rn(q, z.v, -ph)))); /* c7 */
  p = cp_detail_specm_step(p, z, -0x1.7cf3bap-10f, 0x1.eb95d6p-37f); /* c6 */
  p = cp_detail_specm_step(p, z, 0x1.d6c61ep-9f, -0x1.75dc22p-34f);  /* c5 */
  p = cp_detail_specm_step(p, z, -0x1.226ddep-7f, 0x1.77ac74p-32f);  /* c4 */
  p = cp_detail_specm_step(p, z, 0x1.664f46p-6f, -0x1.ea7d94p-33f);  /* c3 */
  p = cp_detail_specm_step(p, z, -0x1.ba1ba2p-5f, 0x1.4a3e2ap-31f);  /* c2 */
  p = cp_detail_specm_step(p, z, 0x1.111112p-3f, -0x1.ddfad4p-28f);  /* c1 */
  p = cp_detail_specm_step(p, z, -0x1.555556p-2f, 0x1.55556cp-27f);  /* c0 */
  float wv = cp_fmul_rn(z.v, p.v);
  float we = cp_fma_rn(p.v, z.e, cp_fma_rn(p.e, z.v, cp_fma_rn(z.v, p.v, -wv)));
  float yv = cp_fmul_rn(a, wv);
  float ye = cp_fma_rn(a, we, cp_fma_rn(a, wv, -yv));
  cp_float t = cp_fast_two_sum(a, yv);
  *h = t.v;
  *l = cp_fadd_rn(t.e, ye);
  *g = cp_fma_rn(-t.v, t.v, 1.0f);
}

/* tanh(a) for 0.55 <= a < 20, as cp_detail_specm_tanh_small: 1 - r, r = 2/(1 + E), E =
 * exp(2a). 2a is exact, reduced as math.cuh's exp (Cody-Waite, ln 2 in three floats, r to
 * about 2^-50 absolute), exp(r) by cp_detail_specm_exp_poly, times 2^k (k <= 58). d = 1 + E
 * by Fast2Sum (E >= e), its low part not renormalized (up to an ulp of d). 1/d: y0 the
 * approximate reciprocal of d.v, one FMA refinement to y1 (within about an ulp), then the
 * remainder e = 1 - d y1 (d.v y1 exact by FMA, the small term in float) and 1/d = y1 (1 + e +
 * e^2) (e^3 below 2^-66). 1 - r by Fast2Sum (r <= 0.51). tanh's sensitivity to E's relative
 * error is (1 - t^2)/(2t) <= 0.75 here, and r's rounding counts r/t <= 1.01. */
CP_FUNC void cp_detail_specm_tanh_large(float a, float *h, float *l, float *g)
{
  float a2 = cp_fadd_rn(a, a);
  float kf = rintf(cp_fmul_rn(a2, CP_DETAIL_LOG2E));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_LN2_1, a2); /* exact */
  cp_float pk = cp_two_prod(kf, CP_DETAIL_LN2_2);  /* k C2, exact */
  cp_float s = cp_two_sum(t1, -pk.v);
  float lo = cp_fsub_rn(cp_fsub_rn(s.e, pk.e), cp_fmul_rn(kf, CP_DETAIL_LN2_3));
  cp_float P = cp_detail_specm_exp_poly(cp_make_float(s.v, lo));
  float f = cp_detail_pow2f((int)kf);
  cp_float d = cp_fast_two_sum(cp_fmul_rn(P.v, f), 1.0f);
  float de = cp_fma_rn(P.e, f, d.e);
  float y0 = cp_detail_rcp_approx(d.v);
  float y1 = cp_fma_rn(y0, cp_fma_rn(-d.v, y0, 1.0f), y0);
  float y2 = cp_fma_rn(y1, cp_fma_rn(-de, y1, cp_fma_rn(-d.v, y1, 1.0f)), y1); /* inner FMA exact */
  float rh = cp_fadd_rn(y2, y2);
  float rl = cp_fmul_rn(rh, cp_fma_rn(-de, y2, cp_fma_rn(-d.v, y2, 1.0f)));
  cp_float t = cp_fast_two_sum(1.0f, -rh);
  *h = t.v;
  *l = cp_fsub_rn(t.e, rl);
  *g = cp_fmul_rn(rh, cp_fsub_rn(2.0f, rh)); /* r (2 - r) */
}

/* tanh, mid tier: tanh(|v|) by the two functions above on the value v = x.v alone (0.55 the
 * crossover, where tanh = 0.50), then the error half's terms g e (1 - t e) (tanh(v + e) to
 * second order: the third is below 2^-70), the pair renormalized, the sign of v. Special
 * values as cp_high_tanh (+-1 from 20 on: the rest is below 2^-56). Measured (MPFR,
 * check_math_spec.c): max 2.13 u^2 on [-25, 25], 2.91 on [-0.7, 0.7], asserted 6 (high: 5.61,
 * 6.24); the largest errors lie just above 0.55, where r's rounding counts fully and the
 * result's low half holds three rounded terms. SASS (sm_90, bench/math/sass_path.py, longest
 * path): 129 instructions (small branch 85, large 101), high 273, CCCL fpmp 191. */
CP_FUNC cp_float cp_mid_tanh(cp_float x)
{
  float a = fabsf(x.v), h, l, g;
  if (!(a < 20.0f)) return cp_make_float(a == a ? copysignf(1.0f, x.v) : x.v, 0.0f);
  if (x.v == 0.0f) return cp_make_float(x.v, 0.0f);
  if (a < 0.55f) cp_detail_specm_tanh_small(a, &h, &l, &g);
  else cp_detail_specm_tanh_large(a, &h, &l, &g);
  float e = x.v < 0.0f ? -x.e : x.e;
  cp_float z = cp_fast_two_sum(h, cp_fma_rn(g, cp_fma_rn(-cp_fmul_rn(h, e), e, e), l));
  return x.v < 0.0f ? cp_neg(z) : z;
}

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_MATH_SPEC_MID_CUH */
