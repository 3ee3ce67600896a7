/* check_dp.c - the dp backend on the CPU (built with CP_BACKEND=CP_BACKEND_DP) against MPFR.
 *
 * Its own executable (cp_runtime_dp_tests): under dp a cp_float is one double, so these
 * tests cannot share test_util.c, which is built for the ff pair. Inputs are stored pairs,
 * as converted kernels load them from paired buffers: a random double split into {v, e}.
 * For every arithmetic operation two bounds are asserted and the largest error seen is
 * printed (docs/runtime.md quotes them):
 *   register  the double result against the exact result of the loaded operands:
 *             <= u_d = 2^-53 (one rounding), rsqrt <= 1.5 u_d + u_d^2 (two roundings)
 *   stored    the pair that cp_store writes, against the same exact result:
 *             <= B_STORE = 2^-49 + 1.5 u_d + 2^-70: the operation's rounding plus the split's
 *             (e is rounded to 24 bits and |d - v| <= ulp(v)/2, so the split loses <= 2^-49)
 * and the exact operations (comparisons, rounding to integers, conversions) are compared
 * with MPFR for equality. The math functions and cp_dd_: check_dp_math.c.
 */
#include <check.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cp/cp.cuh"
#include "dp_util.h"

#if !CP_BACKEND_IS_DP
#error "check_dp.c must be built with CP_BACKEND=CP_BACKEND_DP"
#endif

#define PREC DP_PREC
#define N 200000
#define U_D 0x1p-53
#define B_STORE (0x1p-49 + 1.5 * 0x1p-53 + 0x1p-70)

static uint64_t rng_state;
static uint64_t rng(void) /* xorshift64*: deterministic, seeded per test */
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A double with a random 53-bit significand, sign and exponent in [emin, emax]. */
static double rand_double(int emin, int emax)
{
  double m = (double)(rng() >> 11) * 0x1p-53 + 0.5; /* [0.5, 1) */
  int ex = emin + (int)(rng() % (uint64_t)(emax - emin + 1));
  return ((rng() & 1) ? -1.0 : 1.0) * ldexp(m, ex);
}

static int gen_one_in_dp(void) { return rng() % 8 == 0; } /* equal operands, now and then */

/* A stored pair, as a paired buffer holds it, and the cp_float loaded from it. */
typedef struct { float v, e; cp_float x; } stored;
static stored rand_stored(int emin, int emax)
{
  stored s;
  cp_ff p = cp_detail_dp_split(rand_double(emin, emax));
  s.v = p.v;
  s.e = p.e;
  s.x = cp_make_float(p.v, p.e);
  return s;
}

/* |got - exact| / |exact| in double (exact != 0). */
static double rel_err(mpfr_t got, mpfr_t exact)
{
  mpfr_t d;
  mpfr_init2(d, PREC);
  mpfr_sub(d, got, exact, MPFR_RNDN);
  mpfr_div(d, d, exact, MPFR_RNDN);
  double r = fabs(mpfr_get_d(d, MPFR_RNDU));
  mpfr_clear(d);
  return r;
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_RCP, OP_RSQRT, OP_FMA };
enum { F_CC, F_CF, F_FC, F_FF, F_C, F_CCC };
static const char *const op_names[] = { "add", "sub", "mul", "div", "sqrt", "rcp", "rsqrt", "fma" };
static const char *const form_names[] = { "", "_cf", "_fc", "_ff", "", "" };

static cp_float apply(int op, int form, cp_float a, cp_float b, cp_float c, float fa, float fb)
{
  switch (op * 8 + form) {
  case OP_ADD * 8 + F_CC: return cp_add(a, b);
  case OP_ADD * 8 + F_CF: return cp_add_cf(a, fb);
  case OP_ADD * 8 + F_FC: return cp_add_fc(fa, b);
  case OP_ADD * 8 + F_FF: return cp_add_ff(fa, fb);
  case OP_SUB * 8 + F_CC: return cp_sub(a, b);
  case OP_SUB * 8 + F_CF: return cp_sub_cf(a, fb);
  case OP_SUB * 8 + F_FC: return cp_sub_fc(fa, b);
  case OP_SUB * 8 + F_FF: return cp_sub_ff(fa, fb);
  case OP_MUL * 8 + F_CC: return cp_mul(a, b);
  case OP_MUL * 8 + F_CF: return cp_mul_cf(a, fb);
  case OP_MUL * 8 + F_FC: return cp_mul_fc(fa, b);
  case OP_MUL * 8 + F_FF: return cp_mul_ff(fa, fb);
  case OP_DIV * 8 + F_CC: return cp_div(a, b);
  case OP_DIV * 8 + F_CF: return cp_div_cf(a, fb);
  case OP_DIV * 8 + F_FC: return cp_div_fc(fa, b);
  case OP_DIV * 8 + F_FF: return cp_div_ff(fa, fb);
  case OP_SQRT * 8 + F_C: return cp_sqrt(cp_fabs(a));
  case OP_RCP * 8 + F_C: return cp_rcp(a);
  case OP_RSQRT * 8 + F_C: return cp_rsqrt(cp_fabs(a));
  default: return cp_fma(a, b, c);
  }
}

