/* cp/math_trig.cuh - composite trigonometric functions: sin, cos, sincos, tan, sinpi, cospi,
 * asin, acos, atan, atan2, in three tiers, for both backends.
 *
 * Names as in math.cuh: cp_low_NAME, cp_mid_NAME, cp_high_NAME (the tiers), cp_NAME (the
 * tier of the family CP_ALGO selects), cp_dd_NAME (cp_double). sincos writes through two
 * pointers: cp_sincos(x, &s, &c), cp_dd_sincos(x, &s, &c).
 *
 * Tiers (ff backend; no FP64 instruction):
 *   high, mid  float-float algorithms on normalized pairs (below). mid sin, cos, sincos, tan,
 *              asin, acos, atan, atan2: the same reductions and polynomials with cheaper
 *              float-float steps (math_trig_mid.cuh); mid sinpi, cospi: the exact
 *              reduction of high, then mid's kernels.
 *   low        sin, cos, sincos, tan: the normalized pair reduced (a cheaper Cody-Waite below
 *              2^17, Payne-Hanek beyond), evaluated in float (Taylor polynomials), plus the
 *              first-order term of the reduced pair's error half: float accuracy for the
 *              pair's value on the whole range. CUDA's sinf, cosf, tanf are never called
 *              (their reduction beyond |x| > 105615 executes FP64 instructions).
 *              The others: the float function's value plus the first-order propagation of
 *              the error half, {f(v), f'(v) e}; the float function's own rounding (an ulp
 *              or two) stays (sinpif, cospif, asinf, acosf, atanf, atan2f have no FP64 in
 *              their SASS). Accepts unnormalized pairs (normalized first, exactly).
 * Under the dp backend every tier is the double function on the double (about 2^-52).
 *
 * Accuracy of sin, cos, sincos, tan (high; mid: see math_trig_mid.cuh): below |x| = 2^17 the reduction by pi/2 is
 * Cody and Waite's with pi/2 in four floats (103 bits), exact except for terms below 2^-56
 * (absolute error about 2^-80); beyond, Payne and Hanek's in integers (cp_detail_trig_ph:
 * 2/pi as a table of 32-bit words, 32x32->64 products, no double), relative error below
 * 2^-54, so high and mid hold their bounds on the whole float range. Pairs whose value lies
 * within 2^-32 of a multiple of pi/2 (no float does below 2^17; a pair can) get an absolute
 * error (2^-80 below 2^17, 2^-125 beyond) instead of a relative one. sinpi and cospi reduce
 * exactly on the whole float range.
 *
 * Special values as the float functions give them: sin, cos, tan of +-inf and NaN are NaN;
 * sin, tan, sinpi, asin, atan of +-0 are +-0; sinpi(n) = +0 for integers n > 0, -0 below;
 * cospi(n + 1/2) = +0; asin, acos outside [-1, 1] are NaN; atan(+-inf) = +-pi/2; atan2 of
 * zeros and infinities as atan2f (+-0, +-pi, +-pi/2, +-pi/4, +-3pi/4, as pairs). Error half
 * 0 for such results.
 *
 * Measured bounds (tests/runtime/check_math_trig.c, MPFR at 200 bits, u^2 = 2^-48; 100000
 * random normalized pairs per function and tier plus edge cases, 20000 beyond 2^17):
 * relative error of the pair against the exact function of the input's value v + e,
 * high and mid (mid sin, cos, tan apart):
 *   sin, cos |x| < 2^17  max 1.97 u^2, asserted 3      tan |x| < 2^17  5.93, asserted 8
 *   sin, cos |x| >= 2^17 max 2.28 u^2, asserted 3     tan |x| >= 2^17 5.34, asserted 8
 *   sinpi, cospi         max 2.94 u^2, asserted 4      asin, acos      5.73, asserted 8
 *   atan, atan2          max 4.07 u^2, asserted 6
 *   mid sin, cos, all x  max 3.67 u^2, asserted 5      mid tan, all x  5.76, asserted 8
 *   mid asin, acos: 4.15, 3.91 (asserted 8); mid atan, atan2: 3.55, 3.36 (asserted 6)
 *   mid sinpi, cospi: 3.57, 4.05 (asserted 6)
 *   low sin, cos, tan: the pair's value within 1.18 u (sin, cos) and 2.37 u (tan), u = 2^-24,
 *   relative, of the exact result; rounded to a
 *   float, sin 1.05, cos 1.14, tan 2.35 ulp (asserted 2, 2, 4: CUDA's documented sinf,
 *   cosf, tanf bounds). Other low functions: the float function's error (at most 1.91 u
 *   here) plus the omitted f''(v) e^2/2.
 * No proof: the bounds are measured maxima with a margin.
 *
 * Constants: made with MPFR at 400 bits (mpfr_const_pi, mpfr_atan, 1/n!), each rounded to
 * the nearest float and the remainder rounded again for the next part.
 */
#ifndef CP_MATH_TRIG_CUH
#define CP_MATH_TRIG_CUH

#include "math.cuh"

/* sinpi, cospi of a float or double, for the low tier and the dp backend: CUDA's functions
 * on the device; on the host (no sinpi in C's library) an exact reduction to |t| <= 1/4
 * and sin, cos of pi t (about an ulp more). */
#if defined(__CUDA_ARCH__)
#define cp_detail_trig_sinpif(v) sinpif(v)
#define cp_detail_trig_cospif(v) cospif(v)
#define cp_detail_trig_sinpi(v) sinpi(v)
#define cp_detail_trig_cospi(v) cospi(v)
#else
CP_FUNC float cp_detail_trig_pif(float v, int c) /* c = 0: sinpi, 1: cospi */
{
  if (!(fabsf(v) < 0x1p24f)) return v != v || fabsf(v) == INFINITY ? v - v : (c ? 1.0f : 0.0f * v);
  float k = rintf(2.0f * v), t = cp_fma_rn(k, -0.5f, v);
  int q = ((int)k + c) & 3;
  float y = cp_fma_rn(0x1.921fb6p+1f, t, cp_fmul_rn(-0x1.777a5cp-24f, t));
  float r = (q & 1) ? cosf(y) : sinf(y);
  r = (q & 2) ? -r : r;
  return r == 0.0f ? (c ? 0.0f : copysignf(0.0f, v)) : r;
}
CP_FUNC double cp_detail_trig_pi(double v, int c)
{
  if (!(fabs(v) < 0x1p53)) return v != v || fabs(v) == INFINITY ? v - v : (c ? 1.0 : 0.0 * v);
  double k = rint(2.0 * v), t = fma(k, -0.5, v);
  int q = ((int)fmod(k, 4.0) + 4 + c) & 3;
  double y = fma(0x1.921fb54442d18p+1, t, 0x1.1a62633145c07p-53 * t);
  double r = (q & 1) ? cos(y) : sin(y);
  r = (q & 2) ? -r : r;
  return r == 0.0 ? (c ? 0.0 : copysign(0.0, v)) : r;
}
#define cp_detail_trig_sinpif(v) cp_detail_trig_pif((v), 0)
#define cp_detail_trig_cospif(v) cp_detail_trig_pif((v), 1)
#define cp_detail_trig_sinpi(v) cp_detail_trig_pi((v), 0)
#define cp_detail_trig_cospi(v) cp_detail_trig_pi((v), 1)
#endif

