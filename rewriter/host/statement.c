/*
 * statement.c: host statements and calls as text, for the edits of host/.
 *
 * New statements are built from the user's statement text (a companion's allocation is
 * the buffer's allocation with the name renamed), so an error-checking wrapper
 * (CHECK(cudaMalloc(...))) wraps the new calls too. A statement is found from a node of
 * the tree, but its ends and its calls' arguments are read from the text: the cursors of a
 * macro's expansion do not say where its use ends.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "state.h"

/* Whether `n` is the body of control statement `p` written without braces (`if (x)
 * f();`, `for (...) f();`): a statement added after it must go inside braces added
 * around it, or it would run whether the body runs or not. */
static int unbraced_body(const cp_node *n, const cp_node *p) {
  switch (p->kind) {
  case CXCursor_IfStmt:
    return p->nkids > 1 && n != p->kids[0] && n->kind != CXCursor_DeclStmt;
  case CXCursor_DoStmt:
    return p->nkids > 0 && n == p->kids[0];
  case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_SwitchStmt:
  case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_LabelStmt:
  case CXCursor_CXXForRangeStmt:
    return p->nkids > 0 && n == p->kids[p->nkids - 1];
  default:
    return 0;
  }
}

/* The statement of a host function that contains `n`: the ancestor whose parent is a
 * compound statement written in the source (the braces inside a macro such as CHECK's
 * do { ... } while (0) do not count: the statement is the whole invocation), or that is
 * the body of a control statement written without braces (if (x) CHECK(cudaMemcpy(...));
 * cp_host_insert_after then adds the braces, so that what it adds runs only where the body
 * does). NULL outside any statement. */
const cp_node *cp_host_statement_of(const cp_node *n) {
  while (n->parent && (n->parent->kind != CXCursor_CompoundStmt || n->parent->macro)) {
    if (!n->parent->macro && unbraced_body(n, n->parent))
      return n;
    n = n->parent;
  }
  return n->parent ? n : NULL;
}

/* The offset just past the ';' that ends statement `s` (DeclStmt extents include it;
 * expression statements and macro invocations do not). */
