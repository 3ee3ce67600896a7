/* check_math_exp.c - exp2, exp10, expm1, log2, log10, log1p and pow (math_exp.cuh, ff
 * backend, and their cp_dd_ versions) against MPFR.
 *
 * For every tier: random normalized pairs over the function's domain plus edge cases (the
 * overflow and underflow thresholds, the reductions' switching points, arguments next to 1
 * and to -1, subnormals, powers of two), the pair's value v + e against the exact function
 * of the input's value (MPFR, 200 bits): the largest relative error in units of 2^-48,
 * printed and asserted against the bound math_exp.cuh states plus 2^-149 absolute (a
 * subnormal ulp); results below 2^-100 are measured in absolute error apart. pow: x over
 * (0, 2^40) and y drawn so that t = y log x covers [-103, 88.7] (the error of t is the
 * result's, so this is where pow is hardest; one draw in eight of those with the reduced f
 * next to sqrt(2) or sqrt(1/2) and |t| in [78, 88.7], where log f's error weighs most),
 * integer y with negative x, x next to 1 with large y. Special values are compared with the float functions' (powf's for every pair of
 * a table of special and ordinary x and y). Build: the default family (accurate).
 */
#include "test_util.h"

#include <stdio.h>

#define U48 0x1p-48
#define N_MATH (100000 / TU_SAMPLE_DIV)
#define N_POW (40000 / TU_SAMPLE_DIV)
#define B_LOW (0x1p-22 / U48) /* low: the float function's error, plus O(e^2) */
#define B_LOW_POW (0x1p-21 / U48)
#define B_ABS 0x1p-149
#define B_LOG_MID 11.0 /* mid log2, log10, log1p: math.cuh's mid log core (math_exp.cuh) */
#define B_POW_MID 16.0 /* mid pow (math_exp.cuh) */