#if !CP_BACKEND_IS_DP

/* pi/2 = P1 + P2 + P3 + P4 + O(2^-103); pi = 2 (P1 + P2) + O(2^-49); 2/pi rounded. */
#define CP_DETAIL_PIO2_1 0x1.921fb6p+0f
#define CP_DETAIL_PIO2_2 -0x1.777a5cp-25f
#define CP_DETAIL_PIO2_3 -0x1.ee59dap-50f
#define CP_DETAIL_PIO2_4 0x1.98a2ep-77f
#define CP_DETAIL_2OPI 0x1.45f306p-1f
#define CP_DETAIL_TRIG_MAX 0x1p17f

/* ---- reductions ---- */

/* x - k pi/2 for |x.v| < 2^17, k = rint(x.v 2/pi) (|k| < 2^16.4), its quadrant k mod 4 in *q.
 * x.v - k P1 is exact (k P1 and x.v are multiples of 2^-24 and the difference is below 1);
 * k P2 and k P3 are exact by TwoProd; the large terms are summed by TwoSum (exact), only
 * the terms below 2^-56 (k P3's error, k P4, the TwoSums' errors) in float: the result's
 * absolute error is about 2^-80, |r| <= 0.81 (the float estimate of k, plus x.e). */
CP_FUNC cp_float cp_detail_trig_reduce(cp_float x, int *q)
{
  float kf = rintf(cp_fmul_rn(x.v, CP_DETAIL_2OPI));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_PIO2_1, x.v); /* exact */
  cp_float p2 = cp_two_prod(kf, CP_DETAIL_PIO2_2), p3 = cp_two_prod(kf, CP_DETAIL_PIO2_3);
  cp_float a = cp_two_sum(t1, -p2.v);
  cp_float b = cp_two_sum(a.v, x.e);
  cp_float g = cp_two_sum(a.e, b.e);
  cp_float h = cp_two_sum(g.v, -p2.e);
  cp_float m = cp_two_sum(h.v, -p3.v);
  float lo = cp_fsub_rn(cp_fsub_rn(cp_fadd_rn(cp_fadd_rn(g.e, h.e), m.e), p3.e),
                        cp_fmul_rn(kf, CP_DETAIL_PIO2_4));
  cp_float s = cp_two_sum(b.v, m.v);
  *q = (int)kf & 3;
  return cp_two_sum(s.v, cp_fadd_rn(s.e, lo));
}

/* Payne and Hanek's reduction in integers, for any finite float: x 2/pi mod 4 as a 128-bit
 * fixed-point number (2 integer bits, 126 fraction bits), ADDED into y[0..3] (y[0] most
 * significant; wraps mod 4). x = m 2^E (m < 2^24); the bits of 2/pi at 2^-(E-1) .. 2^-(E+158)
 * are the window (the earlier ones give multiples of 4, the later ones less than 2^-134):
 * 160 bits, five 32x32->64 products with m, their top 128 bits kept; below 2^-125 absolute
 * (truncation). The table: 2/pi's first 288 bits after five zero words (|x| below 1, down
 * to the subnormals, reads zeros for the bits before the point); made with python3 integers
 * (pi by Machin's formula at 620 bits, floor(2/pi 2^288)). */
CP_FUNC void cp_detail_trig_ph(float x, unsigned int *y)
{
  static const unsigned int t[15] = { 0u, 0u, 0u, 0u, 0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u,
                                      0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
                                      0xdebbc561u, 0xb7246e3au, 0u };
  unsigned int b = cp_detail_fbits(x), ex = (b >> 23) & 0xffu;
  unsigned int m = (b & 0x7fffffu) | (ex ? 0x800000u : 0u), w[5], o[5];
  int p = (ex ? (int)ex : 1) - 150 + 158; /* the window's first bit, in the padded table */
  int k = p >> 5, sh = p & 31, i;
  for (i = 0; i < 5; ++i)
    w[i] = (t[k + i] << sh) | (sh ? t[k + i + 1] >> (32 - sh) : 0u);
  cp_detail_u64 c = 0;
  for (i = 4; i >= 0; --i) {
    c += (cp_detail_u64)m * w[i];
    o[i] = (unsigned int)c;
    c >>= 32;
  }
  /* o[0..3] is |x| 2/pi mod 4; negated (two's complement) for x < 0, then added */
  unsigned int neg = b >> 31;
  c = neg;
  for (i = 3; i >= 0; --i) {
    c += (cp_detail_u64)y[i] + ((neg ? ~o[i] : o[i]));
    y[i] = (unsigned int)c;
    c >>= 32;
  }
}

