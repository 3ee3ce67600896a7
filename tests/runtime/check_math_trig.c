/* check_math_trig.c - the composite trigonometric functions (math_trig.cuh, ff backend)
 * against MPFR.
 *
 * For every tier of sin, cos, tan, sinpi, cospi, asin, acos, atan and atan2: random
 * normalized pairs over the domain the header states plus edge cases (arguments next to
 * multiples of pi/2 and of 1/2, next to +-1 for asin and acos, tiny and huge ratios for
 * atan2), the pair's value v + e against the exact function of the input's value (MPFR, 200
 * bits). Measured: the largest relative error in units of 2^-48, printed and asserted
 * against the bound the header states, plus 2^-148 absolute (two subnormal ulps). Beyond
 * |x| = 2^17 (Payne-Hanek) sin, cos and tan are checked apart, at the same bounds; the low
 * tier's float values of sin, cos, tan in ulps, against CUDA's documented float bounds. sincos is checked bit for bit against sin and
 * cos; special values against the float functions'. Build: the default family (accurate).
 */
#include "test_util.h"

#include <stdio.h>

#define U48 0x1p-48
#define N_TRIG (100000 / TU_SAMPLE_DIV)
#define B_ABS 0x1p-148 /* two subnormal ulps: an error half below 2^-126 holds no less */
#define B_LOW (0x1p-22 / U48) /* low: the float function's error, plus O(e^2) */

/* high and mid, units of 2^-48 (measured maxima in math_trig.cuh's comments); mid sin, cos, tan apart */
#define B_SIN 3.0 /* measured 1.97 (sin), 1.87 (cos) */
#define B_TAN 8.0 /* measured 5.93 */
#define B_SIN_MID 5.0 /* mid: measured 3.30 (sin), 3.67 (cos) */
#define B_TAN_MID 8.0 /* mid: measured 5.76 */
#define B_PI 4.0 /* measured 2.94 */
#define B_PI_MID 6.0 /* mid: measured 3.57 (sinpi), 4.05 (cospi) */
#define B_ASIN 8.0 /* measured 5.73 */
#define B_ATAN 6.0 /* measured 4.07 */

typedef enum { T_SIN, T_COS, T_TAN, T_SINPI, T_COSPI, T_ASIN, T_ACOS, T_ATAN, T_ATAN2 } trig;
static const char *const trig_name[] = { "sin", "cos", "tan", "sinpi", "cospi", "asin", "acos", "atan", "atan2" };

typedef struct {
  cp_float (*f1)(cp_float);
  cp_float (*f2)(cp_float, cp_float);
} fn;

typedef struct {
  mpfr_t x, y, exact, got, d;
  double worst, worst_abs;
  long bad, n;
} meter;

static void meter_init(meter *m)
{
  mpfr_inits2(TU_PREC, m->x, m->y, m->exact, m->got, m->d, (mpfr_ptr)0);
  m->worst = m->worst_abs = 0.0;
  m->bad = m->n = 0;
}

static void meter_clear(meter *m) { mpfr_clears(m->x, m->y, m->exact, m->got, m->d, (mpfr_ptr)0); }

static void exact_of(meter *m, trig w)
{
  switch (w) {
  case T_SIN: mpfr_sin(m->exact, m->x, MPFR_RNDN); break;
  case T_COS: mpfr_cos(m->exact, m->x, MPFR_RNDN); break;
  case T_TAN: mpfr_tan(m->exact, m->x, MPFR_RNDN); break;
  case T_SINPI: mpfr_sinpi(m->exact, m->x, MPFR_RNDN); break;
  case T_COSPI: mpfr_cospi(m->exact, m->x, MPFR_RNDN); break;
  case T_ASIN: mpfr_asin(m->exact, m->x, MPFR_RNDN); break;
  case T_ACOS: mpfr_acos(m->exact, m->x, MPFR_RNDN); break;
  case T_ATAN: mpfr_atan(m->exact, m->x, MPFR_RNDN); break;
  default: mpfr_atan2(m->exact, m->y, m->x, MPFR_RNDN); break;
  }
}

