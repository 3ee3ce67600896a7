/* test_writes.c: writes.c finds every place a function may write through a buffer (a
 * store into an element, ++/--, a compound assignment, a call taking it through a
 * pointer that is not to const or binding an element to a reference that is not const,
 * a copy of the pointer that is not followed) and nothing else (reads, tests, const
 * pointers and references); `max` caps the count and 0 leaves it uncapped. It also tells
 * calls that only compute their result from calls with effects (cp_call_is_pure), and
 * finds the first write through a parameter of a function defined in the run's inputs
 * (cp_param_write). The code is parsed by libclang as plain C++. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "parse_util.h"

static const char *SOURCE =
    "#define INC(e) ++(e)\n"
    "#define ADDR(e) &(e)\n"
    "struct V { float x, y; };\n"
    "struct S { float *buf; int n; };\n"
    "void sink(float *q);\n"
    "void look(const float *q);\n"
    "void bump(float &r);\n"
    "void peek(const float &r);\n"
    "void vsink(int n, ...);\n"
    "void store(float *p, int i) { p[i] = 1.0f; }\n"
    "void incdec(float *p, int i) { p[i]++; --p[i + 1]; }\n"
    "void compound(float *p) { *p += 2.0f; }\n"
    "void member(V *v) { v->x = 1.0f; }\n"
    "void pass_mut(float *p) { sink(p + 1); }\n"
    "void pass_const(float *p) { look(p); look(&p[2]); }\n"
    "void vararg(float *p) { vsink(1, p); }\n"
    "void ref_mut(float *p, int i) { bump(p[i]); }\n"
    "void ref_const(float *p, const float *c, int i) { peek(p[i]); peek(c[i]); }\n"
    "void ref_local(float *p, float *c, int i) { float &r = p[i]; r *= 2.0f;\n"
    "  const float &k = c[i]; (void)k; }\n"
    "void swapped(float *p) { 2[p] = 1.0f; }\n"
    "void copy(float *p) { float *q = p; q[0] = 1.0f; }\n"
    "void copy_const(float *p) { const float *q = p + 1; (void)q; }\n"
    "float *ret(float *p) { return p + 1; }\n"
    "void moves(float *p) { p++; }\n"
    "void reassign(float *p, float *q) { q = p; }\n"
    "long reads(float *p, const float *c, int i) {\n"
    "  float s = p[i] + *p + c[0];\n"
    "  if (p && p != c) s += p[1];\n"
    "  return (long)p + (long)s;\n"
    "}\n"
    "void indexed(float *p, float *idx) { p[(int)idx[0]] = 1.0f; }\n"
    "void cast(float *p) { ((float *)p)[0] = 1.0f; *(p + 2) = 3.0f; }\n"
    "void scalar(float x) { float y = x; x = 2.0f; x *= y; x++; }\n"
    "float arr(int i) { float a[4]; a[i] = 1.0f; return a[0] + a[1]; }\n"
    "void field(S s, S *t) { s.buf[0] = 1.0f; float r = t->buf[1]; t->buf[2] += r; }\n"
    "void macro_inc(float *p) { INC(p[0]); }\n"
    "void macro_addr(float *p) { look(ADDR(p[0])); look(&p[0]); }\n"
    "void rhs(V *v, float *p) { V w; w = v[0]; float s; s = p[0]; (void)w; (void)s; }\n"
    "void later(float *p);\n"
    "void later(float *p) { p[3] = 0.0f; }\n";

static ut_code code;
static const cp_node **found;

static void setup(void) { ut_parse(&code, SOURCE); }

static void teardown(void) { ut_close(&code); }

/* How many writes cp_find_writes finds through `var` in the function `fn` (into `found`). */
static unsigned writes_of(const char *fn, CXCursor var, unsigned max) {
  ck_assert_msg(!clang_Cursor_isNull(var), "no variable in '%s'", fn);
  found = NULL;
  return cp_find_writes(code.arena, code.text, ut_tree(&code, fn), var, max, &found);
}

/* The same for the parameter or local `var` of `fn` (of its definition). */
static unsigned writes(const char *fn, const char *var) {
  return writes_of(fn, ut_decl(clang_getCursorDefinition(ut_named(&code, fn)), var), 0);
}

/* The text of the k-th write found. */
static const char *write_at(unsigned k) { return ut_text(&code, found[k]); }

START_TEST(test_store_into_element) {
  ck_assert_uint_eq(writes("store", "p"), 1);
  ck_assert_str_eq(write_at(0), "p[i] = 1.0f");
  ck_assert_uint_eq(writes("store", "i"), 0); /* an index is read */
  ck_assert_uint_eq(writes("later", "p"), 1);
  ck_assert_str_eq(write_at(0), "p[3] = 0.0f");
}
END_TEST

