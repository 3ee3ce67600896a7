/* test_pragma.c: the `#pragma cp composite [clauses]` lines annotate/ reads, through
 * cp_find_functions over a file parsed as the rewriter parses it (the prelude, no CUDA):
 * each clause into the function's cp_pragma, the run's defaults where a clause is absent,
 * each malformed pragma an error at its place that marks nothing, comments on the line,
 * backslash continuation, LF, CRLF and lone-CR line ends, a UTF-8 byte order mark, the
 * warnings for what is not read (near-miss spellings, _Pragma, a branch not taken), and
 * `#pragma cp` in a header. The run's defaults are scope(accumulators) and
 * accumulate(kahan), so that a pragma's own choice shows. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BODY(name) "__global__ void " name "(float *x) { x[0] += 1.0f; }"
#define KERNEL(name) BODY(name) "\n"

static cp_result *res;
static cp_run run;

static void setup(void) { res = NULL; }

static void close_run(void) {
  if (!res)
    return;
  for (unsigned i = 0; i < run.n_inputs; i++)
    cp_parse_close(&run.units[i]->p);
  cp_result_free(res);
  res = NULL;
}

/* Parses `len` bytes of `text` as the input `path` and finds its pragmas (annotate/). */
static void find_in(const char *path, const char *text, size_t len) {
  close_run();
  cp_arena *a = cp_arena_new();
  res = cp_arena_alloc(a, sizeof *res);
  memset(res, 0, sizeof *res);
  res->arena = a;
  memset(&run, 0, sizeof run);
  run.r = res;
  cp_unit *u = cp_unit_new(&run);
  u->opt = (cp_options){.input = path, .input_text = text, .input_len = len,
                        .algo = CP_ALGO_ACCURATE, .scope = CP_SCOPE_ACCUMULATORS,
                        .accumulate = CP_ACC_KAHAN};
  run.n_inputs = 1;
  run.settings = &u->opt;
  u->parsed = cp_parse_open(&u->p, &u->opt, res) == 0;
  ck_assert_msg(u->parsed, "clang: %s", res->n_diags ? res->diags[0].message : "?");
  cp_find_functions(&run, u);
}

static void find(const char *text) { find_in("t.cu", text, strlen(text)); }

/* The pragma of the marked function `name`; NULL if it is not marked. */
static const cp_pragma *pragma_of(const char *name) {
  for (unsigned i = 0; i < run.n_funcs; i++)
    if (strcmp(run.funcs[i].name, name) == 0)
      return run.funcs[i].pragma;
  return NULL;
}

static const cp_pragma *marked(const char *name) {
  const cp_pragma *pr = pragma_of(name);
  ck_assert_msg(pr != NULL, "'%s' is not marked", name);
  return pr;
}

/* Diagnostic k is of severity `sev` at line:col and its message holds `part`. */
static void expect_diag(size_t k, cp_severity sev, unsigned line, unsigned col,
                        const char *part) {
  ck_assert_uint_gt(res->n_diags, k);
  const cp_diag *d = &res->diags[k];
  ck_assert_msg(d->severity == sev && d->line == line && d->col == col &&
                    strstr(d->message, part),
                "diagnostic %zu: %u:%u (severity %d) '%s'; want %u:%u (%d) '%s'", k, d->line,
                d->col, (int)d->severity, d->message, line, col, (int)sev, part);
}

/* A clause's names as "a,b,c". */
static const char *joined(const cp_clause_name *names, unsigned n) {
  char *s = cp_arena_strdup(res->arena, "");
  for (unsigned i = 0; i < n; i++)
    s = cp_arena_printf(res->arena, "%s%s%s", s, i ? "," : "", names[i].name);
  return s;
}

/* The offset of `needle` in `text` (which must hold it). */
static unsigned offset_of(const char *text, const char *needle) {
  const char *p = strstr(text, needle);
  ck_assert_ptr_nonnull(p);
  return (unsigned)(p - text);
}

static void teardown(void) { close_run(); }

