/* check_profile.c - the profile's runtime (profile.cuh, profile_file.cuh), built with
 * -DCP_PROFILE, on the CPU.
 *
 * - ulps: cp_prof_ulps against |e| scaled by frexp's exponent of v (exact), with its special
 *   cases; cp_prof_ulps_dd the same for double pairs (truncated to 24 bits).
 * - JSON escaping of what the runtime adds (recombination files and names).
 * - The file: a table's host counts, device counters (the CUDA copy replaced by a function
 *   that fills them), recombinations measured and their values, written as docs/profile.md
 *   says, whole, and read by Python's json.
 * - The merge: two processes of one job add up (processes 2, values the first's); another
 *   job, or none, replaces the file; a static `args` with a parameter named count survives.
 * - CP_PROFILE_OUT: empty writes nothing; a path is where the write at exit goes.
 * - An unwritable path: -1, errno, the message.
 *
 * Its own executable (cp_profile_tests), since CP_PROFILE changes what host.cuh measures.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cp/cp.cuh>

#include "cp_test_gen.h"

CP_PROFILE_TABLE(cp_prof_t_0badcafe,
  "\"kind\":\"store\",\"file\":\"t.cu\",\"line\":10,\"function\":\"k\",\"name\":\"fx\"",
  "\"kind\":\"var\",\"file\":\"t.cu\",\"line\":11,\"function\":\"k\",\"name\":\"a\"",
  "\"kind\":\"launch\",\"file\":\"t.cu\",\"line\":20,\"function\":\"main\",\"name\":\"\",\"kernel\":\"k\",\"args\":{\"fx\":\"d_fx\",\"count\":\"d_n\"},\"writes\":[\"fx\"],\"reads\":[]",
  "\"kind\":\"input\",\"file\":\"t.cu\",\"line\":18,\"function\":\"main\",\"name\":\"d_fx\"",
  "\"kind\":\"unconverted\",\"file\":\"t.cu\",\"line\":22,\"function\":\"main\",\"name\":\"d_fx\",\"call\":\"cublasSaxpy\"")

/* The test's device: site 0 saw 64 elements, 32 with an error, 60 measured with 0.25 ulp
 * each on average, 0.5 at most; site 1 saw 3, none measured. */
static const char *fake_read(cp_prof_counter *dst, size_t n, int *backend_dp) {
  ck_assert_uint_eq(n, 5);
  dst[0].count = 64;
  dst[0].nonzero = 32;
  dst[0].measured = 60;
  dst[0].ulps_fixed = 60 * 65536 / 4;
  float half = 0.5f;
  memcpy(&dst[0].ulps_max_bits, &half, sizeof half);
  dst[1].count = 3;
  *backend_dp = 0;
  return NULL;
}

static const char *failing_read(cp_prof_counter *dst, size_t n, int *backend_dp) {
  (void)dst, (void)n, (void)backend_dp;
  return "no CUDA-capable device is detected";
}

/* ---- ulps ---- */

static float ulps_reference(float v, float e) {
  int k;
  frexp((double)v, &k); /* v = m 2^k, m in [0.5, 1): floor(log2 |v|) = k - 1 */
  int x = k - 1 < -126 ? -126 : k - 1;
  double u = ldexp(fabs((double)e), 23 - x); /* exact in double */
  return u > FLT_MAX ? FLT_MAX : (float)u;
}

