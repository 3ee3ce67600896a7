/*
 * dynshared.c: one type for each dynamic shared-memory array of a file.
 *
 * Every `extern __shared__ T name[]` declared in a function of a translation unit names the
 * same array (C++ links block-scope extern declarations), so every declaration of one name
 * must keep one type. A kernel in scope(accumulators) keeps its tile float4 while a helper
 * it calls, annotated scope(all), turns its own declaration of the tile cp_float4: both
 * turn composite. A declaration of the name in a function that is not converted cannot
 * change: refused there, located (before, the verify pass failed: an internal error).
 */
#include <string.h>

#include "analyse.h"

/* Whether `v` is an unsized `extern __shared__` array of a converted function. */
static int dynamic_shared(const cp_var *v) {
  CXType t = clang_getCanonicalType(clang_getCursorType(v->decl));
  return !v->is_param && t.kind == CXType_IncompleteArray &&
         clang_Cursor_getStorageClass(v->decl) == CX_SC_Extern;
}

static int kept(const cp_func *f, const cp_var *v) {
  return f->pragma && cp_names_contain(f->pragma->keep, f->pragma->n_keep, v->name);
}

/* Makes every converted declaration named like `v` (in v's unit) composite; whether any
 * changed. */
static int spread(cp_run *run, const cp_func *from, const cp_var *v) {
  int changed = 0;
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    if (f->unit->p.tu != from->unit->p.tu || f->is_host)
      continue;
    for (unsigned k = 0; k < f->n_vars; k++) {
      cp_var *w = &f->vars[k];
      if (w == v || !dynamic_shared(w) || strcmp(w->name, v->name) != 0 ||
          w->role == CP_VAR_COMPOSITE)
        continue;
      if (kept(f, w))
        cp_diag_at(run, f->unit, CP_ERROR, f->pragma->offset,
                   "'%s' is in keep() of '%s', but it is dynamic shared memory that '%s' "
                   "declares composite, and every declaration of it names one array: take it "
                   "out of keep() [%s]", w->name, f->name, from->name,
                   cp_rule_name(CP_RULE_LOCAL_TYPE));
      else
        w->role = CP_VAR_COMPOSITE, changed = 1;
    }
  }
  return changed;
}

typedef struct {
  cp_run *run;
  cp_unit *u;
  const cp_func *from;
  const char *name;
} float_walk;

/* Declarations of the name in functions of the unit that are not converted. */
static enum CXChildVisitResult find_float(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  float_walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
       k == CXCursor_CXXMethod) && cp_func_of(w->run, c))
    return CXChildVisit_Continue; /* converted: spread() took it */
  if (k == CXCursor_VarDecl && clang_Cursor_getStorageClass(c) == CX_SC_Extern &&
      clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_IncompleteArray) {
    CXString s = clang_getCursorSpelling(c);
    int same = strcmp(clang_getCString(s), w->name) == 0;
    clang_disposeString(s);
    if (same && clang_getCursorKind(clang_getCursorLexicalParent(c)) != CXCursor_TranslationUnit)
      cp_diag_cursor(w->run, CP_ERROR, w->u->p.tu, c,
                     "'%s' is dynamic shared memory that the converted function '%s' declares "
                     "composite; every declaration of it in the file names one array, so this "
                     "one, in a function that is not converted, would need the same type: "
                     "give one of them another name, or convert this function too [%s]",
                     w->name, w->from->name, cp_rule_name(CP_RULE_LOCAL_TYPE));
  }
  return CXChildVisit_Recurse;
}

/* The composite dynamic shared arrays, one per name and file: each is looked for in the
 * functions that are not converted. */
static void refuse_float_declarations(cp_run *run) {
  const cp_var **done = NULL;
  const cp_func **where = NULL;
  unsigned n = 0;
  for (unsigned i = 0; i < run->n_funcs; i++)
    for (unsigned k = 0; k < run->funcs[i].n_vars; k++) {
      const cp_var *v = &run->funcs[i].vars[k];
      if (v->role != CP_VAR_COMPOSITE || !dynamic_shared(v))
        continue;
      unsigned j = 0;
      while (j < n && (where[j]->unit->p.tu != run->funcs[i].unit->p.tu ||
                       strcmp(done[j]->name, v->name) != 0))
        j++;
      if (j < n)
        continue;
      done = cp_arena_grow(run->r->arena, done, n, n + 1, sizeof *done);
      where = cp_arena_grow(run->r->arena, where, n, n + 1, sizeof *where);
      done[n] = v;
      where[n++] = &run->funcs[i];
      float_walk w = {run, run->funcs[i].unit, &run->funcs[i], v->name};
      clang_visitChildren(clang_getTranslationUnitCursor(w.u->p.tu), find_float, &w);
    }
}

void cp_agree_dynamic_shared(cp_run *run) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 0; i < run->n_funcs; i++)
      for (unsigned k = 0; k < run->funcs[i].n_vars; k++) {
        const cp_var *v = &run->funcs[i].vars[k];
        if (v->role == CP_VAR_COMPOSITE && dynamic_shared(v))
          changed |= spread(run, &run->funcs[i], v);
      }
  }
  refuse_float_declarations(run);
}
