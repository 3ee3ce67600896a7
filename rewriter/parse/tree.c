/*
 * tree.c: a node tree over libclang's cursors.
 *
 * libclang hands out children through a visitor and has no parent link for expressions;
 * the rewriter needs both (a node's rewrite depends on its parent, e.g. whether a buffer
 * element is read or written). The tree is built once per converted function body, in
 * the run's arena. Offsets are expansion offsets in the main file. A node that lies
 * inside a macro expansion (the macro's body or one of its arguments) is marked `macro`:
 * libclang reports the expansion point as the spelling location of macro-body tokens,
 * so the expansions are taken from the preprocessing record instead.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"

typedef struct {
  cp_arena *arena;
  const cp_macros *macros;
  cp_node *parent;
  cp_node **kids;
  unsigned n, cap;
} build_ctx;

typedef struct {
  cp_arena *arena;
  cp_macros *m;
  unsigned cap;
  CXFile file;
} macro_ctx;

static unsigned offset_of(CXSourceLocation loc) {
  unsigned off = 0;
  clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
  return off;
}

static enum CXChildVisitResult collect_macro(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  macro_ctx *ctx = data;
  CXFile file = NULL;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
  if (clang_getCursorKind(c) != CXCursor_MacroExpansion || !file ||
      !clang_File_isEqual(file, ctx->file))
    return CXChildVisit_Continue;
  cp_macros *m = ctx->m;
  if (m->n == ctx->cap) {
    ctx->cap = ctx->cap ? 2 * ctx->cap : 64;
    unsigned *b = cp_arena_alloc(ctx->arena, ctx->cap * sizeof *b);
    unsigned *e = cp_arena_alloc(ctx->arena, ctx->cap * sizeof *e);
    if (m->n) {
      memcpy(b, m->begin, m->n * sizeof *b);
      memcpy(e, m->end, m->n * sizeof *e);
    }
    m->begin = b;
    m->end = e;
  }
  CXSourceRange r = clang_getCursorExtent(c);
  m->begin[m->n] = offset_of(clang_getRangeStart(r));
  m->end[m->n++] = offset_of(clang_getRangeEnd(r));
  return CXChildVisit_Continue;
}

void cp_macros_collect(cp_arena *a, CXTranslationUnit tu, CXFile file, cp_macros *m) {
  memset(m, 0, sizeof *m);
  macro_ctx ctx = {a, m, 0, file};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_macro, &ctx);
}

/* The expansion [b, e) lies inside (they come in source order), or -1. */
static int inside_macro(const cp_macros *m, unsigned b, unsigned e) {
  unsigned lo = 0, hi = m->n;
  while (lo < hi) { /* first expansion that begins after b */
    unsigned mid = (lo + hi) / 2;
    if (m->begin[mid] <= b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && e <= m->end[lo - 1] && b < m->end[lo - 1] ? (int)lo - 1 : -1;
}

typedef struct {
  unsigned want, seen; /* the parameter asked for (UINT_MAX: none), those passed */
  CXCursor found;
} param_walk;

static enum CXChildVisitResult template_param(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  param_walk *w = data;
  if (clang_getCursorKind(c) != CXCursor_ParmDecl)
    return CXChildVisit_Continue;
  if (w->seen++ == w->want) {
    w->found = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

int cp_num_args(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_FunctionTemplate)
    return clang_Cursor_getNumArguments(c);
  param_walk w = {UINT_MAX, 0, clang_getNullCursor()};
  clang_visitChildren(c, template_param, &w);
  return (int)w.seen;
}

CXCursor cp_arg(CXCursor c, unsigned i) {
  if (clang_getCursorKind(c) != CXCursor_FunctionTemplate)
    return clang_Cursor_getArgument(c, i);
  param_walk w = {i, 0, clang_getNullCursor()};
  clang_visitChildren(c, template_param, &w);
  return w.found;
}

const char *cp_cursor_spelling(cp_arena *a, CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *r = cp_arena_strdup(a, clang_getCString(s));
  clang_disposeString(s);
  return r;
}

/* Whether a location lies in a macro expansion: spelled elsewhere than it expands. */
static int macro_end(CXSourceLocation loc) {
  CXFile fe = NULL, fs = NULL;
  unsigned oe = 0, os = 0;
  clang_getExpansionLocation(loc, &fe, NULL, NULL, &oe);
  clang_getSpellingLocation(loc, &fs, NULL, NULL, &os);
  return oe != os || !fe || !fs || !clang_File_isEqual(fe, fs);
}

static cp_node *new_node(cp_arena *a, const cp_macros *m, CXCursor c, cp_node *parent) {
  cp_node *n = cp_arena_alloc(a, sizeof *n);
  memset(n, 0, sizeof *n);
  n->cur = c;
  n->kind = clang_getCursorKind(c);
  n->parent = parent;
  CXSourceRange r = clang_getCursorExtent(c);
  n->begin = offset_of(clang_getRangeStart(r));
  n->end = offset_of(clang_getRangeEnd(r));
  /* a node that ends in a macro's argument (`a + SCALE(b)`) ends where the macro's use
   * does: libclang gives the end of the argument's token, whose expansion point is the
   * macro's name */
  int xe = m->n && macro_end(clang_getRangeEnd(r)) ? inside_macro(m, n->end, n->end + 1) : -1;
  if (xe >= 0)
    n->end = m->end[xe];
  int x = inside_macro(m, n->begin, n->end);
  if (x >= 0) { /* every node of an expansion spans it: its tokens have no place of their own */
    n->macro = 1;
    n->begin = m->begin[x];
    n->end = m->end[x];
  }
  return n;
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  build_ctx *ctx = data;
  if (ctx->n == ctx->cap) {
    unsigned cap = ctx->cap ? 2 * ctx->cap : 4;
    cp_node **k = cp_arena_alloc(ctx->arena, cap * sizeof *k);
    if (ctx->n)
      memcpy(k, ctx->kids, ctx->n * sizeof *k);
    ctx->kids = k;
    ctx->cap = cap;
  }
  ctx->kids[ctx->n++] = new_node(ctx->arena, ctx->macros, c, ctx->parent);
  return CXChildVisit_Continue;
}

static void build_children(cp_arena *a, const cp_macros *m, cp_node *n, unsigned depth,
                           cp_node *root) {
  if (depth >= CP_TREE_DEPTH) {
    if (!root->too_deep)
      root->too_deep = n;
    return;
  }
  build_ctx ctx = {a, m, n, NULL, 0, 0};
  clang_visitChildren(n->cur, collect, &ctx);
  n->kids = ctx.kids;
  n->nkids = ctx.n;
  for (unsigned i = 0; i < n->nkids; i++)
    build_children(a, m, n->kids[i], depth + 1, root);
}

cp_node *cp_tree_build(cp_arena *a, CXCursor root, const cp_macros *m) {
  cp_node *n = new_node(a, m, root, NULL);
  build_children(a, m, n, 0, n);
  return n;
}

int cp_tree_refused(cp_run *run, const cp_unit *u, const cp_node *root) {
  if (!root || !root->too_deep)
    return 0;
  cp_diag_at(run, u, CP_ERROR, root->too_deep->begin,
             "expression or statement nested more than %d levels deep: beyond cpconvert's "
             "limit (the converted text of an expression holds its operands', so its memory "
             "grows with the square of the depth); split it into statements [%s]",
             CP_TREE_DEPTH, cp_rule_name(CP_RULE_UNSUPPORTED_DEPTH));
  return 1;
}

/* CUDA's vector types are structs named floatN / doubleN (typedef'd); match the
 * declaration name of the canonical type so `const float4` and typedefs count too. */
int cp_type_width(CXType t, int dbl) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == (dbl ? CXType_Double : CXType_Float))
    return 1;
  if (c.kind != CXType_Record)
    return 0;
  CXString s = clang_getCursorSpelling(clang_getTypeDeclaration(c));
  const char *name = clang_getCString(s), *base = dbl ? "double" : "float";
  size_t n = strlen(base);
  int w = 0;
  if (strncmp(name, base, n) == 0 && name[n] >= '2' && name[n] <= '4' && !name[n + 1])
    w = name[n] - '0';
  clang_disposeString(s);
  return w;
}

int cp_pointee_width(CXType t, int dbl) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Pointer)
    return 0;
  return cp_type_width(clang_getPointeeType(c), dbl);
}