/* (a b) >> 64 for 64-bit a, b, by four 32x32->64 products. */
CP_FUNC cp_detail_u64 cp_detail_trig_mulhi(cp_detail_u64 a, cp_detail_u64 b)
{
  cp_detail_u64 a1 = a >> 32, a0 = a & 0xffffffffu, b1 = b >> 32, b0 = b & 0xffffffffu;
  cp_detail_u64 m1 = a1 * b0, m2 = a0 * b1;
  cp_detail_u64 mid = (a0 * b0 >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
  return a1 * b1 + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

/* x - k pi/2 for a finite normalized pair of any size, k the nearest integer to (v + e) 2/pi,
 * k mod 4 in *q: both halves by cp_detail_trig_ph into one fixed-point sum (exact, mod 4),
 * rounded to the quadrant; the remainder f (|f| <= 1/2, 126 fraction bits) normalized to
 * 64 bits, times pi/2 in 64 bits (0xc90fdaa22168c235 2^-63, rounded), the top 64 bits of
 * the product as a pair (24 + 32 bits, Fast2Sum). Relative error below 2^-54 where |r| >
 * 2^-60, else about 2^-125 absolute; |r| <= pi/4. */
CP_FUNC cp_float cp_detail_trig_reduce_big(cp_float x, int *q)
{
  unsigned int y[4] = { 0u, 0u, 0u, 0u };
  cp_detail_trig_ph(x.v, y);
  cp_detail_trig_ph(x.e, y);
  unsigned int k = ((y[0] + 0x20000000u) >> 30) & 3u;
  *q = (int)k;
  y[0] -= k << 30; /* f = y - k in [-1/2, 1/2), two's complement */
  int neg = (int)(y[0] >> 31);
  cp_detail_u64 h = ((cp_detail_u64)y[0] << 32) | y[1], l = ((cp_detail_u64)y[2] << 32) | y[3];
  if (neg) { /* |f| */
    h = ~h;
    l = ~l + 1;
    h += l == 0;
  }
  int s = 0;
  if (h == 0) {
    h = l;
    l = 0;
    s = 64;
  }
  if (h == 0) return cp_make_float(neg ? -0.0f : 0.0f, 0.0f);
  int n = cp_detail_clz64(h);
  h = n ? (h << n) | (l >> (64 - n)) : h; /* |f| = h 2^(-62 - n - s) */
  cp_detail_u64 pr = cp_detail_trig_mulhi(h, 0xc90fdaa22168c235ULL); /* r = pr 2^(-61-n-s) */
  if (!(pr >> 63)) {
    pr <<= 1;
    ++s;
  }
  float hi = (float)(unsigned int)(pr >> 40), lo = cp_fmul_rn((float)(unsigned int)(pr >> 8), 0x1p-32f);
  cp_float r = cp_detail_scale(cp_fast_two_sum(hi, lo), 40 - 61 - n - s);
  return neg ? cp_make_float(-r.v, -r.e) : r;
}

/* Either reduction: Cody and Waite's below 2^17, Payne and Hanek's beyond. */
CP_FUNC cp_float cp_detail_trig_reduce_any(cp_float x, int *q)
{
  return fabsf(x.v) < CP_DETAIL_TRIG_MAX ? cp_detail_trig_reduce(x, q) : cp_detail_trig_reduce_big(x, q);
}

/* The quadrant k = rint(2w) mod 4 of a finite float and t = w - k/2 (exact, |t| <= 1/4);
 * |w| >= 2^24 is an even integer: k = 0, t = 0. */
CP_FUNC int cp_detail_trig_half(float w, float *t)
{
  if (!(fabsf(w) < 0x1p24f)) {
    *t = 0.0f;
    return 0;
  }
  float kf = rintf(cp_fmul_rn(w, 2.0f));
  *t = cp_fma_rn(kf, -0.5f, w); /* exact */
  return (int)kf & 3;
}

/* pi x - k pi/2 for a finite pair, exactly reduced: both halves by cp_detail_trig_half,
 * their sum (TwoSum, |r| <= 1/2) once more by a half if above 1/4 (exact by Sterbenz's
 * lemma); then times pi as a pair (DWTimesDW3, 4u^2, and pi's 2^-49). |y| <= pi/4. */
CP_FUNC cp_float cp_detail_trig_reduce_pi(cp_float x, int *q)
{
  float tv, te;
  int k = cp_detail_trig_half(x.v, &tv) + cp_detail_trig_half(x.e, &te);
  cp_float r = cp_two_sum(tv, te);
  float k3 = rintf(cp_fmul_rn(r.v, 2.0f));
  r = cp_two_sum(cp_fma_rn(k3, -0.5f, r.v), r.e);
  *q = (k + (int)k3) & 3;
  return cp_detail_mul_dd(r, cp_make_float(2.0f * CP_DETAIL_PIO2_1, 2.0f * CP_DETAIL_PIO2_2));
}

/* ---- kernels on |r| <= 0.81 ---- */

/* sin(r) = r + r z P(z), z = r^2 (a pair), P the Taylor polynomial of (sin r - r)/r^3
 * through r^15/15! (truncation 2^-53.8 relative at 0.81): its three smallest terms (below
 * 2^-27 of the result) by float Horner, the others by float-float steps (DWTimesDW3 and a
 * pair constant). */
CP_FUNC cp_float cp_detail_sin_ff(cp_float r, cp_float z)
{
  float q = -0x1.ae7f3ep-41f;            /* -1/15! */
  q = cp_fma_rn(q, z.v, 0x1.612462p-33f); /* 1/13! */
  q = cp_fma_rn(q, z.v, -0x1.ae6456p-26f); /* -1/11! */
  cp_float p = cp_make_float(q, 0.0f);
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.71de3ap-19f, 0x1.55b1ccp-45f);  /* 1/9! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), -0x1.a01a02p-13f, 0x1.7f97fap-39f); /* -1/7! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.111112p-7f, -0x1.dddddep-32f);  /* 1/5! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), -0x1.555556p-3f, 0x1.555556p-28f);  /* -1/3! */
  return cp_detail_add_dd(r, cp_detail_mul_dd(r, cp_detail_mul_dd(z, p)));
}

/* cos(r) = 1 + z P(z), P the Taylor polynomial of (cos r - 1)/r^2 through r^16/16!
 * (truncation 2^-59): three terms by float Horner, five by float-float steps. */
CP_FUNC cp_float cp_detail_cos_ff(cp_float z)
{
  float q = 0x1.ae7f3ep-45f;              /* 1/16! */
  q = cp_fma_rn(q, z.v, -0x1.93974ap-37f); /* -1/14! */
  q = cp_fma_rn(q, z.v, 0x1.1eed8ep-29f);  /* 1/12! */
  cp_float p = cp_make_float(q, 0.0f);
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), -0x1.27e4fcp-22f, 0x1.10ec14p-47f); /* -1/10! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.a01a02p-16f, -0x1.7f97fap-42f);  /* 1/8! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), -0x1.6c16c2p-10f, 0x1.27d27ep-35f);  /* -1/6! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), 0x1.555556p-5f, -0x1.555556p-30f);   /* 1/4! */
  p = cp_detail_add_const(cp_detail_mul_dd(p, z), -0.5f, 0.0f);
  return cp_detail_add_const(cp_detail_mul_dd(p, z), 1.0f, 0.0f);
}

CP_FUNC cp_float cp_detail_trig_sq(cp_float r)
{
  cp_float zc = cp_two_prod(r.v, r.v);
  return cp_fast_two_sum(zc.v, cp_fma_rn(cp_fadd_rn(r.v, r.v), r.e, zc.e));
}

CP_FUNC cp_float cp_detail_trig_neg(cp_float x, int neg)
{
  return neg ? cp_make_float(-x.v, -x.e) : x;
}

