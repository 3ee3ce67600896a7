/* check_dispatch.c - CP_ALGO selects the family behind the generic names. The checks are
 * compiled in dispatch_paper.c, dispatch_accurate.c, dispatch_fast.c and dispatch_mid.c, one CP_ALGO each;
 * this file (default CP_ALGO) checks that the default is the accurate family. */
#include "test_util.h"

int dispatch_check_paper(const char **name);
int dispatch_check_accurate(const char **name);
int dispatch_check_fast(const char **name);
int dispatch_check_mid(const char **name);

START_TEST(test_families)
{
  const char *name = 0;
  TU_ASSERT(dispatch_check_paper(&name));
  ck_assert_str_eq(name, "paper");
  TU_ASSERT(dispatch_check_accurate(&name));
  ck_assert_str_eq(name, "accurate");
  TU_ASSERT(dispatch_check_fast(&name));
  ck_assert_str_eq(name, "fast");
  TU_ASSERT(dispatch_check_mid(&name));
  ck_assert_str_eq(name, "mid");
}
END_TEST

START_TEST(test_default)
{
  ck_assert_int_eq(CP_ALGO, CP_ALGO_ACCURATE);
  ck_assert_str_eq(CP_ALGO_NAME, "accurate");
  cp_float x = cp_from_float(1.0f), y = cp_from_float(3.0f);
  cp_float a = cp_div(x, y), b = cp_accurate_div(x, y);
  TU_ASSERT(a.v == b.v && a.e == b.e);
}
END_TEST

Suite *make_dispatch_suite(void)
{
  Suite *s = suite_create("dispatch");
  TCase *tc = tcase_create("cp_algo");
  tcase_add_test(tc, test_families);
  tcase_add_test(tc, test_default);
  suite_add_tcase(s, tc);
  return s;
}
