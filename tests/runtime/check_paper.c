/* check_paper.c - the paper family: bit-identical to the thesis formulas, and its accuracy.
 *
 * The transcription below is the Saponaro/Taufer formulas in plain C operators, evaluated
 * left to right; this file is compiled with -ffp-contract=off (cp::runtime), so each
 * operator rounds once, and the runtime (written with cp_f*_rn) must match it bit for bit on
 * every finite, non-zero result (zero and non-finite results follow the runtime's special-
 * value rule and are tested in check_special.c).
 *
 * Bounds. add/sub keep the rounding error of x.v + y.v exactly (its first two terms are
 * TwoSum's error) and add the error halves with two roundings: derived first-order bound
 * 4u^2 (|x| + |y|), 2u^2 (|x| + |f|) with one float operand. mul keeps no rounding error of
 * x.v * y.v: relative error u(1 + O(u)), asserted as 1.001u. div ignores x.e and y.e and
 * rounds s*y.v: relative error 3u(1 + O(u)) (2u with one float operand), asserted with 0.1%
 * margin. These are float-accurate (order u), not composite-accurate (order u^2): the
 * paper's mul and div are the reason the accurate family is the default. sqrt, rsqrt, rcp
 * and fma are the accurate family's (not in the thesis): same bounds as check_accurate.c.
 * Ranges as in check_accurate.c.
 */
#include "test_util.h"

#include <stdio.h>

#define U TU_U_F
#define U2 (TU_U_F * TU_U_F)
#define FO(b) ((b) * (1.0 + 1.0 / 1024)) /* first-order bound + 0.1% for O(u) terms */

static const double B_ADD = FO(4.0);   /* u^2 (|x| + |y|) */
static const double B_ADD_F = FO(2.0); /* u^2 (|x| + |f|) */
static const double B_MUL = FO(1.0);   /* u, relative */
static const double B_DIV = FO(3.0);   /* u, relative */
static const double B_DIV_F = FO(2.0); /* u, relative */
/* borrowed from the accurate family (check_accurate.c): u^2, relative */
static const double B_SQRT = 4.2;                   /* derived 4.125 + O(u) */
static const double B_RSQRT = 21.2;                 /* derived 21.125 + O(u) */
static const double B_RCP = 17.2;                   /* derived 17 + O(u): Alg. 17, one quotient */
static const double B_FMA_AB = 4.0 + 13.0 * U2;     /* fma: |ab| coefficient */
static const double B_FMA_ABC = 3.0 / (1.0 - 4.0 * U); /* fma: |ab + c| coefficient */

/* ---- the thesis formulas, transcribed ---- */
typedef struct { float v, e; } t_pair;

static t_pair t_add(t_pair x, t_pair y)
{
  t_pair z;
  z.v = x.v + y.v;
  float t = z.v - x.v;
  z.e = x.v - (z.v - t) + (y.v - t) + x.e + y.e;
  return z;
}

static t_pair t_sub(t_pair x, t_pair y)
{
  t_pair n = { -y.v, -y.e };
  return t_add(x, n);
}

static t_pair t_mul(t_pair x, t_pair y)
{
  t_pair z;
  z.v = x.v * y.v;
  z.e = x.v * y.e + x.e * y.v + x.e * y.e;
  return z;
}

static t_pair t_div(t_pair x, t_pair y)
{
  float t = 1 / y.v;
  float s = t * x.v;
  float d = x.v - s * y.v;
  t_pair z = { s, t * d };
  return z;
}

static t_pair tp(cp_float x) { t_pair r = { x.v, x.e }; return r; }

/* Same bits, except that a zero error half may differ in sign (the one-float-operand forms
 * drop "+ 0" terms, which can only turn -0 into +0). */
static int same(cp_float a, t_pair b, int zero_sign_free)
{
  if (gen_fbits(a.v) != gen_fbits(b.v)) return 0;
  if (zero_sign_free && a.e == 0.0f && b.e == 0.0f) return 1;
  return gen_fbits(a.e) == gen_fbits(b.e);
}

