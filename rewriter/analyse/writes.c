/*
 * writes.c: where a function may write through a buffer it is given.
 *
 * A use of a pointer (or array) variable or struct field is followed up the node tree while the value
 * stays a pointer (casts, parentheses, `p + k`, `&p[i]`); where it becomes an element
 * (`p[i]`, `*p`, `p->f`) the element's context says whether it is stored into (an
 * assignment, a compound assignment, ++/--). A pointer that leaves the expression
 * (copied into a variable, returned, assigned, moved with ++) or is passed to a call
 * whose parameter is not a pointer to const counts as a write: what happens to it
 * afterwards is not followed, so the answer errs towards "writes". Used for calls from
 * host code into kernels that are not converted (a read-only kernel needs no care for the
 * companion) and for the final check that no converted store drops an error term.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int pointer_like(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
         t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray;
}

static int to_const(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* Whether the call `call` may write through its argument node `arg`: the argument's
 * parameter is not a pointer (ref: a reference) to const (variadic and unknown callees
 * may, through a pointer). */
static int call_writes_as(const cp_node *call, const cp_node *arg, int ref) {
  int nargs = cp_num_args(call->cur);
  CXCursor fn = cp_callee(call->cur);
  for (int i = 0; i < nargs; i++) {
    if (!clang_equalCursors(cp_arg(call->cur, i), arg->cur))
      continue;
    if (clang_Cursor_isNull(fn) || i >= cp_num_args(fn))
      return !ref;
    CXType t = clang_getCursorType(cp_arg(fn, i));
    return ref ? cp_writable_ref(t) : !to_const(t);
  }
  return 0; /* the callee expression or a launch configuration */
}

static int call_writes(const cp_node *call, const cp_node *arg) {
  return call_writes_as(call, arg, 0);
}

static const cp_node *pointer_use(const char *text, const cp_node *n);

/* The element `e` (p[i], *p, p->f, or a scalar variable): the node that stores into it,
 * or, for &e, what becomes of that address; NULL if it is only read. */
static const cp_node *element_use(const char *text, const cp_node *e) {
  while (e->parent && (e->parent->kind == CXCursor_ParenExpr ||
                       (e->parent->kind == CXCursor_MemberRefExpr && e->parent->nkids &&
                        e->parent->kids[0] == e) ||
                       (e->parent->kind == CXCursor_ArraySubscriptExpr && e->parent->kids[0] == e)))
    e = e->parent;
  const cp_node *q = e->parent, *rhs, *target;
  char op[4];
  if (!q)
    return NULL;
  if (q->kind == CXCursor_UnaryOperator && q->macro)
    return q; /* operator unknown inside a macro: assume the worst */
  if ((target = cp_store_target(text, q, &rhs, op)))
    return cp_node_strip(target) == cp_node_strip(e) ? q : NULL;
  if (q->kind == CXCursor_CallExpr) /* bound to a float & (operator+=(float3 &, float3)) */
    return call_writes_as(q, e, 1) ? q : NULL;
  if (q->kind == CXCursor_VarDecl) /* float &r = x[i]: written wherever r is */
    return cp_writable_ref(clang_getCursorType(q->cur)) ? q : NULL;
  if (q->kind != CXCursor_UnaryOperator)
    return NULL;
  return strcmp(cp_node_operator(text, q, op), "&") == 0 ? pointer_use(text, q) : NULL;
}

/* `n` designates the buffer as a pointer or array: follow it to an element or out. */
static const cp_node *pointer_use(const char *text, const cp_node *n) {
  for (const cp_node *p = n->parent; p; n = p, p = p->parent) {
    const cp_node *lhs, *rhs;
    char op[4];
    if (p->kind == CXCursor_CallExpr)
      return call_writes(p, n) ? p : NULL;
    if (p->kind == CXCursor_VarDecl && to_const(clang_getCursorType(p->cur)))
      return NULL; /* const float *p = x + i: reads only */
    if (p->kind == CXCursor_VarDecl || p->kind == CXCursor_ReturnStmt ||
        cp_node_assignment(text, p, &lhs, &rhs, op))
      return p; /* copied, returned or reassigned: no longer followed */
    if (p->kind == CXCursor_ArraySubscriptExpr) /* p[i], or i[p] */
      return element_use(text, p);
    if (p->kind == CXCursor_MemberRefExpr)
      return element_use(text, p);
    if (p->kind == CXCursor_UnaryOperator && !p->macro) {
      cp_node_operator(text, p, op);
      if (strcmp(op, "*") == 0)
        return element_use(text, p);
      if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
        return p; /* the pointer moves */
    }
    if (!pointer_like(clang_getCursorType(p->cur)))
      return NULL; /* a comparison, a test, a cast to an integer */
  }
  return NULL;
}