/* sin (want 1) and cos (want 2) of the reduced r in quadrant q. */
CP_FUNC void cp_detail_sincos_q(cp_float r, int q, int want, cp_float *s, cp_float *c)
{
  cp_float z = cp_detail_trig_sq(r), sr = r, cr = r;
  int odd = q & 1;
  if (((want & 1) && !odd) || ((want & 2) && odd)) sr = cp_detail_sin_ff(r, z);
  if (((want & 1) && odd) || ((want & 2) && !odd)) cr = cp_detail_cos_ff(z);
  if (want & 1) *s = cp_detail_trig_neg((q & 1) ? cr : sr, q & 2);
  if (want & 2) *c = cp_detail_trig_neg((q & 1) ? sr : cr, (q + 1) & 2);
}

/* ---- low: float evaluation of the reduced pair ---- */

/* The low tier's reduction: below 2^17 Cody and Waite's with pi/2 in three floats, x.v -
 * k P1 exact, k P2 by TwoProd, the two larger terms and x.e by TwoSum (exact: a pair near a
 * multiple of pi/2 cancels there), the rest (below 2^-32) in float, so about 2^-57 absolute
 * (k P4, the float sum): relative 2^-27 where |r| >= 2^-30, as for every float below 2^17;
 * beyond 2^17 cp_detail_trig_reduce_big. A pair {r.v, r.e}, normalized, |r.v| <= 0.81. */
CP_FUNC cp_float cp_detail_trig_reduce_low(cp_float x, int *q)
{
  if (!(fabsf(x.v) < CP_DETAIL_TRIG_MAX)) return cp_detail_trig_reduce_big(x, q);
  float kf = rintf(cp_fmul_rn(x.v, CP_DETAIL_2OPI));
  float t1 = cp_fma_rn(-kf, CP_DETAIL_PIO2_1, x.v); /* exact */
  cp_float p2 = cp_two_prod(kf, CP_DETAIL_PIO2_2);
  cp_float a = cp_two_sum(t1, -p2.v), b = cp_two_sum(a.v, x.e);
  *q = (int)kf & 3;
  return cp_fast_two_sum(b.v, cp_fadd_rn(b.e, cp_fma_rn(-kf, CP_DETAIL_PIO2_3, cp_fsub_rn(a.e, p2.e))));
}

/* sin (want 1) and cos (want 2) of the pair r (|r.v| <= 0.81) in quadrant q, in float:
 * Taylor polynomials in r.v (sin through r^9, truncation 2^-28.6 relative at pi/4; cos
 * through r^10, 2^-36), plus the first-order term of r.e with the derivative to two terms
 * (cos r = 1 - z/2, sin r = r (1 - z/6): below 2^-4 relative, on a term below 2^-24 of the
 * value), so that each function needs one polynomial and sincos gives the same bits. cos's
 * last step 1 + q (q = z C(z) <= 0) keeps its rounding in the error half (Fast2Sum): where
 * the float value rounds to 1 the pair stays below 1 (the first-order term, below 2^-24 z,
 * cannot lift it past 1 - z/2), as the exact cos and sin (odd quadrants) do. */
CP_FUNC void cp_detail_trig_low_q(cp_float r, int q, int want, cp_float *s, cp_float *c)
{
  float z = cp_fmul_rn(r.v, r.v), ps, pc;
  cp_float s0 = r, c0 = r;
  if (((want & 1) && !(q & 1)) || ((want & 2) && (q & 1))) {
    ps = cp_fma_rn(z, 0x1.71de3ap-19f, -0x1.a01a02p-13f); /* 1/9!, -1/7! */
    ps = cp_fma_rn(ps, z, 0x1.111112p-7f);                /* 1/5! */
    ps = cp_fma_rn(ps, z, -0x1.555556p-3f);               /* -1/3! */
    s0 = cp_make_float(cp_fma_rn(cp_fmul_rn(r.v, z), ps, r.v), cp_fmul_rn(cp_fma_rn(z, -0.5f, 1.0f), r.e));
  }
  if (((want & 2) && !(q & 1)) || ((want & 1) && (q & 1))) {
    pc = cp_fma_rn(z, -0x1.27e4fcp-22f, 0x1.a01a02p-16f); /* -1/10!, 1/8! */
    pc = cp_fma_rn(pc, z, -0x1.6c16c2p-10f);              /* -1/6! */
    pc = cp_fma_rn(pc, z, 0x1.555556p-5f);                /* 1/4! */
    pc = cp_fma_rn(pc, z, -0.5f);
    float q = cp_fmul_rn(pc, z), cv = cp_fadd_rn(1.0f, q); /* 1 + q by Fast2Sum (q <= 0) */
    float d = -cp_fmul_rn(cp_fma_rn(z, -0x1.555556p-3f, 1.0f), cp_fmul_rn(r.v, r.e));
    c0 = cp_make_float(cv, cp_fadd_rn(cp_fadd_rn(cp_fsub_rn(1.0f, cv), q), d));
  }
  if (want & 1) *s = cp_detail_trig_neg((q & 1) ? c0 : s0, q & 2);
  if (want & 2) *c = cp_detail_trig_neg((q & 1) ? s0 : c0, (q + 1) & 2);
}

/* sin (want 1) and cos (want 2), low tier: NaN for inf and NaN, {+-0, 0} and {1, 0} for
 * +-0, else the reduced pair evaluated in float (cp_detail_trig_low_q). */
CP_FUNC void cp_detail_trig_low_sc(cp_float x, int want, cp_float *s, cp_float *c)
{
  cp_float n = cp_normalize(x);
  if (n.v - n.v != 0.0f) {
    *s = *c = cp_make_float(n.v - n.v, 0.0f);
  } else if (n.v == 0.0f) {
    *s = n;
    *c = cp_make_float(1.0f, 0.0f);
  } else {
    int q;
    cp_float r = cp_detail_trig_reduce_low(n, &q);
    cp_detail_trig_low_q(r, q, want, s, c);
  }
}

/* tan, low tier: sin/cos of the reduced pair (even quadrant) or -cos/sin (odd) in float, the
 * quotient by the approximate reciprocal refined once (cp_detail_fdiv_approx: no IEEE
 * division), the error half (1 + t^2) r.e. */
