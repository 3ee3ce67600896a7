/*
 * cas.c: the CAS-loop float atomic add, as MD codes wrote it before native float atomics:
 *
 *   int *bits = (int *)addr; int old = *bits, assumed;
 *   do { assumed = old;
 *        old = atomicCAS(bits, assumed, __float_as_int(val + __int_as_float(assumed)));
 *   } while (assumed != old);
 *   return __int_as_float(old);
 *
 * Converted statement by statement, the loop would add to the value's bits and never
 * touch the companion. Recognised by its structure (one atomicCAS, in a loop, on a
 * pointer that comes from the paired parameter `addr`, whose new bits are the float
 * parameter `val` plus the float of the old bits; int/unsigned casts and the double
 * bit casts alike), the whole body becomes the runtime's composite atomic on
 * (addr, addr_err, val), returning the old value as the original does. A body that
 * does not match is left to the usual conversion, and dropped.c reports its write
 * through the int cast as an error.
 */
#include <string.h>

#include "internal.h"

static const char *const to_bits[] = {"__float_as_int", "__float_as_uint", "__double_as_longlong"};
static const char *const from_bits[] = {"__int_as_float", "__uint_as_float",
                                        "__longlong_as_double"};

static int named_call(cp_run *run, const cp_node *n, const char *const *names, size_t count) {
  if (n->kind != CXCursor_CallExpr)
    return 0;
  CXString s = clang_getCursorSpelling(n->cur);
  const char *name = cp_arena_printf(run->r->arena, "%s", clang_getCString(s));
  clang_disposeString(s);
  for (size_t i = 0; i < count; i++)
    if (strcmp(name, names[i]) == 0)
      return 1;
  return 0;
}

/* The one atomicCAS call of the tree, inside a loop; NULL if none, several, or not in one. */
static const cp_node *cas_call(cp_run *run, const cp_node *n, int in_loop, int *count) {
  static const char *const cas[] = {"atomicCAS"};
  const cp_node *found = NULL;
  if (n->macro)
    *count += 2; /* text from a macro: never recognised */
  in_loop |= n->kind == CXCursor_DoStmt || n->kind == CXCursor_WhileStmt ||
             n->kind == CXCursor_ForStmt;
  if (named_call(run, n, cas, 1)) {
    (*count)++;
    found = in_loop ? n : NULL;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *k = cas_call(run, n->kids[i], in_loop, count);
    if (k)
      found = k;
  }
  return *count == 1 ? found : NULL;
}

static int contains_call(cp_run *run, const cp_node *n, const char *const *names, size_t count) {
  if (named_call(run, n, names, count))
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (contains_call(run, n->kids[i], names, count))
      return 1;
  return 0;
}

static enum CXChildVisitResult first_ref(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
    return CXChildVisit_Recurse;
  *(CXCursor *)data = clang_getCursorReferenced(c);
  return CXChildVisit_Break;
}

/* The parameter the pointer `n` comes from: the one it names, or the one a local is
 * initialised from (int *bits = (int *)addr); a null cursor if neither. */
static CXCursor pointer_origin(cp_func *f, const cp_node *n) {
  const cp_node *root = cp_node_root(n, 0);
  CXCursor d = root ? cp_node_decl(root) : clang_getNullCursor();
  cp_var *v = clang_Cursor_isNull(d) ? NULL : cp_var_of(f, d);
  if (!v && !clang_Cursor_isNull(d) && clang_getCursorKind(d) == CXCursor_VarDecl) {
    CXCursor init = clang_Cursor_getVarDeclInitializer(d), ref = clang_getNullCursor();
    if (!clang_Cursor_isNull(init)) {
      if (clang_getCursorKind(init) == CXCursor_DeclRefExpr)
        ref = clang_getCursorReferenced(init);
      else
        clang_visitChildren(init, first_ref, &ref);
    }
    v = clang_Cursor_isNull(ref) ? NULL : cp_var_of(f, ref);
  }
  return v && v->is_param ? v->decl : clang_getNullCursor();
}

/* The new-bits argument `val + from_bits(...)`: the float parameter `val`; null if not. */
static CXCursor added_value(cp_run *run, cp_func *f, const cp_node *arg) {
  const cp_node *conv = cp_node_strip(arg), *sum;
  char op[4];
  if (!named_call(run, conv, to_bits, 3) || conv->nkids < 2)
    return clang_getNullCursor();
  sum = cp_node_strip(conv->kids[conv->nkids - 1]);
  if (sum->kind != CXCursor_BinaryOperator || sum->nkids != 2 ||
      strcmp(cp_node_operator(f->unit->opt.input_text, sum, op), "+") != 0)
    return clang_getNullCursor();
  for (int i = 0; i < 2; i++) {
    const cp_node *v = cp_node_strip(sum->kids[i]);
    cp_var *var = v->kind == CXCursor_DeclRefExpr ? cp_var_of(f, cp_node_decl(v)) : NULL;
    if (var && var->is_param && cp_type_width(clang_getCursorType(var->decl), f->dbl) == 1 &&
        contains_call(run, sum->kids[1 - i], from_bits, 3))
      return var->decl;
  }
  return clang_getNullCursor();
}

int cp_convert_cas_atomic(cp_run *run, cp_func *f) {
  int count = 0;
  const cp_node *cas = f->is_kernel || f->body->macro ? NULL : cas_call(run, f->body, 0, &count);
  if (!cas || cas->nkids < 4 || cp_num_args(f->cursor) != 2)
    return 0; /* (addr, val) only: a body doing more than the add is not replaced */
  CXCursor addr = pointer_origin(f, cas->kids[cas->nkids - 3]);
  CXCursor val = added_value(run, f, cas->kids[cas->nkids - 1]);
  cp_var *a = clang_Cursor_isNull(addr) ? NULL : cp_var_of(f, addr);
  cp_var *v = clang_Cursor_isNull(val) ? NULL : cp_var_of(f, val);
  if (!a || !v || a->role != CP_VAR_PAIRED || a->width != 1)
    return 0;
  const cp_prec *P = f->prec;
  cp_arena *ar = run->r->arena;
  const char *x = v->role == CP_VAR_COMPOSITE ? v->name
                                              : cp_arena_printf(ar, "%s(%s)", P->from_scalar, v->name);
  const char *op = cp_arena_printf(ar, "%s(%s, %s" CP_ERR_SUFFIX ", %s)", P->atomic_old, a->name, a->name, x);
  const char *stmt = !f->returns_width             ? cp_arena_printf(ar, "%s;", op)
                     : cp_composite_signature(f) ? cp_arena_printf(ar, "return %s;", op)
                                                 : cp_arena_printf(ar, "return %s(%s);", P->to_scalar, op);
  cp_apply_edit(run, cp_func_edits(f), f->body->begin, f->body->end - f->body->begin,
                cp_arena_printf(ar, "{\n  /* the atomicCAS loop on the bits of %s, as a composite "
                                    "atomic add [cas-atomic] */\n  %s\n}", a->name, stmt),
                CP_RULE_CAS_ATOMIC);
  return 1;
}
