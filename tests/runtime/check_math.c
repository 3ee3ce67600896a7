/* check_math.c - the composite math functions (math.cuh, ff backend) against MPFR.
 *
 * For every tier of exp and log: random pairs over the whole domain plus edge cases (the
 * overflow and underflow thresholds of exp, the points where its reduction changes k,
 * arguments next to 1 for log, subnormals), the pair's value v + e against the exact function
 * of the input's value (MPFR, 200 bits). Measured: the largest relative error in units of
 * 2^-48, printed and asserted against the bound math.cuh states plus 2^-149 absolute (the
 * subnormal ulp, which an error half below 2^-126 cannot resolve): results below 2^-100 (exp of x < -69.3) cannot
 * hold 48 bits, and their largest absolute error is printed apart.
 * Special values are compared with the float functions'. Build: the default family
 * (accurate), so cp_exp is cp_high_exp.
 */
#include "test_util.h"

#include <stdio.h>

#define U48 0x1p-48
#define N_MATH (100000 / TU_SAMPLE_DIV)
#define B_EXP 3.0 /* high exp, units of 2^-48 (measured 1.92) */
#define B_EXP_MID 5.0 /* mid exp (measured 3.33) */
#define B_LOG 7.0 /* high log (measured 5.40; 5.85 on other inputs) */
#define B_LOG_MID 11.0 /* mid log (measured 6.72; 9.05 over 3e6 reduced arguments) */
#define B_LOW (0x1p-22 / U48)  /* low: the float function's error, plus O(e^2) */
#define B_ABS 0x1p-149 /* a subnormal ulp: an error half below 2^-126 holds no less */

typedef cp_float (*fn1)(cp_float);
typedef enum { M_EXP, M_LOG } which;

typedef struct {
  mpfr_t x, exact, got, d;
  double worst;     /* relative, units of 2^-48 */
  double worst_abs; /* absolute, for results below TINY */
  long bad;
} meter;

static void meter_init(meter *m)
{
  mpfr_inits2(TU_PREC, m->x, m->exact, m->got, m->d, (mpfr_ptr)0);
  m->worst = m->worst_abs = 0.0;
  m->bad = 0;
}

static void meter_clear(meter *m) { mpfr_clears(m->x, m->exact, m->got, m->d, (mpfr_ptr)0); }