static enum CXChildVisitResult find_symbol_attr(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAConstantAttr)
    *(int *)data = 1;
  if (k == CXCursor_CUDASharedAttr)
    *(int *)data = 2;
  return CXChildVisit_Continue;
}

int cp_symbol_width(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(c) ||
      clang_getCursorKind(clang_getCursorSemanticParent(c)) == CXCursor_FunctionDecl)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  int dynamic = t.kind == CXType_IncompleteArray;
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  int device = 0, w = cp_type_width(t, 0);
  if (w)
    clang_visitChildren(c, find_symbol_attr, &device);
  /* every `extern __shared__ float s[]` of a kernel is the same memory: a companion
   * declared so would alias it */
  return device == 1 || (device == 2 && !dynamic) ? w : 0;
}

const cp_node *cp_node_strip(const cp_node *n) {
  while ((n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr) && n->nkids == 1)
    n = n->kids[0];
  return n;
}

CXCursor cp_node_decl(const cp_node *n) {
  n = cp_node_strip(n);
  if (n->kind != CXCursor_DeclRefExpr)
    return clang_getNullCursor();
  return clang_getCursorReferenced(n->cur);
}

/* Skips blanks and comments forward from `i` (up to `end`). */
static unsigned skip_blank(const char *s, unsigned i, unsigned end) {
  while (i < end) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\\') {
      i++;
    } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '*') {
      const char *close = strstr(s + i + 2, "*/");
      i = close ? (unsigned)(close - s) + 2 : end;
    } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '/') {
      while (i < end && s[i] != '\n')
        i++;
    } else {
      break;
    }
  }
  return i;
}

