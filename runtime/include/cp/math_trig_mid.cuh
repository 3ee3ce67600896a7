/* cp/math_trig_mid.cuh - the mid tier of sin, cos, sincos, tan, atan2, atan, asin and acos
 * (ff backend): the high tier's reductions and polynomials (math_trig.cuh) with cheaper
 * float-float steps. atan2's family: see cp_detail_trigm_atan_series and _atan_j below.
 * Included by math_trig.cuh where the mid tier is defined (it uses that file's reductions,
 * constants and helpers); not a header of its own.
 *
 * What is cheaper than high, and what it costs in accuracy:
 *   reduction  below 2^17 Cody and Waite's with pi/2 in three floats: x.v - k P1 exact,
 *              k P2 by TwoProd, t1 - k P2 and x.e by TwoSum (exact), the small terms (the
 *              two TwoSums' errors, k P2's error, k P3, all below 2^-25) summed in float:
 *              absolute error about 2^-55 where high's is 2^-80. Where the reduced value is
 *              below 2^-9 (|x - k pi/2| < 2^-9: about 0.5 % of random arguments) that is too
 *              much relative error, and the high tier's reduction is taken instead (a rare
 *              branch). Beyond 2^17 the high tier's Payne-Hanek reduction (2^-54 relative).
 *   kernels    the same Taylor polynomials (sin through r^13, cos through r^14: truncation
 *              2^-45 and 2^-50 relative at |r| = 0.81; the coefficients 1/n! of math_trig.cuh,
 *              made with MPFR) with the terms below 2^-24 of the result by float Horner, the
 *              three (sin) or four (cos) larger ones by float-float steps that are not
 *              renormalized: p z + c as TwoProd(p.v, z.v) plus p.v z.e + p.e z.v by FMA
 *              (p.e z.e dropped: below 2^-48 of the step), Fast2Sum of the constant and the
 *              product's high part, the low parts added in float (9 instructions a step,
 *              16 in the high tier's DWTimesDW3 + renormalized add). Error per step about
 *              2u^2 of the step's value, which the later steps scale down (|c_{n+2} z| <=
 *              |c_n|/9 for sin, /2.4 for cos's last step).
 *   tan        sin/cos (or -cos/sin) by a cheaper pair division: the float quotient from the
 *              float reciprocal (one Newton step on it makes it nearly correctly rounded),
 *              the remainder by FMA (exact) with the error halves, times the reciprocal.
 * Measured (tests/runtime/check_math_trig.c, as math_trig.cuh says): relative error below
 * 2^17 and beyond, sin 3.30 and 2.32 u^2, cos 3.67 and 2.22, tan 5.76 and 5.62 (asserted 5,
 * 5, 8; high: 3, 3, 8). SASS on the main path (sm_90, CUDA 13.0, counted as docs/runtime.md
 * says): sin 183, cos 185, sincos 187, tan 223 instructions; high 325, 327, 327, 407; CCCL
 * fpmp 276, 276, 285, 290. atan 286, atan2 320, asin and acos 414; high 363, 397, 491,
 * 491; fpmp 301, 377, 472, 481 (measured 3.55, 3.36, 4.15, 3.91 u^2; other seeds of the
 * test up to 4.15, 4.30, 5.23: about high's; atan2 5.73 on the GPU, fpmp 4.14). H200: sin, cos
 * 0.68x, tan 0.74x, asin 0.85x, atan 0.87x, atan2 0.90x fpmp's time (docs/runtime.md).
 */
#ifndef CP_MATH_TRIG_MID_CUH
#define CP_MATH_TRIG_MID_CUH

#if !CP_BACKEND_IS_DP

/* p z + {ch, cl} for pairs p, z (error halves up to a few ulp: not renormalized) and a
 * constant with |ch| >= |p z|: see the module comment. The result is not renormalized. */
CP_FUNC cp_float cp_detail_trigm_step(cp_float p, cp_float z, float ch, float cl)
{
  float ph = cp_fmul_rn(p.v, z.v);
  float pl = cp_fma_rn(p.v, z.v, -ph);
  pl = cp_fma_rn(p.v, z.e, pl);
  pl = cp_fma_rn(p.e, z.v, pl);
  cp_float s = cp_fast_two_sum(ch, ph);
  return cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, pl), cl));
}

