/* check_double.c - cp_double (double-double) against MPFR, and its conversions/comparisons.
 *
 * The same algorithms and bounds as the accurate float family (check_accurate.c), with
 * u = 2^-53. Ranges: add/sub/sqrt/rcp/rsqrt draw exponents in [-500, 500], mul/div/fma in
 * [-250, 250], so products stay above 2^-500 and no error term underflows (smallest lo is
 * 2^-107 of its hi).
 */
#include "test_util.h"

#define U TU_U_D
#define U2 (TU_U_D * TU_U_D)

static const double B_ADD = 3.0 / (1.0 - 4.0 * U);
static const double B_ADD_F = 2.0;
static const double B_MUL = 4.0;
static const double B_MUL_F = 2.0;
static const double B_DIV = 15.0 + 56.0 * U;
static const double B_DIV_F = 3.0;
static const double B_SQRT = 4.2;  /* derived 4.125 + O(u) */
static const double B_RCP = 17.2;   /* derived 17 + O(u): Alg. 17, one quotient */
static const double B_RSQRT = 21.2; /* derived 21.125 + O(u) */
/* fma = add(mul): |err| <= (4 + 13u^2)u^2 |ab| + 3/(1-4u) u^2 |ab + c| */
static const double B_FMA_AB = 4.0 + 13.0 * U2;