START_TEST(test_increment_decrement) {
  ck_assert_uint_eq(writes("incdec", "p"), 2);
  ck_assert_str_eq(write_at(0), "p[i]++");
  ck_assert_str_eq(write_at(1), "--p[i + 1]");
  ck_assert_uint_eq(writes("macro_inc", "p"), 1); /* an operator a macro wrote */
}
END_TEST

START_TEST(test_compound_assignment) {
  ck_assert_uint_eq(writes("compound", "p"), 1);
  ck_assert_str_eq(write_at(0), "*p += 2.0f");
  ck_assert_uint_eq(writes("member", "v"), 1);
  ck_assert_str_eq(write_at(0), "v->x = 1.0f");
}
END_TEST

START_TEST(test_call_through_pointer) {
  ck_assert_uint_eq(writes("pass_mut", "p"), 1);
  ck_assert_str_eq(write_at(0), "sink(p + 1)");
  ck_assert_uint_eq(writes("vararg", "p"), 1); /* what `...` does is unknown */
  ck_assert_str_eq(write_at(0), "vsink(1, p)");
  ck_assert_uint_eq(writes("pass_const", "p"), 0); /* p and &p[2] as const float * */
}
END_TEST

START_TEST(test_reference_parameter) {
  ck_assert_uint_eq(writes("ref_mut", "p"), 1);
  ck_assert_str_eq(write_at(0), "bump(p[i])");
  ck_assert_uint_eq(writes("ref_const", "p"), 0);
  ck_assert_uint_eq(writes("ref_const", "c"), 0); /* no const added: the parameter says */
  ck_assert_uint_eq(writes("ref_local", "p"), 1); /* float &r = p[i]: written through r */
  ck_assert_int_eq(found[0]->kind, CXCursor_VarDecl);
  ck_assert_uint_eq(writes("ref_local", "c"), 0); /* const float &: reads only */
}
END_TEST

/* i[p] is p[i]. */
START_TEST(test_swapped_subscript) {
  ck_assert_uint_eq(writes("swapped", "p"), 1);
  ck_assert_str_eq(write_at(0), "2[p] = 1.0f");
}
END_TEST

/* A pointer that leaves the expression is not followed: the answer errs towards writes,
 * unless it goes into a pointer to const. */
START_TEST(test_pointer_copies) {
  ck_assert_uint_eq(writes("copy", "p"), 1);
  ck_assert_int_eq(found[0]->kind, CXCursor_VarDecl);
  ck_assert_uint_eq(writes("ret", "p"), 1);
  ck_assert_str_eq(write_at(0), "return p + 1");
  ck_assert_uint_eq(writes("moves", "p"), 1);
  ck_assert_str_eq(write_at(0), "p++");
  ck_assert_uint_eq(writes("reassign", "p"), 1);
  ck_assert_str_eq(write_at(0), "q = p");
  ck_assert_uint_eq(writes("reassign", "q"), 1);
  ck_assert_uint_eq(writes("copy_const", "p"), 0);
}
END_TEST

START_TEST(test_reads_are_not_writes) {
  ck_assert_uint_eq(writes("reads", "p"), 0); /* elements read, tested, compared, cast */
  ck_assert_uint_eq(writes("reads", "c"), 0);
  ck_assert_uint_eq(writes("indexed", "idx"), 0); /* its element is an index */
  ck_assert_uint_eq(writes("indexed", "p"), 1);
  ck_assert_uint_eq(writes("rhs", "v"), 0); /* copied out of, by value */
  ck_assert_uint_eq(writes("rhs", "p"), 0);
}
END_TEST

START_TEST(test_casts_and_parentheses) {
  ck_assert_uint_eq(writes("cast", "p"), 2);
  ck_assert_str_eq(write_at(0), "((float *)p)[0] = 1.0f");
  ck_assert_str_eq(write_at(1), "*(p + 2) = 3.0f");
}
END_TEST

START_TEST(test_scalar_and_local_array) {
  ck_assert_uint_eq(writes("scalar", "x"), 3); /* x = .., x *= .., x++; not y = x */
  ck_assert_str_eq(write_at(0), "x = 2.0f");
  ck_assert_str_eq(write_at(1), "x *= y");
  ck_assert_str_eq(write_at(2), "x++");
  ck_assert_uint_eq(writes("scalar", "y"), 0);
  ck_assert_uint_eq(writes("arr", "a"), 1);
  ck_assert_str_eq(write_at(0), "a[i] = 1.0f");
}
END_TEST

/* A unary operator on an element inside a macro's expansion is taken as a store (writes.c
 * assumes the worst there): &p[0] passed as a const float * is a read when written out,
 * a write when a macro wrote the `&`. */