/* The same for a float p (the first step after the float Horner part). */
CP_FUNC cp_float cp_detail_trigm_step_f(float p, cp_float z, float ch, float cl)
{
  float ph = cp_fmul_rn(p, z.v);
  float pl = cp_fma_rn(p, z.v, -ph);
  pl = cp_fma_rn(p, z.e, pl);
  cp_float s = cp_fast_two_sum(ch, ph);
  return cp_make_float(s.v, cp_fadd_rn(cp_fadd_rn(s.e, pl), cl));
}

/* p z for pairs, not renormalized (p.e z.e dropped). */
CP_FUNC cp_float cp_detail_trigm_mul(cp_float p, cp_float z)
{
  float ph = cp_fmul_rn(p.v, z.v);
  float pl = cp_fma_rn(p.v, z.v, -ph);
  pl = cp_fma_rn(p.v, z.e, pl);
  return cp_make_float(ph, cp_fma_rn(p.e, z.v, pl));
}

/* x - k pi/2 for a finite pair, k mod 4 in *q: the module comment's reduction. */
CP_FUNC cp_float cp_detail_trigm_reduce(cp_float x, int *q)
{
  if (!(fabsf(x.v) < CP_DETAIL_TRIG_MAX)) return cp_detail_trig_reduce_big(x, q);
  float kf = rintf(cp_fmul_rn(x.v, CP_DETAIL_2OPI));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_PIO2_1, x.v); /* exact */
  cp_float p2 = cp_two_prod(kf, CP_DETAIL_PIO2_2);
  cp_float a = cp_two_sum(t1, -p2.v), b = cp_two_sum(a.v, x.e);
  if (fabsf(b.v) < 0x1p-9f) return cp_detail_trig_reduce(x, q); /* rare: the exact one */
  *q = (int)kf & 3;
  float lo = cp_fma_rn(-kf, CP_DETAIL_PIO2_3, cp_fsub_rn(cp_fadd_rn(a.e, b.e), p2.e));
  return cp_fast_two_sum(b.v, lo);
}

/* sin(r) = r + (r z) P(z), z = r^2 (a pair, not renormalized), P through -1/15!. */
CP_FUNC cp_float cp_detail_trigm_sin(cp_float r, cp_float z)
{
  float q = -0x1.ae7f3ep-41f;              /* -1/15! */
  q = cp_fma_rn(q, z.v, 0x1.612462p-33f);  /* 1/13! */
  q = cp_fma_rn(q, z.v, -0x1.ae6456p-26f); /* -1/11! */
  cp_float p = cp_detail_trigm_step_f(q, z, 0x1.71de3ap-19f, 0x1.55b1ccp-45f); /* 1/9! */
  p = cp_detail_trigm_step(p, z, -0x1.a01a02p-13f, 0x1.7f97fap-39f);            /* -1/7! */
  p = cp_detail_trigm_step(p, z, 0x1.111112p-7f, -0x1.dddddep-32f);              /* 1/5! */
  p = cp_detail_trigm_step(p, z, -0x1.555556p-3f, 0x1.555556p-28f);              /* -1/3! */
  cp_float t = cp_detail_trigm_mul(p, cp_detail_trigm_mul(r, z));
  cp_float s = cp_fast_two_sum(r.v, t.v);
  return cp_fast_two_sum(s.v, cp_fadd_rn(cp_fadd_rn(s.e, t.e), r.e));
}

/* cos(r) = 1 + z C(z), C through 1/14!. */
CP_FUNC cp_float cp_detail_trigm_cos(cp_float z)
{
  float q = -0x1.93974ap-37f;              /* -1/14! */
  q = cp_fma_rn(q, z.v, 0x1.1eed8ep-29f);  /* 1/12! */
  q = cp_fma_rn(q, z.v, -0x1.27e4fcp-22f); /* -1/10! */
  cp_float p = cp_detail_trigm_step_f(q, z, 0x1.a01a02p-16f, -0x1.7f97fap-42f); /* 1/8! */
  p = cp_detail_trigm_step(p, z, -0x1.6c16c2p-10f, 0x1.27d27ep-35f);            /* -1/6! */
  p = cp_detail_trigm_step(p, z, 0x1.555556p-5f, -0x1.555556p-30f);             /* 1/4! */
  p = cp_detail_trigm_step(p, z, -0.5f, 0.0f);
  p = cp_detail_trigm_step(p, z, 1.0f, 0.0f);
  return cp_fast_two_sum(p.v, p.e);
}