START_TEST(test_add_sub)
{
  tu_dd_op ops[] = {
    { "add", TU_ADD, TU_CC, TU_REL, B_ADD, 0, U2, -500, 500, cp_dd_add, 0, 0, 0, 0 },
    { "sub", TU_SUB, TU_CC, TU_REL, B_ADD, 0, U2, -500, 500, cp_dd_sub, 0, 0, 0, 0 },
    { "add_cd", TU_ADD, TU_CS, TU_REL, B_ADD_F, 0, U2, -500, 500, 0, cp_dd_add_cd, 0, 0, 0 },
    { "add_dc", TU_ADD, TU_SC, TU_REL, B_ADD_F, 0, U2, -500, 500, 0, 0, cp_dd_add_dc, 0, 0 },
    { "sub_cd", TU_SUB, TU_CS, TU_REL, B_ADD_F, 0, U2, -500, 500, 0, cp_dd_sub_cd, 0, 0, 0 },
    { "sub_dc", TU_SUB, TU_SC, TU_REL, B_ADD_F, 0, U2, -500, 500, 0, 0, cp_dd_sub_dc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_dd_op(&ops[i], 410 + i);
}
END_TEST

START_TEST(test_mul_div)
{
  tu_dd_op ops[] = {
    { "mul", TU_MUL, TU_CC, TU_REL, B_MUL, 0, U2, -250, 250, cp_dd_mul, 0, 0, 0, 0 },
    { "mul_cd", TU_MUL, TU_CS, TU_REL, B_MUL_F, 0, U2, -250, 250, 0, cp_dd_mul_cd, 0, 0, 0 },
    { "mul_dc", TU_MUL, TU_SC, TU_REL, B_MUL_F, 0, U2, -250, 250, 0, 0, cp_dd_mul_dc, 0, 0 },
    { "sqr", TU_SQR, TU_C, TU_REL, B_MUL + 9.0 * U, 0, U2, -250, 250, 0, 0, 0, cp_dd_sqr, 0 },
    { "mul_pow2", TU_MUL, TU_CP2, TU_REL, 0.0, 0, U2, -250, 250, 0, cp_dd_mul_pow2, 0, 0, 0 },
    { "div", TU_DIV, TU_CC, TU_REL, B_DIV, 0, U2, -250, 250, cp_dd_div, 0, 0, 0, 0 },
    { "div_cd", TU_DIV, TU_CS, TU_REL, B_DIV_F, 0, U2, -250, 250, 0, cp_dd_div_cd, 0, 0, 0 },
    { "div_dc", TU_DIV, TU_SC, TU_REL, B_DIV, 0, U2, -250, 250, 0, 0, cp_dd_div_dc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_dd_op(&ops[i], 420 + i);
}
END_TEST

START_TEST(test_unary_fma)
{
  tu_dd_op ops[] = {
    { "sqrt", TU_SQRT, TU_C, TU_REL, B_SQRT, 0, U2, -500, 500, 0, 0, 0, cp_dd_sqrt, 0 },
    { "rsqrt", TU_RSQRT, TU_C, TU_REL, B_RSQRT, 0, U2, -500, 500, 0, 0, 0, cp_dd_rsqrt, 0 },
    { "rcp", TU_RCP, TU_C, TU_REL, B_RCP, 0, U2, -500, 500, 0, 0, 0, cp_dd_rcp, 0 },
    { "fma", TU_FMA, TU_CCC, TU_FMA_ACC, B_FMA_AB, B_ADD, U2, -250, 250, 0, 0, 0, 0, cp_dd_fma },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_dd_op(&ops[i], 430 + i);
}
END_TEST

START_TEST(test_conversions)
{
  TU_ASSERT(cp_dd_from_int(INT_MIN).hi == -2147483648.0 && cp_dd_from_int(INT_MIN).lo == 0.0);
  TU_ASSERT(cp_dd_from_int(INT_MAX).hi == 2147483647.0);
  cp_double t = cp_dd_div(cp_dd_from_double(1.0), cp_dd_from_double(3.0));
  TU_ASSERT(cp_dd_to_double(t) == 1.0 / 3.0);
  TU_ASSERT(gen_dbits(cp_dd_to_double(cp_make_double(-0.0, 0.0))) == gen_dbits(-0.0));
  /* cp_dd_to_float: correctly rounded even when hi is a float tie and lo breaks it */
  double tie = 1.0 + 0x1p-24; /* halfway between 1 and 1 + 2^-23 */
  TU_ASSERT(cp_dd_to_float(cp_make_double(tie, 0x1p-80)) == 1.0f + 0x1p-23f);
  TU_ASSERT(cp_dd_to_float(cp_make_double(tie, -0x1p-80)) == 1.0f);
  TU_ASSERT(cp_dd_to_float(cp_make_double(tie, 0.0)) == 1.0f); /* tie to even */
  /* exact float pair into double-double */
  cp_float x = cp_make_float(1.0f, 0x1p-30f);
  TU_ASSERT(cp_dd_from_cp(x).hi == 1.0 && cp_dd_from_cp(x).lo == 0x1p-30);
}
END_TEST

START_TEST(test_comparisons)
{
  cp_double one = cp_dd_from_double(1.0), below = cp_make_double(1.0, -0x1p-70);
  cp_double unnorm = cp_make_double(2.0, -1.0 - 0x1p-52); /* = 1 - 2^-52, not normalized */
  TU_ASSERT(cp_dd_lt(below, one) && cp_dd_le(below, one) && !cp_dd_gt(below, one));
  TU_ASSERT(cp_dd_lt(unnorm, one) && cp_dd_gt(one, unnorm) && cp_dd_ne(unnorm, one));
  TU_ASSERT(cp_dd_eq(cp_make_double(2.0, -1.0), one) && cp_dd_ge(one, cp_make_double(2.0, -1.0)));
  TU_ASSERT(cp_dd_lt_cd(below, 1.0) && cp_dd_ge_cd(one, 1.0) && cp_dd_eq_cd(one, 1.0));
  cp_double nan = cp_dd_from_double(NAN);
  TU_ASSERT(!cp_dd_lt(nan, one) && !cp_dd_le(nan, one) && !cp_dd_eq(nan, nan) && cp_dd_ne(nan, nan));
  TU_ASSERT(cp_dd_fabs(cp_make_double(-1.0, 0x1p-60)).hi == 1.0);
  TU_ASSERT(cp_dd_fabs(cp_make_double(-1.0, 0x1p-60)).lo == -0x1p-60);
}
END_TEST

Suite *make_double_suite(void)
{
  Suite *s = suite_create("double");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_add_sub);
  tcase_add_test(tc, test_mul_div);
  tcase_add_test(tc, test_unary_fma);
  tcase_add_test(tc, test_conversions);
  tcase_add_test(tc, test_comparisons);
  suite_add_tcase(s, tc);
  return s;
}