typedef cp_float (*fn1)(cp_float);
typedef cp_float (*fn2)(cp_float, cp_float);
typedef int (*ref1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

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

/* z against m->exact (set by the caller), for finite nonzero exact results. low: the tier's
 * float function overflows within an ulp of the threshold. */
static double judge(meter *m, const char *name, cp_float x, cp_float y, cp_float z, double bound, int low)
{
  if (mpfr_nan_p(m->exact) || mpfr_cmp_d(m->exact, FLT_MAX) > 0 || mpfr_cmp_d(m->exact, -FLT_MAX) < 0 || mpfr_zero_p(m->exact)) return 0.0;
  if (low && !cp_detail_finitef(z.v) && mpfr_cmp_d(m->exact, 0x1.fffffp127) > 0) return 0.0;
  m->n++;
  if (!(cp_detail_finitef(z.v) && cp_detail_finitef(z.e))) {
    if (m->bad++ < 3) fprintf(stderr, "%s({%a, %a}, {%a, %a}) = {%a, %a}: not finite\n", name, x.v, x.e, y.v, y.e, z.v, z.e);
    return 0.0;
  }
  TU_CHECK(low || z.e == 0.0f || cp_fadd_rn(z.v, z.e) == z.v, "%s({%a, %a}) = {%a, %a} not normalized", name, x.v, x.e, z.v, z.e);
  tu_set_pair(m->got, z);
  mpfr_sub(m->d, m->got, m->exact, MPFR_RNDN);
  mpfr_abs(m->d, m->d, MPFR_RNDN);
  int tiny = mpfr_get_exp(m->exact) <= -100;
  double a = mpfr_get_d(m->d, MPFR_RNDU);
  mpfr_div(m->d, m->d, m->exact, MPFR_RNDN);
  double r = fabs(mpfr_get_d(m->d, MPFR_RNDU)) / U48;
  if (tiny && a > m->worst_abs) m->worst_abs = a;
  if (!tiny && r > m->worst) m->worst = r;
  if (!(a <= bound * U48 * fabs(mpfr_get_d(m->exact, MPFR_RNDU)) + B_ABS) && m->bad++ < 3)
    fprintf(stderr, "%s({%a, %a}, {%a, %a}) = {%a, %a}: error %g * 2^-48 relative, %g absolute\n", name, x.v,
            x.e, y.v, y.e, z.v, z.e, r, a);
  return tiny ? 0.0 : r;
}

static void measure1(meter *m, const char *name, fn1 f, ref1 ref, cp_float x, double bound)
{
  cp_float z = f(x);
  tu_set_pair(m->x, x);
  ref(m->exact, m->x, MPFR_RNDN);
  judge(m, name, x, cp_make_float(0.0f, 0.0f), z, bound, bound >= B_LOW);
}

/* pow's error by |t| = |y log x|, in bins of 13: where the reduction's error grows */
static double pow_bins[8];

static void measure2(meter *m, const char *name, fn2 f, cp_float x, cp_float y, double bound)
{
  cp_float z = f(x, y);
  tu_set_pair(m->x, x);
  tu_set_pair(m->y, y);
  mpfr_pow(m->exact, m->x, m->y, MPFR_RNDN);
  double r = judge(m, name, x, y, z, bound, bound >= B_LOW);
  int b = (int)(fabs((double)y.v * log(fabs((double)x.v))) / 13.0);
  if (b < 8 && r > pow_bins[b]) pow_bins[b] = r;
}

static void report(meter *m, const char *name, const char *domain, double bound)
{
  printf("%-11s %-28s max error %8.4f * 2^-48 relative (bound %g + 2^-149); below 2^-100: %a absolute; %ld cases\n",
         name, domain, m->worst, bound, m->worst_abs, m->n);
  TU_CHECK(m->bad == 0, "%s: %ld cases exceed the bound %g * 2^-48", name, m->bad, bound);
  meter_clear(m);
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

/* ---- the exponentials ---- */

typedef enum { F_EXP2, F_EXP10, F_EXPM1 } expkind;

static void run_exp(const char *name, fn1 f, expkind w, double bound, uint64_t seed)
{
  static const ref1 refs[] = { mpfr_exp2, mpfr_exp10, mpfr_expm1 };
  static const float lo[] = { -150.0f, -45.1f, -104.0f }, hi[] = { 128.0f, 38.5f, 88.7f };
  static const float step[] = { 1.0f, 0.30103f, 0.6931472f }; /* the reduction's unit */
  static const char *dom[] = { "exp2 x in [-150, 128]", "exp10 x in [-45.1, 38.5]", "expm1 x in [-104, 88.7]" };
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  for (int i = 0; i < N_MATH; ++i) {
    float v;
    switch (i % 4) {
    case 0: case 1: v = uniform(&r, lo[w], hi[w]); break;
    case 2: v = gen_float(&r, -40, 1); break;
    default: /* half-way points of the reduction, and expm1's switch at 0.34 */
      v = (float)((gen_int(&r, -140, 120) + 0.5) * step[w]) + (float)gen_int(&r, -4, 4) * 0x1p-17f;
      if (w == F_EXPM1 && gen_one_in(&r, 2)) v = (gen_one_in(&r, 2) ? 0.34f : -0.34f) + (float)gen_int(&r, -64, 64) * 0x1p-24f;
      if (v < lo[w] || v > hi[w]) v = 0.5f;
      break;
    }
    measure1(&m, name, f, refs[w], pair_of(&r, v), bound);
  }
  for (int k = 0; k < 2; ++k) { /* the thresholds, ulp by ulp */
    float v = k ? lo[w] : hi[w];
    for (int j = 0; j < 3000; ++j, v = nextafterf(v, k ? -INFINITY : INFINITY)) measure1(&m, name, f, refs[w], pair_of(&r, v), bound);
  }
  report(&m, name, dom[w], bound);
}

START_TEST(test_exp2_tiers)
{
  run_exp("high exp2", cp_high_exp2, F_EXP2, 4.0, 600);
  run_exp("mid exp2", cp_mid_exp2, F_EXP2, 4.0, 601);
  run_exp("low exp2", cp_low_exp2, F_EXP2, B_LOW, 602);
}
END_TEST

START_TEST(test_exp10_tiers)
{
  run_exp("high exp10", cp_high_exp10, F_EXP10, 4.0, 610);
  run_exp("mid exp10", cp_mid_exp10, F_EXP10, 4.0, 611);
  run_exp("low exp10", cp_low_exp10, F_EXP10, B_LOW, 612);
}
END_TEST

START_TEST(test_expm1_tiers)
{
  run_exp("high expm1", cp_high_expm1, F_EXPM1, 6.0, 620);
  run_exp("mid expm1", cp_mid_expm1, F_EXPM1, 6.0, 621);
  run_exp("low expm1", cp_low_expm1, F_EXPM1, B_LOW, 622);
}
END_TEST

/* ---- the logarithms ---- */

static void run_log(const char *name, fn1 f, ref1 ref, int log1p, double bound, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  for (int i = 0; i < N_MATH; ++i) {
    float v;
    switch (i % 5) {
    case 0: case 1: v = fabsf(gen_float(&r, -126, 127)); break;
    case 2: v = 1.0f + (float)gen_int(&r, -65536, 65536) * 0x1p-24f; break;
    case 3: v = fabsf(gen_float(&r, -149, -127)); break; /* subnormal: e = 0 */
    default: v = uniform(&r, 0.5f, 2.0f); break;
    }
    if (log1p) { /* x = v - 1 over (-1, inf), small x by exponent, x next to -1 */
      if (i % 5 == 3) v = gen_float(&r, -149, -1);
      else if (i % 5 == 2 && gen_one_in(&r, 2)) v = -1.0f + fabsf(gen_float(&r, -24, -2));
      else if (i % 5 == 4) v = uniform(&r, -0.35f, 0.5f);
      else v = v - 1.0f;
    }
    if (fabsf(v) < 0x1p-126f) measure1(&m, name, f, ref, cp_make_float(v, 0.0f), bound);
    else measure1(&m, name, f, ref, pair_of(&r, v), bound);
  }
  for (int k = -149; k <= 127; ++k) {
    float p = ldexpf(1.0f, k);
    measure1(&m, name, f, ref, cp_make_float(log1p ? p - 1.0f : p, 0.0f), bound);
    measure1(&m, name, f, ref, pair_of(&r, ldexpf(log1p ? 0.41421354f : 1.41421354f, k)), bound);
    measure1(&m, name, f, ref, pair_of(&r, ldexpf(log1p ? -0.29289323f : 1.41421366f, k)), bound);
  }
  report(&m, name, log1p ? "log1p x in (-1, inf)" : "x in (0, inf)", bound);
}

START_TEST(test_log2_tiers)
{
  run_log("high log2", cp_high_log2, mpfr_log2, 0, 7.0, 630);
  run_log("mid log2", cp_mid_log2, mpfr_log2, 0, B_LOG_MID, 631);
  run_log("low log2", cp_low_log2, mpfr_log2, 0, B_LOW, 632);
}
END_TEST

START_TEST(test_log10_tiers)
{
  run_log("high log10", cp_high_log10, mpfr_log10, 0, 7.0, 640);
  run_log("mid log10", cp_mid_log10, mpfr_log10, 0, B_LOG_MID, 641);
  run_log("low log10", cp_low_log10, mpfr_log10, 0, B_LOW, 642);
}
END_TEST

START_TEST(test_log1p_tiers)
{
  run_log("high log1p", cp_high_log1p, mpfr_log1p, 1, 8.0, 650);
  run_log("mid log1p", cp_mid_log1p, mpfr_log1p, 1, B_LOG_MID, 651);
  run_log("low log1p", cp_low_log1p, mpfr_log1p, 1, B_LOW, 652);
}
END_TEST

/* ---- pow ---- */

static void run_pow(const char *name, fn2 f, double bound, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  for (int b = 0; b < 8; ++b) pow_bins[b] = 0.0;
  for (int i = 0; i < N_POW; ++i) {
    float xv, yv;
    switch (i % 4) {
    case 0: case 1: /* t = y log x uniform over [-103, 88.7] */
      xv = fabsf(gen_float(&r, -126, 40));
      if (xv == 1.0f) xv = 3.0f;
      yv = (float)(uniform(&r, -103.0f, 88.7f) / log((double)xv));
      if (i % 8 == 1) { /* the reduced f next to sqrt(2) or sqrt(1/2) (|log f| largest), |t| near 88 */
        xv = (float)(gen_one_in(&r, 2) ? uniform(&r, 0.7071f, 0.72f) : uniform(&r, 1.39f, 1.4142f));
        if (gen_one_in(&r, 2)) xv *= 2.0f;
        yv = (float)(uniform(&r, 78.0f, 88.7f) / log((double)xv));
        if (gen_one_in(&r, 2)) yv = -yv;
      }
      break;
    case 2: /* x next to 1, large y */
      xv = 1.0f + (float)gen_int(&r, -4096, 4096) * 0x1p-23f;
      if (xv == 1.0f) xv = 1.0f + 0x1p-23f;
      yv = (float)(uniform(&r, -100.0f, 88.0f) / log((double)xv));
      break;
    default: /* negative or positive x, integer y */
      xv = gen_float(&r, -8, 8);
      yv = (float)gen_int(&r, -12, 12);
      if (gen_one_in(&r, 4)) yv = uniform(&r, -30.0f, 30.0f);
      if (xv < 0.0f) {
        measure2(&m, name, f, pair_of(&r, xv), cp_make_float(rintf(yv), 0.0f), bound);
        continue;
      }
      break;
    }
    cp_float x = pair_of(&r, xv), y = pair_of(&r, yv);
    /* low: powf's own error is amplified by exp(-d) where the error halves change t = y log x
     * by d = y xe/x + ye log x; it holds its bound for |d| <= 2^-8 */
    if (bound >= B_LOW && fabs((double)y.v * x.e / x.v + y.e * log((double)x.v)) > 0x1p-8) continue;
    measure2(&m, name, f, x, y, bound);
  }
  report(&m, name, "pow |y log x| <= 103", bound);
  if (bound < B_LOW) {
    printf("%-11s by |y log x|:", name);
    for (int b = 0; b < 7; ++b) printf(" [%d, %d) %.2f", 13 * b, 13 * b + 13, pow_bins[b]);
    printf("\n");
  }
}

START_TEST(test_pow_tiers)
{
  run_pow("high pow", cp_high_pow, 14.0, 660);
  run_pow("mid pow", cp_mid_pow, B_POW_MID, 661);
  run_pow("low pow", cp_low_pow, B_LOW_POW, 662);
}
END_TEST

/* ---- special values ---- */

static int same_float(float a, float b) { return (a != a && b != b) || gen_fbits(a) == gen_fbits(b); }

/* f(s) against the float function's g(s): bit for bit where g's result is special (NaN,
 * infinite, zero) or exact (ex), with a zero error half; within 2^-22 and of the same sign
 * otherwise. */
static void special1(const char *name, int tier, cp_float z, float want, int ex, float s, float s2)
{
  if (!cp_detail_finitef(want) || want == 0.0f || ex) {
    TU_CHECK(same_float(z.v, want) && z.e == 0.0f, "tier %d %s(%a, %a) = {%a, %a}, the float function gives %a",
             tier, name, s, s2, z.v, z.e, want);
  } else {
    TU_CHECK(fabsf(z.v - want) <= 0x1p-22f * fabsf(want), "tier %d %s(%a, %a) = {%a, %a}, the float function gives %a",
             tier, name, s, s2, z.v, z.e, want);
  }
}

START_TEST(test_specials)
{
  fn1 fns[6][3] = { { cp_low_exp2, cp_mid_exp2, cp_high_exp2 },    { cp_low_exp10, cp_mid_exp10, cp_high_exp10 },
                    { cp_low_expm1, cp_mid_expm1, cp_high_expm1 }, { cp_low_log2, cp_mid_log2, cp_high_log2 },
                    { cp_low_log10, cp_mid_log10, cp_high_log10 }, { cp_low_log1p, cp_mid_log1p, cp_high_log1p } };
  const char *names[6] = { "exp2", "exp10", "expm1", "log2", "log10", "log1p" };
  float sv[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f, 2.0f, 0x1p-149f, -0x1p-149f, FLT_MAX, -FLT_MAX,
                 128.0f, 129.0f, -150.0f, -151.0f, 38.6f, -45.2f, 88.73f, -104.0f, -105.0f, 1e30f, -1e30f };
  fn2 pows[3] = { cp_low_pow, cp_mid_pow, cp_high_pow };
  float pv[] = { 0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, -0.5f, 3.0f, -3.0f, INFINITY, -INFINITY, NAN,
                 1e-30f, 1e30f, 0x1p-149f, 2.5f, -2.5f, 127.0f, -150.0f, 1e10f, -1e10f, 0x1p24f };
  for (int t = 0; t < 3; ++t) {
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; ++i) {
      float s = sv[i];
      float want[6] = { exp2f(s), CP_DETAIL_EXP_EXP10F(s), expm1f(s), log2f(s), log10f(s), log1pf(s) };
      for (int f = 0; f < 6; ++f) {
        int ex = (f == 0 && s == rintf(s)) || (f == 3 && (s == 2.0f || s == 0x1p-149f)); /* exact */
        special1(names[f], t, fns[f][t](cp_from_float(s)), want[f], ex, s, 0.0f);
      }
    }
    for (size_t i = 0; i < sizeof pv / sizeof pv[0]; ++i)
      for (size_t j = 0; j < sizeof pv / sizeof pv[0]; ++j) {
        float a = pv[i], b = pv[j], want = powf(a, b);
        int ex = b == 0.0f || a == 1.0f || fabsf(a) == 1.0f || (fabsf(a) == 2.0f && b == rintf(b)) ||
                 (fabsf(a) == 0.5f && b == rintf(b));
        special1("pow", t, pows[t](cp_from_float(a), cp_from_float(b)), want, ex, a, b);
      }
    /* an odd integer y whose error half holds the oddness: (-1)^(2^24 + 1) = -1 */
    TU_ASSERT(pows[t](cp_from_float(-1.0f), cp_make_float(0x1p24f, 1.0f)).v == (t ? -1.0f : 1.0f));
    TU_ASSERT(pows[t](cp_from_float(-1.0f), cp_make_float(0x1p24f, 0.0f)).v == 1.0f);
  }
  /* the high tier's non-integer pair y with a negative x: NaN, as powf */
  TU_ASSERT(cp_high_pow(cp_from_float(-2.0f), cp_make_float(3.0f, 0x1p-30f)).v != cp_high_pow(cp_from_float(-2.0f), cp_make_float(3.0f, 0x1p-30f)).v);
}
END_TEST

/* cp_dd_: the double function of hi plus lo to first order: within 2^-50 of the exact
 * function of hi + lo (lo up to 2^-30 of hi, so the neglected second order is below). */
START_TEST(test_dd)
{
  gen_rng r = gen_seed(670);
  mpfr_t x, y, exact, got;
  mpfr_inits2(TU_PREC, x, y, exact, got, (mpfr_ptr)0);
  cp_double (*fns[6])(cp_double) = { cp_dd_exp2, cp_dd_exp10, cp_dd_expm1, cp_dd_log2, cp_dd_log10, cp_dd_log1p };
  const ref1 refs[6] = { mpfr_exp2, mpfr_exp10, mpfr_expm1, mpfr_log2, mpfr_log10, mpfr_log1p };
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    int f = i % 7;
    double hi = f < 3 ? gen_double(&r, -10, 4) : fabs(gen_double(&r, -60, 60));
    if (f == 5) hi = fabs(gen_double(&r, -30, 10)) - (gen_one_in(&r, 2) ? 0.0 : fabs(gen_double(&r, -30, -2)));
    if (f == 6) hi = fabs(gen_double(&r, -4, 4));
    cp_double a = cp_dd_two_sum(hi, hi * gen_double(&r, -60, -30));
    cp_double b = cp_dd_two_sum(gen_double(&r, -3, 3), 0x1p-40 * gen_double(&r, -3, -3));
    tu_set_dd(x, a);
    tu_set_dd(y, b);
    cp_double z;
    if (f == 6) {
      z = cp_dd_pow(a, b);
      mpfr_pow(exact, x, y, MPFR_RNDN);
    } else {
      z = fns[f](a);
      refs[f](exact, x, MPFR_RNDN);
    }
    tu_set_dd(got, z);
    mpfr_sub(got, got, exact, MPFR_RNDN);
    mpfr_div(got, got, exact, MPFR_RNDN);
    double e = fabs(mpfr_get_d(got, MPFR_RNDN));
    if (e > worst) worst = e;
    TU_CHECK(e <= 0x1p-50, "cp_dd function %d({%a, %a}) = {%a, %a}: error %g", f, a.hi, a.lo, z.hi, z.lo, e);
  }
  printf("cp_dd_ exp2 ... pow: max relative error %a over 20000 cases\n", worst);
  TU_ASSERT(cp_dd_pow(cp_make_double(-2.0, 0.0), cp_make_double(3.0, 0.0)).hi == -8.0);
  TU_ASSERT(cp_dd_log1p(cp_make_double(-1.0, 0.0)).hi == -INFINITY);
  mpfr_clears(x, y, exact, got, (mpfr_ptr)0);
}
END_TEST

