/* check_pair.c - what converted code calls beyond the arithmetic: paired-buffer stores and
 * adds (pair.cuh), the operations on two plain floats or doubles, the host recombination
 * (host.cuh), and fmin/fmax/floor/ceil/rint of cp_double (double.cuh). */
#include <math.h>
#include <stdio.h>

#include "test_util.h"

/* cp_add_ff, cp_sub_ff, cp_mul_ff are exact (TwoSum, TwoProd) for inputs whose results
 * neither overflow nor underflow; cp_dd_*_dd likewise for doubles. */
START_TEST(test_ff_forms_exact)
{
  gen_rng r = gen_seed(0x5eed01);
  mpfr_t x, y, z, got;
  mpfr_inits2(TU_PREC, x, y, z, got, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; i++) {
    float a = gen_float(&r, -40, 40), b = gen_float(&r, -40, 40);
    mpfr_set_flt(x, a, MPFR_RNDN);
    mpfr_set_flt(y, b, MPFR_RNDN);
    const struct { cp_float v; int (*op)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t); } ops[] = {
        {cp_add_ff(a, b), mpfr_add}, {cp_sub_ff(a, b), mpfr_sub}, {cp_mul_ff(a, b), mpfr_mul}};
    for (int k = 0; k < 3; k++) {
      ops[k].op(z, x, y, MPFR_RNDN);
      tu_set_pair(got, ops[k].v);
      TU_CHECK(mpfr_equal_p(z, got), "op %d of %a, %a is not exact", k, (double)a, (double)b);
    }
    double c = gen_double(&r, -200, 200), d = gen_double(&r, -200, 200);
    mpfr_set_d(x, c, MPFR_RNDN);
    mpfr_set_d(y, d, MPFR_RNDN);
    mpfr_mul(z, x, y, MPFR_RNDN);
    tu_set_dd(got, cp_dd_mul_dd(c, d));
    TU_CHECK(mpfr_equal_p(z, got), "cp_dd_mul_dd(%a, %a) is not exact", c, d);
    mpfr_add(z, x, y, MPFR_RNDN);
    tu_set_dd(got, cp_dd_add_dd(c, d));
    TU_CHECK(mpfr_equal_p(z, got), "cp_dd_add_dd(%a, %a) is not exact", c, d);
  }
  mpfr_clears(x, y, z, got, (mpfr_ptr)0);
}
END_TEST

/* div_ff is the family's division of an exact pair by a float: within 3u^2 (accurate). */
START_TEST(test_div_ff_bound)
{
  gen_rng r = gen_seed(0x5eed02);
  mpfr_t x, y, z, got;
  mpfr_inits2(TU_PREC, x, y, z, got, (mpfr_ptr)0);
  double worst = 0;
  for (int i = 0; i < TU_N; i++) {
    float a = gen_float(&r, -30, 30), b = gen_float(&r, -30, 30);
    mpfr_set_flt(x, a, MPFR_RNDN);
    mpfr_set_flt(y, b, MPFR_RNDN);
    mpfr_div(z, x, y, MPFR_RNDN);
    tu_set_pair(got, cp_div_ff(a, b));
    mpfr_sub(got, got, z, MPFR_RNDN);
    mpfr_div(got, got, z, MPFR_RNDN);
    double rel = fabs(mpfr_get_d(got, MPFR_RNDN));
    if (rel > worst) worst = rel;
  }
  printf("pair: cp_div_ff max relative error %.3g u^2 (bound 3 u^2)\n", worst / (TU_U_F * TU_U_F));
  TU_CHECK(worst <= 3 * TU_U_F * TU_U_F, "cp_div_ff relative error %g", worst);
  mpfr_clears(x, y, z, got, (mpfr_ptr)0);
}
END_TEST

/* cp_store writes both halves; cp_add_to is the family's add of the element and x. */
START_TEST(test_store_and_add_to)
{
  gen_rng r = gen_seed(0x5eed03);
  for (int i = 0; i < 10000; i++) {
    cp_float a = gen_pair(&r, -20, 20), b = gen_pair(&r, -20, 20);
    float v, e;
    cp_store(&v, &e, a);
    TU_ASSERT(gen_fbits(v) == gen_fbits(a.v) && gen_fbits(e) == gen_fbits(a.e));
    cp_add_to(&v, &e, b);
    cp_float s = cp_add(a, b);
    TU_ASSERT(gen_fbits(v) == gen_fbits(s.v) && gen_fbits(e) == gen_fbits(s.e));
    cp_double c = gen_dd(&r, -50, 50), d = gen_dd(&r, -50, 50);
    double hi, lo;
    cp_dd_store(&hi, &lo, c);
    cp_dd_add_to(&hi, &lo, d);
    cp_double t = cp_dd_add(c, d);
    TU_ASSERT(gen_dbits(hi) == gen_dbits(t.hi) && gen_dbits(lo) == gen_dbits(t.lo));
  }
}
END_TEST