/* sin (want 1) and cos (want 2) of the reduced pair r (|r.v| <= 0.81) in quadrant q, mid
 * tier's kernels. */
CP_FUNC void cp_detail_trigm_q(cp_float r, int q, int want, cp_float *s, cp_float *c)
{
  cp_float zc = cp_two_prod(r.v, r.v);
  cp_float z = cp_make_float(zc.v, cp_fma_rn(cp_fadd_rn(r.v, r.v), r.e, zc.e));
  cp_float sr = r, cr = r;
  int odd = q & 1;
  if (((want & 1) && !odd) || ((want & 2) && odd)) sr = cp_detail_trigm_sin(r, z);
  if (((want & 1) && odd) || ((want & 2) && !odd)) cr = cp_detail_trigm_cos(z);
  if (want & 1) *s = cp_detail_trig_neg(odd ? cr : sr, q & 2);
  if (want & 2) *c = cp_detail_trig_neg(odd ? sr : cr, (q + 1) & 2);
}

/* sin (want 1) and cos (want 2) of a finite nonzero pair, mid tier. */
CP_FUNC void cp_detail_trigm_sc(cp_float x, int want, cp_float *s, cp_float *c)
{
  int q;
  cp_float r = cp_detail_trigm_reduce(x, &q);
  cp_detail_trigm_q(r, q, want, s, c);
}

/* sin and cos, mid tier (want: 1 sin, 2 cos, 3 both). NaN and inf: NaN; +-0: sin +-0. */
CP_FUNC void cp_detail_sincos_mid(cp_float x, int want, cp_float *s, cp_float *c)
{
  if (x.v - x.v != 0.0f) {
    *s = *c = cp_make_float(x.v - x.v, 0.0f);
  } else if (x.v == 0.0f) {
    *s = x;
    *c = cp_make_float(1.0f, 0.0f);
  } else {
    cp_detail_trigm_sc(x, want, s, c);
  }
}

CP_FUNC cp_float cp_mid_sin(cp_float x)
{
  cp_float s, c;
  cp_detail_sincos_mid(x, 1, &s, &c);
  CP_DETAIL_SETTLE(s, cp_detail_trig_sinf(cp_to_float(x)));
  return s;
}

CP_FUNC cp_float cp_mid_cos(cp_float x)
{
  cp_float s, c;
  cp_detail_sincos_mid(x, 2, &s, &c);
  CP_DETAIL_SETTLE(c, cp_detail_trig_cosf(cp_to_float(x)));
  return c;
}

CP_FUNC void cp_mid_sincos(cp_float x, cp_float *s, cp_float *c) { cp_detail_sincos_mid(x, 3, s, c); }

/* n/d for pairs with d.v != 0: the float quotient t from the reciprocal y = RN(1/d.v) and one
 * Newton step (t = n.v y + (n.v - n.v y d.v) y), the remainder n - t d (the FMA part exact),
 * times y; Fast2Sum. */
CP_FUNC cp_float cp_detail_trigm_div(cp_float n, cp_float d)
{
  float y = cp_frcp_rn(d.v);
  float t = cp_fmul_rn(n.v, y);
  t = cp_fma_rn(cp_fma_rn(-t, d.v, n.v), y, t);
  float rem = cp_fma_rn(-t, d.e, cp_fadd_rn(cp_fma_rn(-t, d.v, n.v), n.e));
  return cp_fast_two_sum(t, cp_fmul_rn(rem, y));
}

/* tan, mid tier: sin/cos (even quadrant) or -cos/sin (odd) of the mid reduction. */
CP_FUNC cp_float cp_mid_tan(cp_float x)
{
  cp_float z;
  if (x.v - x.v != 0.0f || x.v == 0.0f) {
    z = cp_make_float(x.v - x.v != 0.0f ? x.v - x.v : x.v, x.v - x.v != 0.0f ? 0.0f : x.e);
  } else {
    int q;
    cp_float r = cp_detail_trigm_reduce(x, &q);
    cp_float zc = cp_two_prod(r.v, r.v);
    cp_float rz = cp_make_float(zc.v, cp_fma_rn(cp_fadd_rn(r.v, r.v), r.e, zc.e));
    cp_float s = cp_detail_trigm_sin(r, rz), c = cp_detail_trigm_cos(rz);
    z = (q & 1) ? cp_detail_trigm_div(cp_make_float(-c.v, -c.e), s) : cp_detail_trigm_div(s, c);
  }
  CP_DETAIL_SETTLE(z, cp_detail_trig_low_tan(cp_make_float(cp_to_float(x), 0.0f)).v);
  return z;
}

