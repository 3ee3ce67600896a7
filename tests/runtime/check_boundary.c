/* check_boundary.c - the default special-value rule: settled at the boundaries (convert.cuh).
 *
 * Built without CP_STRICT_SPECIALS. Three claims:
 *  - ordinary numbers are not affected: for random normalized operands, every operation of
 *    every family gives the strict rule's pair bit for bit (check_special.c exports the strict
 *    operations), except that an exactly zero result may differ in the sign of its zeros;
 *  - at a boundary nothing non-finite reaches an error half: for operands drawn from the
 *    special values, the pair stored by cp_store has a finite error half (0 when the value
 *    half is not finite), and what cp_to_float recombines is NaN where float's result is NaN,
 *    +-inf or NaN where float's is +-inf, and zero where float's is zero for operands that are
 *    zero or normal;
 *  - a pair with a non-finite error half ({inf, NaN}: what an overflow leaves) is read by its
 *    value half everywhere it leaves composite arithmetic: recombination, comparison, fabs,
 *    classification, conversion to int, fixed point.
 */
#include "test_util.h"

cp_float strict_op(int fam, int op, cp_float x, cp_float y);

static cp_float default_op(int fam, int op, cp_float x, cp_float y)
{
  static cp_float (*const bin[3][4])(cp_float, cp_float) = {
    { cp_paper_add, cp_paper_sub, cp_paper_mul, cp_paper_div },
    { cp_accurate_add, cp_accurate_sub, cp_accurate_mul, cp_accurate_div },
    { cp_fast_add, cp_fast_sub, cp_fast_mul, cp_fast_div },
  };
  static cp_float (*const un[3][2])(cp_float) = {
    { cp_paper_sqrt, cp_paper_rcp }, { cp_accurate_sqrt, cp_accurate_rcp }, { cp_fast_sqrt, cp_fast_rcp },
  };
  return op < 4 ? bin[fam][op](x, y) : un[fam][op - 4](x);
}

static const char *const fam_name[] = { "paper", "accurate", "fast" };

START_TEST(test_ordinary_unchanged)
{
  gen_rng r = gen_seed(4242 + _i);
  for (int n = 0; n < TU_N; ++n) {
    cp_float x = gen_pair(&r, -30, 30), y = gen_pair(&r, -30, 30);
    for (int op = 0; op < 6; ++op) {
      cp_float a = op == 4 ? cp_fabs(x) : x;
      cp_float s = strict_op(_i, op, a, y), d = default_op(_i, op, a, y);
      if (s.v == 0.0f && s.e == 0.0f && d.v == 0.0f && d.e == 0.0f) continue; /* sign of zero */
      TU_CHECK(gen_fbits(s.v) == gen_fbits(d.v) && gen_fbits(s.e) == gen_fbits(d.e),
               "%s op %d ({%a, %a}, {%a, %a}): strict {%a, %a}, default {%a, %a}", fam_name[_i], op,
               a.v, a.e, y.v, y.e, s.v, s.e, d.v, d.e);
    }
  }
}
END_TEST

static const float specials[] = {
  0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 3.0f, 0.1f, FLT_MAX, -FLT_MAX, 1e30f, -1e30f,
  1e20f, 1e-30f, FLT_MIN, -FLT_MIN, 1e-40f, 0x1p-149f,
};
#define NS ((int)(sizeof specials / sizeof specials[0]))

/* Finite and not subnormal: an infinite operand, or an intermediate that overflows (1/b of a
 * subnormal b in the paper's division), may give NaN where float gives zero. */
static int normal_or_zero(float a) { return a == 0.0f || (fabsf(a) >= FLT_MIN && fabsf(a) <= FLT_MAX); }

static float float_op(int op, float a, float b)
{
  switch (op) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return a / b;
  case 4: return sqrtf(a);
  default: return 1.0f / a;
  }
}

START_TEST(test_specials_at_the_store)
{
  for (int i = 0; i < NS; ++i)
    for (int j = 0; j < NS; ++j)
      for (int op = 0; op < 6; ++op) {
        float a = specials[i], b = specials[j];
        cp_float z = default_op(_i, op, cp_from_float(a), cp_from_float(b));
        float v, e;
        cp_store(&v, &e, z);
        float got = cp_to_float(z), want = float_op(op, a, b);
        TU_CHECK(fabsf(e) <= FLT_MAX && (fabsf(v) <= FLT_MAX || e == 0.0f),
                 "%s op %d (%a, %a): stored {%a, %a}", fam_name[_i], op, a, b, v, e);
        TU_CHECK(cp_to_float(cp_make_float(v, e)) == got || (got != got && v != v),
                 "%s op %d (%a, %a): the stored pair recombines to %a, the register pair to %a",
                 fam_name[_i], op, a, b, cp_to_float(cp_make_float(v, e)), got);
        if (want != want)
          TU_CHECK(got != got, "%s op %d (%a, %a) = %a, float gives NaN", fam_name[_i], op, a, b, got);
        else if (isinf(want))
          TU_CHECK(got != got || got == want, "%s op %d (%a, %a) = %a, float gives %a", fam_name[_i], op,
                   a, b, got, want);
        else if (want == 0.0f && normal_or_zero(a) && normal_or_zero(b))
          TU_CHECK(got == 0.0f, "%s op %d (%a, %a) = %a, float gives %a", fam_name[_i], op, a, b, got, want);
      }
}
END_TEST

