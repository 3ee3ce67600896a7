/* check_mid.c - the mid family against MPFR.
 *
 * Its pair + pair add and sub (SloppyDWPlusDW) against 3u^2 (|x| + |y|), plus 0.1% for the
 * O(u^3) terms, with the cancellation cases tu_run_op adds for add and sub; fma against
 * 7|ab| + 3|c| (4u^2|ab| of the product, 3u^2(|ab| + |c|) of the add). Every other operation
 * is the accurate family's by definition: checked bit for bit on random pairs. Inputs are
 * normalized pairs; the outputs are normalized too (checked).
 */
#include "test_util.h"

#define U2 (TU_U_F * TU_U_F)
#define FO(b) ((b) * (1.0 + 1.0 / 1024))

static const double B_ADD = FO(3.0); /* u^2 (|x| + |y|) */
static const double B_FMA_AB = FO(7.0), B_FMA_C = FO(3.0);

START_TEST(test_add_sub)
{
  tu_op ops[] = {
    { "add", TU_ADD, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_mid_add, 0, 0, 0, 0 },
    { "sub", TU_SUB, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_mid_sub, 0, 0, 0, 0 },
    { "fma", TU_FMA, TU_CCC, TU_FMA_FAST, B_FMA_AB, B_FMA_C, U2, -30, 30, 0, 0, 0, 0, cp_mid_fma },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "mid", 410 + i);
}
END_TEST

static int same(cp_float a, cp_float b) { return gen_fbits(a.v) == gen_fbits(b.v) && gen_fbits(a.e) == gen_fbits(b.e); }

START_TEST(test_normalized_and_rest)
{
  gen_rng r = gen_seed(420);
  for (int i = 0; i < TU_N; ++i) {
    cp_float x = gen_pair(&r, -30, 30), y = gen_pair(&r, -30, 30), ax = cp_fabs(x);
    float f = gen_float(&r, -30, 30);
    cp_float z = cp_mid_add(x, y);
    TU_CHECK(z.e == 0.0f || cp_fadd_rn(z.v, z.e) == z.v, "mid add({%a, %a}, {%a, %a}) = {%a, %a}: not normalized",
             x.v, x.e, y.v, y.e, z.v, z.e);
    TU_ASSERT(same(cp_mid_mul(x, y), cp_accurate_mul(x, y)) && same(cp_mid_div(x, y), cp_accurate_div(x, y)));
    TU_ASSERT(same(cp_mid_add_cf(x, f), cp_accurate_add_cf(x, f)) && same(cp_mid_sub_fc(f, y), cp_accurate_sub_fc(f, y)));
    TU_ASSERT(same(cp_mid_mul_fc(f, y), cp_accurate_mul_fc(f, y)) && same(cp_mid_div_cf(x, f), cp_accurate_div_cf(x, f)));
    TU_ASSERT(same(cp_mid_sqrt(ax), cp_accurate_sqrt(ax)) && same(cp_mid_rcp(x), cp_accurate_rcp(x)));
    TU_ASSERT(same(cp_mid_sqr(x), cp_accurate_sqr(x)));
  }
}
END_TEST

/* The tiers by name (tiers.cuh): low is fast, mid is mid, high is accurate, bit for bit. */
START_TEST(test_tier_names)
{
  gen_rng r = gen_seed(421);
  for (int i = 0; i < 10000; ++i) {
    cp_float x = gen_pair(&r, -30, 30), y = gen_pair(&r, -30, 30), z = gen_pair(&r, -30, 30);
    float f = gen_float(&r, -30, 30), g = gen_float(&r, -30, 30);
    TU_ASSERT(same(cp_low_add(x, y), cp_fast_add(x, y)) && same(cp_low_mul(x, y), cp_fast_mul(x, y)));
    TU_ASSERT(same(cp_low_div_fc(f, y), cp_fast_div_fc(f, y)) && same(cp_low_fma(x, y, z), cp_fast_fma(x, y, z)));
    TU_ASSERT(same(cp_high_add(x, y), cp_accurate_add(x, y)) && same(cp_high_sub_cf(x, f), cp_accurate_sub_cf(x, f)));
    TU_ASSERT(same(cp_high_rsqrt(cp_fabs(x)), cp_accurate_rsqrt(cp_fabs(x))));
    TU_ASSERT(same(cp_low_sqr(x), cp_fast_sqr(x)) && same(cp_high_sqr(x), cp_accurate_sqr(x)));
    TU_ASSERT(same(cp_mid_mul_ff(f, g), cp_mid_mul_cf(cp_from_float(f), g)) &&
              same(cp_low_add_ff(f, g), cp_fast_add_cf(cp_from_float(f), g)));
  }
}
END_TEST

Suite *make_mid_suite(void)
{
  Suite *s = suite_create("mid");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_add_sub);
  tcase_add_test(tc, test_normalized_and_rest);
  tcase_add_test(tc, test_tier_names);
  suite_add_tcase(s, tc);
  return s;
}