typedef struct {
  cp_arena *a;
  const char *text;
  CXCursor var;
  const cp_node **out;
  unsigned max, n, cap;
} writes_ctx;

static void collect(writes_ctx *w, const cp_node *n) {
  if ((n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) &&
      (!w->max || w->n < w->max) &&
      clang_equalCursors(clang_getCursorReferenced(n->cur), w->var)) {
    const cp_node *s = pointer_like(clang_getCursorType(w->var)) ? pointer_use(w->text, n)
                                                                  : element_use(w->text, n);
    if (s && w->n == w->cap) {
      w->cap = w->cap ? 2 * w->cap : 16;
      w->out = cp_arena_grow(w->a, w->out, w->n, w->cap, sizeof *w->out);
    }
    if (s)
      w->out[w->n++] = s;
  }
  for (unsigned i = 0; i < n->nkids && (!w->max || w->n < w->max); i++)
    collect(w, n->kids[i]);
}

unsigned cp_find_writes(cp_arena *a, const char *text, const cp_node *body, CXCursor var,
                        unsigned max, const cp_node ***out) {
  writes_ctx w = {a, text, var, NULL, max, 0, 0};
  collect(&w, body);
  *out = w.out;
  return w.n;
}

typedef struct {
  const char *usr;
  cp_run *run;
  CXCursor found;
} def_ctx;

/* A definition in the unit's file or in a header of the user's (kernels kept in a header
 * beside the file that launches them), not in a system header. */
static enum CXChildVisitResult find_def(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  def_ctx *d = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
      clang_isCursorDefinition(c) && strcmp(cp_usr(d->run, c), d->usr) == 0) {
    d->found = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* The tree of the definition of `fn` in one of the run's inputs or their headers (its unit
 * in *unit, and in *text the text its offsets are in: the unit's, or NULL for a header,
 * whose operators are then read from the AST); NULL where none is visible. For an instance
 * of a function template (`move<64><<<g, b>>>(a)`), the template's: every instance stores
 * where the template does, whatever its arguments. */
static cp_node *definition(cp_run *run, CXCursor fn, cp_unit **unit, const char **text) {
  CXCursor tmpl = clang_Cursor_isNull(fn) ? fn : clang_getSpecializedCursorTemplate(fn);
  if (!clang_Cursor_isNull(tmpl))
    fn = tmpl;
  def_ctx d = {cp_usr(run, fn), run, clang_getNullCursor()};
  for (unsigned u = 0; u < run->n_inputs; u++) {
    if (!run->units[u]->parsed)
      continue;
    clang_visitChildren(clang_getTranslationUnitCursor(run->units[u]->p.tu), find_def, &d);
    if (!clang_Cursor_isNull(d.found)) {
      *unit = run->units[u];
      *text = clang_Location_isFromMainFile(clang_getCursorLocation(d.found)) ? (*unit)->opt.input_text : NULL;
      cp_node *tree = cp_tree_build(run->r->arena, d.found, &run->units[u]->macros);
      cp_tree_refused(run, *unit, tree);
      return tree;
    }
  }
  return NULL;
}

const cp_node *cp_param_write(cp_run *run, CXCursor fn, int i, int *visible) {
  cp_unit *unit;
  const char *text;
  cp_node *tree = definition(run, fn, &unit, &text);
  *visible = tree && i < cp_num_args(tree->cur);
  const cp_node **w = NULL;
  return *visible && cp_find_writes(run->r->arena, text, tree, cp_arg(tree->cur, (unsigned)i), 1, &w)
             ? w[0] : NULL;
}

/* A use of `var` that reads through it: any but the target of a plain store (`x[i] = v`,
 * `x[i].y = v`, `*x = v`); an element read, op=, ++/--, a call or atomic given it. */