/* ---- atan2 and its family: math_trig.cuh's algorithm with a cheaper atan(t) ---- */

/* atan(num/den) for |num/den| <= 1/16 (cp_detail_atan_ratio's reduced argument), mid tier:
 * t = num/den by cp_detail_trigm_div with one more Newton step on the low part (without it
 * the reciprocal's half ulp reaches 2^-46 of t where the error halves are large: atan2
 * measured 6.2 u^2), w = t^2 not renormalized; the high tier's series through t^13/13
 * (1/13 .. -1/7 in float; 1/5 and -1/3 by the steps: the 1/5 term is 2^-18.3 of the result,
 * too large for float), then t + t w P with the products not renormalized and one final
 * renormalization. */
CP_FUNC cp_float cp_detail_trigm_atan_series(cp_float num, cp_float den)
{
  float y = cp_frcp_rn(den.v);
  float th = cp_fmul_rn(num.v, y);
  th = cp_fma_rn(cp_fma_rn(-th, den.v, num.v), y, th);
  float rem = cp_fma_rn(-th, den.e, cp_fadd_rn(cp_fma_rn(-th, den.v, num.v), num.e));
  float tl = cp_fmul_rn(rem, y);
  cp_float t = cp_fast_two_sum(th, cp_fma_rn(cp_fma_rn(-tl, den.v, rem), y, tl));
  cp_float zc = cp_two_prod(t.v, t.v);
  cp_float w = cp_make_float(zc.v, cp_fma_rn(cp_fadd_rn(t.v, t.v), t.e, zc.e));
  float q = 0x1.3b13b2p-4f;               /* 1/13 */
  q = cp_fma_rn(q, w.v, -0x1.745d18p-4f); /* -1/11 */
  q = cp_fma_rn(q, w.v, 0x1.c71c72p-4f);  /* 1/9 */
  q = cp_fma_rn(q, w.v, -0x1.24924ap-3f); /* -1/7 */
  cp_float p = cp_detail_trigm_step_f(q, w, 0x1.99999ap-3f, -0x1.99999ap-29f); /* 1/5 */
  p = cp_detail_trigm_step(p, w, -0x1.555556p-2f, 0x1.555556p-27f);            /* -1/3 */
  cp_float m = cp_detail_trigm_mul(cp_detail_trigm_mul(p, w), t);
  cp_float s = cp_fast_two_sum(t.v, m.v);
  return cp_fast_two_sum(s.v, cp_fadd_rn(cp_fadd_rn(s.e, t.e), m.e));
}

/* atan(j/8) + atan(num/den), den = a + cb (both positive: SloppyDWPlusDW, 3u^2 without
 * cancellation), the table's value plus the series by Fast2Sum of the highs (|atan(j/8)| >=
 * 2 |atan(t)|), the lows in float, Fast2Sum: where high takes AccurateDWPlusDW for both. */
CP_FUNC cp_float cp_detail_trigm_atan_j(cp_float num, cp_float a, cp_float cb, int j)
{
  cp_float d = cp_two_sum(a.v, cb.v);
  cp_float at = cp_detail_trigm_atan_series(num, j ? cp_fast_two_sum(d.v, cp_fadd_rn(d.e, cp_fadd_rn(a.e, cb.e))) : a);
  if (!j) return at;
  cp_float c = cp_detail_atan_table(j), s = cp_fast_two_sum(c.v, at.v);
  return cp_fast_two_sum(s.v, cp_fadd_rn(cp_fadd_rn(s.e, c.e), at.e));
}

CP_FUNC cp_float cp_mid_atan2(cp_float y, cp_float x) { return cp_detail_atan2_tier(y, x, 1); }
CP_FUNC cp_float cp_mid_atan(cp_float x) { return cp_detail_atan_tier(x, 1); }
CP_FUNC cp_float cp_mid_asin(cp_float x) { return cp_detail_asin_tier(x, 1, 1); }
CP_FUNC cp_float cp_mid_acos(cp_float x) { return cp_detail_asin_tier(x, 2, 1); }

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_MATH_TRIG_MID_CUH */