START_TEST(test_nonfinite_error_half)
{
  const cp_float over = cp_make_float(INFINITY, NAN), under = cp_make_float(-INFINITY, NAN);
  const cp_float one = cp_make_float(1.0f, NAN);
  TU_ASSERT(cp_to_float(over) == INFINITY && cp_to_float(under) == -INFINITY && cp_to_float(one) == 1.0f);
  TU_ASSERT(cp_to_double(over) == INFINITY && cp_to_double(one) == 1.0);
  TU_ASSERT(cp_gt_cf(over, 1e30f) && cp_lt_cf(under, -1e30f) && cp_eq_cf(one, 1.0f));
  TU_ASSERT(cp_lt(one, over) && !cp_lt(over, one) && cp_ge_fc(2.0f, one));
  TU_ASSERT(!cp_isnan(over) && cp_isinf(over) && !cp_isfinite(over) && cp_isfinite(one));
  TU_ASSERT(cp_fabs(under).v == INFINITY && cp_to_float(cp_fmax(one, under)) == 1.0f);
  TU_ASSERT(cp_to_int(over) == INT_MAX && cp_to_int(one) == 1);
  TU_ASSERT(cp_fixed_from_cp(one) == cp_fixed_from_float(1.0f));
  cp_float s = cp_settle(over);
  TU_ASSERT(s.v == INFINITY && s.e == 0.0f);
  s = cp_settle(cp_make_float(2.0f, 0x1p-30f));
  TU_ASSERT(s.v == 2.0f && s.e == 0x1p-30f);
  float v, e;
  cp_store(&v, &e, one);
  TU_ASSERT(v == 1.0f && e == 0.0f);
  cp_add_to(&v, &e, cp_make_float(2.0f, 0x1p-30f));
  TU_ASSERT(v == 3.0f && e == 0x1p-30f);
}
END_TEST

/* Under the default family pairs are normalized, and comparisons and fabs read them as they
 * are (cp_detail_cmp_ready): each must agree with MPFR on the exact values. */
START_TEST(test_normalized_comparisons)
{
  gen_rng r = gen_seed(4343);
  mpfr_t a, b;
  mpfr_inits2(TU_PREC, a, b, (mpfr_ptr)0);
  for (int n = 0; n < TU_N; ++n) {
    cp_float x = gen_pair(&r, -10, 10), y = gen_pair(&r, -10, 10);
    if (gen_one_in(&r, 4)) y = cp_make_float(x.v, gen_one_in(&r, 2) ? x.e : -x.e); /* ties of v */
    if (gen_one_in(&r, 8)) y = x;
    float f = gen_one_in(&r, 2) ? y.v : x.v;
    tu_set_pair(a, x);
    tu_set_pair(b, y);
    int c = mpfr_cmp(a, b);
    TU_CHECK(cp_lt(x, y) == (c < 0) && cp_le(x, y) == (c <= 0) && cp_eq(x, y) == (c == 0) &&
                 cp_gt(x, y) == (c > 0) && cp_ge(x, y) == (c >= 0) && cp_ne(x, y) == (c != 0),
             "{%a, %a} against {%a, %a}", x.v, x.e, y.v, y.e);
    c = mpfr_cmp_d(a, (double)f);
    TU_CHECK(cp_lt_cf(x, f) == (c < 0) && cp_le_cf(x, f) == (c <= 0) && cp_eq_cf(x, f) == (c == 0) &&
                 cp_gt_cf(x, f) == (c > 0) && cp_ge_cf(x, f) == (c >= 0) && cp_gt_fc(f, x) == (c < 0),
             "{%a, %a} against %a", x.v, x.e, f);
    cp_float m = cp_fabs(x);
    TU_CHECK(m.v == fabsf(x.v) && m.e == (x.v < 0 || (x.v == 0 && signbit(x.v)) ? -x.e : x.e),
             "cp_fabs({%a, %a}) = {%a, %a}", x.v, x.e, m.v, m.e);
  }
  mpfr_clears(a, b, (mpfr_ptr)0);
}
END_TEST

Suite *make_boundary_suite(void)
{
  Suite *s = suite_create("boundary");
  TCase *tc = tcase_create("settled_at_boundaries");
  tcase_add_loop_test(tc, test_ordinary_unchanged, 0, 3);
  tcase_add_loop_test(tc, test_specials_at_the_store, 0, 3);
  tcase_add_test(tc, test_nonfinite_error_half);
  tcase_add_test(tc, test_normalized_comparisons);
  suite_add_tcase(s, tc);
  return s;
}
