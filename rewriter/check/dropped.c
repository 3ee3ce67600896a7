/*
 * dropped.c: the last check of a conversion: no error term is lost without a word.
 *
 * It runs over the converted functions after every edit is made and looks at what was
 * emitted, not at how: wherever a converted function writes through a paired buffer
 * (writes.c finds the places: stores, ++/--, atomics, calls, casts such as (int *)p), some
 * edit over that place must name the companion `p_err`. If none does, the value is
 * written and the companion is not, so the old error term would be added to a new value:
 * an error (rule dropped-error). A composite value stored into float storage that has no
 * companion at all (a __device__ float symbol) keeps the value and loses the error term:
 * a warning; so is one stored through a struct's float pointer field that has no
 * companion field. A paired struct field (s.x with s.x_err) is a paired buffer like a
 * parameter, in a struct passed by value or by pointer. nopair() buffers are the user's
 * choice and stay quiet.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"

static int word_in(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    int before = p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1]));
    int after = p[n] == '_' || isalnum((unsigned char)p[n]);
    if (!before && !after)
      return 1;
  }
  return 0;
}

/* Whether an edit of `f` touching [n->begin, n->end] names `err`: one of its unit's, or of
 * the converted copy a twin or a template's instance is written from. */
static int companion_written(cp_func *f, const cp_node *n, const char *err) {
  const cp_edit_list *l = cp_func_edits(f);
  for (size_t i = 0; i < l->count; i++) {
    const cp_edit *e = &l->items[i];
    if (e->offset <= n->end && e->offset + e->length >= n->begin && e->text &&
        word_in(e->text, err))
      return 1;
  }
  return 0;
}

static int composite_node(const cp_node *n) {
  const cp_node *s = cp_node_strip(n);
  return (n->val && cp_is_composite(n->val)) || (s->val && cp_is_composite(s->val)) ||
         (s->val && s->val->kind == CP_V_ACCUM);
}

/* Whether the write `w` stores a value that carries an error term. */
static int stores_composite(const cp_func *f, const cp_node *w) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (cp_node_assignment(f->unit->opt.input_text, w, &lhs, &rhs, op))
    return composite_node(rhs);
  for (unsigned i = 0; w->kind == CXCursor_CallExpr && i < w->nkids; i++)
    if (composite_node(w->kids[i]))
      return 1;
  return 0;
}

static void check_param(cp_run *run, cp_func *f, const cp_var *v) {
  const cp_node **w;
  unsigned n = cp_find_writes(run->r->arena, f->unit->opt.input_text, f->body, v->decl, 0, &w);
  const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, v->name);
  for (unsigned i = 0; i < n; i++)
    if (!companion_written(f, w[i], err)) {
      cp_rule_diag(run, f->unit, CP_ERROR, w[i]->begin, CP_RULE_DROPPED_ERROR,
                   "'%s' writes paired buffer '%s' here in a way cpconvert does not convert, so "
                   "its companion '%s' is not written and the error term is lost; write it with "
                   "a store or atomicAdd (converted), or declare it nopair(%s)",
                   f->name, v->name, err, v->name);
    }
}

/* Float storage that is not the function's own: a file-scope float variable, array or
 * pointer (a __device__ or __shared__ symbol), or a struct's float pointer or array
 * field (a buffer pointer in a struct passed by value). */
static int outside_float(CXCursor d) {
  enum CXCursorKind k = clang_getCursorKind(d);
  if (k != CXCursor_VarDecl && k != CXCursor_FieldDecl)
    return 0;
  enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
  if (k == CXCursor_VarDecl && pk != CXCursor_TranslationUnit && pk != CXCursor_Namespace)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(d));
  if (k == CXCursor_FieldDecl && t.kind != CXType_Pointer && t.kind != CXType_ConstantArray)
    return 0; /* a scalar member: float4's .x, a union's float */
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  return cp_type_width(t, 0) || cp_pointee_width(t, 0);
}

static void check_symbol(cp_run *run, cp_func *f, CXCursor d) {
  const cp_node **w;
  unsigned n = cp_find_writes(run->r->arena, f->unit->opt.input_text, f->body, d, 0, &w);
  CXString s = clang_getCursorSpelling(d);
  const char *name = cp_arena_printf(run->r->arena, "%s", clang_getCString(s));
  clang_disposeString(s);
  const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, name);
  for (unsigned i = 0; i < n; i++)
    if (stores_composite(f, w[i]) && !companion_written(f, w[i], err)) {
      cp_rule_diag(run, f->unit, CP_WARNING, w[i]->begin, CP_RULE_DROPPED_ERROR,
                   "'%s' stores a composite value into '%s', which has no companion: the value "
                   "is kept and its error term is dropped",
                   f->name, name);
    }
}

/* The symbols a function's check has seen, each checked once. */
typedef struct {
  CXCursor *items;
  unsigned n, cap;
} seen_set;

/* Each file-scope float symbol `n` uses, once (the first reference checks them all). */
static void each_symbol(cp_run *run, cp_func *f, const cp_node *n, seen_set *seen) {
  if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) {
    CXCursor d = clang_getCursorReferenced(n->cur);
    unsigned k = 0;
    while (k < seen->n && !clang_equalCursors(seen->items[k], d))
      k++;
    cp_var *field = n->kind == CXCursor_MemberRefExpr ? cp_field_buffer(run, n) : NULL;
    int paired = field && field->role == CP_VAR_PAIRED && !field->external;
    if (k == seen->n && (paired || outside_float(d)) && !cp_var_of(f, d)) {
      if (seen->n == seen->cap) {
        seen->cap = seen->cap ? 2 * seen->cap : 16;
        seen->items = cp_arena_grow(run->r->arena, seen->items, seen->n, seen->cap,
                                    sizeof *seen->items);
      }
      seen->items[seen->n++] = d;
      if (paired) /* a paired struct field is a paired buffer: every write names s.x_err */
        check_param(run, f, field);
      else if (!field || !cp_nopair_named(run, f, field)) /* nopair(p.x): as the user asked */
        check_symbol(run, f, d);
    }
  }
  for (unsigned i = 0; i < n->nkids; i++)
    each_symbol(run, f, n->kids[i], seen);
}

void cp_check_dropped(cp_run *run) {
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    if (f->is_host || !f->body)
      continue;
    for (unsigned k = 0; k < f->n_vars; k++)
      if (f->vars[k].is_param && f->vars[k].role == CP_VAR_PAIRED && !f->vars[k].external)
        check_param(run, f, &f->vars[k]);
    seen_set seen = {NULL, 0, 0};
    each_symbol(run, f, f->body, &seen);
  }
}