static int reads_through(const char *text, const cp_node *n, CXCursor var) {
  if (n->kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(n->cur), var)) {
    const cp_node *top = n, *p = n->parent;
    char op[4];
    while (p && ((p->kind == CXCursor_ArraySubscriptExpr && p->kids[0] == top) ||
                 p->kind == CXCursor_MemberRefExpr || p->kind == CXCursor_ParenExpr ||
                 (p->kind == CXCursor_UnexposedExpr &&
                  clang_getCanonicalType(clang_getCursorType(p->cur)).kind == CXType_Pointer) ||
                 (p->kind == CXCursor_UnaryOperator &&
                  strcmp(cp_node_operator(text, p, op), "*") == 0))) {
      top = p;
      p = p->parent;
    }
    return !(p && p->kind == CXCursor_BinaryOperator && p->nkids == 2 && p->kids[0] == top &&
             strcmp(cp_node_operator(text, p, op), "=") == 0);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (reads_through(text, n->kids[i], var))
      return 1;
  return 0;
}

int cp_param_reads(cp_run *run, CXCursor fn, int i) {
  cp_unit *unit;
  const char *text;
  cp_node *tree = definition(run, fn, &unit, &text);
  return tree && i < cp_num_args(tree->cur) && reads_through(text, tree, cp_arg(tree->cur, (unsigned)i));
}

/* ---- stores that copy a paired value -------------------------------------------------
 * An unconverted kernel that stores into a paired field a value it read from a paired
 * field (a cell update's r.x[j] = r.x[i], a load into a local that a warp shuffle hands to
 * another lane, a received message unpacked into the atoms) moves the value without its
 * error term: the element keeps the error term of what it held before, another value's. */

#define COPY_DEPTH 4

static int copied_value(cp_run *run, const char *text, const cp_node *fn, const cp_node *v,
                        int depth);

static int float_typed(const cp_node *n) {
  enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(n->cur)).kind;
  return k == CXType_Float || k == CXType_Double;
}

/* A constant: a literal, or one negated (an initial 0.0f before a load). */
static int constant_value(const cp_node *v) {
  v = cp_node_strip(v);
  if (v->kind == CXCursor_UnaryOperator && v->nkids == 1)
    v = cp_node_strip(v->kids[0]);
  return v->kind == CXCursor_FloatingLiteral || v->kind == CXCursor_IntegerLiteral;
}

/* One value the local takes (an initializer, or what `=` stores): *copy if a copied
 * value, *other if neither that nor a constant. */
static void tally(cp_run *run, const char *text, const cp_node *fn, const cp_node *v, int depth,
                  int *copy, int *other) {
  if (copied_value(run, text, fn, v, depth))
    *copy = 1;
  else if (!constant_value(v))
    *other = 1;
}

/* The initializers of the local `d` found in `n`. */
static void local_inits(cp_run *run, const char *text, const cp_node *fn, const cp_node *n,
                        CXCursor d, int depth, int *copy, int *other) {
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, d)) {
    const cp_node *init = n->nkids ? n->kids[n->nkids - 1] : NULL;
    if (init && clang_isExpression(init->kind))
      tally(run, text, fn, init, depth, copy, other);
    return;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    local_inits(run, text, fn, n->kids[i], d, depth, copy, other);
}

/* The local `d` of the function `fn`: whether it only holds copied values (constants
 * aside), so that storing it moves a value. A local updated in place (`f = a.f[i];
 * f -= ...; a.f[i] = f`, a sum) computes a new value: not a copy. */
static int local_copied(cp_run *run, const char *text, const cp_node *fn, CXCursor d,
                        int depth) {
  int copy = 0, other = 0;
  local_inits(run, text, fn, fn, d, depth, &copy, &other);
  const cp_node **w = NULL;
  unsigned nw = cp_find_writes(run->r->arena, text, fn, d, 0, &w);
  for (unsigned k = 0; k < nw && !other; k++) {
    const cp_node *rhs = NULL;
    char op[4] = "";
    if (cp_store_target(text, w[k], &rhs, op) && rhs && strcmp(op, "=") == 0)
      tally(run, text, fn, rhs, depth, &copy, &other);
    else
      other = 1; /* a compound assignment, ++/--, a call given its address */
  }
  return copy && !other;
}

/* Whether the value `v` is an element of a paired field (s.x[i]), a float local of `fn`
 * that only holds such values, or a warp shuffle (__shfl_sync, __shfl, ...) of one. */