/* cp_F is the high tier in this build (the accurate family). */
START_TEST(test_generic)
{
  gen_rng r = gen_seed(680);
  for (int i = 0; i < 2000; ++i) {
    cp_float x = pair_of(&r, uniform(&r, -40.0f, 38.0f)), y = cp_fabs(gen_pair(&r, -60, 60));
    TU_ASSERT(cp_exp2(x).v == cp_high_exp2(x).v && cp_exp10(x).v == cp_high_exp10(x).v &&
              cp_expm1(x).v == cp_high_expm1(x).v && cp_log2(y).v == cp_high_log2(y).v &&
              cp_log10(y).v == cp_high_log10(y).v && cp_log1p(y).v == cp_high_log1p(y).v &&
              cp_pow(y, cp_make_float(1.5f, 0.0f)).v == cp_high_pow(y, cp_make_float(1.5f, 0.0f)).v);
  }
}
END_TEST

Suite *make_math_exp_suite(void)
{
  Suite *s = suite_create("math_exp");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_exp2_tiers);
  tcase_add_test(tc, test_exp10_tiers);
  tcase_add_test(tc, test_expm1_tiers);
  tcase_add_test(tc, test_log2_tiers);
  tcase_add_test(tc, test_log10_tiers);
  tcase_add_test(tc, test_log1p_tiers);
  tcase_add_test(tc, test_pow_tiers);
  tcase_add_test(tc, test_specials);
  tcase_add_test(tc, test_dd);
  tcase_add_test(tc, test_generic);
  suite_add_tcase(s, tc);
  return s;
}