unsigned cp_host_statement_end(host *h, const cp_node *s) {
  const char *t = text(h);
  if (s->end > s->begin && t[s->end - 1] == ';')
    return s->end;
  unsigned i = s->end;
  while (i < h->u->opt.input_len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  return i < h->u->opt.input_len && t[i] == ';' ? i + 1 : s->end;
}

const char *cp_host_indent_of(host *h, unsigned offset) {
  const char *t = text(h);
  unsigned b = offset;
  while (b > 0 && t[b - 1] != '\n' && t[b - 1] != '\r')
    b--;
  unsigned e = b;
  while (t[e] == ' ' || t[e] == '\t')
    e++;
  return cp_arena_strndup(arena(h), t + b, e - b);
}

/* Where a new line goes after `offset`: the end of the line when the rest of it is blank
 * or a // comment (which stays with its line), else `offset`. */
unsigned cp_host_line_insert_point(host *h, unsigned offset) {
  const char *t = text(h);
  unsigned i = offset, n = (unsigned)h->u->opt.input_len;
  while (i < n && (t[i] == ' ' || t[i] == '\t'))
    i++;
  if (i + 1 < n && t[i] == '/' && t[i + 1] == '/')
    while (i < n && !cp_line_end_at(t, n, i))
      i++;
  if (i < n && t[i] == '\n')
    return i > offset && t[i - 1] == '\r' ? i - 1 : i;
  return cp_line_end_at(t, n, i) ? i : offset; /* a lone CR */
}

/* The text of statement `s`, ending in its ';' (added where the statement is a macro
 * invocation written without one). */
/* The first place in `n` other than `op` itself (its operands are looked into) that has an
 * effect of its own: ++ or --, an assignment or compound assignment. NULL if none. */
static const cp_node *side_effect(host *h, const cp_node *n, const cp_node *op) {
  const cp_node *lhs, *rhs;
  char buf[4];
  if (n != op) {
    if (n->kind == CXCursor_UnaryOperator && n->nkids == 1) {
      const char *o = cp_node_operator(text(h), n, buf);
      if (strcmp(o, "++") == 0 || strcmp(o, "--") == 0)
        return n;
    }
    if (cp_node_assignment(text(h), n, &lhs, &rhs, buf))
      return n;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *e = side_effect(h, n->kids[i], op);
    if (e)
      return e;
  }
  return NULL;
}

int cp_host_side_effect_free(host *h, const cp_node *n) {
  const cp_node *rhs;
  char op[4];
  if (cp_store_target(text(h), n, &rhs, op) ||
      (n->kind == CXCursor_CallExpr && !cp_call_is_pure(n)))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (!cp_host_side_effect_free(h, n->kids[i]))
      return 0;
  return 1;
}

int cp_host_repeatable(host *h, const cp_node *s, const cp_node *op, const char *what) {
  if (s && (s->kind == CXCursor_ForStmt || s->kind == CXCursor_WhileStmt ||
            s->kind == CXCursor_DoStmt || s->kind == CXCursor_IfStmt ||
            s->kind == CXCursor_SwitchStmt)) {
    cp_host_error(h, op, "%s is in the header of a%s statement, where no statement can follow "
                         "it for its companion; write it in a statement of its own (in the loop "
                         "body, at its end)", what,
                  s->kind == CXCursor_ForStmt ? " for" : s->kind == CXCursor_IfStmt ? "n if"
                  : s->kind == CXCursor_SwitchStmt ? " switch" : s->kind == CXCursor_DoStmt ? " do"
                  : " while");
    return 0;
  }
  const cp_node *e = s ? side_effect(h, s, op) : NULL;
  if (!e)
    return 1;
  size_t len = e->end - e->begin;
  cp_host_error(h, e, "this statement also does '%.*s%s', which the copy of it that cpconvert "
                      "adds for the companions of %s would do a second time; give %s a "
                      "statement of its own, with its operands computed before",
                (int)(len > 40 ? 40 : len), text(h) + e->begin, len > 40 ? "..." : "", what,
                what);
  return 0;
}

const char *cp_host_statement_text(host *h, const cp_node *s) {
  unsigned end = cp_host_statement_end(h, s);
  const char *t = cp_arena_strndup(arena(h), text(h) + s->begin, end - s->begin);
  return end > s->begin && text(h)[end - 1] == ';' ? t : cp_arena_printf(arena(h), "%s;", t);
}

/* Adds `stmts` (each a complete statement) as new lines after statement `s`; after the
 * unbraced body of an if, for, while ..., inside braces added around both. */
static const char *one_line(host *h, const char *lines, const char *indent);

void cp_host_insert_after(host *h, const cp_node *s, const char *stmts, cp_rule rule) {
  if (s->parent && s->parent->kind != CXCursor_CompoundStmt) { /* braced, on its line */
    edit(h, s->begin, 0, "{ ", rule);
    edit(h, cp_host_statement_end(h, s), 0,
         cp_arena_printf(arena(h), " %s }", one_line(h, stmts, cp_host_indent_of(h, s->begin))), rule);
    return;
  }
  unsigned at = cp_host_line_insert_point(h, cp_host_statement_end(h, s));
  const char *t = cp_host_added_text(h, at, s->begin, stmts);
  cp_apply_insert_once(h->run, &h->u->edits, at, t, rule); /* the same statements twice: once */
}

/* Each `line_end indent` that separates the lines of `lines` replaced by one space. */
static const char *one_line(host *h, const char *lines, const char *indent) {
  const char *sep = cp_arena_printf(arena(h), "%s%s", line_end(h), indent);
  size_t n = strlen(sep);
  char *out = cp_arena_alloc(arena(h), strlen(lines) + 1), *o = out;
  for (const char *p = lines; *p;)
    if (strncmp(p, sep, n) == 0) {
      *o++ = ' ';
      p += n;
    } else {
      *o++ = *p++;
    }
  *o = '\0';
  return out;
}

const char *cp_host_added_text(host *h, unsigned at, unsigned like, const char *lines) {
  const char *t = text(h), *indent = cp_host_indent_of(h, like);
  size_t n = h->u->opt.input_len;
  if (at < n && !cp_line_end_at(t, n, at)) /* more code follows on the line: stay on it */
    return cp_arena_printf(arena(h), " %s", one_line(h, lines, indent));
  return cp_arena_printf(arena(h), "%s%s%s", line_end(h), indent, lines);
}

const char *cp_host_trim(host *h, const char *s, size_t n) {
  while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
    s++;
    n--;
  }
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    n--;
  return cp_arena_strndup(arena(h), s, n);
}

