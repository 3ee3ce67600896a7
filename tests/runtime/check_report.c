/* check_report.c - the error report (report.cuh), built with -DCP_REPORT.
 *
 * - The recombined values are bit for bit those of the recombination without the report
 *   (each the pair's value correctly rounded, against MPFR, as check_pair.c checks the plain
 *   build): the report only reads.
 * - Its measures, against MPFR at 200 bits: the largest and the RMS |e / v| (relative
 *   difference at most 2^-40: both are sums of double quotients), and the number of elements
 *   whose error changed the rounded result (exact).
 * - What it prints: the call's file, line and companion, CP_REPORT_LINES lines per site
 *   (the environment variable honoured), and a summary of every copy at exit.
 *
 * Its own executable (cp_report_tests), since CP_REPORT changes what host.cuh declares.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cp/cp.cuh>

#include "cp_test_gen.h"

#define N 4096

/* Pairs with errors of every size: 0, below half an ulp of v, and up to ulp(v) or more. */
static void make_pairs(gen_rng *r, float *v, float *e, float *v0) {
  for (int i = 0; i < N; i++) {
    cp_float p = gen_pair(r, -40, 40);
    v[i] = gen_one_in(r, 16) ? 0.0f : p.v;
    e[i] = gen_one_in(r, 5) ? 0.0f : gen_one_in(r, 3) ? p.e * 4.0f : p.e;
    v0[i] = v[i];
  }
}

START_TEST(test_values_unchanged)
{
  gen_rng r = gen_seed(0x4e9047);
  static float v[N], e[N], v0[N];
  make_pairs(&r, v, e, v0);
  setenv("CP_REPORT_LINES", "0", 1);
  cp_recombine_host(v, e, N);
  mpfr_t x;
  mpfr_init2(x, 200);
  for (int i = 0; i < N; i++) {
    mpfr_set_flt(x, v0[i], MPFR_RNDN);
    mpfr_add_d(x, x, (double)e[i], MPFR_RNDN);
    float want = e[i] == 0.0f ? v0[i] : mpfr_get_flt(x, MPFR_RNDN);
    ck_assert_msg(gen_fbits(v[i]) == gen_fbits(want), "element %d: %a, want %a", i, v[i], want);
  }
  mpfr_clear(x);
}
END_TEST

START_TEST(test_measures)
{
  gen_rng r = gen_seed(0x4e9048);
  static float v[N], e[N], v0[N];
  make_pairs(&r, v, e, v0);
  cp_error_stats s = {0, 0, 0, 0, 0.0, 0.0};
  cp_error_stats_add(&s, v, e, N);
  mpfr_t q, sum, max, t;
  mpfr_inits2(200, q, sum, max, t, (mpfr_ptr)0);
  mpfr_set_zero(sum, 1);
  mpfr_set_zero(max, 1);
  size_t changed = 0, nonzero = 0;
  for (int i = 0; i < N; i++) {
    mpfr_set_flt(t, v[i], MPFR_RNDN);
    mpfr_add_d(t, t, (double)e[i], MPFR_RNDN);
    changed += mpfr_get_flt(t, MPFR_RNDN) != v[i];
    if (v[i] == 0.0f)
      continue;
    nonzero++;
    mpfr_set_d(q, (double)e[i], MPFR_RNDN);
    mpfr_div_d(q, q, (double)v[i], MPFR_RNDN);
    mpfr_abs(q, q, MPFR_RNDN);
    mpfr_max(max, max, q, MPFR_RNDN);
    mpfr_mul(q, q, q, MPFR_RNDN);
    mpfr_add(sum, sum, q, MPFR_RNDN);
  }
  mpfr_div_ui(sum, sum, nonzero, MPFR_RNDN);
  mpfr_sqrt(sum, sum, MPFR_RNDN);
  double want_max = mpfr_get_d(max, MPFR_RNDN), want_rms = mpfr_get_d(sum, MPFR_RNDN);
  mpfr_clears(q, sum, max, t, (mpfr_ptr)0);
  ck_assert_uint_eq(s.elements, N);
  ck_assert_uint_eq(s.nonzero, nonzero);
  ck_assert_uint_eq(s.changed, changed);
  ck_assert_msg(changed > N / 16 && changed < N / 2, "the inputs exercise both cases (%zu)", changed);
  ck_assert_msg(fabs(s.max_rel - want_max) <= 0x1p-40 * want_max, "max %a, want %a", s.max_rel,
                want_max);
  double rms = cp_error_stats_rms(&s);
  ck_assert_msg(fabs(rms - want_rms) <= 0x1p-40 * want_rms, "rms %a, want %a", rms, want_rms);
}
END_TEST