/* low: the terms of second and third order that {f(v), f'(v) e} leaves out, with a margin
 * of 2: |f''(v)| e^2/2 + max |f'''| |e|^3/6, from each function's derivatives. */
static double omitted(trig w, cp_float y, cp_float x)
{
  double v = x.v, e = fabs((double)x.e), d2 = 0, d3 = 0, s = 1 - v * v, t = tan(v), h;
  switch (w) {
  case T_SIN: case T_COS: d2 = d3 = 1; break;
  case T_TAN: d2 = 2 * fabs(t) * (1 + t * t); d3 = 2 * (1 + t * t) * (1 + 3 * t * t) * 8; break;
  case T_SINPI: case T_COSPI: d2 = 9.87; d3 = 31.1; break;
  case T_ASIN: case T_ACOS: d2 = fabs(v) / (s * sqrt(s)); d3 = (1 + 2 * v * v) / (s * s * sqrt(s)) * 8; break;
  case T_ATAN: d2 = 2; d3 = 6; break;
  default:
    h = hypot((double)x.v, (double)y.v);
    e = fmax(e, fabs((double)y.e));
    d2 = 2 / (h * h);
    d3 = 6 / (h * h * h);
    break;
  }
  return 2 * (d2 * e * e / 2 + d3 * e * e * e / 6);
}

/* One case: f(x) (atan2: f(y, x)) against MPFR; `bound` in units of 2^-48: relative (mode
 * 0), absolute (mode ABS), or the low tier's (mode LOW: relative to its own halves, plus the
 * terms its first order leaves out). */
enum { REL, ABS, LOW };
static void measure(meter *m, const char *name, fn f, trig w, cp_float y, cp_float x, double bound, int mode)
{
  int abs = mode == ABS;
  if (w == T_ATAN2 && y.v == 0.0f) return; /* the pair {-0, +0} sums to +0 in MPFR */
  /* low tan within 2^-8 relative of a pole: its first order means nothing there */
  if (w == T_TAN && mode == LOW && fabs(tan((double)x.v)) > 0x1p8) return;
  cp_float z = w == T_ATAN2 ? f.f2(y, x) : f.f1(x);
  tu_set_pair(m->x, x);
  tu_set_pair(m->y, y);
  exact_of(m, w);
  if (mpfr_nan_p(m->exact) || mpfr_cmpabs_ui(m->exact, 0) == 0 || mpfr_cmp_d(m->exact, FLT_MAX) > 0 ||
      mpfr_cmp_d(m->exact, -FLT_MAX) < 0)
    return;
  m->n++;
  if (!(cp_detail_finitef(z.v) && cp_detail_finitef(z.e))) {
    if (m->bad++ < 3)
      fprintf(stderr, "%s({%a, %a}, {%a, %a}) = {%a, %a}: not finite\n", name, y.v, y.e, x.v, x.e, z.v, z.e);
    return;
  }
  tu_set_pair(m->got, z);
  mpfr_sub(m->d, m->got, m->exact, MPFR_RNDN);
  mpfr_abs(m->d, m->d, MPFR_RNDN);
  double a = mpfr_get_d(m->d, MPFR_RNDU);
  int tiny = mpfr_get_exp(m->exact) <= -100;
  mpfr_div(m->d, m->d, m->exact, MPFR_RNDN);
  double r = fabs(mpfr_get_d(m->d, MPFR_RNDU)) / U48;
  if (abs) r = a / U48;
  double lim = abs ? bound * U48 : bound * U48 * fabs(mpfr_get_d(m->exact, MPFR_RNDU)) + B_ABS;
  if (mode == LOW) { /* low: against its own halves, plus the terms it leaves out */
    double o = omitted(w, y, x);
    lim = bound * U48 * (fabs(z.v) + fabs(z.e)) + B_ABS + o;
    r = fmax(a - o, 0.0) / (fabs(z.v) + fabs(z.e)) / U48;
  }
  if (tiny && !abs && a > m->worst_abs) m->worst_abs = a;
  if ((!tiny || abs) && r > m->worst) m->worst = r;
  if (!(a <= lim) && m->bad++ < 3)
    fprintf(stderr, "%s({%a, %a}, {%a, %a}) = {%a, %a}: error %g * 2^-48 %s\n", name, y.v, y.e, x.v, x.e, z.v,
            z.e, r, abs ? "absolute" : "relative");
}