CP_FUNC cp_float cp_detail_trig_low_tan(cp_float x)
{
  cp_float n = cp_normalize(x);
  if (n.v - n.v != 0.0f || n.v == 0.0f) return cp_make_float(n.v - n.v != 0.0f ? n.v - n.v : n.v, 0.0f);
  int q;
  cp_float s, c, r = cp_detail_trig_reduce_low(n, &q);
  cp_detail_trig_low_q(cp_make_float(r.v, 0.0f), 0, 3, &s, &c);
  float t = (q & 1) ? -cp_detail_fdiv_approx(c.v, s.v) : cp_detail_fdiv_approx(s.v, c.v);
  return cp_make_float(t, cp_detail_finitef(t) ? cp_fma_rn(cp_fmul_rn(t, t), r.e, r.e) : 0.0f);
}

/* The float functions' values (for CP_DETAIL_SETTLE), without CUDA's sinf, cosf, tanf
 * (whose large-argument reduction is in FP64). */
CP_FUNC float cp_detail_trig_sinf(float v)
{
  cp_float s, c;
  cp_detail_trig_low_sc(cp_make_float(v, 0.0f), 1, &s, &c);
  return s.v;
}

CP_FUNC float cp_detail_trig_cosf(float v)
{
  cp_float s, c;
  cp_detail_trig_low_sc(cp_make_float(v, 0.0f), 2, &s, &c);
  return c.v;
}

/* sin and cos, high tier (want: 1 sin, 2 cos, 3 both). NaN and inf: NaN; +-0: sin +-0. */
CP_FUNC void cp_detail_sincos_high(cp_float x, int want, cp_float *s, cp_float *c)
{
  if (x.v - x.v != 0.0f) { /* inf, NaN */
    *s = *c = cp_make_float(x.v - x.v, 0.0f);
    return;
  }
  if (x.v == 0.0f) {
    *s = x;
    *c = cp_make_float(1.0f, 0.0f);
    return;
  }
  int q;
  cp_float r = cp_detail_trig_reduce_any(x, &q);
  cp_detail_sincos_q(r, q, want, s, c);
}

/* sin, high tier. Measured (module comment): see docs/runtime.md. */
CP_FUNC cp_float cp_high_sin(cp_float x)
{
  cp_float s, c;
  cp_detail_sincos_high(x, 1, &s, &c);
  CP_DETAIL_SETTLE(s, cp_detail_trig_sinf(cp_to_float(x)));
  return s;
}

CP_FUNC cp_float cp_high_cos(cp_float x)
{
  cp_float s, c;
  cp_detail_sincos_high(x, 2, &s, &c);
  CP_DETAIL_SETTLE(c, cp_detail_trig_cosf(cp_to_float(x)));
  return c;
}

CP_FUNC void cp_high_sincos(cp_float x, cp_float *s, cp_float *c)
{
  cp_detail_sincos_high(x, 3, s, c);
}

/* tan = sin/cos (even quadrant) or -cos/sin (odd), by the accurate division. */
CP_FUNC cp_float cp_high_tan(cp_float x)
{
  cp_float z;
  if (x.v - x.v != 0.0f || x.v == 0.0f) {
    z = cp_make_float(x.v - x.v != 0.0f ? x.v - x.v : x.v, x.v - x.v != 0.0f ? 0.0f : x.e);
  } else {
    int q;
    cp_float r = cp_detail_trig_reduce_any(x, &q), rz = cp_detail_trig_sq(r);
    cp_float s = cp_detail_sin_ff(r, rz), c = cp_detail_cos_ff(rz);
    z = (q & 1) ? cp_accurate_div(cp_make_float(-c.v, -c.e), s) : cp_accurate_div(s, c);
  }
  CP_DETAIL_SETTLE(z, cp_detail_trig_low_tan(cp_make_float(cp_to_float(x), 0.0f)).v);
  return z;
}

/* ---- atan2 and its family ---- */

/* atan(j/8), j = 1..8, as pairs (a switch: selects, no memory). */
CP_FUNC cp_float cp_detail_atan_table(int j)
{
  switch (j) {
  case 1: return cp_make_float(0x1.fd5baap-4f, -0x1.54f424p-30f);
  case 2: return cp_make_float(0x1.f5b76p-3f, -0x1.b4dfc8p-29f);
  case 3: return cp_make_float(0x1.6f6194p-2f, 0x1.e4defp-30f);
  case 4: return cp_make_float(0x1.dac67p-2f, 0x1.586ed4p-28f);
  case 5: return cp_make_float(0x1.1e00bap-1f, 0x1.7bdfd6p-26f);
  case 6: return cp_make_float(0x1.4978fap-1f, 0x1.934f7p-28f);
  case 7: return cp_make_float(0x1.700a7cp-1f, 0x1.5e118cp-27f);
  default: return cp_make_float(0x1.921fb6p-1f, -0x1.777a5cp-26f);
  }
}

/* atan(j/8) + atan(num/(a + cb)), mid tier (math_trig_mid.cuh). */
CP_FUNC cp_float cp_detail_trigm_atan_j(cp_float num, cp_float a, cp_float cb, int j);

/* atan(b/a) for pairs 0 <= b <= a, 2^-23 <= a < 2 (the caller scales):
 * c = j/8 nearest to b/a, atan(b/a) = atan(c) + atan(t), t = (b - c a)/(a + c b),
 * |t| <= 1/16 (c a by TwoProd and a rounded low product, the sums AccurateDWPlusDW, the
 * quotient the accurate division). atan(t) = t + t w P(w), w = t^2, P the Taylor polynomial
 * of (atan t - t)/t^3 through t^13/13 (truncation 2^-59.9): four terms in float, the last
 * two float-float; then atan(c) from the table (AccurateDWPlusDW). mid: from num on,
 * cp_detail_trigm_atan_j. */
CP_FUNC cp_float cp_detail_atan_ratio(cp_float b, cp_float a, int mid)
{
  float jf = rintf(cp_fmul_rn(8.0f, cp_fdiv_rn(b.v, a.v)));
  int j = (int)jf;
  float cc = cp_fmul_rn(jf, 0.125f);
  cp_float ca = cp_two_prod(a.v, cc), cb = cp_two_prod(b.v, cc);
  ca = cp_fast_two_sum(ca.v, cp_fma_rn(a.e, cc, ca.e));
  cb = cp_fast_two_sum(cb.v, cp_fma_rn(b.e, cc, cb.e));
  cp_float num = j ? cp_detail_add_dd(b, cp_make_float(-ca.v, -ca.e)) : b;
  if (mid) return cp_detail_trigm_atan_j(num, a, cb, j);
  cp_float den = j ? cp_detail_add_dd(a, cb) : a;
  cp_float t = cp_accurate_div(num, den), w = cp_detail_trig_sq(t);
  float q = 0x1.3b13b2p-4f;                /* 1/13 */
  q = cp_fma_rn(q, w.v, -0x1.745d18p-4f);  /* -1/11 */
  q = cp_fma_rn(q, w.v, 0x1.c71c72p-4f);   /* 1/9 */
  q = cp_fma_rn(q, w.v, -0x1.24924ap-3f);  /* -1/7 */
  cp_float p = cp_detail_add_const(cp_detail_mul_f(cp_make_float(q, 0.0f), w.v), 0x1.99999ap-3f, -0x1.99999ap-29f); /* 1/5 */
  p = cp_detail_add_const(cp_detail_mul_dd(p, w), -0x1.555556p-2f, 0x1.555556p-27f); /* -1/3 */
  cp_float at = cp_detail_add_dd(t, cp_detail_mul_dd(t, cp_detail_mul_dd(w, p)));
  return j ? cp_detail_add_dd(cp_detail_atan_table(j), at) : at;
}