START_TEST(test_ulps)
{
  gen_rng r = gen_seed(0x9f01);
  for (int i = 0; i < 200000; i++) {
    cp_float p = gen_pair(&r, -149, 127);
    float v = p.v, e = gen_one_in(&r, 4) ? p.e * gen_float(&r, -30, 30) : p.e;
    if (v == 0.0f || !isfinite(v) || !isfinite(e))
      continue;
    float want = ulps_reference(v, e), got = cp_prof_ulps(v, e);
    if (want < FLT_MIN) /* below the normal floats the product may round twice */
      ck_assert_msg(got <= FLT_MIN, "v %a e %a: %a, want %a", v, e, got, want);
    else
      ck_assert_msg(got == want, "v %a e %a: %a, want %a", v, e, got, want);
    if (e == p.e && (p.e == 0.0f || fabsf(p.e) <= ldexpf(1.0f, -24) * fabsf(p.v)))
      ck_assert_msg(got <= 0.5f, "a normalized pair: %a ulps", got);
  }
  ck_assert(cp_prof_ulps(1.0f, 0x1p-24f) == 0.5f);
  ck_assert(cp_prof_ulps(-3.0f, 0x1p-23f) == 0.5f); /* ulp(3) = 2^-22 */
  ck_assert(cp_prof_ulps(0x1p-140f, 0x1p-149f) == 1.0f); /* subnormal: the subnormals' ulp */
  ck_assert(cp_prof_ulps(0x1p-149f, 0.0f) == 0.0f);
  ck_assert(cp_prof_ulps(0x1p-126f, 0x1p100f) == FLT_MAX); /* beyond the floats */
  ck_assert(cp_prof_ulps(0.0f, 1.0f) == -1.0f);
  ck_assert(cp_prof_ulps(INFINITY, 0.0f) == -1.0f);
  ck_assert(cp_prof_ulps(NAN, 0.0f) == -1.0f);
  ck_assert(cp_prof_ulps(1.0f, NAN) == -1.0f);
}
END_TEST

START_TEST(test_ulps_dd)
{
  gen_rng r = gen_seed(0x9f02);
  for (int i = 0; i < 200000; i++) {
    cp_double p = gen_dd(&r, -1074, 1023);
    double hi = p.hi, lo = gen_one_in(&r, 4) ? p.lo * gen_double(&r, -30, 30) : p.lo;
    if (hi == 0.0 || !isfinite(hi) || !isfinite(lo))
      continue;
    int k;
    frexp(hi, &k);
    int x = k - 1 < -1022 ? -1022 : k - 1;
    double want = ldexp(fabs(lo), 52 - x); /* exact unless beyond double */
    float got = cp_prof_ulps_dd(hi, lo);
    if (want > FLT_MAX)
      ck_assert(got == FLT_MAX);
    else if (want < FLT_MIN)
      ck_assert(got == 0.0f);
    else /* truncated to a float's 24 bits */
      ck_assert_msg((double)got <= want && want - (double)got < ldexp(want, -23),
                    "hi %a lo %a: %a, want %a", hi, lo, (double)got, want);
  }
  ck_assert(cp_prof_ulps_dd(1.0, 0x1p-53) == 0.5f);
  ck_assert(cp_prof_ulps_dd(0x1p-1060, 0x1p-1074) == 1.0f); /* subnormal hi and lo */
  ck_assert(cp_prof_ulps_dd(0.0, 1.0) == -1.0f);
  ck_assert(cp_prof_ulps_dd(1.0, NAN) == -1.0f);
  ck_assert(cp_prof_ulps_dd(2.0, 0.0) == 0.0f);
}
END_TEST

START_TEST(test_escape)
{
  char *s = cp_detail_prof_json_escape("a\"b\\c\n\x01 d/\xc3\xa9");
  ck_assert_str_eq(s, "a\\\"b\\\\c\\u000a\\u0001 d/\xc3\xa9");
  free(s);
}
END_TEST

/* ---- the file ---- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static char dir[] = "/tmp/cp_profile_testXXXXXX";
static char path[512];

static void make_dir(void) {
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/cp_profile.json", dir);
}

/* The test's folder and what the writes left there (the file, its lock). */
static void remove_dir(void) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}

/* The recombination of the tests, on one line: the site's line. */
static void recombine(float *vals, float *vel_err) { cp_recombine_host(vals, vel_err, 3); }
enum { line_of_recombine = __LINE__ - 1 };

/* What one process of the tests does: a copy in, a launch, an unconverted call, two
 * recombinations of the same site. */
static void one_process(float first) {
  cp_prof_t_0badcafe_unit.read_device = fake_read;
  cp_prof_count(cp_prof_t_0badcafe, 3, 4096);
  cp_prof_launch(cp_prof_t_0badcafe, 2);
  cp_prof_count(cp_prof_t_0badcafe, 4, 0);
  for (int k = 0; k < 2; k++) {
    float vals[3] = {first + (float)k, 3.0f, 0.0f}, vel_err[3] = {0x1p-30f, 0x1p-22f, 0.0f};
    recombine(vals, vel_err);
  }
}