/* The exact result of op on the loaded operands (each exactly v + e or the float). */
static void exact(mpfr_t r, int op, int form, cp_float a, cp_float b, cp_float c, float fa, float fb)
{
  mpfr_t x, y, z;
  mpfr_inits2(PREC, x, y, z, (mpfr_ptr)0);
  mpfr_set_d(x, form == F_FC || form == F_FF ? (double)fa : a.d, MPFR_RNDN);
  mpfr_set_d(y, form == F_CF || form == F_FF ? (double)fb : b.d, MPFR_RNDN);
  mpfr_set_d(z, c.d, MPFR_RNDN);
  switch (op) {
  case OP_ADD: mpfr_add(r, x, y, MPFR_RNDN); break;
  case OP_SUB: mpfr_sub(r, x, y, MPFR_RNDN); break;
  case OP_MUL: mpfr_mul(r, x, y, MPFR_RNDN); break;
  case OP_DIV: mpfr_div(r, x, y, MPFR_RNDN); break;
  case OP_SQRT: mpfr_abs(x, x, MPFR_RNDN); mpfr_sqrt(r, x, MPFR_RNDN); break;
  case OP_RCP: mpfr_ui_div(r, 1, x, MPFR_RNDN); break;
  case OP_RSQRT: mpfr_abs(x, x, MPFR_RNDN); mpfr_rec_sqrt(r, x, MPFR_RNDN); break;
  default: mpfr_fma(r, x, y, z, MPFR_RNDN); break;
  }
  mpfr_clears(x, y, z, (mpfr_ptr)0);
}

/* Runs one operation on N random stored operands; returns the largest stored error (in
 * units of 2^-48) after asserting both bounds. */
static void run_op(int op, int form, uint64_t seed)
{
  double reg_bound = op == OP_RSQRT ? 1.5 * U_D + U_D * U_D : U_D;
  double reg_max = 0.0, st_max = 0.0;
  mpfr_t ex, got, t;
  mpfr_inits2(PREC, ex, got, t, (mpfr_ptr)0);
  rng_state = seed;
  for (int i = 0; i < N; ++i) {
    stored a = rand_stored(-30, 30), b = rand_stored(-30, 30), c = rand_stored(-30, 30);
    cp_float r = apply(op, form, a.x, b.x, c.x, a.v, b.v);
    exact(ex, op, form, a.x, b.x, c.x, a.v, b.v);
    if (mpfr_zero_p(ex)) continue;
    mpfr_set_d(got, r.d, MPFR_RNDN);
    double er = rel_err(got, ex);
    float sv, se;
    cp_store(&sv, &se, r);
    mpfr_set_flt(got, sv, MPFR_RNDN);
    mpfr_set_flt(t, se, MPFR_RNDN);
    mpfr_add(got, got, t, MPFR_RNDN); /* exact at PREC */
    double es = rel_err(got, ex);
    if (er > reg_max) reg_max = er;
    if (es > st_max) st_max = es;
    if (er > reg_bound || es > B_STORE)
      ck_abort_msg("dp %s%s case %d: register error %.3g (bound %.3g), stored %.3g (bound %.3g)",
                   op_names[op], form_names[form], i, er, reg_bound, es, B_STORE);
  }
  printf("dp %-9s register max %.3f u_d, stored max %.4f * 2^-48\n",
         op == OP_FMA ? "fma" : op_names[op], reg_max / U_D, st_max / 0x1p-48);
  mpfr_clears(ex, got, t, (mpfr_ptr)0);
}

