/* check_fast.c - the fast family (no renormalization) against MPFR.
 *
 * Bounds are the first-order bounds derived in float_fast.cuh and docs/runtime.md, in units
 * of u^2 (u = 2^-24), plus 0.1% for the O(u^3) terms. add/sub are measured against
 * |x| + |y| (under cancellation the error halves' roundings are not small relative to the
 * result), mul against |x y|, the rest relative to the exact result, fma against
 * 14|ab| + 3|c|. Inputs are normalized
 * pairs (outputs of the fast family are not, and errors grow with |e|/|v| of the inputs).
 * Ranges as in check_accurate.c.
 */
#include "test_util.h"

#define U TU_U_F
#define U2 (TU_U_F * TU_U_F)
#define FO(b) ((b) * (1.0 + 1.0 / 1024))

static const double B_ADD = FO(4.0);    /* u^2 (|x| + |y|) */
static const double B_ADD_F = FO(2.0);  /* u^2 (|x| + |f|) */
static const double B_MUL = FO(6.0);    /* u^2 |x y| */
static const double B_MUL_F = FO(2.0);  /* u^2 |x f| */
static const double B_DIV = FO(11.0);   /* relative */
static const double B_DIV_CF = FO(4.0); /* relative */
static const double B_DIV_FC = FO(6.0); /* relative */
static const double B_RCP = FO(8.0);    /* relative: div_fc with the quotient reused */
static const double B_SQRT = FO(4.125); /* relative */
static const double B_RSQRT = FO(15.375);
static const double B_FMA_AB = FO(14.0), B_FMA_C = FO(3.0); /* u^2 (14|ab| + 3|c|) */

START_TEST(test_add_sub)
{
  tu_op ops[] = {
    { "add", TU_ADD, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_fast_add, 0, 0, 0, 0 },
    { "sub", TU_SUB, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_fast_sub, 0, 0, 0, 0 },
    { "add_cf", TU_ADD, TU_CS, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, cp_fast_add_cf, 0, 0, 0 },
    { "add_fc", TU_ADD, TU_SC, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_fast_add_fc, 0, 0 },
    { "sub_cf", TU_SUB, TU_CS, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, cp_fast_sub_cf, 0, 0, 0 },
    { "sub_fc", TU_SUB, TU_SC, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_fast_sub_fc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "fast", 310 + i);
}
END_TEST

START_TEST(test_mul_div)
{
  tu_op ops[] = {
    { "mul", TU_MUL, TU_CC, TU_PRODABS, B_MUL, 0, U2, -30, 30, cp_fast_mul, 0, 0, 0, 0 },
    { "mul_cf", TU_MUL, TU_CS, TU_PRODABS, B_MUL_F, 0, U2, -30, 30, 0, cp_fast_mul_cf, 0, 0, 0 },
    { "mul_fc", TU_MUL, TU_SC, TU_PRODABS, B_MUL_F, 0, U2, -30, 30, 0, 0, cp_fast_mul_fc, 0, 0 },
    { "sqr", TU_SQR, TU_C, TU_PRODABS, B_MUL, 0, U2, -30, 30, 0, 0, 0, cp_fast_sqr, 0 },
    { "div", TU_DIV, TU_CC, TU_REL, B_DIV, 0, U2, -30, 30, cp_fast_div, 0, 0, 0, 0 },
    { "div_cf", TU_DIV, TU_CS, TU_REL, B_DIV_CF, 0, U2, -30, 30, 0, cp_fast_div_cf, 0, 0, 0 },
    { "div_fc", TU_DIV, TU_SC, TU_REL, B_DIV_FC, 0, U2, -30, 30, 0, 0, cp_fast_div_fc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "fast", 320 + i);
}
END_TEST

START_TEST(test_unary_fma)
{
  tu_op ops[] = {
    { "sqrt", TU_SQRT, TU_C, TU_REL, B_SQRT, 0, U2, -60, 60, 0, 0, 0, cp_fast_sqrt, 0 },
    { "rsqrt", TU_RSQRT, TU_C, TU_REL, B_RSQRT, 0, U2, -60, 60, 0, 0, 0, cp_fast_rsqrt, 0 },
    { "rcp", TU_RCP, TU_C, TU_REL, B_RCP, 0, U2, -60, 60, 0, 0, 0, cp_fast_rcp, 0 },
    { "fma", TU_FMA, TU_CCC, TU_FMA_FAST, B_FMA_AB, B_FMA_C, U2, -30, 30, 0, 0, 0, 0, cp_fast_fma },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "fast", 330 + i);
}
END_TEST

Suite *make_fast_suite(void)
{
  Suite *s = suite_create("fast");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_add_sub);
  tcase_add_test(tc, test_mul_div);
  tcase_add_test(tc, test_unary_fma);
  suite_add_tcase(s, tc);
  return s;
}