/* The file of `times` processes of one job (1 to 3), whose one_process had first = first,
 * second and third; the RMS against its exact value, the rest as text. */
static void expect_file(const char *job, int processes, int times, double first, double second,
                        double third) {
  char *text = slurp(path);
  ck_assert_ptr_nonnull(text);
  double rel2 = 0.0;
  for (int p = 0; p < times; p++) {
    double f = p == 0 ? first : p == 1 ? second : third;
    rel2 += 0x1p-60 / (f * f) + 0x1p-60 / ((f + 1) * (f + 1)) + 2 * 0x1p-44 / 9.0;
  }
  double want_rms = sqrt(rel2 / (4.0 * times));
  const char *at = strstr(text, "\"rel_rms\":");
  ck_assert_ptr_nonnull(at);
  double rms = strtod(at + 10, NULL);
  ck_assert_msg(fabs(rms - want_rms) <= 0x1p-50 * want_rms, "rms %.17g, want %.17g", rms, want_rms);
  char want[4096];
  unsigned long long c = (unsigned long long)times;
  snprintf(want, sizeof want,
    "{\"format\":\"cp_profile\",\"version\":1,\"job\":\"%s\",\"processes\":%d,\"sample\":%d,\"backend\":\"ff\",\"tier\":\"high\",\n"
    "\"sites\":[\n"
    "{\"kind\":\"store\",\"file\":\"t.cu\",\"line\":10,\"function\":\"k\",\"name\":\"fx\",\"count\":%llu,\"nonzero\":%llu,\"ulps_max\":0.5,\"ulps_mean\":0.25},\n"
    "{\"kind\":\"var\",\"file\":\"t.cu\",\"line\":11,\"function\":\"k\",\"name\":\"a\",\"count\":%llu,\"nonzero\":0,\"ulps_max\":0,\"ulps_mean\":0},\n"
    "{\"kind\":\"launch\",\"file\":\"t.cu\",\"line\":20,\"function\":\"main\",\"name\":\"\",\"kernel\":\"k\",\"args\":{\"fx\":\"d_fx\",\"count\":\"d_n\"},\"writes\":[\"fx\"],\"reads\":[],\"count\":%llu},\n"
    "{\"kind\":\"input\",\"file\":\"t.cu\",\"line\":18,\"function\":\"main\",\"name\":\"d_fx\",\"count\":%llu,\"bytes\":%llu},\n"
    "{\"kind\":\"unconverted\",\"file\":\"t.cu\",\"line\":22,\"function\":\"main\",\"name\":\"d_fx\",\"call\":\"cublasSaxpy\",\"count\":%llu},\n"
    "{\"kind\":\"recombine\",\"file\":\"%s\",\"line\":%d,\"function\":\"\",\"name\":\"vel_err\",\"copies\":%llu,\"elements\":%llu,\"nonzero\":%llu,\"changed\":%llu,\"rel_max\":%.17g,\"rel_rms\":%.17g,\"values\":[%.17g,3.0000002384185791,0]}\n"
    "]}\n",
    job, processes, (int)CP_PROFILE_SAMPLE, 64 * c, 32 * c, 3 * c, c, c, 4096 * c, c, __FILE__, line_of_recombine, 2 * c,
    6 * c, 4 * c, 2 * c, 0x1p-22 / 3.0, rms, first + 1.0);
  ck_assert_msg(strcmp(text, want) == 0, "got:\n%s\nwanted:\n%s", text, want);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s", path);
  ck_assert_int_eq(system(cmd), 0);
}

/* Runs one_process in a child with CP_PROFILE_JOB = job (NULL: unset) that writes at exit
 * to CP_PROFILE_OUT = path (or before, and then not at exit, with write_first). */
