/* check_eft.c - the error-free transformations are exact (MPFR), float and double.
 *
 * TwoSum on arbitrary operands (exponents -100..100, all sign and magnitude orders),
 * Fast2Sum with |a| >= |b|, TwoProd with products above the underflow limit. Exactness:
 * s + err == a op b in 200-bit arithmetic, and s == RN(a op b).
 */
#include "test_util.h"

#include <stdlib.h>

static void check_exact_f(mpfr_t want, cp_float got, mpfr_t tmp, const char *what, float a, float b)
{
  tu_set_pair(tmp, got);
  TU_CHECK(mpfr_equal_p(tmp, want), "%s(%a, %a) = {%a, %a} is not exact", what, a, b, got.v, got.e);
}

START_TEST(test_float)
{
  gen_rng r = gen_seed(11);
  mpfr_t a, b, want, tmp;
  mpfr_inits2(TU_PREC, a, b, want, tmp, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; ++i) {
    float x = gen_float(&r, -100, 100), y = gen_float(&r, -100, 100);
    mpfr_set_flt(a, x, MPFR_RNDN);
    mpfr_set_flt(b, y, MPFR_RNDN);
    mpfr_add(want, a, b, MPFR_RNDN);
    cp_float s = cp_two_sum(x, y);
    TU_ASSERT(s.v == x + y);
    check_exact_f(want, s, tmp, "two_sum", x, y);
    check_exact_f(want, fabsf(x) >= fabsf(y) ? cp_fast_two_sum(x, y) : cp_fast_two_sum(y, x), tmp,
                  "fast_two_sum", x, y);
    float p = gen_float(&r, -50, 50), q = gen_float(&r, -50, 50);
    mpfr_set_flt(a, p, MPFR_RNDN);
    mpfr_set_flt(b, q, MPFR_RNDN);
    mpfr_mul(want, a, b, MPFR_RNDN);
    cp_float t = cp_two_prod(p, q);
    TU_ASSERT(t.v == p * q);
    check_exact_f(want, t, tmp, "two_prod", p, q);
  }
  mpfr_clears(a, b, want, tmp, (mpfr_ptr)0);
}
END_TEST

START_TEST(test_double)
{
  gen_rng r = gen_seed(12);
  mpfr_t a, b, want, tmp;
  mpfr_inits2(TU_PREC, a, b, want, tmp, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; ++i) {
    double x = gen_double(&r, -900, 900), y = gen_double(&r, -900, 900);
    mpfr_set_d(a, x, MPFR_RNDN);
    mpfr_set_d(b, y, MPFR_RNDN);
    mpfr_add(want, a, b, MPFR_RNDN);
    if (labs((long)(mpfr_get_exp(a) - mpfr_get_exp(b))) < 140) { /* exact sum fits in 200 bits */
      cp_double s = cp_dd_two_sum(x, y);
      tu_set_dd(tmp, s);
      TU_CHECK(mpfr_equal_p(tmp, want), "dd_two_sum(%a, %a)", x, y);
      s = fabs(x) >= fabs(y) ? cp_dd_fast_two_sum(x, y) : cp_dd_fast_two_sum(y, x);
      tu_set_dd(tmp, s);
      TU_CHECK(mpfr_equal_p(tmp, want), "dd_fast_two_sum(%a, %a)", x, y);
    }
    double p = gen_double(&r, -450, 450), q = gen_double(&r, -450, 450);
    mpfr_set_d(a, p, MPFR_RNDN);
    mpfr_set_d(b, q, MPFR_RNDN);
    mpfr_mul(want, a, b, MPFR_RNDN);
    tu_set_dd(tmp, cp_dd_two_prod(p, q));
    TU_CHECK(mpfr_equal_p(tmp, want), "dd_two_prod(%a, %a)", p, q);
  }
  mpfr_clears(a, b, want, tmp, (mpfr_ptr)0);
}
END_TEST

Suite *make_eft_suite(void)
{
  Suite *s = suite_create("eft");
  TCase *tc = tcase_create("exact");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_float);
  tcase_add_test(tc, test_double);
  suite_add_tcase(s, tc);
  return s;
}