/* One case: f(x) against MPFR's function of x.v + x.e, for finite exact results. */
static void measure(meter *m, const char *name, fn1 f, which w, cp_float x, double bound)
{
  cp_float z = f(x);
  tu_set_pair(m->x, x);
  if (w == M_EXP) mpfr_exp(m->exact, m->x, MPFR_RNDN);
  else mpfr_log(m->exact, m->x, MPFR_RNDN);
  if (mpfr_cmp_d(m->exact, FLT_MAX) > 0 || mpfr_zero_p(m->exact)) return; /* specials: below */
  /* low: float's value, which overflows within an ulp below the threshold where expf does */
  if (bound >= B_LOW && w == M_EXP && z.v == INFINITY && expf(cp_to_float(x)) == INFINITY) return;
  if (!(cp_detail_finitef(z.v) && cp_detail_finitef(z.e))) {
    if (m->bad++ < 3) fprintf(stderr, "%s({%a, %a}) = {%a, %a}: not finite\n", name, x.v, x.e, z.v, z.e);
    return;
  }
  tu_set_pair(m->got, z);
  mpfr_sub(m->d, m->got, m->exact, MPFR_RNDN);
  mpfr_abs(m->d, m->d, MPFR_RNDN);
  int tiny = mpfr_get_exp(m->exact) <= -100; /* |exact| < 2^-100 */
  double a = mpfr_get_d(m->d, MPFR_RNDU);
  mpfr_div(m->d, m->d, m->exact, MPFR_RNDN);
  double r = fabs(mpfr_get_d(m->d, MPFR_RNDU)) / U48;
  if (tiny && a > m->worst_abs) m->worst_abs = a;
  if (!tiny && r > m->worst) m->worst = r;
  if (!(a <= bound * U48 * fabs(mpfr_get_d(m->exact, MPFR_RNDU)) + B_ABS) && m->bad++ < 3)
    fprintf(stderr, "%s({%a, %a}) = {%a, %a}: error %g * 2^-48 relative, %g absolute\n", name, x.v, x.e,
            z.v, z.e, r, a);
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

static void report(const meter *m, const char *name, const char *domain, double bound)
{
  printf("%-9s %-26s max error %8.4f * 2^-48 relative (bound %g + 2^-149); below 2^-100: %a absolute; %d cases\n",
         name, domain, m->worst, bound, m->worst_abs, N_MATH);
  TU_CHECK(m->bad == 0, "%s: %ld cases exceed the bound %g * 2^-48", name, m->bad, bound);
}

/* exp over the whole float range: uniform values in [-104, 89], small arguments by exponent,
 * both thresholds ulp by ulp, and the half-way points of the reduction ((k + 1/2) ln 2). */
static void run_exp(const char *name, fn1 f, double bound, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  for (int i = 0; i < N_MATH; ++i) {
    float v;
    switch (i % 4) {
    case 0: case 1: v = uniform(&r, -104.0f, 89.0f); break;
    case 2: v = gen_float(&r, -40, 3); break;
    default: v = (float)((gen_int(&r, -150, 127) + 0.5) * 0.69314718055994531) + (float)gen_int(&r, -4, 4) * 0x1p-17f; break;
    }
    measure(&m, name, f, M_EXP, pair_of(&r, v), bound);
  }
  for (float v = 88.70f; v <= 88.73f; v = nextafterf(v, INFINITY)) measure(&m, name, f, M_EXP, pair_of(&r, v), bound);
  for (float v = -104.0f; v <= -103.9f; v = nextafterf(v, INFINITY)) measure(&m, name, f, M_EXP, pair_of(&r, v), bound);
  for (float v = -70.0f; v <= -69.0f; v = nextafterf(v, INFINITY)) measure(&m, name, f, M_EXP, pair_of(&r, v), bound);
  meter_clear(&m);
  report(&m, name, "exp x in [-104, 89]", bound);
}

/* log over (0, inf): every exponent (subnormals included), values next to 1 and to sqrt(2)
 * (where the reduction switches), and exact powers of two. */
static void run_log(const char *name, fn1 f, double bound, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  meter m;
  meter_init(&m);
  for (int i = 0; i < N_MATH; ++i) {
    float v;
    switch (i % 4) {
    case 0: case 1: v = fabsf(gen_float(&r, -126, 127)); break;
    case 2: v = 1.0f + (float)gen_int(&r, -65536, 65536) * 0x1p-24f; break;
    default: v = fabsf(gen_float(&r, -149, -127)); break; /* subnormal: e = 0 */
    }
    if (v < 0x1p-126f) measure(&m, name, f, M_LOG, cp_make_float(v, 0.0f), bound);
    else measure(&m, name, f, M_LOG, pair_of(&r, v), bound);
  }
  for (int k = -149; k <= 127; ++k) {
    measure(&m, name, f, M_LOG, cp_make_float(ldexpf(1.0f, k), 0.0f), bound);
    measure(&m, name, f, M_LOG, pair_of(&r, ldexpf(1.41421354f, k)), bound);
    measure(&m, name, f, M_LOG, pair_of(&r, ldexpf(1.41421366f, k)), bound);
  }
  meter_clear(&m);
  report(&m, name, "log x in (0, inf)", bound);
}

START_TEST(test_exp_tiers)
{
  run_exp("high exp", cp_high_exp, B_EXP, 500);
  run_exp("mid exp", cp_mid_exp, B_EXP_MID, 501);
  run_exp("low exp", cp_low_exp, B_LOW, 502);
}
END_TEST

START_TEST(test_log_tiers)
{
  run_log("high log", cp_high_log, B_LOG, 510);
  run_log("mid log", cp_mid_log, B_LOG_MID, 511);
  run_log("low log", cp_low_log, B_LOW, 512);
}
END_TEST

static int same_bits(cp_float a, cp_float b)
{
  return gen_fbits(a.v) == gen_fbits(b.v) && gen_fbits(a.e) == gen_fbits(b.e);
}

/* Results are normalized (RN(v + e) == v) and cp_exp/cp_log are the high tier here. */
START_TEST(test_normalized_and_generic)
{
  gen_rng r = gen_seed(520);
  for (int i = 0; i < 20000; ++i) {
    cp_float x = pair_of(&r, uniform(&r, -100.0f, 88.0f)), y = cp_fabs(gen_pair(&r, -126, 126));
    cp_float a = cp_high_exp(x), b = cp_high_log(y);
    TU_CHECK(a.e == 0.0f || cp_fadd_rn(a.v, a.e) == a.v, "exp({%a, %a}) = {%a, %a} not normalized", x.v, x.e, a.v, a.e);
    TU_CHECK(b.e == 0.0f || cp_fadd_rn(b.v, b.e) == b.v, "log({%a, %a}) = {%a, %a} not normalized", y.v, y.e, b.v, b.e);
    TU_ASSERT(same_bits(cp_exp(x), a) && same_bits(cp_log(y), b));
  }
}
END_TEST

/* Special values as expf/logf give them, in every tier. */
START_TEST(test_specials)
{
  fn1 exps[] = { cp_low_exp, cp_mid_exp, cp_high_exp }, logs[] = { cp_low_log, cp_mid_log, cp_high_log };
  float ev[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 88.73f, 89.0f, 200.0f, -104.0f, -105.0f, -1e30f, 1e30f };
  float lv[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, -1.0f, -0x1p-149f, 1.0f, FLT_MAX, 0x1p-149f };
  for (int t = 0; t < 3; ++t) {
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; ++i) {
      cp_float z = exps[t](cp_from_float(ev[i]));
      float want = expf(ev[i]);
      TU_CHECK((want != want && z.v != z.v) || gen_fbits(z.v) == gen_fbits(want),
               "tier %d exp(%a) = {%a, %a}, expf gives %a", t, ev[i], z.v, z.e, want);
      TU_CHECK(z.e == 0.0f || (ev[i] == 0.0f), "tier %d exp(%a) has error half %a", t, ev[i], z.e);
    }
    for (size_t i = 0; i < sizeof lv / sizeof lv[0]; ++i) {
      cp_float z = logs[t](cp_from_float(lv[i]));
      float want = logf(lv[i]);
      int exact = lv[i] == 1.0f || !cp_detail_finitef(want);
      TU_CHECK((want != want && z.v != z.v) || (exact ? gen_fbits(z.v) == gen_fbits(want) : z.v == want),
               "tier %d log(%a) = {%a, %a}, logf gives %a", t, lv[i], z.v, z.e, want);
      TU_CHECK(!exact || z.e == 0.0f, "tier %d log(%a) has error half %a", t, lv[i], z.e);
    }
    /* overflow exactly where the exact result exceeds FLT_MAX (by more than half an ulp) */
    for (float v = 88.72f; v <= 88.7235f; v = nextafterf(v, INFINITY)) {
      cp_float z = exps[t](cp_from_float(v));
      TU_CHECK(cp_detail_finitef(z.v) == cp_detail_finitef(expf(v)), "tier %d exp(%a) = %a, expf %a", t, v, z.v, expf(v));
    }
  }
}
END_TEST

Suite *make_math_suite(void)
{
  Suite *s = suite_create("math");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_exp_tiers);
  tcase_add_test(tc, test_log_tiers);
  tcase_add_test(tc, test_normalized_and_generic);
  tcase_add_test(tc, test_specials);
  suite_add_tcase(s, tc);
  return s;
}