START_TEST(test_bit_identity)
{
  gen_rng r = gen_seed(201);
  long checked = 0;
  for (int i = 0; i < TU_N; ++i) {
    cp_float x = gen_pair(&r, -30, 30), y = gen_pair(&r, -30, 30);
    if (gen_one_in(&r, 5)) y = gen_near_neg(&r, x);
    float f = gen_float(&r, -30, 30);
    t_pair tf = { f, 0.0f };
    struct { const char *n; cp_float got; t_pair want; int free0; } c[] = {
      { "add", cp_paper_add(x, y), t_add(tp(x), tp(y)), 0 },
      { "sub", cp_paper_sub(x, y), t_sub(tp(x), tp(y)), 0 },
      { "mul", cp_paper_mul(x, y), t_mul(tp(x), tp(y)), 0 },
      { "sqr", cp_paper_sqr(x), t_mul(tp(x), tp(x)), 0 },
      { "div", cp_paper_div(x, y), t_div(tp(x), tp(y)), 0 },
      { "add_cf", cp_paper_add_cf(x, f), t_add(tp(x), tf), 1 },
      { "add_fc", cp_paper_add_fc(f, y), t_add(tf, tp(y)), 1 },
      { "sub_cf", cp_paper_sub_cf(x, f), t_sub(tp(x), tf), 1 },
      { "sub_fc", cp_paper_sub_fc(f, y), t_sub(tf, tp(y)), 1 },
      { "mul_cf", cp_paper_mul_cf(x, f), t_mul(tp(x), tf), 1 },
      { "mul_fc", cp_paper_mul_fc(f, y), t_mul(tf, tp(y)), 1 },
      { "div_cf", cp_paper_div_cf(x, f), t_div(tp(x), tf), 1 },
      { "div_fc", cp_paper_div_fc(f, y), t_div(tf, tp(y)), 1 },
    };
    for (size_t j = 0; j < sizeof c / sizeof c[0]; ++j) {
      if (c[j].want.v == 0.0f && c[j].want.e == 0.0f) continue; /* special-value rule */
      TU_CHECK(same(c[j].got, c[j].want, c[j].free0),
                    "paper %s: x={%a,%a} y={%a,%a} f=%a: runtime {%a,%a}, formula {%a,%a}", c[j].n,
                    x.v, x.e, y.v, y.e, f, c[j].got.v, c[j].got.e, c[j].want.v, c[j].want.e);
      ++checked;
    }
  }
  printf("paper     formulas bit-identical on %ld results\n", checked);
}
END_TEST

START_TEST(test_add_sub)
{
  tu_op ops[] = {
    { "add", TU_ADD, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_paper_add, 0, 0, 0, 0 },
    { "sub", TU_SUB, TU_CC, TU_SUMABS, B_ADD, 0, U2, -60, 60, cp_paper_sub, 0, 0, 0, 0 },
    { "add_cf", TU_ADD, TU_CS, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, cp_paper_add_cf, 0, 0, 0 },
    { "add_fc", TU_ADD, TU_SC, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_paper_add_fc, 0, 0 },
    { "sub_cf", TU_SUB, TU_CS, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, cp_paper_sub_cf, 0, 0, 0 },
    { "sub_fc", TU_SUB, TU_SC, TU_SUMABS, B_ADD_F, 0, U2, -60, 60, 0, 0, cp_paper_sub_fc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "paper", 210 + i);
}
END_TEST

START_TEST(test_mul_div)
{
  tu_op ops[] = {
    { "mul", TU_MUL, TU_CC, TU_REL, B_MUL, 0, U, -30, 30, cp_paper_mul, 0, 0, 0, 0 },
    { "mul_cf", TU_MUL, TU_CS, TU_REL, B_MUL, 0, U, -30, 30, 0, cp_paper_mul_cf, 0, 0, 0 },
    { "mul_fc", TU_MUL, TU_SC, TU_REL, B_MUL, 0, U, -30, 30, 0, 0, cp_paper_mul_fc, 0, 0 },
    { "div", TU_DIV, TU_CC, TU_REL, B_DIV, 0, U, -30, 30, cp_paper_div, 0, 0, 0, 0 },
    { "div_cf", TU_DIV, TU_CS, TU_REL, B_DIV_F, 0, U, -30, 30, 0, cp_paper_div_cf, 0, 0, 0 },
    { "div_fc", TU_DIV, TU_SC, TU_REL, B_DIV_F, 0, U, -30, 30, 0, 0, cp_paper_div_fc, 0, 0 },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "paper", 220 + i);
}
END_TEST

START_TEST(test_borrowed)
{
  tu_op ops[] = {
    { "sqrt", TU_SQRT, TU_C, TU_REL, B_SQRT, 0, U2, -60, 60, 0, 0, 0, cp_paper_sqrt, 0 },
    { "rsqrt", TU_RSQRT, TU_C, TU_REL, B_RSQRT, 0, U2, -60, 60, 0, 0, 0, cp_paper_rsqrt, 0 },
    { "rcp", TU_RCP, TU_C, TU_REL, B_RCP, 0, U2, -60, 60, 0, 0, 0, cp_paper_rcp, 0 },
    { "fma", TU_FMA, TU_CCC, TU_FMA_ACC, B_FMA_AB, B_FMA_ABC, U2, -30, 30, 0, 0, 0, 0, cp_paper_fma },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i) tu_run_op(&ops[i], "paper", 230 + i);
}
END_TEST

Suite *make_paper_suite(void)
{
  Suite *s = suite_create("paper");
  TCase *tc = tcase_create("formulas");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_bit_identity);
  tcase_add_test(tc, test_add_sub);
  tcase_add_test(tc, test_mul_div);
  tcase_add_test(tc, test_borrowed);
  suite_add_tcase(s, tc);
  return s;
}