static const char *read_punct(const char *s, unsigned i, unsigned end, char *buf) {
  unsigned n = 0;
  while (i < end && n < 3 && strchr("+-*/%<>=!&|^~,", s[i]) && s[i])
    buf[n++] = s[i++];
  buf[n] = '\0';
  return buf;
}

#if CINDEX_VERSION_MINOR >= 64
static const char *copy_spelling(CXString s, char buf[4]) {
  const char *t = clang_getCString(s);
  if (t && strlen(t) <= 3)
    strcpy(buf, t);
  clang_disposeString(s);
  return buf;
}
#endif

int cp_node_operator_from_ast(void) { return CINDEX_VERSION_MINOR >= 64; }

/* From the AST where libclang has the calls (17 on); "" otherwise. */
static const char *ast_operator(const cp_node *n, char buf[4]) {
  buf[0] = '\0';
#if CINDEX_VERSION_MINOR >= 64
  if (n->kind == CXCursor_UnaryOperator)
    return copy_spelling(clang_getUnaryOperatorKindSpelling(clang_getCursorUnaryOperatorKind(n->cur)), buf);
  if (n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator)
    return copy_spelling(
        clang_getBinaryOperatorKindSpelling(clang_getCursorBinaryOperatorKind(n->cur)), buf);
#else
  (void)n;
#endif
  return buf;
}

static const char *text_operator(const char *text, const cp_node *n, char buf[4]);

/* The text tells the operator where it is written between the operands; where a macro
 * wrote it (`NEG x`, or inside an expansion), or where no text is given (a node of a header
 * the unit's text is not), the AST does. */
const char *cp_node_operator(const char *text, const cp_node *n, char buf[4]) {
  if (!text || n->macro || !text_operator(text, n, buf)[0])
    return ast_operator(n, buf);
  return buf;
}