START_TEST(test_defaults) {
  static const char *text = "#pragma cp composite\n" KERNEL("k");
  find(text);
  ck_assert_uint_eq(res->n_diags, 0);
  const cp_pragma *pr = marked("k");
  ck_assert_int_eq(pr->scope, CP_SCOPE_ACCUMULATORS); /* the run's --scope */
  ck_assert_int_eq(pr->accum, CP_ACC_KAHAN);          /* the run's --accumulate */
  ck_assert_int_eq(pr->accum_given, 0);
  ck_assert_uint_eq(pr->n_pair + pr->n_nopair + pr->n_keep, 0);
  ck_assert_uint_eq(pr->offset, 0);
  ck_assert_uint_eq(pr->end, offset_of(text, "\n"));
}
END_TEST

START_TEST(test_scope_and_accumulate) {
  find("#pragma cp composite scope(all)\n" KERNEL("k_all")
       "#pragma cp composite scope(accumulators) accumulate(composite)\n" KERNEL("k_comp")
       "#pragma cp composite accumulate(fixed)\n" KERNEL("k_fixed")
       "#pragma cp composite accumulate(kahan)\n" KERNEL("k_kahan")
       "#pragma cp composite accumulate(double), scope(all)\n" KERNEL("k_double"));
  ck_assert_uint_eq(res->n_diags, 0);
  ck_assert_int_eq(marked("k_all")->scope, CP_SCOPE_ALL);
  ck_assert_int_eq(marked("k_all")->accum_given, 0);
  ck_assert_int_eq(marked("k_comp")->scope, CP_SCOPE_ACCUMULATORS);
  ck_assert_int_eq(marked("k_comp")->accum, CP_ACC_COMPOSITE);
  ck_assert_int_eq(marked("k_comp")->accum_given, 1);
  ck_assert_int_eq(marked("k_fixed")->accum, CP_ACC_FIXED);
  ck_assert_int_eq(marked("k_kahan")->accum, CP_ACC_KAHAN);
  ck_assert_int_eq(marked("k_kahan")->accum_given, 1);
  ck_assert_int_eq(marked("k_double")->accum, CP_ACC_DOUBLE);
  ck_assert_int_eq(marked("k_double")->scope, CP_SCOPE_ALL);
}
END_TEST

START_TEST(test_accuracy) {
  find("#pragma cp composite accuracy(low)\n" KERNEL("k_low")
       "#pragma cp composite scope(all), accuracy(mid)\n" KERNEL("k_mid")
       "#pragma cp composite accuracy(high) accumulate(fixed)\n" KERNEL("k_high")
       "#pragma cp composite\n" KERNEL("k_none"));
  ck_assert_uint_eq(res->n_diags, 0);
  ck_assert_int_eq(marked("k_low")->tier, CP_ALGO_FAST);
  ck_assert_int_eq(marked("k_mid")->tier, CP_ALGO_MID);
  ck_assert_int_eq(marked("k_high")->tier, CP_ALGO_ACCURATE);
  ck_assert_int_eq(marked("k_high")->accum, CP_ACC_FIXED);
  ck_assert_int_eq(marked("k_none")->tier, 0);
}
END_TEST

/* pair(a) pair(b) is pair(a, b); a field path is one name; each name keeps its offset. */
START_TEST(test_name_lists) {
  static const char *text =
      "#pragma cp composite keep(a, b) pair(x,y) nopair(z) pair(w)\n" KERNEL("k")
      "#pragma cp composite pair(s.r.x, p->pos) , keep(t)\n" KERNEL("k_fields");
  find(text);
  ck_assert_uint_eq(res->n_diags, 0);
  const cp_pragma *pr = marked("k");
  ck_assert_str_eq(joined(pr->keep, pr->n_keep), "a,b");
  ck_assert_str_eq(joined(pr->pair, pr->n_pair), "x,y,w");
  ck_assert_str_eq(joined(pr->nopair, pr->n_nopair), "z");
  ck_assert_uint_eq(pr->keep[1].offset, offset_of(text, "b)"));
  ck_assert_uint_eq(pr->pair[2].offset, offset_of(text, "w)"));
  ck_assert_int_eq(pr->scope, CP_SCOPE_ACCUMULATORS);
  pr = marked("k_fields");
  ck_assert_str_eq(joined(pr->pair, pr->n_pair), "s.r.x,p->pos");
  ck_assert_uint_eq(pr->pair[1].offset, offset_of(text, "p->pos"));
  ck_assert_str_eq(joined(pr->keep, pr->n_keep), "t");
}
END_TEST