static void run_child(const char *job, float first, int write_first) {
  pid_t pid = fork();
  if (pid == 0) {
    if (job)
      setenv("CP_PROFILE_JOB", job, 1);
    else
      unsetenv("CP_PROFILE_JOB");
    setenv("CP_PROFILE_OUT", path, 1);
    one_process(first);
    if (write_first && cp_profile_write(NULL) != 0)
      exit(1);
    exit(0); /* the profile is written here, unless it was just now */
  }
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

START_TEST(test_write)
{
  make_dir();
  unsetenv("CP_PROFILE_JOB");
  one_process(5.0f);
  ck_assert_int_eq(cp_profile_write(path), 0);
  expect_file("", 1, 1, 5.0, 0, 0);
  /* the device counters cannot be read: its sites count 0, a message, the file written */
  cp_prof_t_0badcafe_unit.read_device = failing_read;
  ck_assert_int_eq(cp_profile_write(path), 0);
  ck_assert_ptr_nonnull(strstr(slurp(path), "\"name\":\"fx\",\"count\":0,"));
  cp_prof_t_0badcafe_unit.read_device = fake_read;
  remove_dir();
}
END_TEST

START_TEST(test_merge)
{
  make_dir();
  run_child("job.7", 5.0f, 0);
  expect_file("job.7", 1, 1, 5.0, 0, 0);
  run_child("job.7", 7.0f, 0); /* same job: added, the values of the first */
  expect_file("job.7", 2, 2, 5.0, 7.0, 0);
  run_child("job.7", 9.0f, 1); /* written by the program: not again at exit */
  expect_file("job.7", 3, 3, 5.0, 7.0, 9.0);
  run_child("job.8", 7.0f, 0); /* another job: replaced */
  expect_file("job.8", 1, 1, 7.0, 0, 0);
  run_child(NULL, 5.0f, 0); /* no job: replaced, and never merged */
  run_child(NULL, 5.0f, 0);
  expect_file("", 1, 1, 5.0, 0, 0);
  setenv("SLURM_JOB_ID", "42", 1); /* the job key from the environment, in its order */
  setenv("SLURM_STEP_ID", "0", 1);
  char job[64];
  cp_profile_job(job, sizeof job);
  ck_assert_str_eq(job, "42.0");
  setenv("PMIX_NAMESPACE", "prterun-x-1@1", 1);
  cp_profile_job(job, sizeof job);
  ck_assert_str_eq(job, "prterun-x-1@1");
  setenv("CP_PROFILE_JOB", "mine", 1);
  cp_profile_job(job, sizeof job);
  ck_assert_str_eq(job, "mine");
  remove_dir();
}
END_TEST

START_TEST(test_out)
{
  make_dir();
  ck_assert_int_eq(chdir(dir), 0);
  setenv("CP_PROFILE_OUT", "", 1);
  one_process(5.0f);
  ck_assert_int_eq(cp_profile_write(NULL), 0);
  ck_assert_ptr_null(slurp("cp_profile.json"));
  ck_assert_ptr_null(slurp(path));
  setenv("CP_PROFILE_OUT", path, 1);
  ck_assert_int_eq(cp_profile_write(NULL), 0);
  ck_assert_ptr_nonnull(slurp(path));
  ck_assert_int_eq(chdir("/"), 0);
  remove_dir();
}
END_TEST

START_TEST(test_unwritable)
{
  int fd[2];
  ck_assert_int_eq(pipe(fd), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    int rc = cp_profile_write("/nonexistent-dir/p.json");
    exit(rc == -1 && errno == ENOENT ? 0 : 1);
  }
  close(fd[1]);
  char buf[512];
  ssize_t n = read(fd[0], buf, sizeof buf - 1);
  buf[n > 0 ? n : 0] = '\0';
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ck_assert_str_eq(buf, "cpconvert profile: cannot write /nonexistent-dir/p.json: No such file or directory\n");
}
END_TEST

int main(void) {
  Suite *s = suite_create("profile");
  TCase *tc = tcase_create("profile");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_ulps);
  tcase_add_test(tc, test_ulps_dd);
  tcase_add_test(tc, test_escape);
  tcase_add_test(tc, test_write);
  tcase_add_test(tc, test_merge);
  tcase_add_test(tc, test_out);
  tcase_add_test(tc, test_unwritable);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
