/* test_lines.c: --line-directives (lines.c). After the edits and the markers are applied,
 * every output line must carry, as a compiler counts lines (one more than the line before,
 * or what the last `#line` said), the input line it came from: a line that starts in the
 * input its own line, a line that starts in an edit's text the line the edit was made at
 * (added lines) or the line it replaces (a rewritten expression keeps its layout). The
 * inputs name their lines ("i7" starts line 7) and the edits' lines name the line they
 * belong to ("e7"), so the check reads the answer off each output line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static cp_arena *arena;
static cp_edit_list list;

static void setup(void) {
  arena = cp_arena_new();
  memset(&list, 0, sizeof list);
}

static void teardown(void) { cp_arena_free(arena); }

/* Input of n lines "i1 x", "i2 x", ...; the offset where line k starts in *starts. */
static char *numbered_input(unsigned n, size_t *starts) {
  char *text = cp_arena_alloc(arena, 16 * n + 1), *p = text;
  for (unsigned k = 1; k <= n; k++) {
    starts[k] = (size_t)(p - text);
    p += sprintf(p, "i%u x\n", k);
  }
  return text;
}

/* The output: the markers added to the edits, the edits applied. */
static char *with_markers(const char *input) {
  cp_add_line_directives(arena, &list, input, strlen(input), "k.cu", "\n");
  char *out = NULL;
  size_t len = 0;
  const char *why = NULL;
  ck_assert_int_eq(cp_edit_apply(arena, &list, input, strlen(input), &out, &len, &why), 0);
  return out;
}

/* Checks every output line against the number it names; returns the number of #line
 * markers. */
static unsigned check_output(const char *input) {
  char *out = with_markers(input);
  unsigned line = 1, markers = 0;
  for (char *p = out; *p;) {
    char *end = strchr(p, '\n');
    ck_assert_ptr_nonnull(end);
    unsigned want, next;
    if (sscanf(p, "#line %u \"k.cu\"", &next) == 1) {
      markers++;
      line = next;
    } else {
      ck_assert_msg(sscanf(p, "%*[ie]%u", &want) == 1, "unexpected line '%.*s'", (int)(end - p), p);
      ck_assert_msg(line == want, "'%.*s' is counted as line %u", (int)(end - p), p, line);
      line++;
    }
    p = end + 1;
  }
  return markers;
}

START_TEST(test_no_edits_no_markers) {
  size_t starts[8];
  ck_assert_uint_eq(check_output(numbered_input(6, starts)), 0);
}
END_TEST

START_TEST(test_added_line_counts_as_its_place) {
  size_t starts[8];
  const char *in = numbered_input(6, starts);
  cp_edit_add(arena, &list, starts[3], 0, "e3 added\n", CP_RULE_ARITH);
  /* e3 is counted as line 3 as it is; i3 is marked back to 3 */
  ck_assert_uint_eq(check_output(in), 1);
}
END_TEST

START_TEST(test_rewritten_lines_keep_layout) {
  size_t starts[8];
  const char *in = numbered_input(6, starts);
  /* lines 2..3 ("i2 x\ni3 x") rewritten as two lines: no marker needed */
  cp_edit_add(arena, &list, starts[2], starts[4] - 1 - starts[2], "e2 y\ne3 y", CP_RULE_ARITH);
  ck_assert_uint_eq(check_output(in), 0);
}
END_TEST

START_TEST(test_rewritten_lines_shrink) {
  size_t starts[8];
  const char *in = numbered_input(6, starts);
  /* lines 2..4 become one: line 5 must be marked */
  cp_edit_add(arena, &list, starts[2], starts[5] - 1 - starts[2], "e2 y", CP_RULE_ARITH);
  ck_assert_uint_eq(check_output(in), 1);
}
END_TEST

START_TEST(test_no_marker_after_backslash) {
  /* an added line that continues a macro (it ends with a backslash): line 2 cannot be
   * marked back (the marker would join the macro), so line 3 is */
  const char *in = "i1 x\ni2 x\ni3 x\n";
  cp_edit_add(arena, &list, 5, 0, "e2 a \\\n", CP_RULE_ARITH);
  ck_assert_str_eq(with_markers(in), "i1 x\ne2 a \\\ni2 x\n#line 3 \"k.cu\"\ni3 x\n");
}
END_TEST

START_TEST(test_random_insertions) {
  srand(12345);
  for (int round = 0; round < 300; round++) {
    cp_arena_free(arena);
    setup();
    size_t starts[40];
    unsigned n = 2 + (unsigned)rand() % 30;
    const char *in = numbered_input(n, starts);
    unsigned edits = (unsigned)rand() % 6;
    int rewritten[40] = {0};
    for (unsigned k = 0; k < edits; k++) {
      unsigned at = 1 + (unsigned)rand() % n, lines = (unsigned)rand() % 3;
      const char *text = "";
      for (unsigned j = 0; j < lines; j++)
        text = cp_arena_printf(arena, "%se%u added\n", text, at);
      if (rand() % 2) /* lines added before line `at` */
        cp_edit_add(arena, &list, starts[at], 0, text, CP_RULE_ARITH);
      else if (!rewritten[at]++) /* or its "x" rewritten as lines: all of them line `at` */
        cp_edit_add(arena, &list, starts[at] + strlen(cp_arena_printf(arena, "i%u ", at)), 1,
                     cp_arena_printf(arena, "y\n%se%u z", text, at), CP_RULE_ARITH);
    }
    check_output(in);
  }
}
END_TEST

Suite *make_lines_suite(void) {
  Suite *s = suite_create("lines");
  TCase *tc = tcase_create("line directives");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_no_edits_no_markers);
  tcase_add_test(tc, test_added_line_counts_as_its_place);
  tcase_add_test(tc, test_rewritten_lines_keep_layout);
  tcase_add_test(tc, test_rewritten_lines_shrink);
  tcase_add_test(tc, test_no_marker_after_backslash);
  tcase_add_test(tc, test_random_insertions);
  suite_add_tcase(s, tc);
  return s;
}