CP_FUNC int cp_detail_trig_sign(float f) { return (int)(cp_detail_fbits(f) >> 31); }

/* atan2(y, x) for pairs: infinities replaced by +-1 and finite values by +-0 (the limits
 * atan2f gives), |y| and |x| ordered (b <= a, swap: pi/2 - ...), both scaled by a power of
 * two that brings a into [1, 2) (a b that underflows then has b/a below 2^-150), atan(b/a); then pi - ... for x < 0 (the sign bit, as -0) and
 * the sign of y. pi/2 and pi as pairs (cp_detail_add_dd: 3u^2). */
CP_FUNC cp_float cp_detail_atan2_ff(cp_float y, cp_float x, int mid)
{
  if (y.v != y.v || x.v != x.v) return cp_make_float(y.v + x.v, 0.0f);
  int sy = cp_detail_trig_sign(y.v), sx = cp_detail_trig_sign(x.v);
  cp_float ay = cp_detail_trig_neg(y, sy), ax = cp_detail_trig_neg(x, sx);
  if (ay.v == INFINITY || ax.v == INFINITY) {
    ay = cp_make_float(ay.v == INFINITY ? 1.0f : 0.0f, 0.0f);
    ax = cp_make_float(ax.v == INFINITY ? 1.0f : 0.0f, 0.0f);
  }
  int swap = ay.v > ax.v;
  cp_float b = swap ? ax : ay, a = swap ? ay : ax, z = cp_make_float(0.0f, 0.0f);
  if (a.v != 0.0f) { /* a into [1, 2) (subnormal: [2^-23, 2)), b with it: exact or negligible */
    int ex = (int)((cp_detail_fbits(a.v) >> 23) & 0xffu) - 127;
    z = cp_detail_atan_ratio(cp_detail_scale(b, -ex), cp_detail_scale(a, -ex), mid);
  }
  if (swap) z = cp_detail_add_dd(cp_make_float(CP_DETAIL_PIO2_1, CP_DETAIL_PIO2_2), cp_make_float(-z.v, -z.e));
  if (sx) z = cp_detail_add_dd(cp_make_float(2.0f * CP_DETAIL_PIO2_1, 2.0f * CP_DETAIL_PIO2_2), cp_make_float(-z.v, -z.e));
  if (z.e == 0.0f && z.v == 0.0f) z = cp_make_float(0.0f, 0.0f);
  return cp_detail_trig_neg(z, sy);
}

/* atan2, atan, asin, acos at the tier `mid` names (0 high, 1 mid: a constant, so each tier
 * compiles to its own code): the algorithm above, asin and acos as atan2(x, sqrt(1 - x^2))
 * and atan2(sqrt(1 - x^2), x) (cp_detail_trig_cosof below), the float functions' special
 * values (CP_DETAIL_SETTLE). */
CP_FUNC cp_float cp_detail_atan2_tier(cp_float y, cp_float x, int mid)
{
  cp_float z = cp_detail_atan2_ff(y, x, mid);
  CP_DETAIL_SETTLE(z, atan2f(cp_to_float(y), cp_to_float(x)));
  return z;
}

CP_FUNC cp_float cp_detail_atan_tier(cp_float x, int mid)
{
  cp_float z = cp_detail_atan2_ff(x, cp_make_float(1.0f, 0.0f), mid);
  CP_DETAIL_SETTLE(z, atanf(cp_to_float(x)));
  return z;
}

/* sqrt(1 - x^2) = sqrt((1 - |x|)(1 + |x|)) for |x| <= 1 (AccurateDWPlusDW for each factor,
 * exact where they cancel; DWTimesDW3; the accurate square root); NaN where |x| > 1. */
CP_FUNC cp_float cp_detail_trig_cosof(cp_float x)
{
  cp_float ax = cp_detail_trig_neg(x, cp_detail_trig_sign(x.v));
  cp_float one = cp_make_float(1.0f, 0.0f), nax = cp_make_float(-ax.v, -ax.e);
  cp_float d = cp_detail_mul_dd(cp_detail_add_dd(one, nax), cp_detail_add_dd(one, ax));
  if (d.v < 0.0f || ax.v > 1.0f) return cp_make_float(NAN, 0.0f);
  if (d.v == 0.0f) return cp_make_float(0.0f, 0.0f);
  return cp_accurate_sqrt(d);
}

/* asin(x) = atan2(x, sqrt(1 - x^2)) (want 1), acos(x) = atan2(sqrt(1 - x^2), x) (want 2); NaN
 * where |x| > 1. */
CP_FUNC cp_float cp_detail_asin_tier(cp_float x, int want, int mid)
{
  cp_float s = cp_detail_trig_cosof(x), z;
  if (s.v != s.v || x.v != x.v) z = cp_make_float(NAN, 0.0f);
  else z = want == 1 ? cp_detail_atan2_ff(x, s, mid) : cp_detail_atan2_ff(s, x, mid);
  CP_DETAIL_SETTLE(z, want == 1 ? asinf(cp_to_float(x)) : acosf(cp_to_float(x)));
  return z;
}

CP_FUNC cp_float cp_high_atan2(cp_float y, cp_float x) { return cp_detail_atan2_tier(y, x, 0); }
CP_FUNC cp_float cp_high_atan(cp_float x) { return cp_detail_atan_tier(x, 0); }
CP_FUNC cp_float cp_high_asin(cp_float x) { return cp_detail_asin_tier(x, 1, 0); }
CP_FUNC cp_float cp_high_acos(cp_float x) { return cp_detail_asin_tier(x, 2, 0); }

/* mid: sin, cos, sincos, tan, asin, acos, atan, atan2 in math_trig_mid.cuh (cheaper steps). */
#include "math_trig_mid.cuh"

