/* test_util.c - MPFR reference evaluation and the generic bound-checking driver. */
#include "test_util.h"

#include <stdio.h>

/* mpfr_add_d keeps its operand on the stack: no allocation per call (fast under ASan). */
void tu_set_pair(mpfr_t r, cp_float x)
{
  mpfr_set_flt(r, x.v, MPFR_RNDN);
  mpfr_add_d(r, r, (double)x.e, MPFR_RNDN);
}

void tu_set_dd(mpfr_t r, cp_double x)
{
  mpfr_set_d(r, x.hi, MPFR_RNDN);
  mpfr_add_d(r, r, x.lo, MPFR_RNDN);
}

/* The reference inputs and result of one case, and the error measure. */
typedef struct {
  mpfr_t a, b, c, exact, got, t1, t2, ab;
} tu_ctx;

static void ctx_init(tu_ctx *k)
{
  mpfr_inits2(TU_PREC, k->a, k->b, k->c, k->exact, k->got, k->t1, k->t2, k->ab, (mpfr_ptr)0);
}

static void ctx_clear(tu_ctx *k)
{
  mpfr_clears(k->a, k->b, k->c, k->exact, k->got, k->t1, k->t2, k->ab, (mpfr_ptr)0);
}

static void reference(tu_ctx *k, tu_math m)
{
  switch (m) {
  case TU_ADD: mpfr_add(k->exact, k->a, k->b, MPFR_RNDN); break;
  case TU_SUB: mpfr_sub(k->exact, k->a, k->b, MPFR_RNDN); break;
  case TU_MUL: mpfr_mul(k->exact, k->a, k->b, MPFR_RNDN); break;
  case TU_DIV: mpfr_div(k->exact, k->a, k->b, MPFR_RNDN); break;
  case TU_SQRT: mpfr_sqrt(k->exact, k->a, MPFR_RNDN); break;
  case TU_RSQRT: mpfr_rec_sqrt(k->exact, k->a, MPFR_RNDN); break;
  case TU_RCP: mpfr_ui_div(k->exact, 1, k->a, MPFR_RNDN); break;
  case TU_FMA: mpfr_fma(k->exact, k->a, k->b, k->c, MPFR_RNDN); break;
  case TU_SQR: mpfr_sqr(k->exact, k->a, MPFR_RNDN); break;
  }
}

/* Error of got against exact, divided by the scale of the bound; NaN never passes. */
static double measure(tu_ctx *k, tu_scale s, double bound_b)
{
  mpfr_sub(k->t1, k->got, k->exact, MPFR_RNDN);
  mpfr_abs(k->t1, k->t1, MPFR_RNDN);
  switch (s) {
  case TU_REL: mpfr_abs(k->t2, k->exact, MPFR_RNDN); break;
  case TU_SUMABS:
    mpfr_abs(k->t2, k->a, MPFR_RNDN);
    mpfr_abs(k->c, k->b, MPFR_RNDN); /* c is free for two-operand ops */
    mpfr_add(k->t2, k->t2, k->c, MPFR_RNDN);
    break;
  case TU_PRODABS:
    mpfr_mul(k->t2, k->a, k->b, MPFR_RNDN);
    mpfr_abs(k->t2, k->t2, MPFR_RNDN);
    break;
  case TU_FMA_ACC:
  case TU_FMA_FAST: {
    /* scale = |ab| + (b/a) |ab + c| or |ab| + (b/a) |c|; the bound is then a * scale */
    mpfr_mul(k->ab, k->a, k->b, MPFR_RNDN);
    if (s == TU_FMA_ACC) mpfr_abs(k->t2, k->exact, MPFR_RNDN);
    else mpfr_abs(k->t2, k->c, MPFR_RNDN);
    mpfr_abs(k->ab, k->ab, MPFR_RNDN);
    mpfr_mul_d(k->t2, k->t2, bound_b, MPFR_RNDN);
    mpfr_add(k->t2, k->t2, k->ab, MPFR_RNDN);
    break;
  }
  }
  if (mpfr_zero_p(k->t2)) return mpfr_zero_p(k->t1) ? 0.0 : INFINITY;
  mpfr_div(k->t1, k->t1, k->t2, MPFR_RNDN);
  return mpfr_get_d(k->t1, MPFR_RNDU);
}

/* Operands of case i of a float op: random pairs in the op's range, with cancellation. */
static void draw_float(gen_rng *r, const tu_op *op, cp_float *x, cp_float *y, cp_float *z)
{
  *x = gen_pair(r, op->emin, op->emax);
  *y = gen_pair(r, op->emin, op->emax);
  *z = gen_pair(r, 2 * op->emin, 2 * op->emax);
  if (op->shape == TU_CS || op->shape == TU_SC) *y = cp_from_float(y->v);
  if (op->shape == TU_CP2) *y = cp_from_float(ldexpf(gen_one_in(r, 2) ? -1.0f : 1.0f, gen_int(r, -20, 20)));
  if (op->math == TU_ADD && op->shape == TU_CC && gen_one_in(r, 5)) *y = gen_near_neg(r, *x);
  if (op->math == TU_SUB && op->shape == TU_CC && gen_one_in(r, 5)) *y = cp_neg(gen_near_neg(r, *x));
  if (op->math == TU_FMA && gen_one_in(r, 5)) *z = gen_near_neg(r, cp_accurate_mul(*x, *y));
  if (op->math == TU_SQRT || op->math == TU_RSQRT) *x = cp_fabs(*x);
  if (op->math == TU_SQR) *y = *x; /* so that |x y| is |x|^2 */
}