START_TEST(test_macro_operator) {
  ck_assert_uint_eq(writes("macro_addr", "p"), 1);
  ck_assert_str_eq(write_at(0), "ADDR(p[0])");
}
END_TEST

START_TEST(test_struct_field) {
  CXCursor buf = ut_decl(ut_named(&code, "S"), "buf");
  ck_assert_int_eq(clang_getCursorKind(buf), CXCursor_FieldDecl);
  ck_assert_uint_eq(writes_of("field", buf, 0), 2);
  ck_assert_str_eq(write_at(0), "s.buf[0] = 1.0f");
  ck_assert_str_eq(write_at(1), "t->buf[2] += r");
}
END_TEST

/* 70 stores: max 0 counts them all (no hidden cap), a max stops at the first `max`. */
START_TEST(test_max_caps_the_count) {
  char text[4096], *p = text;
  p += sprintf(p, "void many(float *p) {");
  for (int k = 0; k < 70; k++)
    p += sprintf(p, " p[%d] = %d.0f;", k, k);
  sprintf(p, " }\n");
  ut_code big;
  ut_parse(&big, text);
  CXCursor var = ut_decl(ut_named(&big, "many"), "p");
  cp_node *body = ut_tree(&big, "many");
  const cp_node **out = NULL;
  ck_assert_uint_eq(cp_find_writes(big.arena, big.text, body, var, 0, &out), 70);
  ck_assert_str_eq(ut_text(&big, out[69]), "p[69] = 69.0f");
  ck_assert_uint_eq(cp_find_writes(big.arena, big.text, body, var, 5, &out), 5);
  ck_assert_str_eq(ut_text(&big, out[4]), "p[4] = 4.0f");
  ck_assert_uint_eq(cp_find_writes(big.arena, big.text, body, var, 1, &out), 1);
  ck_assert_str_eq(ut_text(&big, out[0]), "p[0] = 0.0f");
  ck_assert_uint_eq(cp_find_writes(big.arena, big.text, body, var, 70, &out), 70);
  ck_assert_uint_eq(cp_find_writes(big.arena, big.text, body, var, 100, &out), 70);
  ut_close(&big);
}
END_TEST

/* A run over the fixture's translation unit as its one input, for cp_param_write. */
static cp_run *run_over(ut_code *c) {
  cp_result *r = cp_arena_alloc(c->arena, sizeof *r);
  memset(r, 0, sizeof *r);
  r->arena = c->arena;
  cp_run *run = cp_arena_alloc(c->arena, sizeof *run);
  memset(run, 0, sizeof *run);
  run->r = r;
  cp_unit *u = cp_unit_new(run);
  u->p.tu = c->tu;
  u->p.main_file = clang_getFile(c->tu, "t.cpp");
  u->parsed = 1;
  u->opt.input = "t.cpp";
  u->opt.input_text = c->text;
  u->opt.input_len = strlen(c->text);
  u->macros = c->macros;
  run->n_inputs = 1;
  run->settings = &u->opt;
  return run;
}

START_TEST(test_param_write) {
  cp_run *run = run_over(&code);
  int visible = -1;
  const cp_node *w = cp_param_write(run, ut_named(&code, "store"), 0, &visible);
  ck_assert_int_eq(visible, 1);
  ck_assert_ptr_nonnull(w);
  ck_assert_str_eq(ut_text(&code, w), "p[i] = 1.0f");
  ck_assert_ptr_null(cp_param_write(run, ut_named(&code, "store"), 1, &visible));
  ck_assert_int_eq(visible, 1);
  ck_assert_ptr_null(cp_param_write(run, ut_named(&code, "store"), 2, &visible));
  ck_assert_int_eq(visible, 0); /* no such parameter */
  ck_assert_ptr_null(cp_param_write(run, ut_named(&code, "pass_const"), 0, &visible));
  ck_assert_int_eq(visible, 1);
  /* the declaration before the definition: found by USR */
  w = cp_param_write(run, ut_named(&code, "later"), 0, &visible);
  ck_assert_int_eq(visible, 1);
  ck_assert_str_eq(ut_text(&code, w), "p[3] = 0.0f");
  ck_assert_ptr_null(cp_param_write(run, ut_named(&code, "sink"), 0, &visible));
  ck_assert_int_eq(visible, 0); /* declared only */
}
END_TEST

