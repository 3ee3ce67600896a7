/* check_unnormalized.c - the fast family on the unnormalized pairs it produces, against MPFR.
 *
 * Built with CP_ALGO = CP_ALGO_FAST, so the stores are the fast family's (convert.cuh,
 * CP_DETAIL_STORED). The fast family never renormalizes: its value half follows float's own
 * rounding and its error half carries the rest, a few ulps of v within a kernel, and a value
 * half that cancelled to zero may carry a non-zero error half ({0, e}). Three claims:
 *  - a store normalizes: what cp_store and cp_add_to write (the vector stores and the
 *    composite atomic's addend go through the same CP_DETAIL_STORED) represents the
 *    same number exactly, and its value half is that number rounded once (RN(v + e) == v,
 *    |e| <= ulp(v)/2), so code that reads only the value half reads the composite result;
 *  - the operations whose bound needs a normalized operand normalize it first: rcp, sqrt,
 *    rsqrt, the divisor of div and div_fc hold their bounds for normalized operands (u^2
 *    relative, float_fast.cuh) on operands unnormalized by up to 4 ulps and on {0, e};
 *  - no NaN: for those operands, no operation above gives NaN or an infinity where the exact
 *    result of the represented values is a finite float.
 */
#define CP_ALGO CP_ALGO_FAST
#include "test_util.h"

#define U2 (TU_U_F * TU_U_F)
#define FO(b) ((b) * (1.0 + 1.0 / 1024))

/* A pair of the shapes the fast family leaves: a normalized pair with k ulps of v moved into
 * the error half (k in [-4, 4]; the error half rounded, so the represented value is the one
 * MPFR reads), or, one time in eight, {0, e}. */
static cp_float gen_unnormalized(gen_rng *r, int emin, int emax)
{
  if (gen_one_in(r, 8)) return cp_make_float(0.0f, gen_float(r, emin, emax));
  cp_float x = gen_pair(r, emin, emax);
  int k = gen_int(r, -4, 4);
  float v = x.v;
  for (int i = 0; i < k; ++i) v = nextafterf(v, INFINITY);
  for (int i = 0; i > k; --i) v = nextafterf(v, -INFINITY);
  return cp_make_float(v, (float)((double)x.v - (double)v + (double)x.e));
}

/* |got - exact| / |exact|, in units of u^2; got must be finite. */
static double rel_u2(mpfr_t got, mpfr_t exact, mpfr_t t)
{
  mpfr_sub(t, got, exact, MPFR_RNDN);
  mpfr_div(t, t, exact, MPFR_RNDN);
  mpfr_abs(t, t, MPFR_RNDN);
  return mpfr_get_d(t, MPFR_RNDU) / U2;
}

/* Is the stored {h, l} the normalized pair of the number x represents? */
static int stored_normalized(float h, float l, cp_float x, mpfr_t a, mpfr_t b)
{
  tu_set_pair(a, x);
  tu_set_pair(b, cp_make_float(h, l));
  return mpfr_equal_p(a, b) && (l == 0.0f || cp_fadd_rn(h, l) == h);
}

START_TEST(test_store_normalizes)
{
  gen_rng r = gen_seed(9100);
  mpfr_t a, b;
  mpfr_inits2(TU_PREC, a, b, (mpfr_ptr)0);
  for (int n = 0; n < TU_N; ++n) {
    cp_float x = gen_unnormalized(&r, -60, 60), y = gen_unnormalized(&r, -60, 60);
    float h, l;
    cp_store(&h, &l, x);
    TU_CHECK(stored_normalized(h, l, x, a, b), "cp_store {%a, %a} -> {%a, %a}", x.v, x.e, h, l);
    /* a chain of fast operations, as a kernel computes it, then stored */
    cp_float s = cp_fast_add(cp_fast_mul(x, y), cp_fast_sub(y, x));
    cp_store(&h, &l, s);
    TU_CHECK(stored_normalized(h, l, s, a, b), "chain {%a, %a} -> {%a, %a}", s.v, s.e, h, l);
    /* add_to: the element plus x, the sum normalized where it is stored */
    float eh = y.v, el = y.e;
    cp_add_to(&eh, &el, x);
    cp_float sum = cp_fast_add(y, x);
    TU_CHECK(stored_normalized(eh, el, sum, a, b), "cp_add_to -> {%a, %a}", eh, el);
  }
  mpfr_clears(a, b, (mpfr_ptr)0);
}
END_TEST