/* A normalized pair with value v: e random up to ulp(v)/2, or 0. */
static cp_float pair_of(gen_rng *r, float v)
{
  if (v == 0.0f || gen_one_in(r, 8)) return cp_make_float(v, 0.0f);
  int ev;
  frexpf(v, &ev);
  float e = gen_float(r, ev - 26 - gen_int(r, 0, 24), ev - 26);
  return cp_normalize(cp_make_float(v, e));
}

static float uniform(gen_rng *r, float lo, float hi)
{
  return lo + (hi - lo) * (float)((double)(gen_u64(r) >> 11) * 0x1p-53);
}

static float signed_float(gen_rng *r, int emin, int emax)
{
  float v = fabsf(gen_float(r, emin, emax));
  return gen_one_in(r, 2) ? -v : v;
}

static void report(const meter *m, const char *name, const char *domain, double bound, int abs)
{
  printf("%-11s %-30s max error %8.4f * 2^-48 %s (bound %g); below 2^-100: %a absolute; %ld cases\n", name,
         domain, m->worst, abs ? "absolute" : "relative", bound, m->worst_abs, m->n);
  TU_CHECK(m->bad == 0, "%s: %ld cases exceed the bound %g * 2^-48", name, m->bad, bound);
}

/* An argument for function w, case i. */
static cp_float arg_of(gen_rng *r, trig w, int i)
{
  float v;
  switch (w) {
  case T_SIN: case T_COS: case T_TAN:
    switch (i % 4) {
    case 0: v = uniform(r, -4.0f, 4.0f); break;
    case 1: v = signed_float(r, -30, 16); break;
    case 2: v = (float)(gen_int(r, -83000, 83000) * 1.5707963267948966); break; /* next to k pi/2 */
    default: v = (float)(gen_int(r, -40, 40) * 0.78539816339744831) + (float)gen_int(r, -4, 4) * 0x1p-20f; break;
    }
    if (fabsf(v) >= 0x1p17f) v = 1.0f;
    return pair_of(r, v);
  case T_SINPI: case T_COSPI:
    switch (i % 4) {
    case 0: v = uniform(r, -4.0f, 4.0f); break;
    case 1: v = signed_float(r, -30, 40); break;
    case 2: v = (float)gen_int(r, -4000, 4000) * 0.25f + (float)gen_int(r, -8, 8) * 0x1p-20f; break;
    default: v = (float)gen_int(r, -4000, 4000) * 0.5f; break; /* e alone decides */
    }
    return pair_of(r, v);
  case T_ASIN: case T_ACOS:
    switch (i % 4) {
    case 0: v = uniform(r, -1.0f, 1.0f); break;
    case 1: v = signed_float(r, -40, -1); break;
    default: v = (gen_one_in(r, 2) ? -1.0f : 1.0f) * (1.0f - (float)gen_int(r, 1, 4096) * 0x1p-24f); break;
    }
    return pair_of(r, v);
  default:
    return pair_of(r, i % 2 ? uniform(r, -3.0f, 3.0f) : signed_float(r, -60, 60));
  }
}

