/*
 * accum.c: scope(accumulators): which float locals of a function turn composite.
 *
 * Composite are:
 *   - accumulators: a local summed into (+=, -=, or x = x + ...) inside a loop it is
 *     declared outside of, so the sum runs across iterations;
 *   - reduction trees: a local (usually __shared__) array whose element is assigned from
 *     or summed with elements of the same array, or is the target of an atomicAdd;
 *   - whatever is assigned or initialized from a composite (the sum flows on, e.g. into
 *     0.5f * sum), until nothing changes.
 * Everything else, the per-term arithmetic, stays float. Parameters keep their types, so
 * a function in this scope keeps its signature.
 *
 * accumulate(fixed|kahan|double), in either scope: the scalar float accumulators (not
 * arrays: a reduction tree's elements move between threads as composites, and a 64-bit
 * fixed-point value does not fit a float pair) are carried as cp_fixed, cp_kahan or
 * double instead of cp_float.
 */
#include <string.h>

#include "internal.h"

typedef struct {
  cp_run *run;
  cp_func *f;
  int changed;
  int carriers; /* mark the scalar accumulators CP_VAR_ACCUM instead of composite */
} acc_ctx;

static cp_var *local_of(acc_ctx *a, const cp_node *n) {
  const cp_node *root = cp_node_root(n, 0);
  if (!root)
    return NULL;
  cp_var *v = cp_var_of(a->f, clang_getCursorReferenced(root->cur));
  return v && !v->is_param && v->group < 0 ? v : NULL;
}

static int references(acc_ctx *a, const cp_node *n, const cp_var *only, int composite_only) {
  if (n->kind == CXCursor_DeclRefExpr) {
    cp_var *v = cp_var_of(a->f, clang_getCursorReferenced(n->cur));
    if (v && (only ? v == only : composite_only && v->role == CP_VAR_COMPOSITE))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (references(a, n->kids[i], only, composite_only))
      return 1;
  return 0;
}

static void make_composite(acc_ctx *a, cp_var *v, int *kept) {
  if (a->carriers) {
    if (v && v->role == CP_VAR_COMPOSITE && !kept[v - a->f->vars] && v->width == 1 &&
        clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_Float) {
      v->role = CP_VAR_ACCUM;
      v->accum = a->f->pragma->accum;
    }
    return;
  }
  if (v && v->role == CP_VAR_FLOAT && !kept[v - a->f->vars]) {
    v->role = CP_VAR_COMPOSITE;
    a->changed = 1;
  }
}

static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
         k == CXCursor_CXXForRangeStmt;
}

static int declared_outside(cp_var *v, const cp_node *loop) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(v->decl), NULL, NULL, NULL, &off);
  return off < loop->begin || off >= loop->end;
}

static void find_sums(acc_ctx *a, const cp_node *n, const cp_node *loop, int *kept) {
  if (is_loop(n->kind))
    loop = n;
  char op[4];
  const char *text = a->run->opt->input_text;
  const cp_node *lhs, *rhs;
  if (cp_node_assignment(text, n, &lhs, &rhs, op)) {
    cp_var *v = local_of(a, lhs);
    int is_array = v && cp_node_strip(lhs)->kind == CXCursor_ArraySubscriptExpr;
    int sum = strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0 ||
              (strcmp(op, "=") == 0 && v && references(a, rhs, v, 0));
    if (v && sum && (is_array || (loop && declared_outside(v, loop))))
      make_composite(a, v, kept);
  }
  if (n->kind == CXCursor_CallExpr && n->nkids >= 2) {
    CXString s = clang_getCursorSpelling(n->cur);
    if (strcmp(clang_getCString(s), "atomicAdd") == 0 || strcmp(clang_getCString(s), "atomicSub") == 0)
      make_composite(a, local_of(a, n->kids[1]), kept);
    clang_disposeString(s);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    find_sums(a, n->kids[i], loop, kept);
}

static void flow(acc_ctx *a, const cp_node *n, int *kept) {
  char op[4];
  if (n->kind == CXCursor_VarDecl) {
    cp_var *v = cp_var_of(a->f, n->cur);
    for (unsigned i = 0; v && i < n->nkids; i++)
      if (clang_isExpression(n->kids[i]->kind) && references(a, n->kids[i], NULL, 1))
        make_composite(a, v, kept);
  } else {
    const cp_node *lhs, *rhs;
    if (cp_node_assignment(a->run->opt->input_text, n, &lhs, &rhs, op) &&
        references(a, rhs, NULL, 1))
      make_composite(a, local_of(a, lhs), kept);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    flow(a, n->kids[i], kept);
}

void cp_find_accumulators(cp_run *run, cp_func *f) {
  int *kept = cp_arena_alloc(run->r->arena, (f->n_vars + 1) * sizeof *kept);
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    kept[i] = v->group < 0 && v->role == CP_VAR_FLOAT && !v->is_param;
    if (v->group < 0)
      v->role = CP_VAR_FLOAT;
  }
  acc_ctx a = {run, f, 0, 0};
  find_sums(&a, f->body, NULL, kept);
  do {
    a.changed = 0;
    flow(&a, f->body, kept);
  } while (a.changed);
}

void cp_mark_carried(cp_run *run, cp_func *f) {
  int *kept = cp_arena_alloc(run->r->arena, (f->n_vars + 1) * sizeof *kept);
  memset(kept, 0, (f->n_vars + 1) * sizeof *kept);
  acc_ctx a = {run, f, 0, 1};
  find_sums(&a, f->body, NULL, kept);
}
