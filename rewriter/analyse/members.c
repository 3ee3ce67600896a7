/*
 * members.c: struct locals whose float members carry values (sum.Expected += v).
 *
 * A struct local of a converted device function with float members (a POD struct: an
 * option pricer's {Expected, Confidence} sums) cannot be retyped, since its type is the
 * user's. It pairs instead, like a buffer: a companion local of the same type, zeroed,
 * holds the error halves (`decltype(sum) sum_err{};` after its declaration), and every
 * float member reads `cp_make_float(sum.Expected, sum_err.Expected)` and stores both
 * (call.c's lvalues splice the companion's name in at the root, as for buf[i].x).
 *
 * Which pair: in scope(all), those a float member of which is written; in
 * scope(accumulators), those the accumulator analysis (accum.c) found summed into across
 * a loop's iterations or given a composite. Only a local used member by member pairs:
 * used whole (copied, assigned, passed, its address or a member's address taken) the
 * error halves would be left behind, so it stays float, with a warning at that use.
 * Invariant: such a variable has is_record set, group -1, and ends as CP_VAR_PAIRED or
 * CP_VAR_FLOAT before the analysis' later passes read roles.
 */
#include <string.h>

#include "analyse.h"

/* Whether a type holds a float: float, floatN, an array of them, or a struct with one. */
static int holds_float(CXType t, int depth);

static enum CXVisitorResult field_float(CXCursor c, CXClientData data) {
  int *found = data;
  if (holds_float(clang_getCursorType(c), found[1] + 1))
    found[0] = 1;
  return found[0] ? CXVisit_Break : CXVisit_Continue;
}

static int holds_float(CXType t, int depth) {
  t = clang_getCanonicalType(t);
  while (t.kind == CXType_ConstantArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (cp_type_width(t, 0))
    return 1;
  int found[2] = {0, depth};
  if (t.kind == CXType_Record && depth < 4)
    clang_Type_visitFields(t, field_float, found);
  return found[0];
}

/* A struct local (not a CUDA vector, not a union, not __shared__ or static) with a float
 * member, of a POD type, so that a zeroed copy of it is `{}`. */
static int record_local(const cp_node *decl) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl->cur));
  CXCursor d = clang_getTypeDeclaration(t);
  if (t.kind != CXType_Record || cp_type_width(t, 0) || cp_type_width(t, 1) ||
      clang_getCursorKind(d) == CXCursor_UnionDecl || !clang_isPODType(t) ||
      clang_Cursor_getStorageClass(decl->cur) != CX_SC_None ||
      !decl->parent || decl->parent->kind != CXCursor_DeclStmt || !decl->parent->parent ||
      decl->parent->parent->kind != CXCursor_CompoundStmt)
    return 0;
  for (unsigned i = 0; i < decl->nkids; i++)
    if (decl->kids[i]->kind == CXCursor_CUDASharedAttr)
      return 0;
  return holds_float(t, 0);
}

static void collect(cp_run *run, cp_func *f, const cp_node *n) {
  if (n->kind == CXCursor_VarDecl && record_local(n) && !cp_var_of(f, n->cur)) {
    cp_var *v = cp_var_add(run, f, n->cur);
    v->name = cp_cursor_spelling(run->r->arena, n->cur);
    v->group = -1;
    v->is_record = 1;
    v->role = f->pragma && cp_names_contain(f->pragma->keep, f->pragma->n_keep, v->name)
                  ? CP_VAR_FLOAT
                  : CP_VAR_COMPOSITE;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    collect(run, f, n->kids[i]);
}

void cp_collect_records(cp_run *run, cp_func *f) {
  if (f->body && !f->is_host && !f->dbl)
    collect(run, f, f->body);
}

static const cp_node *up(const cp_node *n) {
  const cp_node *p = n->parent;
  while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr))
    p = p->parent;
  return p;
}

/* The first use of `v` in `n` that is not a member's value: the struct used whole, or the
 * address of a member taken; NULL if every use reads or writes a member. */
static const cp_node *whole_use(cp_func *f, const cp_node *n, const cp_var *v) {
  if (n->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(n->cur), v->decl)) {
    const cp_node *m = up(n);
    char op[4];
    if (!m || m->kind != CXCursor_MemberRefExpr ||
        clang_getCursorKind(clang_getCursorReferenced(m->cur)) != CXCursor_FieldDecl)
      return n;
    for (; m && m->kind == CXCursor_MemberRefExpr; m = up(m))
      if (up(m) && up(m)->kind == CXCursor_UnaryOperator &&
          strcmp(cp_node_operator(f->unit->opt.input_text, up(m), op), "&") == 0)
        return m;
    return NULL;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *w = whole_use(f, n->kids[i], v);
    if (w)
      return w;
  }
  return NULL;
}

/* Whether a float member of `v` is written in `n` (=, op=, ++, --). */
static int member_written(cp_func *f, const cp_node *n, const cp_var *v) {
  char op[4];
  const cp_node *rhs;
  const cp_node *t = cp_store_target(f->unit->opt.input_text, n, &rhs, op);
  if (t && cp_node_strip(t)->kind == CXCursor_MemberRefExpr &&
      cp_type_width(clang_getCanonicalType(clang_getCursorType(t->cur)), 0)) {
    const cp_node *root = cp_node_root(t, 0);
    if (root && clang_equalCursors(clang_getCursorReferenced(root->cur), v->decl))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (member_written(f, n->kids[i], v))
      return 1;
  return 0;
}

void cp_settle_records(cp_run *run, cp_func *f) {
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (!v->is_record)
      continue;
    int wanted = v->role == CP_VAR_COMPOSITE &&
                 (f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS
                      ? 1
                      : member_written(f, f->body, v));
    const cp_node *whole = wanted ? whole_use(f, f->body, v) : NULL;
    v->role = wanted && !whole ? CP_VAR_PAIRED : CP_VAR_FLOAT;
    if (whole)
      cp_rule_diag(run, f->unit, CP_WARNING, whole->begin, CP_RULE_LOCAL_TYPE,
                   "'%s' is a struct whose float members %s, but it is used whole here (copied, "
                   "assigned, passed, or a member's address taken), which would leave their "
                   "error terms behind: its members stay float; use its members one by one "
                   "to convert them", v->name,
                   f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS
                       ? "are summed into" : "are computed");
  }
}