static void run(const char *name, fn f, trig w, double bound, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  cp_float one = cp_make_float(1.0f, 0.0f);
  for (int i = 0; i < N_TRIG; ++i) {
    if (w == T_ATAN2) {
      cp_float y = pair_of(&r, signed_float(&r, -30, 30)), x = pair_of(&r, signed_float(&r, -30, 30));
      if (i % 8 == 0) x = pair_of(&r, signed_float(&r, -140, 120));
      if (i % 8 == 1) y = pair_of(&r, signed_float(&r, -140, 120));
      if (i % 8 == 2) y = pair_of(&r, x.v * (float)gen_int(&r, -8, 8) * 0.125f); /* ratios next to j/8 */
      measure(&m, name, f, w, y, x, bound, bound >= B_LOW ? LOW : REL);
    } else {
      measure(&m, name, f, w, one, arg_of(&r, w, i), bound, bound >= B_LOW ? LOW : REL);
    }
  }
  meter_clear(&m);
  char domain[64];
  snprintf(domain, sizeof domain, "%s %s", trig_name[w],
           w <= T_TAN ? "|x| < 2^17" : w <= T_COSPI ? "all x" : w <= T_ACOS ? "[-1, 1]" : "all");
  report(&m, name, domain, bound, 0);
}

#define FN1(f) ((fn){ f, NULL })
#define FN2(f) ((fn){ NULL, f })

START_TEST(test_sin_cos_tan)
{
  run("high sin", FN1(cp_high_sin), T_SIN, B_SIN, 600);
  run("mid sin", FN1(cp_mid_sin), T_SIN, B_SIN_MID, 601);
  run("low sin", FN1(cp_low_sin), T_SIN, B_LOW, 602);
  run("high cos", FN1(cp_high_cos), T_COS, B_SIN, 603);
  run("mid cos", FN1(cp_mid_cos), T_COS, B_SIN_MID, 604);
  run("low cos", FN1(cp_low_cos), T_COS, B_LOW, 605);
  run("high tan", FN1(cp_high_tan), T_TAN, B_TAN, 606);
  run("mid tan", FN1(cp_mid_tan), T_TAN, B_TAN_MID, 607);
  run("low tan", FN1(cp_low_tan), T_TAN, B_LOW, 608);
}
END_TEST

START_TEST(test_sinpi_cospi)
{
  run("high sinpi", FN1(cp_high_sinpi), T_SINPI, B_PI, 610);
  run("mid sinpi", FN1(cp_mid_sinpi), T_SINPI, B_PI_MID, 611);
  run("low sinpi", FN1(cp_low_sinpi), T_SINPI, B_LOW, 612);
  run("high cospi", FN1(cp_high_cospi), T_COSPI, B_PI, 613);
  run("mid cospi", FN1(cp_mid_cospi), T_COSPI, B_PI_MID, 614);
  run("low cospi", FN1(cp_low_cospi), T_COSPI, B_LOW, 615);
}
END_TEST

START_TEST(test_inverse)
{
  run("high asin", FN1(cp_high_asin), T_ASIN, B_ASIN, 620);
  run("mid asin", FN1(cp_mid_asin), T_ASIN, B_ASIN, 621);
  run("low asin", FN1(cp_low_asin), T_ASIN, B_LOW, 622);
  run("high acos", FN1(cp_high_acos), T_ACOS, B_ASIN, 623);
  run("mid acos", FN1(cp_mid_acos), T_ACOS, B_ASIN, 624);
  run("low acos", FN1(cp_low_acos), T_ACOS, B_LOW, 625);
  run("high atan", FN1(cp_high_atan), T_ATAN, B_ATAN, 626);
  run("mid atan", FN1(cp_mid_atan), T_ATAN, B_ATAN, 627);
  run("low atan", FN1(cp_low_atan), T_ATAN, B_LOW, 628);
  run("high atan2", FN2(cp_high_atan2), T_ATAN2, B_ATAN, 629);
  run("mid atan2", FN2(cp_mid_atan2), T_ATAN2, B_ATAN, 630);
  run("low atan2", FN2(cp_low_atan2), T_ATAN2, B_LOW, 631);
}
END_TEST