static const char *text_operator(const char *text, const cp_node *n, char buf[4]) {
  buf[0] = '\0';
  if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator) &&
      n->nkids == 2)
    return read_punct(text, skip_blank(text, n->kids[0]->end, n->kids[1]->begin),
                      n->kids[1]->begin, buf);
  if (n->kind == CXCursor_UnaryOperator && n->nkids == 1) {
    if (n->begin < n->kids[0]->begin)
      return read_punct(text, n->begin, n->kids[0]->begin, buf);
    return read_punct(text, skip_blank(text, n->kids[0]->end, n->end), n->end, buf);
  }
  return buf;
}

const cp_node *cp_node_root(const cp_node *n, int fields) {
  for (;;) {
    switch (n->kind) {
    case CXCursor_DeclRefExpr:
      return n;
    case CXCursor_MemberRefExpr: /* a[i].x and p->x are rooted at a and p */
      if (fields)
        return n;
      if (n->nkids < 1)
        return NULL;
      n = n->kids[0];
      break;
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_UnaryOperator: /* *p, &p, &a[i] */
    case CXCursor_ArraySubscriptExpr:
      if (n->nkids < 1)
        return NULL;
      n = n->kids[0];
      break;
    case CXCursor_CStyleCastExpr: /* (void **)&p: the operand is the last child */
      if (n->nkids < 1)
        return NULL;
      n = n->kids[n->nkids - 1];
      break;
    case CXCursor_BinaryOperator: /* p + k, k + p, p - k */
      if (n->nkids != 2)
        return NULL;
      n = clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur)).kind == CXType_Pointer
              ? n->kids[0]
              : n->kids[1];
      break;
    default:
      return NULL;
    }
  }
}

const cp_node *cp_field_root(const cp_node *n) {
  const cp_node *r = cp_node_root(n, 1);
  while (r && r->kind == CXCursor_MemberRefExpr) {
    CXType t = clang_getCanonicalType(clang_getCursorType(r->cur));
    if ((t.kind == CXType_Pointer || t.kind == CXType_ConstantArray) &&
        (cp_pointee_width(t, 0) || cp_pointee_width(t, 1) ||
         cp_type_width(clang_getArrayElementType(t), 0) ||
         cp_type_width(clang_getArrayElementType(t), 1)))
      return r;
    r = r->nkids == 1 ? cp_node_root(r->kids[0], 1) : NULL; /* s.pos[i].x: past .x */
  }
  return NULL;
}

int cp_node_assignment(const char *text, const cp_node *n, const cp_node **lhs,
                       const cp_node **rhs, char op[4]) {
  op[0] = '\0';
  if ((n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator) &&
      n->nkids == 2) {
    cp_node_operator(text, n, op);
    if (n->kind == CXCursor_BinaryOperator && strcmp(op, "=") != 0)
      return 0;
    *lhs = n->kids[0];
    *rhs = n->kids[1];
    return 1;
  }
  if (n->kind == CXCursor_CallExpr && n->nkids == 3) {
    CXCursor ref = clang_getCursorReferenced(n->cur);
    CXString s = clang_getCursorSpelling(ref);
    int is = clang_getCursorKind(ref) == CXCursor_CXXMethod &&
             strcmp(clang_getCString(s), "operator=") == 0;
    clang_disposeString(s);
    if (is) {
      *lhs = n->kids[0];
      *rhs = n->kids[2];
      strcpy(op, "=");
    }
    return is;
  }
  return 0;
}

const cp_node *cp_store_target(const char *text, const cp_node *n, const cp_node **rhs,
                               char op[4]) {
  const cp_node *lhs;
  *rhs = NULL;
  if (cp_node_assignment(text, n, &lhs, rhs, op))
    return lhs;
  if (n->kind == CXCursor_UnaryOperator && n->nkids == 1 &&
      (strcmp(cp_node_operator(text, n, op), "++") == 0 || strcmp(op, "--") == 0))
    return n->kids[0];
  return NULL;
}