/* Each malformed pragma: one error at its place (line 1), and the kernel after it is not
 * marked. */
START_TEST(test_errors) {
  static const struct {
    const char *line;
    unsigned col;
    const char *message;
  } bad[] = {
      {"#pragma cp composite precise", 22,
       "unknown clause 'precise' in '#pragma cp composite' (expected pair, nopair, keep, "
       "scope, accumulate or accuracy) [pragma]"},
      {"#pragma cp composite accuracy(best)", 31, "'accuracy' takes low, mid or high, not 'best' [pragma]"},
      {"#pragma cp composite accuracy(low) accuracy(mid)", 36, "'accuracy' is given twice [pragma]"},
      {"#pragma cp compsite", 12,
       "unknown cp directive 'compsite' (expected '#pragma cp composite') [pragma]"},
      {"#pragma cp", 1, "unknown cp directive (expected '#pragma cp composite') [pragma]"},
      {"#pragma cp composite keep(a, b", 22, "expected ',' or ')' in 'keep(...)' [pragma]"},
      {"#pragma cp composite keep(a))", 29, "unknown clause ')'"},
      {"#pragma cp composite keep a", 22, "expected '(' after 'keep' [pragma]"},
      {"#pragma cp composite keep()", 27, "expected a name in 'keep(...)' [pragma]"},
      {"#pragma cp composite keep(a,)", 29, "expected a name in 'keep(...)'"},
      {"#pragma cp composite nopair(a b)", 31, "expected ',' or ')' in 'nopair(...)'"},
      {"#pragma cp composite pair(2x)", 27, "expected a name in 'pair(...)'"},
      {"#pragma cp composite pair(s.)", 29, "expected a field name after '.' in 'pair(...)'"},
      {"#pragma cp composite pair(s->2)", 30, "expected a field name after '->'"},
      {"#pragma cp composite scope(all) scope(all)", 33, "'scope' is given twice [pragma]"},
      {"#pragma cp composite accumulate(kahan), accumulate(double)", 41,
       "'accumulate' is given twice"},
      {"#pragma cp composite scope(everything)", 28,
       "'scope' takes all or accumulators, not 'everything' [pragma]"},
      {"#pragma cp composite accumulate(quad)", 33,
       "'accumulate' takes composite, fixed, kahan or double, not 'quad' [pragma]"},
      {"#pragma cp composite scope(all", 28, "expected ')' after 'scope(all' [pragma]"},
      {"#pragma cp composite scope", 22, "expected '(' after 'scope' [pragma]"},
      {"#pragma cp composite scope(", 22, "after 'scope'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char text[256];
    snprintf(text, sizeof text, "%s\n" KERNEL("k"), bad[i].line);
    find(text);
    ck_assert_msg(res->n_diags == 1, "'%s': %zu diagnostics", bad[i].line, res->n_diags);
    expect_diag(0, CP_ERROR, 1, bad[i].col, bad[i].message);
    ck_assert_str_eq(res->diags[0].line_text, bad[i].line);
    ck_assert_ptr_null(pragma_of("k"));
  }
}
END_TEST

/* A comment is no clause, wherever it stands on the line. */
START_TEST(test_comments) {
  find("#pragma cp composite // scope(all) is not read\n" KERNEL("k_line")
       "#pragma cp composite /* keep(z) */ keep(a) /* , */ scope(all)\n" KERNEL("k_block")
       "#pragma cp composite keep(b) /* a note\n   on two lines */\n" KERNEL("k_span"));
  ck_assert_uint_eq(res->n_diags, 0);
  ck_assert_int_eq(marked("k_line")->scope, CP_SCOPE_ACCUMULATORS);
  ck_assert_uint_eq(marked("k_line")->n_keep, 0);
  ck_assert_str_eq(joined(marked("k_block")->keep, marked("k_block")->n_keep), "a");
  ck_assert_int_eq(marked("k_block")->scope, CP_SCOPE_ALL);
  ck_assert_str_eq(joined(marked("k_span")->keep, marked("k_span")->n_keep), "b");
}
END_TEST

/* A backslash at the end of a line continues the pragma, before LF, CRLF or a lone CR. */
START_TEST(test_continuation) {
  static const char *text = "#pragma cp composite keep(a, \\\n  b) \\\n    scope(all)\n" KERNEL("k")
                            "#pragma cp composite \\\r\n  accumulate(fixed)\r\n" BODY("k_crlf")
                            "\r\n#pragma cp composite \\\r  nopair(n)\r" BODY("k_cr") "\r";
  find(text);
  ck_assert_uint_eq(res->n_diags, 0);
  const cp_pragma *pr = marked("k");
  ck_assert_str_eq(joined(pr->keep, pr->n_keep), "a,b");
  ck_assert_int_eq(pr->scope, CP_SCOPE_ALL);
  ck_assert_uint_eq(pr->end, offset_of(text, "scope(all)\n") + 10);
  pr = marked("k_crlf");
  ck_assert_int_eq(pr->accum, CP_ACC_FIXED);
  ck_assert_uint_eq(pr->end, offset_of(text, "(fixed)\r\n") + 8); /* at the '\n' */
  pr = marked("k_cr");
  ck_assert_str_eq(joined(pr->nopair, pr->n_nopair), "n");
  ck_assert_uint_eq(pr->end, offset_of(text, "(n)\r") + 3);
}
END_TEST

/* Spaces or tabs between the backslash and the line end: clang still splices the lines
 * (with a warning), so the clauses on the next line are the pragma's, not lost. */
START_TEST(test_continuation_after_space) {
  find("#pragma cp composite \\ \t\n  keep(c)\n" KERNEL("k"));
  ck_assert_uint_eq(res->n_diags, 0);
  ck_assert_str_eq(joined(marked("k")->keep, marked("k")->n_keep), "c");
}
END_TEST

/* CRLF and lone-CR files: the pragma is read, ends at its line's end, and an error's line
 * and column count those line ends; the quoted line has no CR. */
START_TEST(test_line_endings) {
  static const char *const nl[] = {"\r\n", "\r"};
  for (int i = 0; i < 2; i++) {
    char text[512];
    snprintf(text, sizeof text,
             "// line 1%s#pragma cp composite scope(all)%s" BODY("k") "%s"
             "#pragma cp composite bad%s" BODY("k2") "%s",
             nl[i], nl[i], nl[i], nl[i], nl[i]);
    find(text);
    const cp_pragma *pr = marked("k");
    ck_assert_int_eq(pr->scope, CP_SCOPE_ALL);
    ck_assert_uint_eq(pr->offset, offset_of(text, "#pragma"));
    ck_assert_uint_eq(pr->end, offset_of(text, "(all)") + 5 + (unsigned)strlen(nl[i]) - 1);
    ck_assert_uint_eq(res->n_diags, 1);
    expect_diag(0, CP_ERROR, 4, 22, "unknown clause 'bad'");
    ck_assert_str_eq(res->diags[0].line_text, "#pragma cp composite bad");
    ck_assert_ptr_null(pragma_of("k2"));
  }
}
END_TEST

/* A UTF-8 byte order mark before a pragma on line 1 is no text (nor are blanks). */
START_TEST(test_byte_order_mark) {
  static const char *text = "\xEF\xBB\xBF  #pragma cp composite keep(a)\n" KERNEL("k");
  find(text);
  ck_assert_uint_eq(res->n_diags, 0);
  ck_assert_uint_eq(marked("k")->offset, 5);
  ck_assert_str_eq(joined(marked("k")->keep, marked("k")->n_keep), "a");
  find("\xEF\xBB\xBF#pragma cp composite oops\n" KERNEL("k"));
  ck_assert_uint_eq(res->n_diags, 1);
  expect_diag(0, CP_ERROR, 1, 25, "unknown clause 'oops'"); /* columns count the mark's bytes */
  ck_assert_ptr_null(pragma_of("k"));
}
END_TEST

/* A pragma marks the definition after it: one that is not a __global__ or __device__
 * function definition, or is marked already, is an error at the pragma. */
START_TEST(test_binding) {
  find("#pragma cp composite\nint not_a_function;\n"                   /* 1 */
       "#pragma cp composite\n__global__ void declared(float *x);\n"   /* 3 */
       "#pragma cp composite\nvoid host(float *x) { x[0] = 1.0f; }\n" /* 5 */
       "#pragma cp composite\n#pragma cp composite scope(all)\n"      /* 7, 8 */
       KERNEL("twice")
       "#pragma cp composite\n__device__ float dev(float x) { return x * 2.0f; }\n" /* 10 */
       "#pragma cp composite keep(q)\n");                              /* 12 */
  ck_assert_uint_eq(res->n_diags, 5);
  expect_diag(0, CP_ERROR, 1, 1, "function definition; what follows is not a function [");
  expect_diag(1, CP_ERROR, 3, 1, "what follows is a declaration without a body [");
  expect_diag(2, CP_ERROR, 5, 1, "'#pragma cp composite' marks a host function");
  expect_diag(3, CP_ERROR, 8, 1, "the function after this pragma is already marked [pragma]");
  expect_diag(4, CP_ERROR, 12, 1, "__global__ or __device__ function definition [pragma]");
  ck_assert_uint_eq(run.n_funcs, 2);
  ck_assert_int_eq(marked("twice")->scope, CP_SCOPE_ACCUMULATORS); /* the first pragma's */
  ck_assert_int_eq(run.funcs[0].is_kernel, 1);
  ck_assert_ptr_nonnull(marked("dev"));
  ck_assert_int_eq(run.funcs[1].is_kernel, 0);
}
END_TEST

/* What is not read as an annotation warns at its place, and marks nothing: near-miss
 * spellings (cp or cpp in any case, cp_..., a word holding `composite`, any word before
 * `composite`), _Pragma, a `#pragma cp` in a branch not taken (not when another branch's
 * pragma marks the function); other pragmas are left alone. */
START_TEST(test_not_read) {
  find("#pragma CP composite\n" KERNEL("k_upper")      /* 1 */
       "#pragma cpp composite scope(all)\n" KERNEL("k_cpp") /* 3 */
       "#pragma cp_composite\n" KERNEL("k_underscore") /* 5 */
       "#pragma xx composite\n" KERNEL("k_xx")         /* 7 */
       "#pragma pack(push, 4)\n#pragma pack(pop)\n"    /* 9, 10 */
       "_Pragma(\"cp composite\")\n" KERNEL("k_operator") /* 11 */
       "#if 0\n#pragma cp composite\n#endif\n" KERNEL("k_skipped") /* 14 */
       "#ifdef KAHAN\n#pragma cp composite accumulate(fixed)\n#else\n" /* 18 */
       "#pragma cp composite\n#endif\n" KERNEL("k_chosen")
       "#pragma Cpp scope(all)\n#pragma cp_kernel\n#pragma my_composite_v2\n" /* 23 */
       KERNEL("k_last"));
  ck_assert_uint_eq(res->n_errors, 0);
  ck_assert_uint_eq(res->n_diags, 9);
  expect_diag(0, CP_WARNING, 1, 9,
              "'#pragma CP composite' is not a cpconvert annotation, so the function after it "
              "is not converted; did you mean '#pragma cp composite'? [pragma]");
  expect_diag(1, CP_WARNING, 3, 9, "'#pragma cpp composite' is not a cpconvert annotation");
  expect_diag(2, CP_WARNING, 5, 9, "'#pragma cp_composite' is not a cpconvert annotation");
  expect_diag(3, CP_WARNING, 7, 9, "'#pragma xx composite' is not a cpconvert annotation");
  expect_diag(4, CP_WARNING, 11, 1, "not _Pragma(\"cp composite\")");
  expect_diag(5, CP_WARNING, 23, 9, "'#pragma Cpp scope' is not a cpconvert annotation");
  expect_diag(6, CP_WARNING, 24, 9, "'#pragma cp_kernel' is not a cpconvert annotation");
  expect_diag(7, CP_WARNING, 25, 9, "'#pragma my_composite_v2' is not a cpconvert annotation");
  /* after every pragma is bound */
  expect_diag(8, CP_WARNING, 14, 1, "'#pragma cp' in a preprocessor branch that was not taken");
  ck_assert_uint_eq(run.n_funcs, 1);
  ck_assert_int_eq(marked("k_chosen")->accum, CP_ACC_KAHAN);
  ck_assert_int_eq(marked("k_chosen")->accum_given, 0);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static void remove_file(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  unlink(path);
}

/* The error of a header's `#pragma cp` (without --o-dir) for the header named `name`. */
static const cp_diag *header_error(const char *name) {
  for (size_t i = 0; i < res->n_diags; i++) {
    const char *f = res->diags[i].file;
    size_t n = strlen(name);
    if (f && strlen(f) >= n && strcmp(f + strlen(f) - n, name) == 0)
      return &res->diags[i];
  }
  return NULL;
}

/* A header's `#pragma cp` line (an error without --o-dir) is found after CRLF or lone-CR
 * lines, indented, past a byte order mark on line 1, and not in `#pragma cpx`, `#pragma
 * cpp` or `#pragma cp_composite`. */
START_TEST(test_header_pragma) {
  char dir[] = "/tmp/cp_unit_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  static const char *const names[] = {"h_crlf.cuh", "h_cr.cuh", "h_none.cuh", "h_bom.cuh"};
  write_file(dir, names[0], "\xEF\xBB\xBF// header\r\n\r\n  #pragma cp composite\r\n"
                            "__device__ float h1(float x) { return x; }\r\n");
  write_file(dir, names[1], "// header\r#pragma cpx\r\t#pragma\tcp\r"
                            "__device__ float h2(float x) { return x; }\r");
  write_file(dir, names[2], "#pragma cpp composite\n#pragma cp_composite\n"
                            "__device__ float h3(float x) { return x; }\n");
  write_file(dir, names[3], "\xEF\xBB\xBF#pragma cp composite\n"
                            "__device__ float h4(float x) { return x; }\n");
  static const char *text = "#include \"h_crlf.cuh\"\n#include \"h_cr.cuh\"\n"
                            "#include \"h_none.cuh\"\n#include \"h_bom.cuh\"\n" KERNEL("k");
  static char input[512];
  snprintf(input, sizeof input, "%s/t.cu", dir);
  find_in(input, text, strlen(text));
  for (int i = 0; i < 4; i++) /* the diagnostics hold copies of what they quote */
    remove_file(dir, names[i]);
  rmdir(dir);
  ck_assert_uint_eq(res->n_diags, 3);
  const cp_diag *crlf = header_error("/h_crlf.cuh"), *cr = header_error("/h_cr.cuh");
  const cp_diag *bom = header_error("/h_bom.cuh");
  ck_assert_ptr_nonnull(crlf);
  ck_assert_ptr_nonnull(cr);
  ck_assert_ptr_nonnull(bom);
  ck_assert_uint_eq(crlf->line, 3);
  ck_assert_uint_eq(crlf->col, 3);
  ck_assert_str_eq(crlf->line_text, "  #pragma cp composite");
  ck_assert_ptr_nonnull(strstr(crlf->message, "'#pragma cp' in a header"));
  ck_assert_uint_eq(cr->line, 3);
  ck_assert_uint_eq(cr->col, 2);
  ck_assert_str_eq(cr->line_text, "\t#pragma\tcp");
  ck_assert_uint_eq(bom->line, 1);
  ck_assert_uint_eq(bom->col, 1); /* after the mark (which the quoted line leaves out) */
  ck_assert_str_eq(bom->line_text, "#pragma cp composite");
}
END_TEST

Suite *make_pragma_suite(void) {
  Suite *s = suite_create("pragma");
  TCase *tc = tcase_create("pragma");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_defaults);
  tcase_add_test(tc, test_scope_and_accumulate);
  tcase_add_test(tc, test_accuracy);
  tcase_add_test(tc, test_name_lists);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_comments);
  tcase_add_test(tc, test_continuation);
  tcase_add_test(tc, test_continuation_after_space);
  tcase_add_test(tc, test_line_endings);
  tcase_add_test(tc, test_byte_order_mark);
  tcase_add_test(tc, test_binding);
  tcase_add_test(tc, test_not_read);
  tcase_add_test(tc, test_header_pragma);
  suite_add_tcase(s, tc);
  return s;
}