START_TEST(test_arith)
{
  for (int op = OP_ADD; op <= OP_DIV; ++op)
    for (int form = F_CC; form <= F_FF; ++form) {
      printf("%s: ", form_names[form][0] ? form_names[form] : "_cc");
      run_op(op, form, 1000 + (uint64_t)(op * 8 + form));
    }
  run_op(OP_SQRT, F_C, 2001);
  run_op(OP_RCP, F_C, 2002);
  run_op(OP_RSQRT, F_C, 2003);
  run_op(OP_FMA, F_CCC, 2004);
}
END_TEST

/* Loading a stored pair is exact (v and e span at most 49 bits), and storing a double that
 * fits in 48 bits gives back the same pair. */
START_TEST(test_load_store)
{
  rng_state = 3001;
  for (int i = 0; i < N; ++i) {
    stored a = rand_stored(-100, 100);
    ck_assert(a.x.d == (double)a.v + (double)a.e);
    float v, e;
    cp_store(&v, &e, a.x);
    ck_assert(v == a.v && e == a.e);
    ck_assert(cp_to_float(a.x) == (float)a.x.d);
  }
  float v, e;
  cp_store(&v, &e, cp_from_double(1e300)); /* beyond float: {inf, 0}, never an inf/NaN error */
  ck_assert(isinf(v) && e == 0.0f);
  cp_store(&v, &e, cp_from_double(-0.0));
  ck_assert(v == 0.0f && signbit(v) && e == 0.0f);
}
END_TEST

/* Comparisons and rounding to integers are exact: they agree with MPFR on the value. */
START_TEST(test_exact_ops)
{
  mpfr_t x, r;
  mpfr_inits2(PREC, x, r, (mpfr_ptr)0);
  rng_state = 4001;
  for (int i = 0; i < N; ++i) {
    stored a = rand_stored(-8, 30), b = gen_one_in_dp() ? a : rand_stored(-8, 30);
    ck_assert(cp_lt(a.x, b.x) == (a.x.d < b.x.d) && cp_eq(a.x, b.x) == (a.x.d == b.x.d));
    ck_assert(cp_le_cf(a.x, b.v) == (a.x.d <= (double)b.v));
    mpfr_set_d(x, a.x.d, MPFR_RNDN);
    mpfr_floor(r, x);
    ck_assert(mpfr_cmp_d(r, cp_floor(a.x).d) == 0);
    mpfr_ceil(r, x);
    ck_assert(mpfr_cmp_d(r, cp_ceil(a.x).d) == 0);
    mpfr_rint(r, x, MPFR_RNDN);
    ck_assert(mpfr_cmp_d(r, cp_rint(a.x).d) == 0);
    mpfr_trunc(r, x);
    ck_assert(mpfr_cmp_d(r, cp_trunc(a.x).d) == 0);
  }
  ck_assert_int_eq(cp_to_int(cp_make_float(5.0f, -0x1p-30f)), 4);
  ck_assert_int_eq(cp_to_int(cp_from_double(1e20)), INT_MAX);
  ck_assert_int_eq(cp_to_int(cp_from_float(NAN)), 0);
  mpfr_clears(x, r, (mpfr_ptr)0);
}
END_TEST

/* The accumulators under dp: fixed point rounds once (error <= 2^-(F+1)), the Kahan pair
 * converts exactly. */
START_TEST(test_accumulators)
{
  rng_state = 5001;
  for (int i = 0; i < N; ++i) {
    stored a = rand_stored(-20, 20);
    double back = cp_fixed_to_double(cp_fixed_from_cp(a.x));
    ck_assert(fabs(back - a.x.d) <= ldexp(1.0, -(CP_FIXED_FRAC_BITS + 1)));
  }
  cp_kahan k = cp_kahan_add(cp_kahan_add(cp_kahan_init(), 1.0f), 0x1p-30f);
  ck_assert(cp_kahan_to_cp(k).d == 1.0 + 0x1p-30);
}
END_TEST

/* What check_dp_math.c uses. */
uint64_t dp_rng(void) { return rng(); }
void dp_rng_seed(uint64_t seed) { rng_state = seed; }
cp_float dp_stored(double d)
{
  cp_ff p = cp_detail_dp_split(d);
  return cp_make_float(p.v, p.e);
}
double dp_rel_err(mpfr_t got, mpfr_t exact) { return rel_err(got, exact); }

int main(void)
{
  Suite *s = suite_create("dp");
  TCase *tc = tcase_create("mpfr");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_arith);
  tcase_add_test(tc, test_load_store);
  tcase_add_test(tc, test_exact_ops);
  tcase_add_test(tc, test_accumulators);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, dp_math_tcase());
  setvbuf(stdout, NULL, _IOLBF, 0);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