typedef struct {
  CXCursor *out;
  unsigned n, max;
} field_list;

static enum CXVisitorResult list_field(CXCursor c, CXClientData data) {
  field_list *l = data;
  if (l->n == l->max)
    return CXVisit_Break;
  l->out[l->n++] = c;
  return CXVisit_Continue;
}

int cp_ident_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

unsigned cp_cursor_offset(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
  return off;
}

unsigned cp_extent_begin(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
  return off;
}

unsigned cp_extent_end(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
  return off;
}

unsigned cp_record_fields(CXType t, CXCursor *out, unsigned max) {
  field_list l = {out, 0, max};
  t = clang_getCanonicalType(t);
  if (t.kind == CXType_Record)
    clang_Type_visitFields(t, list_field, &l);
  return l.n;
}

const cp_node *cp_init_element(const char *text, const cp_node *list, unsigned i) {
  if (list->kind != CXCursor_InitListExpr || i >= list->nkids)
    return NULL;
  for (unsigned k = 0; k <= i; k++) {
    const cp_node *e = list->kids[k];
    if (!e->macro && (text[e->begin] == '.' || text[e->begin] == '['))
      return NULL; /* a designated initializer: the elements are not in field order */
  }
  return list->kids[i];
}

int cp_call_is_infix(const cp_node *call) {
  if (call->kind != CXCursor_CallExpr || call->nkids != 3 || cp_num_args(call->cur) != 2)
    return 0;
  const cp_node *callee = cp_node_strip(call->kids[1]);
  return callee->kind == CXCursor_DeclRefExpr &&
         clang_equalCursors(clang_getCursorReferenced(callee->cur),
                            clang_getCursorReferenced(call->cur));
}

unsigned cp_arg_index(const cp_node *call, int nargs, int i) {
  if (cp_call_is_infix(call)) /* a + b calling operator+(a, b): the callee between them */
    return i == 0 ? 0 : 2;
  return call->nkids - (unsigned)nargs + (unsigned)i;
}

cp_node *cp_call_arg(const cp_node *call, int nargs, int i) {
  return call->kids[cp_arg_index(call, nargs, i)];
}

/* Whether a type names a template parameter (T, T *, const T &, T[4]): clang leaves such
 * a type unexposed or dependent until the template is instantiated. */
static int names_template_parameter(CXType t) {
  CXType c = clang_getCanonicalType(t);
  switch (c.kind) {
  case CXType_Pointer:
  case CXType_LValueReference:
  case CXType_RValueReference:
    return names_template_parameter(clang_getPointeeType(c));
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
    return names_template_parameter(clang_getArrayElementType(c));
  case CXType_Unexposed:
  case CXType_Dependent:
  case CXType_DependentSizedArray:
    return 1;
  default:
    return 0;
  }
}

static enum CXChildVisitResult take_first(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  *(CXCursor *)data = c;
  return CXChildVisit_Break;
}

CXCursor cp_first_child(CXCursor c) {
  CXCursor k = clang_getNullCursor();
  clang_visitChildren(c, take_first, &k);
  return k;
}