/* Finds `name(` in the statement, the first at or after offset `from` of the text (the
 * call's own place, or the macro invocation it is written in), and splits its arguments
 * at top-level commas. */
static int find_call(host *h, const cp_node *s, const char *name, unsigned from, call_text *ct) {
  unsigned end = cp_host_statement_end(h, s);
  if (end > s->begin && text(h)[end - 1] == ';')
    end--;
  ct->stmt = cp_arena_strndup(arena(h), text(h) + s->begin, end - s->begin);
  size_t n = strlen(name);
  const char *start = ct->stmt + (from > s->begin && from < end ? from - s->begin : 0);
  for (const char *p = strstr(start, name); p; p = strstr(p + 1, name)) {
    const char *q = p + n;
    while (*q == ' ')
      q++;
    if ((p > ct->stmt && cp_ident_char(p[-1])) || *q != '(')
      continue;
    int depth = 0;
    const char *arg = q + 1;
    ct->nargs = 0;
    for (const char *r = q; *r; r++) {
      if (*r == '(' || *r == '[' || *r == '{')
        depth++;
      else if (*r == ')' || *r == ']' || *r == '}')
        depth--;
      if ((*r == ',' && depth == 1) || depth == 0) {
        if (ct->nargs < 12)
          ct->arg[ct->nargs++] = cp_host_trim(h, arg, (size_t)(r - arg));
        arg = r + 1;
      }
      if (depth == 0) {
        ct->b = (unsigned)(p - ct->stmt);
        ct->e = (unsigned)(r + 1 - ct->stmt);
        return 1;
      }
    }
  }
  return 0;
}

/* The statement with its call replaced by `call`, as a complete statement. */
const char *cp_host_with_call(host *h, const call_text *ct, const char *call) {
  return cp_arena_printf(arena(h), "%.*s%s%s;", (int)ct->b, ct->stmt, call, ct->stmt + ct->e);
}

void cp_host_error(host *h, const cp_node *n, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_at(h->run, h->u, CP_ERROR, n->begin, "%s [%s]", msg, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* The statement holding `call` and its text; reports and returns NULL if there is none. */
const cp_node *cp_host_statement_for(host *h, const cp_node *call, const char *api, call_text *ct) {
  const cp_node *s = cp_host_statement_of(call);
  if (!s || !find_call(h, s, api, call->begin, ct)) {
    cp_host_error(h, call, "cannot add the companion's %s here: put this call in a statement of its "
                           "own inside braces", api);
    return NULL;
  }
  return s;
}

/* The declaration statement of a local variable. */
const cp_node *cp_host_decl_of(const cp_node *n, CXCursor var) {
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, var))
    return n->parent;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *d = cp_host_decl_of(n->kids[i], var);
    if (d)
      return d;
  }
  return NULL;
}

/* --profile: the first expression of the configuration of the launch `call` (`grid` of
 * k<<<grid, block>>>(...)) becomes `(forms, grid)`, so that `forms` (cp_prof_launch,
 * cp_prof_count) run once per launch; 0 where the launch is not written out in the text. */
int cp_host_prof_grid(host *h, const cp_node *call, const char *forms) {
  const char *t = text(h);
  int nargs = cp_num_args(call->cur);
  unsigned end = nargs > 0 ? cp_call_arg(call, nargs, 0)->begin : call->end, i = call->begin;
  if (call->macro)
    return 0;
  while (i + 3 <= end && memcmp(t + i, "<<<", 3) != 0)
    i++;
  if (i + 3 > end)
    return 0;
  unsigned b = i + 3, e = b;
  for (int depth = 0; e < end; e++) {
    if (t[e] == '(' || t[e] == '[' || t[e] == '{')
      depth++;
    else if (t[e] == ')' || t[e] == ']' || t[e] == '}')
      depth--;
    else if (depth == 0 && (t[e] == ',' || (e + 3 <= end && memcmp(t + e, ">>>", 3) == 0)))
      break;
  }
  if (e >= end)
    return 0;
  while (b < e && (t[b] == ' ' || t[b] == '\t'))
    b++;
  while (e > b && (t[e - 1] == ' ' || t[e - 1] == '\t'))
    e--;
  if (b == e)
    return 0;
  cp_edit_add(arena(h), &h->u->edits, b, e - b,
              cp_arena_printf(arena(h), "(%s, %.*s)", forms, (int)(e - b), t + b), CP_RULE_PROFILE);
  return 1;
}