enum { OP_RCP, OP_SQRT, OP_RSQRT, OP_DIV, OP_DIV_FC, OP_COUNT };
static const char *const op_name[] = { "rcp", "sqrt", "rsqrt", "div", "div_fc" };
/* The bounds of float_fast.cuh for normalized operands (u^2 relative). div's dividend is
 * drawn normalized: only the divisor is normalized first. */
static const double op_bound[] = { FO(8.0), FO(4.125), FO(15.375), FO(11.0), FO(6.0) };

START_TEST(test_ops_normalize_operand)
{
  int op = _i;
  gen_rng r = gen_seed(9200 + op);
  mpfr_t a, b, exact, got, t;
  mpfr_inits2(TU_PREC, a, b, exact, got, t, (mpfr_ptr)0);
  double worst = 0.0;
  for (int n = 0; n < TU_N; ++n) {
    cp_float x = gen_unnormalized(&r, -30, 30), y = gen_pair(&r, -30, 30), z;
    float f = y.v;
    if (op == OP_SQRT || op == OP_RSQRT) x = cp_make_float(fabsf(x.v), fabsf(x.e));
    tu_set_pair(a, x);
    if (mpfr_zero_p(a)) continue;
    tu_set_pair(b, y);
    switch (op) {
    case OP_RCP: z = cp_fast_rcp(x); mpfr_ui_div(exact, 1, a, MPFR_RNDN); break;
    case OP_SQRT: z = cp_fast_sqrt(x); mpfr_sqrt(exact, a, MPFR_RNDN); break;
    case OP_RSQRT: z = cp_fast_rsqrt(x); mpfr_rec_sqrt(exact, a, MPFR_RNDN); break;
    case OP_DIV: z = cp_fast_div(y, x); mpfr_div(exact, b, a, MPFR_RNDN); break;
    default: z = cp_fast_div_fc(f, x); mpfr_set_flt(t, f, MPFR_RNDN); mpfr_div(exact, t, a, MPFR_RNDN); break;
    }
    /* only where the exact result is a normal float, as the bounds assume */
    double ex = mpfr_get_d(exact, MPFR_RNDN);
    if (!(fabs(ex) >= 0x1p-100 && fabs(ex) <= 0x1p100)) continue;
    TU_CHECK(isfinite(z.v) && isfinite(z.e), "%s of {%a, %a}: {%a, %a} where the exact result is %g",
             op_name[op], x.v, x.e, z.v, z.e, ex);
    tu_set_pair(got, z);
    double m = rel_u2(got, exact, t);
    if (m > worst) worst = m;
    TU_CHECK(m <= op_bound[op], "%s of {%a, %a}: error %g u^2 > %g", op_name[op], x.v, x.e, m,
             op_bound[op]);
  }
  printf("fast      %-8s max error %8.4f u^2 relative (bound %.4g) over %d unnormalized operands\n",
         op_name[op], worst, op_bound[op], TU_N);
  mpfr_clears(a, b, exact, got, t, (mpfr_ptr)0);
}
END_TEST

Suite *make_unnormalized_suite(void)
{
  Suite *s = suite_create("unnormalized");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_store_normalizes);
  tcase_add_loop_test(tc, test_ops_normalize_operand, 0, OP_COUNT);
  suite_add_tcase(s, tc);
  return s;
}