int cp_writable_ref(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* Whether an argument of type a may be passed to a parameter of type p, told apart only
 * as far as choosing among a few templates of one name needs: pointers (arrays decay) by
 * their pointee's kind, anything else by being arithmetic or not. */
static int may_pass(CXType a, CXType p) {
  a = clang_getCanonicalType(a);
  p = clang_getCanonicalType(p);
  if (p.kind == CXType_LValueReference)
    p = clang_getCanonicalType(clang_getPointeeType(p));
  if (a.kind == CXType_ConstantArray || a.kind == CXType_IncompleteArray ||
      a.kind == CXType_DependentSizedArray || a.kind == CXType_VariableArray)
    return p.kind == CXType_Pointer &&
           clang_getCanonicalType(clang_getArrayElementType(a)).kind ==
               clang_getCanonicalType(clang_getPointeeType(p)).kind;
  if (a.kind == CXType_Pointer || p.kind == CXType_Pointer)
    return a.kind == p.kind && clang_getCanonicalType(clang_getPointeeType(a)).kind ==
                                   clang_getCanonicalType(clang_getPointeeType(p)).kind;
  int arith_a = a.kind >= CXType_Bool && a.kind <= CXType_LongDouble;
  int arith_p = p.kind >= CXType_Bool && p.kind <= CXType_LongDouble;
  return arith_a == arith_p && (arith_a || a.kind == p.kind);
}

/* Whether the function template fn, whose types name none of its parameters, takes the
 * arguments of `call`. */
static int takes_arguments(CXCursor fn, CXCursor call) {
  int n = cp_num_args(call);
  if (clang_getCursorKind(fn) != CXCursor_FunctionTemplate || cp_num_args(fn) != n ||
      names_template_parameter(clang_getResultType(clang_getCursorType(fn))))
    return 0;
  for (int i = 0; i < n; i++) {
    CXType p = clang_getCursorType(cp_arg(fn, (unsigned)i));
    if (names_template_parameter(p) || !may_pass(clang_getCursorType(cp_arg(call, (unsigned)i)), p))
      return 0;
  }
  return 1;
}

typedef struct {
  CXCursor param[CP_MAX_TEMPLATE_ARGS];
  unsigned n;
} template_params;

static enum CXChildVisitResult template_parameter(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  template_params *t = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if ((k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter ||
       k == CXCursor_TemplateTemplateParameter) && t->n < CP_MAX_TEMPLATE_ARGS)
    t->param[t->n++] = c;
  return CXChildVisit_Continue;
}

/* One argument's text: a type's canonical spelling (a typedef written out, so that the
 * copy needs no name the template's scope had), an integer's value; NULL if neither. */
static const char *template_arg(cp_arena *a, CXCursor inst, unsigned k, CXCursor param) {
  enum CXTemplateArgumentKind kind = clang_Cursor_getTemplateArgumentKind(inst, k);
  if (kind == CXTemplateArgumentKind_Type) {
    CXString s = clang_getTypeSpelling(
        clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(inst, k)));
    const char *v = cp_arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    return strchr(v, '(') ? NULL : v; /* (lambda at ...), (unnamed struct at ...) */
  }
  if (kind != CXTemplateArgumentKind_Integral)
    return NULL;
  CXType t = clang_getCanonicalType(clang_getCursorType(param));
  if (t.kind == CXType_Bool)
    return clang_Cursor_getTemplateArgumentValue(inst, k) ? "true" : "false";
  if (t.kind == CXType_UInt || t.kind == CXType_ULong || t.kind == CXType_ULongLong ||
      t.kind == CXType_UShort || t.kind == CXType_UChar)
    return cp_arena_printf(a, "%lluu", clang_Cursor_getTemplateArgumentUnsignedValue(inst, k));
  return cp_arena_printf(a, "%lld", clang_Cursor_getTemplateArgumentValue(inst, k));
}

int cp_template_args(cp_arena *a, CXCursor inst, const char **names, const char **values) {
  template_params t = {{{0}}, 0};
  clang_visitChildren(clang_getSpecializedCursorTemplate(inst), template_parameter, &t);
  int n = clang_Cursor_getNumTemplateArguments(inst);
  if (n <= 0 || (unsigned)n != t.n)
    return -1; /* a pack takes several arguments */
  for (unsigned k = 0; k < t.n; k++) {
    names[k] = cp_cursor_spelling(a, t.param[k]);
    if (!(values[k] = template_arg(a, inst, k, t.param[k])))
      return -1;
  }
  return n;
}

/* The overload set an unresolved call names; a null cursor if it names none. */
static CXCursor overload_set(CXCursor call) {
  if (clang_getCursorKind(call) != CXCursor_CallExpr ||
      !clang_Cursor_isNull(clang_getCursorReferenced(call)))
    return clang_getNullCursor();
  CXCursor callee = cp_first_child(call);
  while (clang_getCursorKind(callee) == CXCursor_UnexposedExpr)
    callee = cp_first_child(callee);
  CXCursor set = clang_getCursorReferenced(callee);
  return clang_getCursorKind(set) == CXCursor_OverloadedDeclRef ? set : clang_getNullCursor();
}

