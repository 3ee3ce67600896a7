/* test_edit.c: the edit list is applied once, in order, and refuses overlaps. */
#include <check.h>
#include <string.h>

#include "rewriter.h"

static cp_arena *arena;
static cp_edit_list list;

static void setup(void) {
  arena = cp_arena_new();
  memset(&list, 0, sizeof list);
}

static void teardown(void) { cp_arena_free(arena); }

static const char *apply(const char *input, int expect_ok) {
  char *out = NULL;
  size_t len = 0;
  const char *why = NULL;
  int rc = cp_edit_apply(arena, &list, input, strlen(input), &out, &len, &why);
  ck_assert_int_eq(rc, expect_ok ? 0 : -1);
  if (!expect_ok) {
    ck_assert_ptr_nonnull(why);
    return why;
  }
  ck_assert_uint_eq(len, strlen(out));
  return out;
}

START_TEST(test_no_edits_is_identity) {
  ck_assert_str_eq(apply("a + b;\n", 1), "a + b;\n");
}
END_TEST

START_TEST(test_edits_in_any_order) {
  /* added right to left; applied left to right */
  cp_edit_add(arena, &list, 4, 1, "cp_b", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 0, 1, "cp_a", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 1, 3, ", ", CP_RULE_HEADER);
  ck_assert_str_eq(apply("a + b + c", 1), "cp_a, cp_b + c");
  ck_assert_uint_eq(list.per_rule[CP_RULE_HEADER], 3);
}
END_TEST

START_TEST(test_insertions_keep_their_order) {
  cp_edit_add(arena, &list, 1, 0, "1", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 1, 1, "R", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 1, 0, "2", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 1, 0, "3", CP_RULE_HEADER);
  ck_assert_str_eq(apply("xyz", 1), "x123Rz");
}
END_TEST

START_TEST(test_overlap_is_internal_error) {
  cp_edit_add(arena, &list, 0, 5, "A", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 4, 2, "B", CP_RULE_HEADER);
  ck_assert_ptr_nonnull(strstr(apply("0123456789", 0), "overlap at offset 4"));
}
END_TEST

START_TEST(test_insertion_inside_replacement_is_overlap) {
  cp_edit_add(arena, &list, 2, 4, "A", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 3, 0, "B", CP_RULE_HEADER);
  apply("0123456789", 0);
}
END_TEST

START_TEST(test_adjacent_edits_are_fine) {
  cp_edit_add(arena, &list, 0, 2, "A", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 2, 2, "B", CP_RULE_HEADER);
  cp_edit_add(arena, &list, 4, 0, "C", CP_RULE_HEADER);
  ck_assert_str_eq(apply("012345", 1), "ABC45");
}
END_TEST

START_TEST(test_past_the_end_is_internal_error) {
  cp_edit_add(arena, &list, 3, 5, "A", CP_RULE_HEADER);
  ck_assert_ptr_nonnull(strstr(apply("0123", 0), "past the end"));
}
END_TEST

START_TEST(test_many_edits_grow_the_list) {
  char input[2001], expected[4001];
  for (int i = 0; i < 2000; i++) {
    input[i] = 'a';
    expected[2 * i] = 'b';
    expected[2 * i + 1] = 'b';
    cp_edit_add(arena, &list, (size_t)i, 1, "bb", CP_RULE_HEADER);
  }
  input[2000] = expected[4000] = '\0';
  ck_assert_str_eq(apply(input, 1), expected);
}
END_TEST

START_TEST(test_arena_printf_and_large_blocks) {
  char *s = cp_arena_printf(arena, "%s-%d", "rule", 42);
  ck_assert_str_eq(s, "rule-42");
  char *big = cp_arena_alloc(arena, 1 << 20); /* larger than one block */
  memset(big, 'x', 1 << 20);
  ck_assert_str_eq(cp_arena_strndup(arena, "abcdef", 3), "abc");
  ck_assert_str_eq(s, "rule-42");
}
END_TEST

START_TEST(test_rule_names_come_from_the_table) {
  ck_assert_str_eq(cp_rule_name(CP_RULE_HEADER), "header");
  ck_assert_str_eq(cp_rule_name(CP_RULE_COUNT), "?");
}
END_TEST

Suite *make_edit_suite(void) {
  Suite *s = suite_create("edit");
  TCase *tc = tcase_create("edit");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_no_edits_is_identity);
  tcase_add_test(tc, test_edits_in_any_order);
  tcase_add_test(tc, test_insertions_keep_their_order);
  tcase_add_test(tc, test_overlap_is_internal_error);
  tcase_add_test(tc, test_insertion_inside_replacement_is_overlap);
  tcase_add_test(tc, test_adjacent_edits_are_fine);
  tcase_add_test(tc, test_past_the_end_is_internal_error);
  tcase_add_test(tc, test_many_edits_grow_the_list);
  tcase_add_test(tc, test_arena_printf_and_large_blocks);
  tcase_add_test(tc, test_rule_names_come_from_the_table);
  suite_add_tcase(s, tc);
  return s;
}