/* Beyond 2^17 (Payne and Hanek's reduction): high and mid at the bounds of |x| < 2^17,
 * relative; low (which reduces the whole pair there) within B_LOW of the pair's exact value.
 * Arguments up to FLT_MAX, and floats next to multiples of pi/2 up to 2^40. */
START_TEST(test_big_arguments)
{
  struct { const char *name; cp_float (*f)(cp_float); trig w; double bound; } t[] = {
    { "high sin", cp_high_sin, T_SIN, B_SIN }, { "mid sin", cp_mid_sin, T_SIN, B_SIN_MID },
    { "low sin", cp_low_sin, T_SIN, B_LOW },   { "high cos", cp_high_cos, T_COS, B_SIN },
    { "mid cos", cp_mid_cos, T_COS, B_SIN_MID },   { "low cos", cp_low_cos, T_COS, B_LOW },
    { "high tan", cp_high_tan, T_TAN, B_TAN }, { "mid tan", cp_mid_tan, T_TAN, B_TAN_MID },
    { "low tan", cp_low_tan, T_TAN, B_LOW },
  };
  cp_float one = cp_make_float(1.0f, 0.0f);
  for (size_t j = 0; j < sizeof t / sizeof t[0]; ++j) {
    gen_rng r = gen_seed(640 + j);
    meter m;
    meter_init(&m);
    for (int i = 0; i < 20000 / TU_SAMPLE_DIV; ++i) {
      float v = signed_float(&r, 17, 127);
      if (i % 4 == 1) v = (float)((double)gen_int(&r, 83500, 1 << 30) * gen_int(&r, 1, 1024) * 1.5707963267948966);
      cp_float x = pair_of(&r, fabsf(v) < 0x1p17f ? 0x1p17f : v);
      measure(&m, t[j].name, FN1(t[j].f), t[j].w, one, x, t[j].bound, REL);
    }
    meter_clear(&m);
    char domain[64];
    snprintf(domain, sizeof domain, "%s |x| >= 2^17", trig_name[t[j].w]);
    report(&m, t[j].name, domain, t[j].bound, 0);
  }
}
END_TEST

/* The low tier's float value (the pair rounded to a float) for floats (error half 0), in
 * ulps of the exact result, beside the host's sinf, cosf, tanf: printed, and asserted at
 * CUDA's documented bounds for sinf, cosf (2 ulp) and tanf (4 ulp). */
static double ulps(float got, mpfr_t exact, mpfr_t t)
{
  int ex;
  frexpf(mpfr_get_flt(exact, MPFR_RNDN), &ex);
  mpfr_set_flt(t, got, MPFR_RNDN);
  mpfr_sub(t, t, exact, MPFR_RNDN);
  return fabs(mpfr_get_d(t, MPFR_RNDN)) / ldexp(1.0, (ex < -125 ? -125 : ex) - 24);
}

START_TEST(test_low_ulps)
{
  cp_float (*low[3])(cp_float) = { cp_low_sin, cp_low_cos, cp_low_tan };
  float (*host[3])(float) = { sinf, cosf, tanf };
  int (*exact[3])(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t) = { mpfr_sin, mpfr_cos, mpfr_tan };
  double worst[3] = { 0, 0, 0 }, worst_host[3] = { 0, 0, 0 }, bound[3] = { 2, 2, 4 };
  mpfr_t x, y, t;
  mpfr_inits2(TU_PREC, x, y, t, (mpfr_ptr)0);
  gen_rng r = gen_seed(660);
  for (int i = 0; i < 100000 / TU_SAMPLE_DIV; ++i) {
    float v = i % 2 ? signed_float(&r, -20, 127) : uniform(&r, -8.0f, 8.0f);
    mpfr_set_flt(x, v, MPFR_RNDN);
    for (int w = 0; w < 3; ++w) {
      exact[w](y, x, MPFR_RNDN);
      worst[w] = fmax(worst[w], ulps(cp_to_float(low[w](cp_make_float(v, 0.0f))), y, t));
      worst_host[w] = fmax(worst_host[w], ulps(host[w](v), y, t));
    }
  }
  mpfr_clears(x, y, t, (mpfr_ptr)0);
  for (int w = 0; w < 3; ++w) {
    printf("low %-7s float values: max %.3f ulp (host %sf %.3f ulp; bound %g)\n", trig_name[w], worst[w],
           trig_name[w], worst_host[w], bound[w]);
    TU_CHECK(worst[w] <= bound[w], "low %s: %g ulp", trig_name[w], worst[w]);
  }
}
END_TEST

