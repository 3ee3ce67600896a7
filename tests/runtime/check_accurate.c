/* check_accurate.c - the accurate family against MPFR, one test per operation.
 *
 * Each bound is a named constant in units of u^2 (u = 2^-24), relative to |exact result|
 * unless marked: the published bounds of Joldes, Muller, Popescu (ACM TOMS 2017) for the
 * double-word algorithms, and first-order derived bounds (docs/runtime.md) for sqrt and
 * rsqrt, given a margin for their O(u^3) terms (about 1e-7 u^2 at u = 2^-24).
 *
 * Operand ranges: add/sub/sqrt/rcp/rsqrt draw value exponents in [-60, 60]; mul/div/fma in
 * [-30, 30], so that products and quotients stay above 2^-60 and every error term the
 * bounds account for stays a normal float (the proofs assume no underflow; what may still
 * underflow, e.g. lo*lo, is below 2^-150, 2^-42 times the smallest error allowed).
 */
#include "test_util.h"

#define U TU_U_F
#define U2 (TU_U_F * TU_U_F)

static const double B_ADD = 3.0 / (1.0 - 4.0 * U); /* AccurateDWPlusDW, Alg. 6 */
static const double B_ADD_F = 2.0;                  /* DWPlusFP, Alg. 4 */
static const double B_MUL = 4.0;                    /* DWTimesDW3, Alg. 12 (Muller-Rideau) */
static const double B_MUL_F = 2.0;                  /* DWTimesFP3, Alg. 9 */
static const double B_SQR = 4.0 + 9.0 * U;          /* Alg. 12 for x*x, derived (runtime.md) */
static const double B_DIV = 15.0 + 56.0 * U;        /* DWDivDW2, Alg. 17 */
static const double B_DIV_F = 3.0;                  /* DWDivFP3, Alg. 15 */
static const double B_SQRT = 4.2;                   /* derived 4.125 + O(u) */
static const double B_RCP = 17.2;                   /* derived 17 + O(u): Alg. 17, one quotient */
static const double B_RSQRT = 21.2;                 /* derived 4.125 + 17 + O(u) */
/* fma = add(mul): |err| <= (4 + 13u^2)u^2 |ab| + 3/(1-4u) u^2 |ab + c| */
static const double B_FMA_AB = 4.0 + 13.0 * U2;


START_TEST(test_add)
{
  tu_op op = { "add", TU_ADD, TU_CC, TU_REL, B_ADD, 0, U2, -60, 60, cp_accurate_add, 0, 0, 0, 0 };
  tu_run_op(&op, "accurate", 101);
}
END_TEST

START_TEST(test_sub)
{
  tu_op op = { "sub", TU_SUB, TU_CC, TU_REL, B_ADD, 0, U2, -60, 60, cp_accurate_sub, 0, 0, 0, 0 };
  tu_run_op(&op, "accurate", 102);
}
END_TEST

START_TEST(test_add_sub_float)
{
  tu_op a = { "add_cf", TU_ADD, TU_CS, TU_REL, B_ADD_F, 0, U2, -60, 60, 0, cp_accurate_add_cf, 0, 0, 0 };
  tu_op b = { "add_fc", TU_ADD, TU_SC, TU_REL, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_accurate_add_fc, 0, 0 };
  tu_op c = { "sub_cf", TU_SUB, TU_CS, TU_REL, B_ADD_F, 0, U2, -60, 60, 0, cp_accurate_sub_cf, 0, 0, 0 };
  tu_op d = { "sub_fc", TU_SUB, TU_SC, TU_REL, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_accurate_sub_fc, 0, 0 };
  tu_run_op(&a, "accurate", 103);
  tu_run_op(&b, "accurate", 104);
  tu_run_op(&c, "accurate", 105);
  tu_run_op(&d, "accurate", 106);
}
END_TEST

START_TEST(test_mul)
{
  tu_op op = { "mul", TU_MUL, TU_CC, TU_REL, B_MUL, 0, U2, -30, 30, cp_accurate_mul, 0, 0, 0, 0 };
  tu_op a = { "mul_cf", TU_MUL, TU_CS, TU_REL, B_MUL_F, 0, U2, -30, 30, 0, cp_accurate_mul_cf, 0, 0, 0 };
  tu_op b = { "mul_fc", TU_MUL, TU_SC, TU_REL, B_MUL_F, 0, U2, -30, 30, 0, 0, cp_accurate_mul_fc, 0, 0 };
  tu_op s = { "sqr", TU_SQR, TU_C, TU_REL, B_SQR, 0, U2, -30, 30, 0, 0, 0, cp_accurate_sqr, 0 };
  tu_op p2 = { "mul_pow2", TU_MUL, TU_CP2, TU_REL, 0.0, 0, U2, -30, 30, 0, cp_mul_pow2, 0, 0, 0 };
  tu_run_op(&op, "accurate", 107);
  tu_run_op(&a, "accurate", 108);
  tu_run_op(&b, "accurate", 109);
  tu_run_op(&s, "accurate", 117);
  tu_run_op(&p2, "accurate", 118); /* exact: the bound is 0 */
}
END_TEST

START_TEST(test_div)
{
  tu_op op = { "div", TU_DIV, TU_CC, TU_REL, B_DIV, 0, U2, -30, 30, cp_accurate_div, 0, 0, 0, 0 };
  tu_op a = { "div_cf", TU_DIV, TU_CS, TU_REL, B_DIV_F, 0, U2, -30, 30, 0, cp_accurate_div_cf, 0, 0, 0 };
  tu_op b = { "div_fc", TU_DIV, TU_SC, TU_REL, B_DIV, 0, U2, -30, 30, 0, 0, cp_accurate_div_fc, 0, 0 };
  tu_run_op(&op, "accurate", 110);
  tu_run_op(&a, "accurate", 111);
  tu_run_op(&b, "accurate", 112);
}
END_TEST

START_TEST(test_sqrt_rsqrt_rcp)
{
  tu_op s = { "sqrt", TU_SQRT, TU_C, TU_REL, B_SQRT, 0, U2, -60, 60, 0, 0, 0, cp_accurate_sqrt, 0 };
  tu_op r = { "rsqrt", TU_RSQRT, TU_C, TU_REL, B_RSQRT, 0, U2, -60, 60, 0, 0, 0, cp_accurate_rsqrt, 0 };
  tu_op c = { "rcp", TU_RCP, TU_C, TU_REL, B_RCP, 0, U2, -60, 60, 0, 0, 0, cp_accurate_rcp, 0 };
  tu_run_op(&s, "accurate", 113);
  tu_run_op(&r, "accurate", 114);
  tu_run_op(&c, "accurate", 115);
}
END_TEST

START_TEST(test_fma)
{
  tu_op op = { "fma", TU_FMA, TU_CCC, TU_FMA_ACC, B_FMA_AB, B_ADD, U2, -30, 30, 0, 0, 0, 0, cp_accurate_fma };
  tu_run_op(&op, "accurate", 116);
}
END_TEST

Suite *make_accurate_suite(void)
{
  Suite *s = suite_create("accurate");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_add);
  tcase_add_test(tc, test_sub);
  tcase_add_test(tc, test_add_sub_float);
  tcase_add_test(tc, test_mul);
  tcase_add_test(tc, test_div);
  tcase_add_test(tc, test_sqrt_rsqrt_rcp);
  tcase_add_test(tc, test_fma);
  suite_add_tcase(s, tc);
  return s;
}