/* The double measures: changed counts against MPFR's rounding of hi + lo. */
START_TEST(test_measures_double)
{
  gen_rng r = gen_seed(0x4e9049);
  static double v[N], e[N];
  for (int i = 0; i < N; i++) {
    cp_double p = gen_dd(&r, -200, 200);
    v[i] = p.hi;
    e[i] = gen_one_in(&r, 3) ? p.lo * 4.0 : p.lo;
  }
  cp_error_stats s = {0, 0, 0, 0, 0.0, 0.0};
  cp_error_stats_add_double(&s, v, e, N);
  mpfr_t t;
  mpfr_init2(t, 200);
  size_t changed = 0;
  double max = 0;
  for (int i = 0; i < N; i++) {
    mpfr_set_d(t, v[i], MPFR_RNDN);
    mpfr_add_d(t, t, e[i], MPFR_RNDN);
    changed += mpfr_get_d(t, MPFR_RNDN) != v[i];
    max = fmax(max, fabs(e[i] / v[i]));
  }
  mpfr_clear(t);
  ck_assert_uint_eq(s.changed, changed);
  ck_assert_msg(changed > 0, "the inputs exercise the changed case");
  ck_assert(s.max_rel == max);
}
END_TEST

/* Runs `n_calls` recombinations of 3 elements in a child process with CP_REPORT_LINES set to
 * `lines` (NULL: unset); returns what it printed on standard error and the line they were
 * written at. */
static char *report_of(const char *lines, int n_calls, int *line) {
  int fd[2];
  ck_assert_int_eq(pipe(fd), 0);
  *line = __LINE__ + 11;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    if (lines)
      setenv("CP_REPORT_LINES", lines, 1);
    else
      unsetenv("CP_REPORT_LINES");
    for (int k = 0; k < n_calls; k++) {
      float vals[3] = {1.0f, 3.0f, 0.0f}, vel_err[3] = {0x1p-30f, 0x1p-22f, 0.0f};
      cp_recombine_host(vals, vel_err, 3);
    }
    exit(0); /* the summary is printed here */
  }
  close(fd[1]);
  static char buf[8192];
  size_t n = 0;
  ssize_t k;
  while ((k = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)k;
  buf[n] = '\0';
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return buf;
}

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)); p++)
    n++;
  return n;
}

START_TEST(test_printed)
{
  int line;
  char *out = report_of(NULL, 12, &line);
  char site[256];
  snprintf(site, sizeof site, "cp report: %s:%d vel_err: ", __FILE__, line);
  ck_assert_int_eq(count(out, site), CP_REPORT_LINES + 1); /* 10 copies, then the summary */
  ck_assert_msg(strstr(out, "copy 1: 3 elements, |error/value| max 7.95e-08 rms 5.62e-08, "
                            "error changed 1 of 3\n"), "got:\n%s", out);
  ck_assert_msg(strstr(out, "12 copies in all, 36 elements, |error/value| max 7.95e-08 rms "
                            "5.62e-08, error changed 12 of 36\n"), "got:\n%s", out);
  ck_assert_int_eq(count(report_of("2", 5, &line), site), 3);
  ck_assert_int_eq(count(report_of("0", 5, &line), "copy "), 0);
}
END_TEST

/* A fixed-point sum read back with 0 < |q| < 2^24 (fewer significant bits than a float) is
 * reported once per call site; a larger one, and 0, are not; the value read is unchanged. */
START_TEST(test_fixed_coarse)
{
  ck_assert(cp_fixed_coarse(1) && cp_fixed_coarse(-((1LL << 24) - 1)) && !cp_fixed_coarse(0) &&
            !cp_fixed_coarse(1LL << 24) && !cp_fixed_coarse(-(1LL << 24)));
  int fd[2];
  ck_assert_int_eq(pipe(fd), 0);
  int line = __LINE__ + 8;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    int bad = 0;
    for (int k = 0; k < 3; k++) {
      cp_fixed small_sum = 12345 + k; /* 1.1e-8 at 40 bits */
      cp_float a = cp_fixed_to_cp_bits(small_sum, 40);
      cp_fixed big_sum = 1LL << 40, zero_sum = 0;
      cp_float b = cp_fixed_to_cp_bits(big_sum, 40), z = cp_fixed_to_cp(zero_sum);
      bad |= a.v != ldexpf((float)(12345 + k), -40) || b.v != 1.0f || z.v != 0.0f;
    }
    exit(bad);
  }
  close(fd[1]);
  static char buf[4096];
  size_t n = 0;
  ssize_t k;
  while ((k = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)k;
  buf[n] = '\0';
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char want[512];
  snprintf(want, sizeof want,
           "cp report: %s:%d small_sum: warning: fixed-point sum 1.12277121e-08 with 40 fractional "
           "bits holds fewer significant bits than a float (|sum| < 2^-16); use more fractional "
           "bits, accumulate(fixed(N))\n", __FILE__, line);
  ck_assert_msg(strcmp(buf, want) == 0, "got:\n%s\nwanted:\n%s", buf, want);
}
END_TEST

int main(void) {
  Suite *s = suite_create("report");
  TCase *tc = tcase_create("report");
  tcase_add_test(tc, test_values_unchanged);
  tcase_add_test(tc, test_measures);
  tcase_add_test(tc, test_measures_double);
  tcase_add_test(tc, test_printed);
  tcase_add_test(tc, test_fixed_coarse);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