/* sinpi (want 1) and cospi (want 2) at a tier: the exact reduction (cp_detail_trig_reduce_pi:
 * no reduction error but r pi's product), then the tier's kernels (mid: math_trig_mid.cuh's);
 * zero results signed as sinpif and cospif sign them. */
CP_FUNC cp_float cp_detail_pi_tier(cp_float x, int want, int mid)
{
  if (x.v - x.v != 0.0f) return cp_make_float(x.v - x.v, 0.0f);
  if (x.v == 0.0f) return want == 1 ? x : cp_make_float(1.0f, 0.0f);
  int q;
  cp_float r = cp_detail_trig_reduce_pi(x, &q), s = r, c = r;
  if (mid) cp_detail_trigm_q(r, q, want, &s, &c);
  else cp_detail_sincos_q(r, q, want, &s, &c);
  cp_float z = want == 1 ? s : c;
  if (z.v == 0.0f) z = cp_make_float(want == 1 ? copysignf(0.0f, x.v) : 0.0f, 0.0f);
  CP_DETAIL_SETTLE(z, want == 1 ? cp_detail_trig_sinpif(cp_to_float(x)) : cp_detail_trig_cospif(cp_to_float(x)));
  return z;
}

CP_FUNC cp_float cp_high_sinpi(cp_float x) { return cp_detail_pi_tier(x, 1, 0); }
CP_FUNC cp_float cp_high_cospi(cp_float x) { return cp_detail_pi_tier(x, 2, 0); }
CP_FUNC cp_float cp_mid_sinpi(cp_float x) { return cp_detail_pi_tier(x, 1, 1); }
CP_FUNC cp_float cp_mid_cospi(cp_float x) { return cp_detail_pi_tier(x, 2, 1); }

/* ---- low: {f(v), f'(v) e} on the normalized pair; e = 0 where either is not finite ---- */

/* sin, cos, sincos, tan: the reduced pair (not v alone) in float, so beyond 2^17 too the
 * float accuracy holds for the pair's value; see cp_detail_trig_low_sc. */
CP_FUNC cp_float cp_low_sin(cp_float x)
{
  cp_float s, c;
  cp_detail_trig_low_sc(x, 1, &s, &c);
  return s;
}

CP_FUNC cp_float cp_low_cos(cp_float x)
{
  cp_float s, c;
  cp_detail_trig_low_sc(x, 2, &s, &c);
  return c;
}

CP_FUNC void cp_low_sincos(cp_float x, cp_float *s, cp_float *c) { cp_detail_trig_low_sc(x, 3, s, c); }

CP_FUNC cp_float cp_low_tan(cp_float x) { return cp_detail_trig_low_tan(x); }

CP_FUNC cp_float cp_low_sinpi(cp_float x)
{
  cp_float n = cp_normalize(x);
  float d = cp_fmul_rn(cp_fmul_rn(0x1.921fb6p+1f, cp_detail_trig_cospif(n.v)), n.e);
  float y = cp_detail_trig_sinpif(n.v);
  return cp_detail_low(y, cp_detail_low_inside(y, d, -1.0f, 1.0f));
}

CP_FUNC cp_float cp_low_cospi(cp_float x)
{
  cp_float n = cp_normalize(x);
  float d = cp_fmul_rn(cp_fmul_rn(-0x1.921fb6p+1f, cp_detail_trig_sinpif(n.v)), n.e);
  float y = cp_detail_trig_cospif(n.v);
  return cp_detail_low(y, cp_detail_low_inside(y, d, -1.0f, 1.0f));
}

CP_FUNC cp_float cp_low_asin(cp_float x) /* asin' = 1/sqrt((1 - v)(1 + v)) */
{
  cp_float n = cp_normalize(x);
  float r = cp_detail_rsqrt_approx(cp_fmul_rn(cp_fsub_rn(1.0f, n.v), cp_fadd_rn(1.0f, n.v)));
  return cp_detail_low(asinf(n.v), cp_fmul_rn(n.e, r));
}

CP_FUNC cp_float cp_low_acos(cp_float x)
{
  cp_float n = cp_normalize(x);
  float r = cp_detail_rsqrt_approx(cp_fmul_rn(cp_fsub_rn(1.0f, n.v), cp_fadd_rn(1.0f, n.v)));
  return cp_detail_low(acosf(n.v), -cp_fmul_rn(n.e, r));
}

CP_FUNC cp_float cp_low_atan(cp_float x) /* atan' = 1/(1 + v^2) */
{
  cp_float n = cp_normalize(x);
  return cp_detail_low(atanf(n.v), cp_fdiv_rn(n.e, cp_fma_rn(n.v, n.v, 1.0f)));
}

/* atan2: d = (x ye - y xe)/(x^2 + y^2), as ((x/h) ye - (y/h) xe)/h with h = hypotf(x, y). */
CP_FUNC cp_float cp_low_atan2(cp_float y, cp_float x)
{
  cp_float ny = cp_normalize(y), nx = cp_normalize(x);
  float h = hypotf(nx.v, ny.v);
  float d = h > 0.0f ? cp_fdiv_rn(cp_fma_rn(cp_fdiv_rn(nx.v, h), ny.e, -cp_fmul_rn(cp_fdiv_rn(ny.v, h), nx.e)), h) : 0.0f;
  return cp_detail_low(atan2f(ny.v, nx.v), d);
}