static int copied_value(cp_run *run, const char *text, const cp_node *fn, const cp_node *v,
                        int depth) {
  if (depth > COPY_DEPTH)
    return 0;
  v = cp_node_strip(v);
  if (v->kind == CXCursor_ArraySubscriptExpr) {
    cp_var *b = cp_field_buffer(run, v);
    return b && b->role == CP_VAR_PAIRED;
  }
  if (v->kind == CXCursor_DeclRefExpr && float_typed(v)) {
    CXCursor d = clang_getCursorReferenced(v->cur);
    return clang_getCursorKind(d) == CXCursor_VarDecl &&
           clang_equalCursors(clang_getCursorSemanticParent(d), fn->cur) &&
           local_copied(run, text, fn, d, depth + 1);
  }
  if (v->kind == CXCursor_CallExpr) {
    CXString s = clang_getCursorSpelling(v->cur);
    int shuffle = strncmp(clang_getCString(s), "__shfl", 6) == 0;
    clang_disposeString(s);
    int nargs = shuffle ? cp_num_args(v->cur) : 0;
    for (int i = 0; i < nargs; i++) {
      const cp_node *a = cp_call_arg(v, nargs, i);
      if (a && float_typed(a) && copied_value(run, text, fn, a, depth + 1))
        return 1;
    }
  }
  return 0;
}

/* The stores of `fn` into `field` (as cp_field_write sees them); with `copy`, only those
 * that store a copied value with `=`. */
static const cp_node *field_store(cp_run *run, CXCursor fn, CXCursor field, int param,
                                  int copy) {
  cp_unit *unit;
  const char *text;
  cp_node *tree = definition(run, fn, &unit, &text);
  const cp_node **w = NULL;
  unsigned n = tree ? cp_find_writes(run->r->arena, text, tree, field, param < 0 && !copy, &w) : 0;
  int any_base = param < 0 || !tree || param >= cp_num_args(tree->cur);
  CXCursor p = any_base ? clang_getNullCursor() : cp_arg(tree->cur, (unsigned)param);
  for (unsigned k = 0; k < n; k++) { /* only stores through that parameter: p.x[i], p->x[i] */
    char op[4] = "";
    const cp_node *rhs = NULL, *target = cp_store_target(text, w[k], &rhs, op);
    const cp_node *m = cp_field_root(target ? target : w[k]);
    const cp_node *base = m && m->nkids ? cp_node_strip(m->kids[0]) : NULL;
    if (!any_base && base && base->kind == CXCursor_DeclRefExpr &&
        !clang_equalCursors(clang_getCursorReferenced(base->cur), p))
      continue; /* through another base */
    if (copy && !(target && rhs && strcmp(op, "=") == 0 && copied_value(run, text, tree, rhs, 0)))
      continue;
    return w[k]; /* through the parameter, or through something cpconvert cannot tell */
  }
  return NULL;
}

const cp_node *cp_field_write(cp_run *run, CXCursor fn, CXCursor field, int param) {
  return field_store(run, fn, field, param, 0);
}

const cp_node *cp_field_copy(cp_run *run, CXCursor fn, CXCursor field, int param) {
  return field_store(run, fn, field, param, 1);
}

/* ---- calls that may be evaluated twice ----------------------------------------------
 * A paired buffer's element is written as two accesses with one index (x[i] and
 * x_err[i]), so its index is evaluated twice: a call there is accepted when it has no
 * effect but its result. That holds for the library functions of rules.def (CP_MATH,
 * CP_PURE) and for a function defined in the user's code whose body stores only into its
 * own locals and by-value parameters and calls only such functions (to a depth of 8). */

#define PURE_DEPTH 8

static const char *const pure_names[] = {
#define CP_MATH(cuda_name, cp_name, nargs, prec) #cuda_name,
#define CP_PURE(name) #name,
#include "rules.def"
};

/* The expression with parentheses and implicit casts removed. */
static CXCursor bare(CXCursor e) {
  while (clang_getCursorKind(e) == CXCursor_ParenExpr ||
         clang_getCursorKind(e) == CXCursor_UnexposedExpr)
    e = cp_first_child(e);
  return e;
}

/* Whether the lvalue `e` lies in a local object of `fn` (a variable or by-value
 * parameter, an element of a local array, a member of a local struct). */