/* The final recombination is RN(v + e), the float (double) nearest the pair. */
START_TEST(test_recombine_host)
{
  gen_rng r = gen_seed(0x5eed04);
  enum { N = 4096 };
  static float v[N], e[N];
  static double dv[N], de[N];
  cp_float pairs[N];
  cp_double dpairs[N];
  for (int i = 0; i < N; i++) {
    pairs[i] = gen_pair(&r, -60, 60);
    v[i] = pairs[i].v;
    e[i] = gen_one_in(&r, 4) ? 0.0f : pairs[i].e;
    dpairs[i] = gen_dd(&r, -300, 300);
    dv[i] = dpairs[i].hi;
    de[i] = dpairs[i].lo;
  }
  v[0] = -0.0f; /* -0 with no error stays -0 */
  e[0] = 0.0f;
  cp_recombine_host(v, e, N);
  cp_recombine_host_double(dv, de, N);
  mpfr_t x;
  mpfr_init2(x, TU_PREC);
  TU_ASSERT(gen_fbits(v[0]) == gen_fbits(-0.0f));
  for (int i = 1; i < N; i++) {
    mpfr_set_flt(x, pairs[i].v, MPFR_RNDN);
    mpfr_add_d(x, x, e[i] == 0.0f ? 0.0 : (double)pairs[i].e, MPFR_RNDN);
    TU_CHECK(v[i] == mpfr_get_flt(x, MPFR_RNDN), "float recombination %d", i);
    tu_set_dd(x, dpairs[i]);
    TU_CHECK(dv[i] == mpfr_get_d(x, MPFR_RNDN), "double recombination %d", i);
  }
  mpfr_clear(x);
}
END_TEST

/* cp_double floor, ceil, rint (exact) and fmin/fmax, against MPFR on the represented
 * value, including pairs whose hi is integral and whose lo decides. */
START_TEST(test_dd_rounding)
{
  gen_rng r = gen_seed(0x5eed05);
  mpfr_t x, want, got;
  mpfr_inits2(TU_PREC, x, want, got, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; i++) {
    cp_double a = gen_dd(&r, -10, 70);
    if (gen_one_in(&r, 3)) /* integral hi, fraction in lo */
      a = cp_dd_add(cp_dd_from_double(floor(a.hi)), cp_dd_from_double(gen_double(&r, -8, -1)));
    if (gen_one_in(&r, 5)) /* a tie */
      a = cp_dd_from_double(floor(a.hi) + 0.5);
    tu_set_dd(x, a);
    mpfr_floor(want, x);
    tu_set_dd(got, cp_dd_floor(a));
    TU_CHECK(mpfr_equal_p(want, got), "cp_dd_floor(%a + %a)", a.hi, a.lo);
    mpfr_ceil(want, x);
    tu_set_dd(got, cp_dd_ceil(a));
    TU_CHECK(mpfr_equal_p(want, got), "cp_dd_ceil(%a + %a)", a.hi, a.lo);
    mpfr_rint(want, x, MPFR_RNDN);
    tu_set_dd(got, cp_dd_rint(a));
    TU_CHECK(mpfr_equal_p(want, got), "cp_dd_rint(%a + %a)", a.hi, a.lo);
    cp_double b = gen_dd(&r, -10, 70);
    TU_ASSERT(cp_dd_lt(b, a) ? cp_dd_eq(cp_dd_fmin(a, b), b) : cp_dd_eq(cp_dd_fmin(a, b), a));
    TU_ASSERT(cp_dd_lt(a, b) ? cp_dd_eq(cp_dd_fmax(a, b), b) : cp_dd_eq(cp_dd_fmax(a, b), a));
  }
  cp_double nan = cp_dd_from_double(NAN), one = cp_dd_from_double(1.0);
  TU_ASSERT(cp_dd_eq(cp_dd_fmin(nan, one), one) && cp_dd_eq(cp_dd_fmax(one, nan), one));
  mpfr_clears(x, want, got, (mpfr_ptr)0);
}
END_TEST

Suite *make_pair_suite(void)
{
  Suite *s = suite_create("pair");
  TCase *tc = tcase_create("pair");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_ff_forms_exact);
  tcase_add_test(tc, test_div_ff_bound);
  tcase_add_test(tc, test_store_and_add_to);
  tcase_add_test(tc, test_recombine_host);
  tcase_add_test(tc, test_dd_rounding);
  suite_add_tcase(s, tc);
  return s;
}
