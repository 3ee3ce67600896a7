/* main.c - runner of the runtime unit tests (libcheck).
 *
 * Usage: cp_runtime_tests [SUITE]   runs one suite (ctest runs each as its own test), or all.
 * Suites: eft accurate paper fast double convert special accum dispatch pair boundary mid
 * unnormalized math math_exp math_spec math_trig.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

int main(int argc, char **argv)
{
  Suite *(*makers[])(void) = { make_eft_suite,     make_accurate_suite, make_paper_suite,
                               make_fast_suite,    make_double_suite,   make_convert_suite,
                               make_special_suite, make_accum_suite,    make_dispatch_suite,
                               make_pair_suite,    make_boundary_suite, make_mid_suite,
                               make_unnormalized_suite, make_math_suite,
                               make_math_exp_suite, make_math_spec_suite, make_math_trig_suite };
  setvbuf(stdout, NULL, _IOLBF, 0); /* measured maxima reach the log even if a test fails */
  const char *only = argc > 1 ? argv[1] : NULL;
  SRunner *sr = srunner_create(NULL);
  for (size_t i = 0; i < sizeof makers / sizeof makers[0]; ++i) srunner_add_suite(sr, makers[i]());
  srunner_run(sr, only, NULL, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  int run = srunner_ntests_run(sr);
  srunner_free(sr);
  if (run == 0) {
    fprintf(stderr, "no test ran (unknown suite \"%s\"?)\n", only ? only : "");
    return EXIT_FAILURE;
  }
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