/* One line per operation: the measured maximum in the bound's unit and scale. */
static void print_max(const char *family, const char *name, tu_scale s, double worst, const char *unit,
                      double a, double b)
{
  static const char *const against[] = { "|exact|", "(|x|+|y|)", "|x y|", "", "" };
  if (s == TU_FMA_ACC || s == TU_FMA_FAST)
    printf("%-9s %-8s max error %.4f of the bound (%.4g|ab| + %.4g|%s|) %s over %d cases\n", family, name,
           worst / a, a, b, s == TU_FMA_ACC ? "ab+c" : "c", unit, TU_N);
  else
    printf("%-9s %-8s max error %8.4f %s %-9s (bound %.4g) over %d cases\n", family, name, worst, unit,
           against[s], a, TU_N);
}

double tu_run_op(const tu_op *op, const char *family, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  tu_ctx k;
  ctx_init(&k);
  double worst = 0.0, limit = op->bound * op->unit;
  long bad = 0;
  for (int i = 0; i < TU_N; ++i) {
    cp_float x, y, z, res;
    draw_float(&r, op, &x, &y, &z);
    switch (op->shape) {
    case TU_CC: res = op->cc(x, y); break;
    case TU_CS: case TU_CP2: res = op->cs(x, y.v); break;
    case TU_SC: res = op->sc(y.v, x); { cp_float t = x; x = y; y = t; } break;
    case TU_C: res = op->c1(x); break;
    default: res = op->ccc(x, y, z); break;
    }
    tu_set_pair(k.a, x);
    tu_set_pair(k.b, y);
    tu_set_pair(k.c, z);
    reference(&k, op->math);
    tu_set_pair(k.got, res);
    double m = measure(&k, op->scale, op->bound_b / op->bound);
    if (!(m <= limit)) {
      if (bad++ < 3)
        fprintf(stderr, "%s %s: x={%a,%a} y={%a,%a} z={%a,%a} -> {%a,%a}: error %g units > %g\n",
                family, op->name, x.v, x.e, y.v, y.e, z.v, z.e, res.v, res.e, m / op->unit, op->bound);
    }
    if (m > worst) worst = m;
  }
  ctx_clear(&k);
  print_max(family, op->name, op->scale, worst / op->unit, op->unit == TU_U_F ? "u" : "u^2", op->bound,
            op->bound_b);
  TU_CHECK(bad == 0, "%s %s: %ld of %d cases exceed the bound %g", family, op->name, bad, TU_N,
                op->bound);
  return worst / op->unit;
}

static void draw_dd(gen_rng *r, const tu_dd_op *op, cp_double *x, cp_double *y, cp_double *z)
{
  *x = gen_dd(r, op->emin, op->emax);
  *y = gen_dd(r, op->emin, op->emax);
  *z = gen_dd(r, 2 * op->emin, 2 * op->emax);
  if (op->shape == TU_CS || op->shape == TU_SC) *y = cp_dd_from_double(y->hi);
  if (op->shape == TU_CP2) *y = cp_dd_from_double(ldexp(gen_one_in(r, 2) ? -1.0 : 1.0, gen_int(r, -20, 20)));
  if (op->math == TU_ADD && op->shape == TU_CC && gen_one_in(r, 5)) *y = gen_dd_near_neg(r, *x);
  if (op->math == TU_SUB && op->shape == TU_CC && gen_one_in(r, 5)) *y = cp_dd_neg(gen_dd_near_neg(r, *x));
  if (op->math == TU_FMA && gen_one_in(r, 5)) *z = gen_dd_near_neg(r, cp_dd_mul(*x, *y));
  if (op->math == TU_SQRT || op->math == TU_RSQRT) *x = cp_dd_fabs(*x);
  if (op->math == TU_SQR) *y = *x;
}

double tu_run_dd_op(const tu_dd_op *op, uint64_t seed)
{
  gen_rng r = gen_seed(seed);
  tu_ctx k;
  ctx_init(&k);
  double worst = 0.0, limit = op->bound * op->unit;
  long bad = 0;
  for (int i = 0; i < TU_N; ++i) {
    cp_double x, y, z, res;
    draw_dd(&r, op, &x, &y, &z);
    switch (op->shape) {
    case TU_CC: res = op->cc(x, y); break;
    case TU_CS: case TU_CP2: res = op->cs(x, y.hi); break;
    case TU_SC: res = op->sc(y.hi, x); { cp_double t = x; x = y; y = t; } break;
    case TU_C: res = op->c1(x); break;
    default: res = op->ccc(x, y, z); break;
    }
    tu_set_dd(k.a, x);
    tu_set_dd(k.b, y);
    tu_set_dd(k.c, z);
    reference(&k, op->math);
    tu_set_dd(k.got, res);
    double m = measure(&k, op->scale, op->bound_b / op->bound);
    if (!(m <= limit)) {
      if (bad++ < 3)
        fprintf(stderr, "dd %s: x={%a,%a} y={%a,%a} -> {%a,%a}: error %g u^2 > %g\n", op->name, x.hi,
                x.lo, y.hi, y.lo, res.hi, res.lo, m / op->unit, op->bound);
    }
    if (m > worst) worst = m;
  }
  ctx_clear(&k);
  print_max("double", op->name, op->scale, worst / op->unit, "u^2", op->bound, op->bound_b);
  TU_CHECK(bad == 0, "dd %s: %ld of %d cases exceed the bound %g", op->name, bad, TU_N, op->bound);
  return worst / op->unit;
}
