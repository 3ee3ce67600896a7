/* check_dp_math.c - every math function of the runtime under the dp backend, and every
 * cp_dd_ function (kernels written in double), against MPFR. Part of cp_runtime_dp_tests
 * (built with CP_BACKEND=CP_BACKEND_DP; check_dp.c has its main and its generators).
 *
 * dp: each function's four names (cp_F, cp_low_F, cp_mid_F, cp_high_F) give the same double,
 * the double function of the loaded operands (stored pairs, as a converted kernel loads them),
 * within B_DP of the exact function of those operands. That bound is the host libm's error
 * (glibc: below 1 ulp for most, a few ulp for erfc, cbrt, the hyperbolic functions) plus the
 * roundings of the compositions the runtime makes on the host (1/hypot, hypot of hypot):
 * the test checks that each name reaches the right function with its operands in the right
 * order, not libm. On the GPU the same names call CUDA's double functions (CUDA's documented
 * ulp bounds).
 * cp_dd_: the double function of hi plus lo carried to first order, {f(hi), f'(hi) lo}: within
 * B_DD of the exact function of hi + lo (|lo| <= ulp(hi)/2; the second-order term is about
 * 2^-106 relative, so the bound is the double function's and the sum's roundings).
 * Each function's largest error is printed (docs/runtime.md quotes them).
 */
#include <check.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>

#include "cp/cp.cuh"
#include "dp_util.h"

#define U_D 0x1p-53
#define B_DP (8 * U_D)
#define B_DD (8 * U_D)
#define CASES 4000

enum { F_EXP, F_EXP2, F_EXP10, F_EXPM1, F_LOG, F_LOG2, F_LOG10, F_LOG1P, F_SIN, F_COS, F_TAN,
       F_SINPI, F_COSPI, F_ASIN, F_ACOS, F_ATAN, F_SINH, F_COSH, F_TANH, F_ERF, F_ERFC, F_CBRT,
       F_POW, F_ATAN2, F_HYPOT, F_RHYPOT, F_NORM3D, F_RNORM3D, F_COUNT };

/* Name, arity, and the interval each argument is drawn from (uniformly; [lo, hi]). */
static const struct { const char *name; int nargs; double lo, hi, lo2, hi2; } fn[F_COUNT] = {
  { "exp", 1, -80, 80, 0, 0 },      { "exp2", 1, -120, 120, 0, 0 },  { "exp10", 1, -35, 35, 0, 0 },
  { "expm1", 1, -10, 10, 0, 0 },    { "log", 1, 1e-30, 1e30, 0, 0 }, { "log2", 1, 1e-30, 1e30, 0, 0 },
  { "log10", 1, 1e-30, 1e30, 0, 0 }, { "log1p", 1, -0.9, 10, 0, 0 },  { "sin", 1, -100, 100, 0, 0 },
  { "cos", 1, -100, 100, 0, 0 },    { "tan", 1, -1.5, 1.5, 0, 0 },   { "sinpi", 1, -50, 50, 0, 0 },
  { "cospi", 1, -50, 50, 0, 0 },    { "asin", 1, -1, 1, 0, 0 },      { "acos", 1, -0.99, 0.99, 0, 0 },
  { "atan", 1, -100, 100, 0, 0 },   { "sinh", 1, -80, 80, 0, 0 },    { "cosh", 1, -80, 80, 0, 0 },
  { "tanh", 1, -10, 10, 0, 0 },     { "erf", 1, -4, 4, 0, 0 },       { "erfc", 1, -2, 9, 0, 0 },
  { "cbrt", 1, -1e6, 1e6, 0, 0 },   { "pow", 2, 0.01, 100, -10, 10 }, { "atan2", 2, -10, 10, -10, 10 },
  { "hypot", 2, -100, 100, -100, 100 }, { "rhypot", 2, -100, 100, -100, 100 },
  { "norm3d", 3, -100, 100, -100, 100 }, { "rnorm3d", 3, -100, 100, -100, 100 },
};

/* A double drawn uniformly from [lo, hi]: log-uniformly where the interval is positive and
 * spans decades (the logarithms' inputs). */
static double draw(double lo, double hi)
{
  double u = (double)(dp_rng() >> 11) * 0x1p-53;
  if (lo > 0 && hi / lo > 1e6) return exp(log(lo) + u * (log(hi) - log(lo)));
  return lo + u * (hi - lo);
}