static int same_bits(cp_float a, cp_float b)
{
  return gen_fbits(a.v) == gen_fbits(b.v) && gen_fbits(a.e) == gen_fbits(b.e);
}

/* sincos is sin and cos; results are normalized; cp_NAME is the high tier here. */
START_TEST(test_sincos_and_generic)
{
  gen_rng r = gen_seed(650);
  for (int i = 0; i < 20000 / TU_SAMPLE_DIV; ++i) {
    cp_float x = pair_of(&r, signed_float(&r, -20, i % 2 ? 4 : 20)), s, c;
    cp_sincos(x, &s, &c);
    TU_CHECK(same_bits(s, cp_high_sin(x)) && same_bits(c, cp_high_cos(x)), "sincos(%a)", x.v);
    cp_low_sincos(x, &s, &c);
    TU_CHECK(same_bits(s, cp_low_sin(x)) && same_bits(c, cp_low_cos(x)), "low sincos(%a)", x.v);
    cp_float a = cp_high_sin(x), b = cp_high_atan2(x, s);
    TU_CHECK(a.e == 0.0f || cp_fadd_rn(a.v, a.e) == a.v, "sin(%a) not normalized", x.v);
    TU_CHECK(b.e == 0.0f || cp_fadd_rn(b.v, b.e) == b.v, "atan2(%a) not normalized", x.v);
    TU_ASSERT(same_bits(cp_sin(x), a) && same_bits(cp_atan2(x, s), b) && same_bits(cp_tan(x), cp_high_tan(x)));
  }
}
END_TEST

/* Special values as the float functions give them, in every tier. */
START_TEST(test_specials)
{
  typedef cp_float (*f1)(cp_float);
  f1 tiers[8][3] = { { cp_low_sin, cp_mid_sin, cp_high_sin },       { cp_low_cos, cp_mid_cos, cp_high_cos },
                     { cp_low_tan, cp_mid_tan, cp_high_tan },       { cp_low_sinpi, cp_mid_sinpi, cp_high_sinpi },
                     { cp_low_cospi, cp_mid_cospi, cp_high_cospi }, { cp_low_asin, cp_mid_asin, cp_high_asin },
                     { cp_low_acos, cp_mid_acos, cp_high_acos },    { cp_low_atan, cp_mid_atan, cp_high_atan } };
  float (*ref[8])(float) = { sinf, cosf, tanf, NULL, NULL, asinf, acosf, atanf };
  float xs[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -3.0f, 0.5f, -0.5f, 1e30f };
  for (int w = 0; w < 8; ++w)
    for (int t = 0; t < 3; ++t)
      for (size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
        float v = xs[i];
        cp_float z = tiers[w][t](cp_from_float(v));
        float want = ref[w] ? ref[w](v) : w == 3 ? cp_detail_trig_sinpif(v) : cp_detail_trig_cospif(v);
        int special = want != want || !cp_detail_finitef(want) || want == 0.0f;
        if (!special) continue;
        TU_CHECK((want != want && z.v != z.v) || gen_fbits(z.v) == gen_fbits(want),
                 "%s tier %d of %a = {%a, %a}, the float function gives %a", trig_name[w], t, v, z.v, z.e, want);
        TU_CHECK(z.e == 0.0f || z.v != z.v, "%s tier %d of %a has error half %a", trig_name[w], t, v, z.e);
      }
  /* atan2 of zeros and infinities: atan2f's value rounded, and pi, pi/2 as pairs */
  float as[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY };
  for (size_t i = 0; i < 6; ++i)
    for (size_t j = 0; j < 6; ++j) {
      float y = as[i], x = as[j];
      float want = atan2f(y, x);
      if (cp_detail_finitef(y) && cp_detail_finitef(x) && y != 0.0f && x != 0.0f) continue;
      for (int t = 0; t < 3; ++t) {
        cp_float z = (t == 0 ? cp_low_atan2 : t == 1 ? cp_mid_atan2 : cp_high_atan2)(cp_from_float(y), cp_from_float(x));
        TU_CHECK(gen_fbits(z.e == 0.0f ? z.v : cp_fadd_rn(z.v, z.e)) == gen_fbits(want), "atan2 tier %d (%a, %a) = {%a, %a}, atan2f %a",
                 t, y, x, z.v, z.e, want);
      }
    }
  TU_ASSERT(cp_high_asin(cp_make_float(1.0f, 0x1p-30f)).v != cp_high_asin(cp_make_float(1.0f, 0x1p-30f)).v);
}
END_TEST