unsigned cp_callee_set(CXCursor call, CXCursor *out, unsigned max) {
  CXCursor set = overload_set(call);
  unsigned n = 0;
  for (unsigned i = 0; !clang_Cursor_isNull(set) && i < clang_getNumOverloadedDecls(set) && n < max;
       i++)
    out[n++] = clang_getOverloadedDecl(set, i);
  return n;
}

CXCursor cp_callee(CXCursor call) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (!clang_Cursor_isNull(ref) || clang_getCursorKind(call) != CXCursor_CallExpr)
    return ref;
  CXCursor set = overload_set(call), found = clang_getNullCursor();
  if (clang_Cursor_isNull(set))
    return found;
  for (unsigned i = 0; i < clang_getNumOverloadedDecls(set); i++) {
    CXCursor fn = clang_getOverloadedDecl(set, i);
    if (!takes_arguments(fn, call))
      continue;
    if (!clang_Cursor_isNull(found)) /* two may be meant: only the instance can tell */
      return clang_getNullCursor();
    found = fn;
  }
  return found;
}

/* The type of the arithmetic on operands of types l and r, where both are known: the
 * wider floating type, as C's usual conversions give (float with int is float). */
static CXType arithmetic_type(CXType l, CXType r, CXType unknown) {
  CXType a = clang_getCanonicalType(l), b = clang_getCanonicalType(r);
  if (a.kind == CXType_Dependent || b.kind == CXType_Dependent)
    return unknown;
  if (a.kind == CXType_LongDouble || a.kind == CXType_Double || a.kind == CXType_Float)
    return b.kind > a.kind && b.kind <= CXType_LongDouble ? b : a;
  if (b.kind == CXType_LongDouble || b.kind == CXType_Double || b.kind == CXType_Float)
    return b;
  return unknown;
}

CXType cp_node_type(const char *text, const cp_node *n) {
  CXType t = clang_getCursorType(n->cur);
  if (t.kind != CXType_Dependent)
    return t;
  char op[4];
  switch (n->kind) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr:
    return n->nkids == 1 ? cp_node_type(text, n->kids[0]) : t;
  case CXCursor_ArraySubscriptExpr: {
    CXType b = n->nkids == 2 ? clang_getCanonicalType(cp_node_type(text, n->kids[0])) : t;
    if (b.kind == CXType_Pointer)
      return clang_getPointeeType(b);
    CXType e = clang_getArrayElementType(b);
    return e.kind == CXType_Invalid ? t : e;
  }
  case CXCursor_CallExpr: {
    CXCursor fn = cp_callee(n->cur);
    return clang_getCursorKind(fn) == CXCursor_FunctionTemplate
               ? clang_getResultType(clang_getCursorType(fn))
               : t;
  }
  case CXCursor_CompoundAssignOperator:
    return n->nkids == 2 ? cp_node_type(text, n->kids[0]) : t;
  case CXCursor_UnaryOperator:
    cp_node_operator(text, n, op);
    return n->nkids == 1 && (op[0] == '+' || op[0] == '-') ? cp_node_type(text, n->kids[0]) : t;
  case CXCursor_ConditionalOperator:
    return n->nkids == 3
               ? arithmetic_type(cp_node_type(text, n->kids[1]), cp_node_type(text, n->kids[2]), t)
               : t;
  case CXCursor_BinaryOperator:
    if (n->nkids != 2)
      return t;
    cp_node_operator(text, n, op);
    if (strcmp(op, "=") == 0)
      return cp_node_type(text, n->kids[0]);
    if (strchr("+-*/", op[0]) && !op[1])
      return arithmetic_type(cp_node_type(text, n->kids[0]), cp_node_type(text, n->kids[1]), t);
    return t;
  default:
    return t;
  }
}
