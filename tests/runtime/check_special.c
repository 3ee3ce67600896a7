/* check_special.c - special values behave like float, in every family and in cp_double.
 *
 * For operands drawn from zeros of both signs, infinities, NaN, subnormals, FLT_MIN, values
 * whose products or sums overflow, and a few ordinary numbers, cp_to_float(op(x, y)) with
 * x = {a, 0}, y = {b, 0} must equal float's a op b bit for bit (any NaN matches any NaN):
 * the sign of zero, inf rather than NaN on overflow, NaN propagation, and subnormal results.
 * The reference of rsqrt is the correctly rounded 1/sqrt(a) (float's 1/sqrtf(a) rounds
 * twice). fma is add(mul(a, b), c), not a fused operation: where a*b overflows but
 * fmaf(a, b, c) is finite or an infinity of the other sign, it gives inf/NaN, and where a*b
 * underflows to zero the sign of a zero result can differ; those operand triples are skipped
 * here (docs/runtime.md).
 */
#include "test_util.h"

static const float specials[] = {
  0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 3.0f, -3.0f, 0.1f, FLT_MAX, -FLT_MAX, 1e30f, -1e30f,
  1e20f, 1e-30f, -1e-30f, FLT_MIN, -FLT_MIN, 1e-40f, -1e-40f, 0x1p-149f, -0x1p-149f, 0x1.8p-127f,
};
#define NS ((int)(sizeof specials / sizeof specials[0]))

typedef struct {
  const char *family;
  cp_float (*add)(cp_float, cp_float), (*sub)(cp_float, cp_float), (*mul)(cp_float, cp_float),
      (*div)(cp_float, cp_float);
  cp_float (*add_cf)(cp_float, float), (*sub_cf)(cp_float, float), (*mul_cf)(cp_float, float),
      (*div_cf)(cp_float, float);
  cp_float (*add_fc)(float, cp_float), (*sub_fc)(float, cp_float), (*mul_fc)(float, cp_float),
      (*div_fc)(float, cp_float);
  cp_float (*sqrt)(cp_float), (*rsqrt)(cp_float), (*rcp)(cp_float);
  cp_float (*fma)(cp_float, cp_float, cp_float);
} family;