/* tier 0: cp_F, 1: cp_low_F, 2: cp_mid_F, 3: cp_high_F. */
#define CP_TIER1(F) (t == 0 ? cp_##F(a) : t == 1 ? cp_low_##F(a) : t == 2 ? cp_mid_##F(a) : cp_high_##F(a))
#define CP_TIER2(F) \
  (t == 0 ? cp_##F(a, b) : t == 1 ? cp_low_##F(a, b) : t == 2 ? cp_mid_##F(a, b) : cp_high_##F(a, b))
#define CP_TIER3(F) (t == 0 ? cp_##F(a, b, c) : t == 1 ? cp_low_##F(a, b, c) \
                     : t == 2 ? cp_mid_##F(a, b, c) : cp_high_##F(a, b, c))
static cp_float call_dp(int f, int t, cp_float a, cp_float b, cp_float c)
{
  switch (f) {
  case F_EXP: return CP_TIER1(exp);     case F_EXP2: return CP_TIER1(exp2);
  case F_EXP10: return CP_TIER1(exp10); case F_EXPM1: return CP_TIER1(expm1);
  case F_LOG: return CP_TIER1(log);     case F_LOG2: return CP_TIER1(log2);
  case F_LOG10: return CP_TIER1(log10); case F_LOG1P: return CP_TIER1(log1p);
  case F_SIN: return CP_TIER1(sin);     case F_COS: return CP_TIER1(cos);
  case F_TAN: return CP_TIER1(tan);     case F_SINPI: return CP_TIER1(sinpi);
  case F_COSPI: return CP_TIER1(cospi); case F_ASIN: return CP_TIER1(asin);
  case F_ACOS: return CP_TIER1(acos);   case F_ATAN: return CP_TIER1(atan);
  case F_SINH: return CP_TIER1(sinh);   case F_COSH: return CP_TIER1(cosh);
  case F_TANH: return CP_TIER1(tanh);   case F_ERF: return CP_TIER1(erf);
  case F_ERFC: return CP_TIER1(erfc);   case F_CBRT: return CP_TIER1(cbrt);
  case F_POW: return CP_TIER2(pow);     case F_ATAN2: return CP_TIER2(atan2);
  case F_HYPOT: return CP_TIER2(hypot); case F_RHYPOT: return CP_TIER2(rhypot);
  case F_NORM3D: return CP_TIER3(norm3d);
  default: return CP_TIER3(rnorm3d);
  }
}
#undef CP_TIER1
#undef CP_TIER2
#undef CP_TIER3

static cp_double call_dd(int f, cp_double a, cp_double b, cp_double c)
{
  switch (f) {
  case F_EXP: return cp_dd_exp(a);     case F_EXP2: return cp_dd_exp2(a);
  case F_EXP10: return cp_dd_exp10(a); case F_EXPM1: return cp_dd_expm1(a);
  case F_LOG: return cp_dd_log(a);     case F_LOG2: return cp_dd_log2(a);
  case F_LOG10: return cp_dd_log10(a); case F_LOG1P: return cp_dd_log1p(a);
  case F_SIN: return cp_dd_sin(a);     case F_COS: return cp_dd_cos(a);
  case F_TAN: return cp_dd_tan(a);     case F_SINPI: return cp_dd_sinpi(a);
  case F_COSPI: return cp_dd_cospi(a); case F_ASIN: return cp_dd_asin(a);
  case F_ACOS: return cp_dd_acos(a);   case F_ATAN: return cp_dd_atan(a);
  case F_SINH: return cp_dd_sinh(a);   case F_COSH: return cp_dd_cosh(a);
  case F_TANH: return cp_dd_tanh(a);   case F_ERF: return cp_dd_erf(a);
  case F_ERFC: return cp_dd_erfc(a);   case F_CBRT: return cp_dd_cbrt(a);
  case F_POW: return cp_dd_pow(a, b);  case F_ATAN2: return cp_dd_atan2(a, b);
  case F_HYPOT: return cp_dd_hypot(a, b); case F_RHYPOT: return cp_dd_rhypot(a, b);
  case F_NORM3D: return cp_dd_norm3d(a, b, c);
  default: return cp_dd_rnorm3d(a, b, c);
  }
}

/* r = f(x, y, z), exact to PREC bits. */
static void exact(mpfr_t r, int f, mpfr_t x, mpfr_t y, mpfr_t z)
{
  mpfr_t s, t;
  mpfr_inits2(DP_PREC, s, t, (mpfr_ptr)0);
  switch (f) {
  case F_EXP: mpfr_exp(r, x, MPFR_RNDN); break;     case F_EXP2: mpfr_exp2(r, x, MPFR_RNDN); break;
  case F_EXP10: mpfr_exp10(r, x, MPFR_RNDN); break; case F_EXPM1: mpfr_expm1(r, x, MPFR_RNDN); break;
  case F_LOG: mpfr_log(r, x, MPFR_RNDN); break;     case F_LOG2: mpfr_log2(r, x, MPFR_RNDN); break;
  case F_LOG10: mpfr_log10(r, x, MPFR_RNDN); break; case F_LOG1P: mpfr_log1p(r, x, MPFR_RNDN); break;
  case F_SIN: mpfr_sin(r, x, MPFR_RNDN); break;     case F_COS: mpfr_cos(r, x, MPFR_RNDN); break;
  case F_TAN: mpfr_tan(r, x, MPFR_RNDN); break;     case F_SINPI: mpfr_sinpi(r, x, MPFR_RNDN); break;
  case F_COSPI: mpfr_cospi(r, x, MPFR_RNDN); break; case F_ASIN: mpfr_asin(r, x, MPFR_RNDN); break;
  case F_ACOS: mpfr_acos(r, x, MPFR_RNDN); break;   case F_ATAN: mpfr_atan(r, x, MPFR_RNDN); break;
  case F_SINH: mpfr_sinh(r, x, MPFR_RNDN); break;   case F_COSH: mpfr_cosh(r, x, MPFR_RNDN); break;
  case F_TANH: mpfr_tanh(r, x, MPFR_RNDN); break;   case F_ERF: mpfr_erf(r, x, MPFR_RNDN); break;
  case F_ERFC: mpfr_erfc(r, x, MPFR_RNDN); break;   case F_CBRT: mpfr_cbrt(r, x, MPFR_RNDN); break;
  case F_POW: mpfr_pow(r, x, y, MPFR_RNDN); break;  case F_ATAN2: mpfr_atan2(r, x, y, MPFR_RNDN); break;
  case F_HYPOT: mpfr_hypot(r, x, y, MPFR_RNDN); break;
  case F_RHYPOT: mpfr_hypot(r, x, y, MPFR_RNDN); mpfr_ui_div(r, 1, r, MPFR_RNDN); break;
  default: /* norm3d, rnorm3d */
    mpfr_sqr(s, x, MPFR_RNDN);
    mpfr_sqr(t, y, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
    mpfr_sqr(t, z, MPFR_RNDN);
    mpfr_add(s, s, t, MPFR_RNDN);
    if (f == F_NORM3D) mpfr_sqrt(r, s, MPFR_RNDN);
    else mpfr_rec_sqrt(r, s, MPFR_RNDN);
  }
  mpfr_clears(s, t, (mpfr_ptr)0);
}

/* Every function under dp, every name: the same double, within B_DP. */
START_TEST(test_dp_functions)
{
  mpfr_t x, y, z, r, got;
  mpfr_inits2(DP_PREC, x, y, z, r, got, (mpfr_ptr)0);
  for (int f = 0; f < F_COUNT; ++f) {
    dp_rng_seed(0x64706d00ULL + (uint64_t)f);
    double worst = 0.0;
    for (int i = 0; i < CASES; ++i) {
      cp_float a = dp_stored(draw(fn[f].lo, fn[f].hi)), b = dp_stored(draw(fn[f].lo2, fn[f].hi2));
      cp_float c = dp_stored(draw(fn[f].lo2, fn[f].hi2));
      cp_float v = call_dp(f, 0, a, b, c);
      for (int t = 1; t < 4; ++t)
        ck_assert_msg(call_dp(f, t, a, b, c).d == v.d, "dp %s: tier %d differs from cp_%s", fn[f].name,
                      t, fn[f].name);
      mpfr_set_d(x, a.d, MPFR_RNDN);
      mpfr_set_d(y, b.d, MPFR_RNDN);
      mpfr_set_d(z, c.d, MPFR_RNDN);
      exact(r, f, x, y, z);
      if (mpfr_zero_p(r) || !mpfr_number_p(r)) continue;
      mpfr_set_d(got, v.d, MPFR_RNDN);
      double e = dp_rel_err(got, r);
      if (e > worst) worst = e;
      ck_assert_msg(e <= B_DP, "dp %s(%a, %a, %a) = %a: error %.3g u_d", fn[f].name, a.d, b.d, c.d,
                    v.d, e / U_D);
    }
    printf("dp %-8s max %.3f u_d over %d cases\n", fn[f].name, worst / U_D, CASES);
  }
  mpfr_clears(x, y, z, r, got, (mpfr_ptr)0);
}
END_TEST

/* A double-double hi + lo, lo a random fraction of half an ulp of hi. */
static cp_double dd_draw(double lo, double hi)
{
  double h = draw(lo, hi), u = (double)(dp_rng() >> 11) * 0x1p-53 - 0.5;
  if (h == 0.0) return cp_make_double(h, 0.0); /* ilogb(0) is INT_MIN */
  return cp_dd_two_sum(h, ldexp(u, ilogb(h) - 53));
}

/* Every cp_dd_ function: within B_DD of the exact function of hi + lo. */
START_TEST(test_dd_functions)
{
  mpfr_t x, y, z, r, got, t;
  mpfr_inits2(DP_PREC, x, y, z, r, got, t, (mpfr_ptr)0);
  for (int f = 0; f < F_COUNT; ++f) {
    dp_rng_seed(0x64646d00ULL + (uint64_t)f);
    double worst = 0.0;
    for (int i = 0; i < CASES; ++i) {
      cp_double a = dd_draw(fn[f].lo, fn[f].hi), b = dd_draw(fn[f].lo2, fn[f].hi2);
      cp_double c = dd_draw(fn[f].lo2, fn[f].hi2);
      cp_double v = call_dd(f, a, b, c);
      mpfr_set_d(x, a.hi, MPFR_RNDN);
      mpfr_add_d(x, x, a.lo, MPFR_RNDN); /* exact at DP_PREC */
      mpfr_set_d(y, b.hi, MPFR_RNDN);
      mpfr_add_d(y, y, b.lo, MPFR_RNDN);
      mpfr_set_d(z, c.hi, MPFR_RNDN);
      mpfr_add_d(z, z, c.lo, MPFR_RNDN);
      exact(r, f, x, y, z);
      if (mpfr_zero_p(r) || !mpfr_number_p(r)) continue;
      mpfr_set_d(got, v.hi, MPFR_RNDN);
      mpfr_set_d(t, v.lo, MPFR_RNDN);
      mpfr_add(got, got, t, MPFR_RNDN);
      double e = dp_rel_err(got, r);
      if (e > worst) worst = e;
      ck_assert_msg(e <= B_DD, "cp_dd_%s(%a + %a, %a + %a) = %a + %a: error %.3g u_d", fn[f].name, a.hi,
                    a.lo, b.hi, b.lo, v.hi, v.lo, e / U_D);
    }
    printf("cp_dd_%-8s max %.3f u_d over %d cases\n", fn[f].name, worst / U_D, CASES);
  }
  mpfr_clears(x, y, z, r, got, t, (mpfr_ptr)0);
}
END_TEST

/* Special values under dp: as the double functions give them. */
START_TEST(test_dp_specials)
{
  ck_assert(cp_isnan(cp_exp(cp_from_float(NAN))) && cp_exp(cp_from_float(-INFINITY)).d == 0.0);
  ck_assert(cp_log(cp_from_float(0.0f)).d == -INFINITY && cp_isnan(cp_log(cp_from_float(-1.0f))));
  ck_assert(cp_to_float(cp_exp(cp_from_float(89.0f))) == INFINITY);
  ck_assert(cp_log1p(cp_from_float(-1.0f)).d == -INFINITY && cp_isnan(cp_sqrt(cp_from_float(-1.0f))));
  ck_assert(cp_isnan(cp_sin(cp_from_float(INFINITY))) && cp_isnan(cp_asin(cp_from_float(2.0f))));
  ck_assert(cp_erfc(cp_from_float(INFINITY)).d == 0.0 && cp_tanh(cp_from_float(-INFINITY)).d == -1.0);
  ck_assert(cp_hypot(cp_from_float(INFINITY), cp_from_float(NAN)).d == INFINITY);
  ck_assert(cp_pow(cp_from_float(-2.0f), cp_from_float(3.0f)).d == -8.0);
  ck_assert(signbit(cp_sin(cp_from_float(-0.0f)).d) && signbit(cp_cbrt(cp_from_float(-0.0f)).d));
  cp_float s, c;
  cp_sincos(cp_from_float(0.5f), &s, &c);
  ck_assert(s.d == cp_sin(cp_from_float(0.5f)).d && c.d == cp_cos(cp_from_float(0.5f)).d);
  cp_double ds, dc;
  cp_dd_sincos(cp_make_double(0.5, 0x1p-60), &ds, &dc);
  ck_assert(ds.hi == cp_dd_sin(cp_make_double(0.5, 0x1p-60)).hi);
  ck_assert(dc.lo == cp_dd_cos(cp_make_double(0.5, 0x1p-60)).lo);
}
END_TEST

TCase *dp_math_tcase(void)
{
  TCase *tc = tcase_create("math");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_dp_functions);
  tcase_add_test(tc, test_dd_functions);
  tcase_add_test(tc, test_dp_specials);
  return tc;
}
