/* test_util.h - shared pieces of the runtime unit tests: the suites, MPFR references, and the
 * op tables that drive "every operation of every family against MPFR".
 *
 * Reference arithmetic is MPFR at TU_PREC = 200 bits: a pair of floats or doubles converts
 * exactly (its halves span at most ~160 bits), and each reference result is correctly
 * rounded to 200 bits, 2^-94 below the smallest bound tested (u^2 for double, 2^-106).
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <check.h>
#include <mpfr.h>

#include "cp_test_gen.h"

#define TU_PREC 200
/* The random cases of the math suites are divided by this: 1 in the plain build, more in the
 * sanitizer build (CMakeLists.txt), which runs the same checks on fewer inputs. */
#ifndef TU_SAMPLE_DIV
#define TU_SAMPLE_DIV 1
#endif
#define TU_U_F 0x1p-24 /* unit roundoff of float */
#define TU_U_D 0x1p-53 /* unit roundoff of double */
#define TU_N 100000    /* random inputs per operation */

/* Assertions for hot loops: Check's ck_assert records its location on every call (a write
 * to the runner), which dominates 10^6-case loops, especially under ASan; these record it
 * only on failure, through ck_abort_msg. */
#define TU_CHECK(cond, ...)                                                                   \
  do {                                                                                        \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                   \
  } while (0)
#define TU_ASSERT(cond) TU_CHECK(cond, "Assertion '%s' failed", #cond)

Suite *make_eft_suite(void);
Suite *make_accurate_suite(void);
Suite *make_paper_suite(void);
Suite *make_fast_suite(void);
Suite *make_mid_suite(void);
Suite *make_double_suite(void);
Suite *make_convert_suite(void);
Suite *make_special_suite(void);
Suite *make_accum_suite(void);
Suite *make_dispatch_suite(void);
Suite *make_pair_suite(void);
Suite *make_boundary_suite(void);
Suite *make_unnormalized_suite(void);
Suite *make_math_suite(void);
Suite *make_math_exp_suite(void);
Suite *make_math_spec_suite(void);
Suite *make_math_trig_suite(void);

/* ---- exact conversions into MPFR ---- */
void tu_set_pair(mpfr_t r, cp_float x);  /* r = x.v + x.e exactly */
void tu_set_dd(mpfr_t r, cp_double x);   /* r = x.hi + x.lo exactly */

/* What an operation does, for the reference. */
typedef enum { TU_ADD, TU_SUB, TU_MUL, TU_DIV, TU_SQRT, TU_RSQRT, TU_RCP, TU_FMA, TU_SQR } tu_math;

/* Operand shapes; TU_CP2 is TU_CS with the scalar a power of two, +-2^k, k in [-20, 20]. */
typedef enum { TU_CC, TU_CS, TU_SC, TU_C, TU_CCC, TU_CP2 } tu_shape;

/* What the error is measured against: |exact| (relative error), |x| + |y|, |x y|, or for
 * fma a|ab| + b|ab + c| (TU_FMA_ACC) or a|ab| + b|c| (TU_FMA_FAST). */
typedef enum { TU_REL, TU_SUMABS, TU_PRODABS, TU_FMA_ACC, TU_FMA_FAST } tu_scale;

typedef struct {
  const char *name;
  tu_math math;
  tu_shape shape;
  tu_scale scale;
  double bound;   /* in units of u^2 (u for the paper's float-accurate ops); for fma: a */
  double bound_b; /* fma only: b */
  double unit;    /* u^2 or u: the unit bound is expressed in */
  int emin, emax; /* exponent range of the random operands */
  cp_float (*cc)(cp_float, cp_float);
  cp_float (*cs)(cp_float, float);
  cp_float (*sc)(float, cp_float);
  cp_float (*c1)(cp_float);
  cp_float (*ccc)(cp_float, cp_float, cp_float);
} tu_op;

typedef struct {
  const char *name;
  tu_math math;
  tu_shape shape;
  tu_scale scale;
  double bound, bound_b, unit;
  int emin, emax;
  cp_double (*cc)(cp_double, cp_double);
  cp_double (*cs)(cp_double, double);
  cp_double (*sc)(double, cp_double);
  cp_double (*c1)(cp_double);
  cp_double (*ccc)(cp_double, cp_double, cp_double);
} tu_dd_op;

/* Runs op on TU_N random inputs (plus cancellation cases for add/sub/fma), checks every
 * error against the bound, prints the measured maximum, returns it (in op->unit). */
double tu_run_op(const tu_op *op, const char *family, uint64_t seed);
double tu_run_dd_op(const tu_dd_op *op, uint64_t seed);

#endif /* TEST_UTIL_H */
