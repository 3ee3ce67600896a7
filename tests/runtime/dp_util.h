/* dp_util.h - what check_dp.c shares with check_dp_math.c (cp_runtime_dp_tests, built with
 * CP_BACKEND=CP_BACKEND_DP): the deterministic generator, stored pairs, MPFR's relative error. */
#ifndef CP_TEST_DP_UTIL_H
#define CP_TEST_DP_UTIL_H

#include <check.h>
#include <mpfr.h>
#include <stdint.h>

#include "cp/cp.cuh"

#define DP_PREC 200

uint64_t dp_rng(void);                         /* xorshift64* */
void dp_rng_seed(uint64_t seed);
cp_float dp_stored(double d);                  /* d split into a stored pair {v, e}, loaded */
double dp_rel_err(mpfr_t got, mpfr_t exact);   /* |got - exact| / |exact|, exact != 0 */
TCase *dp_math_tcase(void);                    /* check_dp_math.c */

#endif
