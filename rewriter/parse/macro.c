/*
 * macro.c: the text of an expression a macro wrote, printed from the AST.
 *
 * Every node of a macro expansion spans the whole expansion (tree.c): its tokens have no
 * place of their own in the input, so its text cannot be cut out of it as elsewhere. An
 * expression a macro wrote (`SQR(dx)`, `DOT(a, b)`) that the conversion changes is written
 * out at the use site instead: its tokens printed in the order the preprocessor produced
 * them, operators from the AST, names and literals read where they are spelled (the
 * macro's body or its argument), each child's text given by the caller (its converted text,
 * or its own print). Printing adds no parentheses and drops none, so the printed tokens
 * parse to the same tree. A node of a kind not printed here makes the print fail (NULL):
 * the caller then refuses the macro as before.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"

/* The token spelled at `loc`: a name, a number, a character or string literal; NULL if
 * its file's text is not at hand. */
static const char *token_at(cp_arena *a, CXCursor c, CXSourceLocation loc) {
  CXFile file = NULL;
  unsigned off = 0;
  size_t size = 0;
  clang_getSpellingLocation(loc, &file, NULL, NULL, &off);
  const char *s = file ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), file, &size)
                       : NULL;
  if (!s || off >= size)
    return NULL;
  size_t e = off;
  if (s[e] == '\'' || s[e] == '"') {
    char q = s[e++];
    while (e < size && s[e] != q && s[e] != '\n')
      e += s[e] == '\\' ? 2 : 1;
    if (e >= size || s[e] != q)
      return NULL;
    e++;
  } else {
    int number = isdigit((unsigned char)s[e]) || s[e] == '.';
    while (e < size && (isalnum((unsigned char)s[e]) || s[e] == '_' || (number && s[e] == '.') ||
                        (number && (s[e] == '+' || s[e] == '-') && strchr("eEpP", s[e - 1]))))
      e++;
  }
  return e > off ? cp_arena_strndup(a, s + off, e - off) : NULL;
}

/* A name as written: `x`, or `std::x` with the qualifier read at its spelling. */
static const char *name_of(cp_arena *a, CXCursor c) {
  const char *name = cp_cursor_spelling(a, c);
  CXFile f1 = NULL, f2 = NULL;
  unsigned b = 0, at = 0;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f1, NULL, NULL, &b);
  clang_getSpellingLocation(clang_getCursorLocation(c), &f2, NULL, NULL, &at);
  size_t size = 0;
  const char *text = f1 ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), f1, &size)
                        : NULL;
  if (!*name || !text || !clang_File_isEqual(f1, f2) || b >= at || at > size)
    return *name ? name : NULL;
  return cp_arena_printf(a, "%.*s%s", (int)(at - b), text + b, name);
}

static int is_postfix(CXCursor c) {
#if CINDEX_VERSION_MINOR >= 64
  enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
  return k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec;
#else
  (void)c;
  return 0;
#endif
}

static const char *type_of(cp_arena *a, CXCursor c) {
  CXString s = clang_getTypeSpelling(clang_getCursorType(c));
  const char *t = cp_arena_strdup(a, clang_getCString(s));
  clang_disposeString(s);
  return t;
}

/* A call's text: callee, then its arguments; NULL for operator calls and constructions. */
static const char *call_text(cp_arena *a, const cp_node *n, const char *const *kid) {
  CXCursor ref = clang_getCursorReferenced(n->cur);
  int op = strncmp(cp_cursor_spelling(a, ref), "operator", 8) == 0;
  int nargs = cp_num_args(n->cur);
  if (clang_getCursorKind(ref) == CXCursor_Constructor)
    return n->nkids == 1 ? kid[0] : NULL; /* a copy */
  if (op || nargs < 0 || n->nkids != (unsigned)nargs + 1)
    return NULL;
  const char *t = cp_arena_printf(a, "%s(", kid[0]);
  for (unsigned i = 1; i < n->nkids; i++)
    t = cp_arena_printf(a, "%s%s%s", t, i > 1 ? ", " : "", kid[i]);
  return cp_arena_printf(a, "%s)", t);
}

static const char *operator_text(cp_arena *a, const cp_node *n, const char *const *kid) {
  char op[4];
  cp_node_operator("", n, op);
  if (!op[0])
    return NULL;
  if (n->kind != CXCursor_UnaryOperator)
    return n->nkids == 2 ? cp_arena_printf(a, "%s %s %s", kid[0], op, kid[1]) : NULL;
  if (n->nkids != 1)
    return NULL;
  if (is_postfix(n->cur))
    return cp_arena_printf(a, "%s%s", kid[0], op);
  /* - -x must not become --x */
  return cp_arena_printf(a, "%s%s%s", op, strchr("+-&*", kid[0][0]) ? " " : "", kid[0]);
}