/* Every tier's pair stays inside the function's range next to its bounds (|sin|, |cos|,
 * |sinpi|, |cospi| <= 1): the exact function of the pair's value does, and a caller's `1 -
 * cos(x) >= 0` must hold as it does in float and double. The low tiers' float value rounds to
 * +-1 there, and their first-order term of the error half had pushed the pair past it. */
START_TEST(test_range)
{
  gen_rng r = gen_seed(620);
  cp_float (*const f[4][3])(cp_float) = { { cp_low_cos, cp_mid_cos, cp_high_cos },
                                          { cp_low_sin, cp_mid_sin, cp_high_sin },
                                          { cp_low_cospi, cp_mid_cospi, cp_high_cospi },
                                          { cp_low_sinpi, cp_mid_sinpi, cp_high_sinpi } };
  static const char *const nm[4] = { "cos", "sin", "cospi", "sinpi" };
  long bad = 0;
  for (int i = 0; i < 4000; ++i) {
    float near0 = signed_float(&r, -40, -9);
    float v[4] = { near0, /* next to +-pi/2, +-3pi/2 */
                   (float)(gen_int(&r, -2, 1) * 3.14159265358979324 + 1.5707963267948966) +
                       (float)gen_int(&r, -64, 64) * 0x1p-22f,
                   near0, (float)gen_int(&r, -3, 3) + 0.5f + (float)gen_int(&r, -256, 256) * 0x1p-24f };
    for (int k = 0; k < 4; ++k)
      for (int t = 0; t < 3; ++t) {
        if (v[k] == 0.0f) continue;
        cp_float x = gen_pair_at(&r, v[k]);
        cp_float z = f[k][t](x);
        double y = (double)z.v + (double)z.e;
        if (fabs(y) > 1.0 && bad++ < 5)
          TU_CHECK(0, "%s tier %d of {%a, %a} = {%a, %a}: beyond 1", nm[k], t, x.v, x.e, z.v, z.e);
      }
  }
  TU_CHECK(bad == 0, "%ld values beyond +-1", bad);
}
END_TEST

Suite *make_math_trig_suite(void)
{
  Suite *s = suite_create("math_trig");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_sin_cos_tan);
  tcase_add_test(tc, test_sinpi_cospi);
  tcase_add_test(tc, test_inverse);
  tcase_add_test(tc, test_big_arguments);
  tcase_add_test(tc, test_low_ulps);
  tcase_add_test(tc, test_sincos_and_generic);
  tcase_add_test(tc, test_specials);
  tcase_add_test(tc, test_range);
  suite_add_tcase(s, tc);
  return s;
}