static int local_lvalue(CXCursor fn, CXCursor e) {
  e = bare(e);
  while (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr ||
         clang_getCursorKind(e) == CXCursor_MemberRefExpr) {
    CXCursor base = bare(cp_first_child(e));
    if (clang_Cursor_isNull(base) ||
        clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
      return 0; /* p[i], p->f, or a member of *this */
    e = base;
  }
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
    return 0;
  CXCursor d = clang_getCursorReferenced(e);
  enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(d)).kind;
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
  return (clang_getCursorKind(d) == CXCursor_VarDecl ||
          clang_getCursorKind(d) == CXCursor_ParmDecl) &&
         t != CXType_LValueReference && t != CXType_RValueReference && sc != CX_SC_Static &&
         sc != CX_SC_Extern && clang_equalCursors(clang_getCursorSemanticParent(d), fn);
}

/* The spelling of the first token of `r` into buf (at most 3 characters); "" if none. */
static const char *first_token(CXTranslationUnit tu, CXSourceRange r, char buf[4]) {
  CXToken *toks = NULL;
  unsigned n = 0;
  buf[0] = 0;
  clang_tokenize(tu, r, &toks, &n);
  if (n) {
    CXString s = clang_getTokenSpelling(tu, toks[0]);
    snprintf(buf, 4, "%s", clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return buf;
}

/* The first token after the first operand of `e`: a binary operator's operator, a
 * postfix ++/--. */
static const char *token_after_operand(CXTranslationUnit tu, CXCursor e, char buf[4]) {
  CXCursor operand = cp_first_child(e);
  return first_token(tu, clang_getRange(clang_getRangeEnd(clang_getCursorExtent(operand)),
                                        clang_getRangeEnd(clang_getCursorExtent(e))), buf);
}

static int pure_function(CXTranslationUnit tu, CXCursor callee, int depth);

typedef struct {
  CXTranslationUnit tu;
  CXCursor fn;
  int depth, pure;
} pure_ctx;

static enum CXChildVisitResult pure_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  pure_ctx *p = data;
  char op[4];
  switch (clang_getCursorKind(c)) {
  case CXCursor_CallExpr:
    p->pure = pure_function(p->tu, clang_getCursorReferenced(c), p->depth + 1);
    break;
  case CXCursor_CompoundAssignOperator:
    p->pure = local_lvalue(p->fn, cp_first_child(c));
    break;
  case CXCursor_BinaryOperator:
    if (strcmp(token_after_operand(p->tu, c, op), "=") == 0 || !op[0])
      p->pure = local_lvalue(p->fn, cp_first_child(c));
    break;
  case CXCursor_UnaryOperator: {
    char post[4];
    const char *pre = first_token(p->tu, clang_getCursorExtent(c), op);
    token_after_operand(p->tu, c, post);
    if (!pre[0] || !strcmp(pre, "++") || !strcmp(pre, "--") || !strcmp(post, "++") ||
        !strcmp(post, "--"))
      p->pure = local_lvalue(p->fn, cp_first_child(c));
    break;
  }
  case CXCursor_VarDecl:
    p->pure = clang_Cursor_getStorageClass(c) != CX_SC_Static;
    break;
  case CXCursor_AsmStmt:
  case CXCursor_MSAsmStmt:
  case CXCursor_CXXNewExpr:
  case CXCursor_CXXDeleteExpr:
  case CXCursor_CXXThrowExpr:
  case CXCursor_LambdaExpr:
    p->pure = 0;
    break;
  default:
    break;
  }
  return p->pure ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static int pure_function(CXTranslationUnit tu, CXCursor callee, int depth) {
  if (clang_Cursor_isNull(callee) || depth > PURE_DEPTH)
    return 0;
  CXString s = clang_getCursorSpelling(callee);
  const char *name = clang_getCString(s);
  int named = 0;
  for (size_t i = 0; i < sizeof pure_names / sizeof *pure_names && !named; i++)
    named = strcmp(name, pure_names[i]) == 0;
  clang_disposeString(s);
  CXCursor def = clang_getCursorDefinition(callee);
  if (clang_getCursorKind(callee) == CXCursor_Constructor && clang_Cursor_isNull(def))
    return 1; /* an implicit constructor of a local object */
  if (clang_Cursor_isNull(def) || clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
    return named;
  if (clang_getCursorKind(def) != CXCursor_FunctionDecl)
    return 0; /* methods and constructors with bodies: `this` is not followed */
  pure_ctx p = {tu, def, depth, 1};
  clang_visitChildren(def, pure_visit, &p);
  return p.pure;
}

int cp_call_is_pure(const cp_node *call) {
  return pure_function(clang_Cursor_getTranslationUnit(call->cur),
                       cp_callee(call->cur), 1);
}