const char *cp_macro_print(cp_arena *a, const cp_node *n, const char *const *kid) {
  unsigned k = n->nkids;
  for (unsigned i = 0; i < k; i++)
    if (!kid[i])
      return NULL;
  switch (n->kind) {
  case CXCursor_ParenExpr:
    return k == 1 ? cp_arena_printf(a, "(%s)", kid[0]) : NULL;
  case CXCursor_UnexposedExpr: /* implicit conversions: no tokens of their own */
    return k == 1 ? kid[0] : NULL;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
  case CXCursor_UnaryOperator:
    return operator_text(a, n, kid);
  case CXCursor_ConditionalOperator:
    return k == 3 ? cp_arena_printf(a, "%s ? %s : %s", kid[0], kid[1], kid[2]) : NULL;
  case CXCursor_ArraySubscriptExpr:
    return k == 2 ? cp_arena_printf(a, "%s[%s]", kid[0], kid[1]) : NULL;
  case CXCursor_CallExpr:
    return k ? call_text(a, n, kid) : NULL;
  case CXCursor_CStyleCastExpr: /* a typedef'd type is a TypeRef child before the operand */
    return k ? cp_arena_printf(a, "(%s)%s", type_of(a, n->cur), kid[k - 1]) : NULL;
  case CXCursor_CXXFunctionalCastExpr:
    return k ? cp_arena_printf(a, "%s(%s)", type_of(a, n->cur), kid[k - 1]) : NULL;
  case CXCursor_CXXStaticCastExpr:
    return k ? cp_arena_printf(a, "static_cast<%s>(%s)", type_of(a, n->cur), kid[k - 1]) : NULL;
  case CXCursor_DeclRefExpr:
    return k == 0 ? name_of(a, n->cur) : NULL;
  case CXCursor_MemberRefExpr: {
    const char *m = cp_cursor_spelling(a, n->cur);
    if (k == 0 || !*m)
      return k == 0 && *m ? m : NULL;
    CXType base = clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur));
    return cp_arena_printf(a, "%s%s%s", kid[0], base.kind == CXType_Pointer ? "->" : ".", m);
  }
  case CXCursor_IntegerLiteral:
  case CXCursor_FloatingLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_StringLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_CXXNullPtrLiteralExpr:
    return k == 0 ? token_at(a, n->cur, clang_getCursorLocation(n->cur)) : NULL;
  default:
    return NULL;
  }
}

const char *cp_macro_text(cp_arena *a, const cp_node *n) {
  const char **kid = cp_arena_alloc(a, (n->nkids + 1) * sizeof *kid);
  for (unsigned i = 0; i < n->nkids; i++)
    kid[i] = cp_macro_text(a, n->kids[i]);
  return cp_macro_print(a, n, kid);
}

int cp_macro_root(const cp_node *n) { return n->macro && (!n->parent || !n->parent->macro); }

/* Whether text[b, e) holds a token: something between two siblings. */
static int has_token(const char *text, unsigned b, unsigned e) {
  for (unsigned i = b; i < e; i++)
    if (!isspace((unsigned char)text[i]) && text[i] != '\\')
      return 1;
  return 0;
}

/* Whether a node of this kind begins with its first child's tokens (a + b, a[i], f(x),
 * p->x, x++) or ends with its last child's (a + b, -x, (float)x, float y = x, return x,
 * if (c) x). */
static int begins_with_kid(const cp_node *p) {
  switch (p->kind) {
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator:
  case CXCursor_ConditionalOperator: case CXCursor_ArraySubscriptExpr:
  case CXCursor_CallExpr: case CXCursor_MemberRefExpr: case CXCursor_UnexposedExpr:
    return 1;
  case CXCursor_UnaryOperator:
    return is_postfix(p->cur);
  default:
    return 0;
  }
}

static int ends_with_kid(const cp_node *p) {
  switch (p->kind) {
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator:
  case CXCursor_ConditionalOperator: case CXCursor_CStyleCastExpr: case CXCursor_UnexposedExpr:
  case CXCursor_VarDecl: case CXCursor_ReturnStmt: case CXCursor_IfStmt: case CXCursor_WhileStmt:
  case CXCursor_ForStmt:
    return 1;
  case CXCursor_UnaryOperator:
    return !is_postfix(p->cur);
  default:
    return 0;
  }
}

int cp_macro_whole(const char *text, const cp_node *r) {
  const cp_node *p = r->parent;
  if (!p)
    return 1;
  unsigned i = 0;
  while (i < p->nkids && p->kids[i] != r)
    i++;
  for (unsigned k = 0; k < p->nkids; k++)
    if (k != i && p->kids[k]->macro && p->kids[k]->begin == r->begin)
      return 0; /* another part of the same expansion: `f(PAIR)` */
  if (p->begin == r->begin && !(i == 0 && begins_with_kid(p)))
    return 0; /* the parent's first token comes from the macro: `NEG x` */
  if (p->end == r->end && !(i + 1 == p->nkids && ends_with_kid(p)))
    return 0;
  /* the operator, comma or bracket between operands: `A_TIMES b`, with A_TIMES `a *`
   * (between statements there may be nothing: a declaration's extent holds its `;`) */
  if (!clang_isExpression(p->kind))
    return 1;
  if (i > 0 && !has_token(text, p->kids[i - 1]->end, r->begin))
    return 0;
  if (i + 1 < p->nkids && !has_token(text, r->end, p->kids[i + 1]->begin))
    return 0;
  return 1;
}
