/* main.c: runs the rewriter's unit-test suites (Check). */
#include <check.h>
#include <stdlib.h>

Suite *make_edit_suite(void);
Suite *make_lines_suite(void);
Suite *make_tree_suite(void);
Suite *make_writes_suite(void);
Suite *make_pragma_suite(void);

int main(void) {
  SRunner *sr = srunner_create(make_edit_suite());
  srunner_add_suite(sr, make_lines_suite());
  srunner_add_suite(sr, make_tree_suite());
  srunner_add_suite(sr, make_writes_suite());
  srunner_add_suite(sr, make_pragma_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