/* ---- the generic names: the tier of the family CP_ALGO selects ---- */
#if CP_ALGO == CP_ALGO_FAST
#define CP_DETAIL_TRIG_TIER(f) cp_low_##f
#define CP_DETAIL_TRIG_ARG(x) (x)
#elif CP_ALGO == CP_ALGO_MID
#define CP_DETAIL_TRIG_TIER(f) cp_mid_##f
#define CP_DETAIL_TRIG_ARG(x) (x)
#elif CP_ALGO == CP_ALGO_PAPER /* unnormalized pairs: normalized first (exact) */
#define CP_DETAIL_TRIG_TIER(f) cp_high_##f
#define CP_DETAIL_TRIG_ARG(x) cp_normalize(x)
#else
#define CP_DETAIL_TRIG_TIER(f) cp_high_##f
#define CP_DETAIL_TRIG_ARG(x) (x)
#endif
CP_FUNC cp_float cp_sin(cp_float x) { return CP_DETAIL_TRIG_TIER(sin)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_cos(cp_float x) { return CP_DETAIL_TRIG_TIER(cos)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC void cp_sincos(cp_float x, cp_float *s, cp_float *c) { CP_DETAIL_TRIG_TIER(sincos)(CP_DETAIL_TRIG_ARG(x), s, c); }
CP_FUNC cp_float cp_tan(cp_float x) { return CP_DETAIL_TRIG_TIER(tan)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_sinpi(cp_float x) { return CP_DETAIL_TRIG_TIER(sinpi)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_cospi(cp_float x) { return CP_DETAIL_TRIG_TIER(cospi)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_asin(cp_float x) { return CP_DETAIL_TRIG_TIER(asin)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_acos(cp_float x) { return CP_DETAIL_TRIG_TIER(acos)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_atan(cp_float x) { return CP_DETAIL_TRIG_TIER(atan)(CP_DETAIL_TRIG_ARG(x)); }
CP_FUNC cp_float cp_atan2(cp_float y, cp_float x)
{
  return CP_DETAIL_TRIG_TIER(atan2)(CP_DETAIL_TRIG_ARG(y), CP_DETAIL_TRIG_ARG(x));
}
#undef CP_DETAIL_TRIG_TIER
#undef CP_DETAIL_TRIG_ARG

#else /* CP_BACKEND_IS_DP: the double function, every tier (about 2^-52 relative) */

CP_FUNC cp_float cp_sin(cp_float x) { return cp_detail_dp(sin(x.d)); }
CP_FUNC cp_float cp_cos(cp_float x) { return cp_detail_dp(cos(x.d)); }
CP_FUNC void cp_sincos(cp_float x, cp_float *s, cp_float *c)
{
  *s = cp_detail_dp(sin(x.d));
  *c = cp_detail_dp(cos(x.d));
}
CP_FUNC cp_float cp_tan(cp_float x) { return cp_detail_dp(tan(x.d)); }
CP_FUNC cp_float cp_sinpi(cp_float x) { return cp_detail_dp(cp_detail_trig_sinpi(x.d)); }
CP_FUNC cp_float cp_cospi(cp_float x) { return cp_detail_dp(cp_detail_trig_cospi(x.d)); }
CP_FUNC cp_float cp_asin(cp_float x) { return cp_detail_dp(asin(x.d)); }
CP_FUNC cp_float cp_acos(cp_float x) { return cp_detail_dp(acos(x.d)); }
CP_FUNC cp_float cp_atan(cp_float x) { return cp_detail_dp(atan(x.d)); }
CP_FUNC cp_float cp_atan2(cp_float y, cp_float x) { return cp_detail_dp(atan2(y.d, x.d)); }
#define CP_DETAIL_TRIG_DP_TIER(T)                                                              \
  CP_FUNC cp_float cp_##T##_sin(cp_float x) { return cp_sin(x); }                            \
  CP_FUNC cp_float cp_##T##_cos(cp_float x) { return cp_cos(x); }                            \
  CP_FUNC void cp_##T##_sincos(cp_float x, cp_float *s, cp_float *c) { cp_sincos(x, s, c); } \
  CP_FUNC cp_float cp_##T##_tan(cp_float x) { return cp_tan(x); }                            \
  CP_FUNC cp_float cp_##T##_sinpi(cp_float x) { return cp_sinpi(x); }                        \
  CP_FUNC cp_float cp_##T##_cospi(cp_float x) { return cp_cospi(x); }                        \
  CP_FUNC cp_float cp_##T##_asin(cp_float x) { return cp_asin(x); }                          \
  CP_FUNC cp_float cp_##T##_acos(cp_float x) { return cp_acos(x); }                          \
  CP_FUNC cp_float cp_##T##_atan(cp_float x) { return cp_atan(x); }                          \
  CP_FUNC cp_float cp_##T##_atan2(cp_float y, cp_float x) { return cp_atan2(y, x); }
CP_DETAIL_TRIG_DP_TIER(low)
CP_DETAIL_TRIG_DP_TIER(mid)
CP_DETAIL_TRIG_DP_TIER(high)
#undef CP_DETAIL_TRIG_DP_TIER

#endif /* CP_BACKEND_IS_DP */

/* ---- cp_double: the double function plus the first-order propagation of lo ----
 * Not double-double accuracy: about 2^-52 relative (the double function's), lo carried to
 * first order so that a chain keeps its pairs. Kernels written in double only. */
CP_FUNC cp_double cp_detail_dd_trig(double y, double d)
{
  if (!cp_detail_finite(y) || !cp_detail_finite(d)) return cp_make_double(y, 0.0);
  return cp_dd_two_sum(y, d);
}

CP_FUNC cp_double cp_dd_sin(cp_double x) { return cp_detail_dd_trig(sin(x.hi), cos(x.hi) * x.lo); }
CP_FUNC cp_double cp_dd_cos(cp_double x) { return cp_detail_dd_trig(cos(x.hi), -sin(x.hi) * x.lo); }
CP_FUNC void cp_dd_sincos(cp_double x, cp_double *s, cp_double *c)
{
  *s = cp_dd_sin(x);
  *c = cp_dd_cos(x);
}
CP_FUNC cp_double cp_dd_tan(cp_double x)
{
  double t = tan(x.hi);
  return cp_detail_dd_trig(t, fma(t * t, x.lo, x.lo));
}
CP_FUNC cp_double cp_dd_sinpi(cp_double x)
{
  return cp_detail_dd_trig(cp_detail_trig_sinpi(x.hi), 0x1.921fb54442d18p+1 * cp_detail_trig_cospi(x.hi) * x.lo);
}
CP_FUNC cp_double cp_dd_cospi(cp_double x)
{
  return cp_detail_dd_trig(cp_detail_trig_cospi(x.hi), -0x1.921fb54442d18p+1 * cp_detail_trig_sinpi(x.hi) * x.lo);
}
CP_FUNC cp_double cp_dd_asin(cp_double x)
{
  return cp_detail_dd_trig(asin(x.hi), x.lo / sqrt((1.0 - x.hi) * (1.0 + x.hi)));
}
CP_FUNC cp_double cp_dd_acos(cp_double x)
{
  return cp_detail_dd_trig(acos(x.hi), -x.lo / sqrt((1.0 - x.hi) * (1.0 + x.hi)));
}
CP_FUNC cp_double cp_dd_atan(cp_double x) { return cp_detail_dd_trig(atan(x.hi), x.lo / fma(x.hi, x.hi, 1.0)); }
CP_FUNC cp_double cp_dd_atan2(cp_double y, cp_double x)
{
  double h = hypot(x.hi, y.hi);
  double d = h > 0.0 ? fma(x.hi / h, y.lo, -(y.hi / h) * x.lo) / h : 0.0;
  return cp_detail_dd_trig(atan2(y.hi, x.hi), d);
}

#endif /* CP_MATH_TRIG_CUH */