static const char *PURE_SOURCE =
    "float sqrtf(float);\n"
    "float opaque(float);\n"
    "int counter;\n"
    "float square(float x) { float y = x * x; y += 1.0f; return y; }\n"
    "float twice(float x) { return square(x) + sqrtf(x); }\n"
    "float by_value(float x, int n) { x = 2.0f; n++; return x * n; }\n"
    "float local_array(float x) { float a[2]; a[0] = x; a[1] = a[0]; return a[1]; }\n"
    "float counts(float x) { counter++; return x; }\n"
    "float via_counts(float x) { return counts(x) * 2.0f; }\n"
    "float assigns_global(float x) { counter = 1; return x; }\n"
    "float adds_global(float x) { counter += 2; return x; }\n"
    "float stores(float *p) { p[0] = 1.0f; return p[1]; }\n"
    "float through_ref(float &r) { r = 1.0f; return r; }\n"
    "float keeps(float x) { static float last; return x + last; }\n"
    "float allocates(float x) { float *q = new float(x); return *q; }\n"
    "float frees(float *q) { delete q; return 0.0f; }\n"
    "float deref(float *q) { *q = 1.0f; return 0.0f; }\n"
    "float c9(float x) { return x; }\n"
    "float c8(float x) { return c9(x); }\n"
    "float c7(float x) { return c8(x); }\n"
    "float c6(float x) { return c7(x); }\n"
    "float c5(float x) { return c6(x); }\n"
    "float c4(float x) { return c5(x); }\n"
    "float c3(float x) { return c4(x); }\n"
    "float c2(float x) { return c3(x); }\n"
    "float c1(float x) { return c2(x); }\n"
    "float recurse(float x) { return x > 1.0f ? recurse(x / 2.0f) : x; }\n"
    "void user(float *p, float x) {\n"
    "  p[0] = sqrtf(x) + opaque(x) + square(x) + twice(x) + by_value(x, 2) + local_array(x)\n"
    "       + counts(x) + via_counts(x) + assigns_global(x) + adds_global(x) + stores(p)\n"
    "       + through_ref(x) + keeps(x) + allocates(x) + frees(p) + deref(p) + recurse(x)\n"
    "       + c1(x) + c2(x);\n"
    "}\n";

/* The first call of `name` under n. */
static const cp_node *call_to(const cp_node *n, const char *name, cp_arena *a) {
  if (n->kind == CXCursor_CallExpr &&
      strcmp(cp_cursor_spelling(a, clang_getCursorReferenced(n->cur)), name) == 0)
    return n;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *c = call_to(n->kids[i], name, a);
    if (c)
      return c;
  }
  return NULL;
}

START_TEST(test_call_is_pure) {
  static const struct {
    const char *name;
    int pure;
  } calls[] = {
      {"sqrtf", 1},          /* a library function of rules.def, declared only */
      {"opaque", 0},         /* declared only, not in rules.def */
      {"square", 1},         /* stores into its locals only */
      {"twice", 1},          /* calls only pure functions */
      {"by_value", 1},       /* by-value parameters are its own */
      {"local_array", 1},    /* elements of a local array */
      {"counts", 0},         /* ++ of a global */
      {"via_counts", 0},     /* calls one that is not */
      {"assigns_global", 0},
      {"adds_global", 0},
      {"stores", 0},         /* through a pointer */
      {"through_ref", 0},    /* through a reference */
      {"keeps", 0},          /* a static local */
      {"allocates", 0},      /* new */
      {"frees", 0},          /* delete */
      {"deref", 0},          /* through *q */
      {"recurse", 0},        /* followed to a depth of 8 only: */
      {"c2", 1},             /* c2 ... c9 are 8 deep */
      {"c1", 0},             /* c1 ... c9 are 9 */
  };
  ut_code c;
  ut_parse(&c, PURE_SOURCE);
  cp_node *user = ut_tree(&c, "user");
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    const cp_node *call = call_to(user, calls[i].name, c.arena);
    ck_assert_msg(call != NULL, "no call of %s", calls[i].name);
    ck_assert_msg(cp_call_is_pure(call) == calls[i].pure, "%s: pure should be %d",
                  calls[i].name, calls[i].pure);
  }
  ut_close(&c);
}
END_TEST

Suite *make_writes_suite(void) {
  Suite *s = suite_create("writes");
  TCase *tc = tcase_create("writes");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_store_into_element);
  tcase_add_test(tc, test_increment_decrement);
  tcase_add_test(tc, test_compound_assignment);
  tcase_add_test(tc, test_call_through_pointer);
  tcase_add_test(tc, test_reference_parameter);
  tcase_add_test(tc, test_swapped_subscript);
  tcase_add_test(tc, test_pointer_copies);
  tcase_add_test(tc, test_reads_are_not_writes);
  tcase_add_test(tc, test_casts_and_parentheses);
  tcase_add_test(tc, test_scalar_and_local_array);
  tcase_add_test(tc, test_macro_operator);
  tcase_add_test(tc, test_struct_field);
  tcase_add_test(tc, test_param_write);
  tcase_add_test(tc, test_max_caps_the_count);
  tcase_add_test(tc, test_call_is_pure);
  suite_add_tcase(s, tc);
  return s;
}