#define FAMILY(f)                                                                             \
  { #f, cp_##f##_add, cp_##f##_sub, cp_##f##_mul, cp_##f##_div, cp_##f##_add_cf, cp_##f##_sub_cf, \
    cp_##f##_mul_cf, cp_##f##_div_cf, cp_##f##_add_fc, cp_##f##_sub_fc, cp_##f##_mul_fc,       \
    cp_##f##_div_fc, cp_##f##_sqrt, cp_##f##_rsqrt, cp_##f##_rcp, cp_##f##_fma }

static const family families[] = { FAMILY(paper), FAMILY(accurate), FAMILY(fast) };

/* The strict operations, for check_boundary.c (built without CP_STRICT_SPECIALS): operation op
 * (0 add, 1 sub, 2 mul, 3 div, 4 sqrt, 5 rcp) of family fam (0 paper, 1 accurate, 2 fast). */
cp_float strict_op(int fam, int op, cp_float x, cp_float y)
{
  const family *F = &families[fam];
  switch (op) {
  case 0: return F->add(x, y);
  case 1: return F->sub(x, y);
  case 2: return F->mul(x, y);
  case 3: return F->div(x, y);
  case 4: return F->sqrt(x);
  default: return F->rcp(x);
  }
}

/* got matches want: any NaN for NaN; bit for bit for infinities and zeros (the special-value
 * rule); within tol ulps for finite non-zero results (tol 0: bit for bit). */
static int match_f(float got, float want, int tol)
{
  if (want != want) return got != got;
  if (tol == 0 || isinf(want) || want == 0.0f) return gen_fbits(got) == gen_fbits(want);
  if (!(fabsf(got) <= FLT_MAX) || signbit(got) != signbit(want)) return 0;
  float ulp = nextafterf(fabsf(want), INFINITY) - fabsf(want);
  return fabsf(got - want) <= tol * ulp;
}

/* Tolerances for finite non-zero results. With float operands (e == 0), add, sub and mul
 * pairs are exact, so recombined they round like float: 0. div, sqrt, rsqrt, rcp and fma
 * pairs are within a few u^2 of the exact result, which rounds like float's except within
 * that distance of a tie: 1 ulp. The paper's div is float-accurate (3u): 2 ulps. */
enum { T_EXACT = 0, T_TIE = 1, T_PAPER_DIV = 2 };

static void expect(const char *fam, const char *op, float a, float b, cp_float z, float want, int tol)
{
  TU_CHECK(match_f(cp_to_float(z), want, tol), "%s %s(%a, %a) = {%a, %a}, float gives %a", fam, op, a,
                b, z.v, z.e, want);
  TU_CHECK(cp_isfinite(z) || z.e == 0.0f, "%s %s(%a, %a): non-finite value with error %a", fam, op, a, b,
                z.e);
}

START_TEST(test_binary)
{
  const family *F = &families[_i];
  int td = _i == 0 ? T_PAPER_DIV : T_TIE;
  for (int i = 0; i < NS; ++i)
    for (int j = 0; j < NS; ++j) {
      float a = specials[i], b = specials[j];
      cp_float x = cp_from_float(a), y = cp_from_float(b);
      expect(F->family, "add", a, b, F->add(x, y), a + b, T_EXACT);
      expect(F->family, "sub", a, b, F->sub(x, y), a - b, T_EXACT);
      expect(F->family, "mul", a, b, F->mul(x, y), a * b, T_EXACT);
      expect(F->family, "div", a, b, F->div(x, y), a / b, td);
      expect(F->family, "add_cf", a, b, F->add_cf(x, b), a + b, T_EXACT);
      expect(F->family, "sub_cf", a, b, F->sub_cf(x, b), a - b, T_EXACT);
      expect(F->family, "mul_cf", a, b, F->mul_cf(x, b), a * b, T_EXACT);
      expect(F->family, "div_cf", a, b, F->div_cf(x, b), a / b, td);
      expect(F->family, "add_fc", a, b, F->add_fc(a, y), a + b, T_EXACT);
      expect(F->family, "sub_fc", a, b, F->sub_fc(a, y), a - b, T_EXACT);
      expect(F->family, "mul_fc", a, b, F->mul_fc(a, y), a * b, T_EXACT);
      expect(F->family, "div_fc", a, b, F->div_fc(a, y), a / b, td);
    }
}
END_TEST

START_TEST(test_unary_fma)
{
  const family *F = &families[_i];
  for (int i = 0; i < NS; ++i) {
    float a = specials[i];
    cp_float x = cp_from_float(a);
    expect(F->family, "sqrt", a, 0, F->sqrt(x), sqrtf(a), T_TIE);
    expect(F->family, "rsqrt", a, 0, F->rsqrt(x), (float)(1.0 / sqrt((double)a)), T_TIE);
    expect(F->family, "rcp", a, 0, F->rcp(x), 1.0f / a, T_TIE);
    for (int j = 0; j < NS; ++j)
      for (int k = 0; k < NS; ++k) {
        float b = specials[j], c = specials[k];
        float want = fmaf(a, b, c);
        if (isinf(a * b) && !isinf(a) && !isinf(b) && !(isinf(want) && signbit(want) == signbit(a * b)))
          continue; /* a*b overflows in the unfused product: documented */
        if (a * b == 0.0f && a != 0.0f && b != 0.0f && want == 0.0f)
          continue; /* a*b underflows to a zero that loses the sign of a tiny fused result */
        cp_float z = F->fma(x, cp_from_float(b), cp_from_float(c));
        TU_CHECK(match_f(cp_to_float(z), want, T_TIE), "%s fma(%a, %a, %a) = {%a, %a}, fmaf gives %a",
                      F->family, a, b, c, z.v, z.e, want);
      }
  }
}
END_TEST

/* Overflow of a pair whose value half alone does not overflow, and inf/NaN never paired
 * with a non-zero error. */
START_TEST(test_overflow_pairs)
{
  const family *F = &families[_i];
  cp_float big = cp_make_float(FLT_MAX, 0x1p102f); /* FLT_MAX + ulp/4: normalized */
  cp_float z = F->add(big, big);
  TU_ASSERT(z.v == INFINITY && z.e == 0.0f);
  z = F->mul(big, cp_from_float(2.0f));
  TU_ASSERT(z.v == INFINITY && z.e == 0.0f);
  z = F->sub(cp_from_float(INFINITY), cp_from_float(INFINITY));
  TU_ASSERT(z.v != z.v && z.e == 0.0f);
  z = F->add(big, cp_from_float(-FLT_MAX)); /* exact: 2^102 */
  TU_ASSERT(cp_to_float(z) == 0x1p102f);
}
END_TEST

static int match_d(double got, double want, int tol)
{
  if (want != want) return got != got;
  if (tol == 0 || isinf(want) || want == 0.0) return gen_dbits(got) == gen_dbits(want);
  if (!(fabs(got) <= DBL_MAX) || signbit(got) != signbit(want)) return 0;
  return fabs(got - want) <= tol * (nextafter(fabs(want), INFINITY) - fabs(want));
}

START_TEST(test_double_specials)
{
  static const double d[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -3.0, 0.1, DBL_MAX, -DBL_MAX,
                              1e300, 1e-300, DBL_MIN, 1e-310, -1e-310, 0x1p-1074 };
  const int n = (int)(sizeof d / sizeof d[0]);
  for (int i = 0; i < n; ++i) {
    cp_double x = cp_dd_from_double(d[i]);
    TU_CHECK(match_d(cp_dd_to_double(cp_dd_sqrt(x)), sqrt(d[i]), 1), "dd sqrt(%a)", d[i]);
    TU_CHECK(match_d(cp_dd_to_double(cp_dd_rcp(x)), 1.0 / d[i], 1), "dd rcp(%a)", d[i]);
    for (int j = 0; j < n; ++j) {
      cp_double y = cp_dd_from_double(d[j]);
      double a = d[i], b = d[j];
      double got[] = { cp_dd_to_double(cp_dd_add(x, y)), cp_dd_to_double(cp_dd_sub(x, y)),
                       cp_dd_to_double(cp_dd_mul(x, y)), cp_dd_to_double(cp_dd_add_cd(x, b)),
                       cp_dd_to_double(cp_dd_mul_dc(a, y)), cp_dd_to_double(cp_dd_div(x, y)),
                       cp_dd_to_double(cp_dd_div_cd(x, b)), cp_dd_to_double(cp_dd_div_dc(a, y)) };
      double want[] = { a + b, a - b, a * b, a + b, a * b, a / b, a / b, a / b };
      for (int k = 0; k < 8; ++k)
        TU_CHECK(match_d(got[k], want[k], k < 5 ? 0 : 1), "dd op %d (%a, %a) = %a, double gives %a", k,
                      a, b, got[k], want[k]);
    }
  }
}
END_TEST

Suite *make_special_suite(void)
{
  Suite *s = suite_create("special");
  TCase *tc = tcase_create("like_float");
  tcase_add_loop_test(tc, test_binary, 0, 3);
  tcase_add_loop_test(tc, test_unary_fma, 0, 3);
  tcase_add_loop_test(tc, test_overflow_pairs, 0, 3);
  tcase_add_test(tc, test_double_specials);
  suite_add_tcase(s, tc);
  return s;
}
