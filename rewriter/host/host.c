/*
 * host.c: companions of paired buffers in host code.
 *
 * A host pointer is paired when the analysis put it in a paired group: it reaches a
 * paired parameter of a converted kernel through a launch, or of a host function that
 * passes it on. For each paired pointer of a host function:
 *   - the companion is declared right after the pointer's declaration (a parameter gains
 *     a companion parameter instead, and its callers pass theirs);
 *   - after each statement that allocates it (cudaMalloc, cudaMallocManaged,
 *     cudaMallocAsync) the same statement allocates the companion, and a cudaMemset
 *     zeroes it;
 *   - memsets of the buffer are mirrored (with zero); a host-to-device copy into it is
 *     followed by zeroing the companion (fresh values carry no error); a device-to-device
 *     copy between paired buffers is mirrored; a device-to-host copy out of it is followed
 *     by the final recombination into the host destination (cp_recombine);
 *   - cudaFree of the buffer frees the companion too;
 *   - launches and host calls pass the companion after the buffer, with the same offset.
 * New statements are built from the user's statement text, so an error-checking wrapper
 * (CHECK(cudaMalloc(...))) wraps the new calls too. Variables are identified through
 * cursors, which stay right inside such macros; positions come from the text.
 * What cannot be completed (an allocation elsewhere, a buffer passed where it cannot be
 * followed) is an error that says what to write by hand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* What an MPI call does with a float host buffer (see the MPI section below). */
typedef enum { MPI_USE_SUM, MPI_USE_SEND, MPI_USE_RECV, MPI_USE_OTHER } mpi_kind;

typedef struct {
  mpi_kind kind;
  CXCursor var;          /* the buffer's variable: the send buffer of a sum, or the receive
                            buffer under MPI_IN_PLACE */
  const char *name;
  const cp_node *call;
  const char *api;
  int arg;               /* the buffer's argument */
  int kept;              /* moved with its companion NAME_err */
  int dropped;           /* a copy back recombined it although this call moves it: warn */
  int fixed;             /* sums: of accumulate(fixed) values, summed as 64-bit integers */
  const char *why;       /* dropped: why, for the warning */
} mpi_use;

#define MAX_COMPANIONS 64

typedef struct {
  cp_run *run;
  cp_unit *u; /* the unit whose text is edited: f's, or a declaration site's */
  cp_func *f;
  mpi_use *mpi;
  int n_mpi, cap_mpi;
  CXCursor comp[MAX_COMPANIONS]; /* host variables given a NAME_err for MPI */
  int n_comp;
} host;

static cp_arena *arena(host *h) { return h->run->r->arena; }
static const char *text(host *h) { return h->u->opt.input_text; }
/* An edit of h's unit that is one application of `rule`. */
static void edit(host *h, size_t offset, size_t length, const char *repl, cp_rule rule) {
  cp_apply_edit(h->run, &h->u->edits, offset, length, repl, rule);
}

static int ident_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* `s` with every whole-word `name` replaced by `repl`. */
static const char *replace_word(host *h, const char *s, const char *name, const char *repl) {
  size_t n = strlen(name), r = strlen(repl), count = 0;
  for (const char *p = strstr(s, name); p; p = strstr(p + n, name))
    count++;
  char *out = cp_arena_alloc(arena(h), strlen(s) + count * r + 1), *o = out;
  for (const char *p = s; *p;) {
    if (strncmp(p, name, n) == 0 && (p == s || !ident_char(p[-1])) && !ident_char(p[n])) {
      memcpy(o, repl, r);
      o += r;
      p += n;
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return out;
}

static const char *err_of(host *h, const char *name) {
  return cp_arena_printf(arena(h), "%s" CP_ERR_SUFFIX, name);
}

/* `text` with every whole word `name` renamed to its companion NAME_err. */
static const char *to_companion(host *h, const char *text, const char *name) {
  return replace_word(h, text, name, err_of(h, name));
}

static cp_var *root_of(host *h, const cp_node *n) { return cp_host_buffer(h->run, h->f, n); }

static int is_paired(const cp_var *v) { return v && v->role == CP_VAR_PAIRED; }

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
 * insert_after then adds the braces, so that what it adds runs only where the body does).
 * NULL outside any statement. */
static const cp_node *statement_of(const cp_node *n) {
  while (n->parent && (n->parent->kind != CXCursor_CompoundStmt || n->parent->macro)) {
    if (!n->parent->macro && unbraced_body(n, n->parent))
      return n;
    n = n->parent;
  }
  return n->parent ? n : NULL;
}

/* The offset just past the ';' that ends statement `s` (DeclStmt extents include it;
 * expression statements and macro invocations do not). */
static unsigned statement_end(host *h, const cp_node *s) {
  const char *t = text(h);
  if (s->end > s->begin && t[s->end - 1] == ';')
    return s->end;
  unsigned i = s->end;
  while (i < h->u->opt.input_len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  return i < h->u->opt.input_len && t[i] == ';' ? i + 1 : s->end;
}

static const char *indent_of(host *h, unsigned offset) {
  const char *t = text(h);
  unsigned b = offset;
  while (b > 0 && t[b - 1] != '\n' && t[b - 1] != '\r')
    b--;
  unsigned e = b;
  while (t[e] == ' ' || t[e] == '\t')
    e++;
  return cp_arena_strndup(arena(h), t + b, e - b);
}

static const char *line_end(host *h) {
  return cp_line_ending(text(h), h->u->opt.input_len);
}

/* Where a new line goes after `offset`: the end of the line when the rest of it is blank
 * or a // comment (which stays with its line), else `offset`. */
static unsigned line_insert_point(host *h, unsigned offset) {
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
static const char *statement_text(host *h, const cp_node *s) {
  unsigned end = statement_end(h, s);
  const char *t = cp_arena_strndup(arena(h), text(h) + s->begin, end - s->begin);
  return end > s->begin && text(h)[end - 1] == ';' ? t : cp_arena_printf(arena(h), "%s;", t);
}

/* Adds `stmts` (each a complete statement) as new lines after statement `s`; after the
 * unbraced body of an if, for, while ..., inside braces added around both. */
static void insert_after(host *h, const cp_node *s, const char *stmts, cp_rule rule) {
  if (s->parent && s->parent->kind != CXCursor_CompoundStmt) {
    edit(h, s->begin, 0, "{ ", rule);
    edit(h, statement_end(h, s), 0, cp_arena_printf(arena(h), " %s }", stmts), rule);
    return;
  }
  unsigned at = line_insert_point(h, statement_end(h, s));
  const char *t = cp_arena_printf(arena(h), "%s%s%s", line_end(h), indent_of(h, s->begin), stmts);
  edit(h, at, 0, t, rule);
}

/* ---- the text of one API call inside its statement --------------------------------- */

typedef struct {
  const char *stmt;   /* the statement's text, without its ';' */
  unsigned b, e;      /* the call NAME(...) within it */
  const char *arg[12]; /* its arguments' texts, trimmed */
  int nargs;
} call_text;

static const char *trim(host *h, const char *s, size_t n) {
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
  unsigned end = statement_end(h, s);
  if (end > s->begin && text(h)[end - 1] == ';')
    end--;
  ct->stmt = cp_arena_strndup(arena(h), text(h) + s->begin, end - s->begin);
  size_t n = strlen(name);
  const char *start = ct->stmt + (from > s->begin && from < end ? from - s->begin : 0);
  for (const char *p = strstr(start, name); p; p = strstr(p + 1, name)) {
    const char *q = p + n;
    while (*q == ' ')
      q++;
    if ((p > ct->stmt && ident_char(p[-1])) || *q != '(')
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
          ct->arg[ct->nargs++] = trim(h, arg, (size_t)(r - arg));
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
static const char *with_call(host *h, const call_text *ct, const char *call) {
  return cp_arena_printf(arena(h), "%.*s%s%s;", (int)ct->b, ct->stmt, call, ct->stmt + ct->e);
}

/* ---- the operations on a paired buffer --------------------------------------------- */

static const char *spelling_of(host *h, CXCursor c) {
  return cp_cursor_spelling(arena(h), c);
}

static void error(host *h, const cp_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error(host *h, const cp_node *n, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_at(h->run, h->u, CP_ERROR, n->begin, "%s [%s]", msg, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* The statement holding `call` and its text; reports and returns NULL if there is none. */
static const cp_node *statement_for(host *h, const cp_node *call, const char *api, call_text *ct) {
  const cp_node *s = statement_of(call);
  if (!s || !find_call(h, s, api, call->begin, ct)) {
    error(h, call, "cannot add the companion's %s here: put this call in a statement of its "
                   "own inside braces", api);
    return NULL;
  }
  return s;
}

/* The pointer an allocation's first argument points at: `&p` -> `p`, `(void **)&s->pos`
 * -> `s->pos`. */
static const char *pointer_of(host *h, const char *addr) {
  const char *amp = strrchr(addr, '&');
  if (!amp)
    return addr;
  const char *p = amp + 1;
  size_t n = strlen(p);
  int depth = 0;
  for (size_t i = 0; i < n; i++)
    depth += p[i] == '(' ? 1 : p[i] == ')' ? -1 : 0;
  while (depth < 0 && n > 0 && p[n - 1] == ')') { /* (&p) */
    n--;
    depth++;
  }
  return trim(h, p, n);
}

/* cudaMalloc(&p, n) and its kin: the same for p_err, then zero it. */
static void on_alloc(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = root_of(h, cp_call_arg(call, nargs, 0));
  if (!is_paired(v))
    return;
  v->allocated = 1;
  call_text ct;
  const cp_node *s = statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 2)
    return;
  const char *call_src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  const char *alloc = to_companion(h, call_src, v->name);
  const char *ptr = pointer_of(h, to_companion(h, ct.arg[0], v->name));
  const char *zero = strcmp(api, "cudaMallocAsync") == 0 && ct.nargs >= 3
                         ? cp_arena_printf(arena(h), "cudaMemsetAsync(%s, 0, %s, %s)", ptr,
                                           ct.arg[1], ct.arg[2])
                         : cp_arena_printf(arena(h), "cudaMemset(%s, 0, %s)", ptr, ct.arg[1]);
  insert_after(h, s, cp_arena_printf(arena(h), "%s%s%s%s", with_call(h, &ct, alloc), line_end(h),
                                      indent_of(h, s->begin), with_call(h, &ct, zero)),
               CP_RULE_HOST_PAIR);
}

/* A paired variable that `n` names, at any depth. */
static cp_var *paired_in(host *h, const cp_node *n) {
  cp_var *v = n->kind == CXCursor_DeclRefExpr ? root_of(h, n) : NULL;
  for (unsigned i = 0; i < n->nkids && !is_paired(v); i++)
    v = paired_in(h, n->kids[i]);
  return is_paired(v) ? v : NULL;
}

/* For a pointer `var` that is not paired: a paired buffer it is set to point into, in its
 * initializer or an assignment, in a way the pairing does not follow (`d == 0 ? d_x :
 * d_y`, `d_x + k` held in another variable); NULL if none. */
static cp_var *unfollowed_alias(host *h, const cp_node *n, CXCursor var) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, var) && n->nkids)
    return paired_in(h, n->kids[n->nkids - 1]);
  if (n->kind == CXCursor_BinaryOperator && cp_node_assignment(text(h), n, &lhs, &rhs, op) &&
      strcmp(op, "=") == 0 && cp_node_strip(lhs)->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(lhs)->cur), var))
    return paired_in(h, rhs);
  for (unsigned i = 0; i < n->nkids; i++) {
    cp_var *v = unfollowed_alias(h, n->kids[i], var);
    if (v)
      return v;
  }
  return NULL;
}

/* A copy or memset through a pointer that points into a paired buffer without being
 * paired itself: a write leaves the buffer's companion stale (an error), a read takes the
 * values without their error terms (a warning). */
static void check_alias(host *h, cp_node *call, const char *api, cp_node *arg, int writes) {
  cp_var *v = root_of(h, arg), *p;
  if (!v || is_paired(v) || !(p = unfollowed_alias(h, h->f->body, v->decl)))
    return;
  if (writes)
    error(h, call, "this %s writes through '%s', which points into paired buffer '%s' in a way "
                   "cpconvert does not follow (a conditional, or an offset kept in another "
                   "pointer): '%s" CP_ERR_SUFFIX "' would keep stale error terms; use '%s' itself here, or "
                   "zero or update '%s" CP_ERR_SUFFIX "' by hand", api, v->name, p->name, p->name, p->name, p->name);
  else
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "this %s reads through '%s', which points into paired buffer '%s' in a way "
               "cpconvert does not follow (a conditional, or an offset kept in another "
               "pointer): it takes the values without their error terms; use '%s' itself "
               "to get them recombined [%s]", api, v->name, p->name, p->name,
               cp_rule_name(CP_RULE_HOST_PAIR));
}

/* cudaMemset(p, v, n): the companion is zeroed. */
static void on_memset(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = root_of(h, cp_call_arg(call, nargs, 0));
  check_alias(h, call, api, cp_call_arg(call, nargs, 0), 1);
  call_text ct;
  const cp_node *s;
  if (!is_paired(v) || !(s = statement_for(h, call, api, &ct)) || ct.nargs < 3)
    return;
  const char *twin = to_companion(h, ct.arg[0], v->name);
  const char *zero = ct.nargs >= 4 ? cp_arena_printf(arena(h), "%s(%s, 0, %s, %s)", api, twin, ct.arg[2], ct.arg[3])
                                   : cp_arena_printf(arena(h), "%s(%s, 0, %s)", api, twin, ct.arg[2]);
  insert_after(h, s, with_call(h, &ct, zero), CP_RULE_HOST_PAIR);
}

static void on_free(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = root_of(h, cp_call_arg(call, nargs, 0));
  call_text ct;
  const cp_node *s;
  if (!is_paired(v) || !(s = statement_for(h, call, api, &ct)))
    return;
  const char *call_src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  insert_after(h, s, with_call(h, &ct, to_companion(h, call_src, v->name)),
               CP_RULE_HOST_PAIR);
}

static CXCursor mpi_var(const cp_node *n);
static int mpi_keeps(host *h, const cp_node *dst, const cp_node *s, const cp_var *src, int can_keep);
static const mpi_use *received_pairs(host *h, CXCursor v, unsigned at);

/* A device-to-host copy of paired buffer `sv` (its companion at `stwin`) into ct.arg[0]
 * (`stream`: ", STREAM" of an asynchronous copy, else ""): recombined, keeping the
 * residuals where MPI moves the values next. */
static const char *copy_back(host *h, cp_node *call, int nargs, const cp_node *s, const call_text *ct,
                             const char *stream, const cp_var *sv, const char *stwin) {
  if (mpi_keeps(h, cp_call_arg(call, nargs, 0), s, sv, !*stream && !sv->dbl))
    return cp_arena_printf(arena(h), "cp_recombine_keep(%s, %s, %s, %s)", ct->arg[0],
                           to_companion(h, ct->arg[0],
                                        spelling_of(h, mpi_var(cp_call_arg(call, nargs, 0)))),
                           stwin, ct->arg[2]);
  return cp_arena_printf(arena(h), "%s%s(%s, %s, %s%s)", sv->dbl ? "cp_recombine_double" : "cp_recombine",
                         *stream ? "_async" : "", ct->arg[0], stwin, ct->arg[2], stream);
}

/* A host-to-device copy into paired buffer `dv` (companion at `dtwin`): the companion is
 * zeroed (fresh values carry no error), or receives the errors that a receive of pairs
 * brought with the host values. */
static const char *copy_in(host *h, cp_node *call, int nargs, const cp_node *s, const call_text *ct,
                           const char *stream, const char *dtwin) {
  const char *async = *stream ? "Async" : "";
  CXCursor src = mpi_var(cp_call_arg(call, nargs, 1));
  const mpi_use *r = clang_Cursor_isNull(src) ? NULL : received_pairs(h, src, s->begin);
  if (r)
    return cp_arena_printf(arena(h), "cudaMemcpy%s(%s, %s, %s, %s%s)", async, dtwin,
                           to_companion(h, ct->arg[1], r->name), ct->arg[2], ct->arg[3], stream);
  return cp_arena_printf(arena(h), "cudaMemset%s(%s, 0, %s%s)", async, dtwin, ct->arg[2], stream);
}

/* A host-to-device copy of received pairs into a buffer without a companion. */
static void copy_in_unpaired(host *h, cp_node *call, int nargs, const char *kind) {
  CXCursor src = mpi_var(cp_call_arg(call, nargs, 1));
  const mpi_use *r;
  if (strcmp(kind, "cudaMemcpyHostToDevice") != 0 || clang_Cursor_isNull(src) ||
      !(r = received_pairs(h, src, call->begin)))
    return;
  cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
             "the error terms that %s received into '%s' are dropped here: this copies it into "
             "a device buffer without a companion; name that buffer in pair() of the converted "
             "kernel that reads it [%s]", r->api, r->name, cp_rule_name(CP_RULE_MPI));
}

/* cudaMemcpy(dst, src, n, kind[, stream]) with a paired side. */
static void on_memcpy(host *h, cp_node *call, const char *api, int nargs) {
  if (nargs < 4)
    return;
  cp_var *dv = root_of(h, cp_call_arg(call, nargs, 0));
  cp_var *sv = root_of(h, cp_call_arg(call, nargs, 1));
  const cp_node *k = cp_node_strip(cp_call_arg(call, nargs, 3));
  const char *kind = k->kind == CXCursor_DeclRefExpr ? spelling_of(h, clang_getCursorReferenced(k->cur)) : "";
  if (!is_paired(dv))
    copy_in_unpaired(h, call, nargs, kind);
  if (strcmp(kind, "cudaMemcpyHostToHost") != 0) {
    check_alias(h, call, api, cp_call_arg(call, nargs, 0), 1);
    check_alias(h, call, api, cp_call_arg(call, nargs, 1), 0);
  }
  if (!is_paired(dv) && !is_paired(sv))
    return;
  call_text ct;
  const cp_node *s = statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 4)
    return;
  int async = ct.nargs >= 5;
  const char *stream = async ? cp_arena_printf(arena(h), ", %s", ct.arg[4]) : "";
  const char *dtwin = is_paired(dv) ? to_companion(h, ct.arg[0], dv->name) : NULL;
  const char *stwin = is_paired(sv) ? to_companion(h, ct.arg[1], sv->name) : NULL;
  const char *call2 = NULL;
  if (strcmp(kind, "cudaMemcpyHostToDevice") == 0 && dtwin) {
    call2 = copy_in(h, call, nargs, s, &ct, stream, dtwin);
  } else if (strcmp(kind, "cudaMemcpyDeviceToHost") == 0 && stwin) {
    call2 = copy_back(h, call, nargs, s, &ct, stream, sv, stwin);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0 && dtwin && stwin) {
    call2 = cp_arena_printf(arena(h), "%s(%s, %s, %s, %s%s)", api, dtwin, stwin, ct.arg[2],
                            ct.arg[3], stream);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0 && dtwin) {
    call2 = cp_arena_printf(arena(h), "cudaMemset%s(%s, 0, %s%s)", async ? "Async" : "", dtwin,
                            ct.arg[2], stream);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0) {
    error(h, call, "this copies paired buffer '%s' into a buffer without a companion, which "
                   "loses its error: pass the destination to a converted kernel too, or copy "
                   "the recombined values", sv->name);
    return;
  } else {
    error(h, call, "cannot tell the direction of this copy of paired buffer '%s'; give "
                   "cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost or cudaMemcpyDeviceToDevice "
                   "as a constant", (dv && is_paired(dv) ? dv : sv)->name);
    return;
  }
  insert_after(h, s, with_call(h, &ct, call2), CP_RULE_HOST_PAIR);
}

/* Whether kernel g has dynamic shared memory that turned composite (twice the bytes),
 * declared in g itself or in a converted function it calls, at any depth: `extern
 * __shared__` in a __device__ helper is the kernel's dynamic shared memory too. `depth`
 * bounds the walk (device code rarely recurses, but it may). */
static int calls_doubling(cp_run *run, const cp_node *n, int depth);

static int doubles_shared(cp_run *run, const cp_func *g, int depth) {
  for (unsigned i = 0; i < g->n_vars; i++) {
    const cp_var *v = &g->vars[i];
    if (!v->is_param && v->role == CP_VAR_COMPOSITE &&
        clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_IncompleteArray)
      return 1;
  }
  return depth < 16 && g->body && calls_doubling(run, g->body, depth + 1);
}

static int calls_doubling(cp_run *run, const cp_node *n, int depth) {
  if (n->kind == CXCursor_CallExpr) {
    cp_func *callee = cp_func_of(run, cp_callee(n->cur));
    if (callee && !callee->is_host && doubles_shared(run, callee, depth))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (calls_doubling(run, n->kids[i], depth))
      return 1;
  return 0;
}

/* k<<<grid, block, bytes, stream>>>: `bytes` becomes 2 * (bytes). */
static void double_shared_bytes(host *h, const cp_node *call, const cp_node *first_arg) {
  const char *t = text(h);
  unsigned end = first_arg ? first_arg->begin : call->end;
  const char *open = NULL;
  for (unsigned i = call->begin; i + 3 <= end; i++)
    if (memcmp(t + i, "<<<", 3) == 0) {
      open = t + i + 3;
      break;
    }
  if (!open)
    return;
  int depth = 0, comma = 0;
  const char *b = NULL;
  for (const char *p = open; p < t + end; p++) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if (depth == 0 && (*p == ',' || (p[0] == '>' && p[1] == '>' && p[2] == '>'))) {
      if (comma == 2 && b) {
        const char *bytes = trim(h, b, (size_t)(p - b));
        const char *start = b;
        while (*start == ' ')
          start++;
        edit(h, (size_t)(start - t), strlen(bytes),
             cp_arena_printf(arena(h), "2 * (%s)", bytes), CP_RULE_HOST_PAIR);
        return;
      }
      if (*p != ',')
        return;
      if (++comma == 2)
        b = p + 1;
    }
  }
}

/* Whether `a` is `ptrs[k]`, an element of an array (or pointer) of pointers. */
static int pointer_element(const cp_node *a) {
  const cp_node *n = cp_node_strip(a);
  if (n->kind != CXCursor_ArraySubscriptExpr || n->nkids < 1)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  return t.kind == CXType_Pointer;
}

/* A launch or call of a template's instance converted as a copy (axpy<float>(...)) calls
 * the copy: its name replaces the callee's, from the name on (a qualifier stays). */
static int call_instance(host *h, cp_node *call, const cp_func *g) {
  const cp_node *callee = call->nkids ? cp_node_strip(call->kids[0]) : NULL;
  if (!callee || callee->kind != CXCursor_DeclRefExpr || call->macro || callee->macro) {
    cp_diag_at(h->run, h->u, CP_ERROR, call->begin,
               "this launch or call of '%s' must call its instance's converted copy '%s', and "
               "cpconvert cannot rename it here (it is written by a macro, or through a "
               "function pointer): write it out [%s]",
               g->name, g->twin, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
    return 0;
  }
  unsigned at = 0;
  clang_getExpansionLocation(clang_getCursorLocation(callee->cur), NULL, NULL, NULL, &at);
  edit(h, at, call->kids[0]->end - at, g->twin, CP_RULE_TEMPLATE_INSTANCE);
  return 1;
}

/* A launch of a converted kernel, or a call of a host function that passes buffers on:
 * each paired parameter's argument is followed by its companion. */
static void on_call(host *h, cp_node *call, cp_func *g) {
  int nargs = cp_num_args(call->cur);
  int nparams = cp_num_args(g->cursor);
  if (g->instance && !call_instance(h, call, g))
    return; /* said once: its companions cannot be added either */
  if (g->is_kernel && doubles_shared(h->run, g, 0))
    double_shared_bytes(h, call, nargs > 0 ? cp_call_arg(call, nargs, 0) : NULL);
  for (int i = 0; i < nargs && i < nparams; i++) {
    cp_var *p = cp_var_of(g, cp_arg(g->cursor, (unsigned)i));
    if (!is_paired(p))
      continue;
    cp_node *a = cp_call_arg(call, nargs, i);
    cp_var *v = root_of(h, a);
    if (a->macro || call->macro) {
      error(h, a, "the launch of '%s' is inside a macro; its companion argument cannot be "
                  "added: write the launch out", g->name);
    } else if (!is_paired(v) && pointer_element(a)) {
      error(h, a, "parameter '%s' of '%s' is paired, but this argument is an element of an array "
                  "of device pointers, which cpconvert does not pair (double buffering): keep "
                  "the buffers in pointer variables, allocated through them, and swap the "
                  "variables (`float *tmp = cur; cur = next; next = tmp;`); their companions "
                  "are declared, allocated and swapped with them", p->name, g->name);
    } else if (!is_paired(v)) {
      error(h, a, "parameter '%s' of '%s' is paired, but this argument is not a buffer variable "
                  "of this function that cpconvert can follow: pass a pointer variable, or add "
                  "its " CP_ERR_SUFFIX " companion by hand", p->name, g->name);
    } else {
      const char *src = cp_arena_strndup(arena(h), text(h) + a->begin, a->end - a->begin);
      edit(h, a->end, 0,
           cp_arena_printf(arena(h), ", %s", to_companion(h, src, v->name)),
           CP_RULE_HOST_PAIR);
    }
  }
}

/* The i-th argument of a call as written (its children after the callee), whatever
 * default arguments the declaration adds. */
static cp_node *written_arg(cp_node *call, unsigned i) {
  return call->nkids > i + 1 ? call->kids[i + 1] : NULL;
}

/* cudaMemcpyFromSymbol(dst, sym, n[, offset]) of a paired symbol: recombined like a
 * device-to-host cudaMemcpy (cp_recombine_symbol reads sym_err); cudaMemcpyToSymbol(sym,
 * src, n[, offset]): fresh values carry no error, so the companion's bytes are zeroed. */
static void on_symbol_copy(host *h, cp_node *call, const char *api, int nargs) {
  int from = strcmp(api, "cudaMemcpyFromSymbol") == 0;
  cp_node *a = written_arg(call, from ? 1 : 0);
  cp_var *v = a ? root_of(h, a) : NULL;
  (void)nargs;
  if (!is_paired(v) || !v->is_symbol)
    return;
  call_text ct;
  const cp_node *s = statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 3)
    return;
  if (ct.nargs >= 5) {
    error(h, call, "a copy of paired symbol '%s' with an explicit direction is not followed: "
                   "copy '%s" CP_ERR_SUFFIX "' by hand, or leave the direction out", v->name, v->name);
    return;
  }
  const char *sym = to_companion(h, ct.arg[from ? 1 : 0], v->name);
  const char *off = ct.nargs >= 4 ? cp_arena_printf(arena(h), ", %s", ct.arg[3]) : "";
  const char *call2 =
      from ? cp_arena_printf(arena(h), "cp_recombine_symbol(%s, %s, %s%s)", ct.arg[0], sym, ct.arg[2], off)
           : cp_arena_printf(arena(h), "cp_zero_symbol(%s, %s%s)", sym, ct.arg[2], off);
  insert_after(h, s, with_call(h, &ct, call2), CP_RULE_HOST_PAIR);
}

/* cudaGetSymbolAddress((void **)&p, sym): p points into the paired symbol (the analysis
 * paired them together), so p_err gets the address of sym_err. */
static void on_symbol_address(host *h, cp_node *call, const char *api, int nargs) {
  cp_node *pa = written_arg(call, 0), *sa = written_arg(call, 1);
  cp_var *p = pa ? root_of(h, pa) : NULL, *v = sa ? root_of(h, sa) : NULL;
  (void)nargs;
  if (!is_paired(p) || !v || !v->is_symbol || p == v)
    return;
  p->allocated = 1;
  call_text ct;
  const cp_node *s = statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 2)
    return;
  const char *src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  src = to_companion(h, to_companion(h, src, p->name), v->name);
  insert_after(h, s, with_call(h, &ct, src), CP_RULE_HOST_PAIR);
}

/* The asynchronous symbol copies are not followed yet: say what to add. */
static void on_symbol_async(host *h, cp_node *call, const char *api, int nargs) {
  cp_node *a = written_arg(call, strcmp(api, "cudaMemcpyFromSymbolAsync") == 0 ? 1 : 0);
  cp_var *v = a ? root_of(h, a) : NULL;
  (void)nargs;
  if (is_paired(v) && v->is_symbol)
    error(h, call, "%s of paired symbol '%s' is not followed: use the synchronous call, or "
                   "copy '%s" CP_ERR_SUFFIX "' by hand (zero it after a copy in, add it after a copy out)",
          api, v->name, v->name);
}

typedef struct {
  const char *name;
  void (*fn)(host *, cp_node *, const char *, int);
} api_row;


/* ---- MPI calls on host data copied from paired buffers ------------------------------
 *
 * A host variable that a device-to-host copy of a paired buffer fills and that an MPI call
 * then moves keeps its errors through the call:
 *   - sums (MPI_Allreduce, MPI_Reduce with MPI_SUM): the copy back keeps each value's
 *     residual error in a companion NAME_err (cp_recombine_keep: the value recombined as
 *     before, the residual beside it) and the sum becomes cp_mpi_allreduce_sum
 *     (cp_mpi_reduce_sum) of <cp/mpi.h>, which sums the pairs; their _fixed forms, exact
 *     64-bit integer sums, where every converted kernel that takes the copied buffer
 *     carries its sums as accumulate(fixed), so the totals are the same bits for any
 *     number of ranks;
 *   - sends (MPI_Send, the send half of MPI_Sendrecv): the copy keeps the residuals in the
 *     same way and the call sends pairs (cp_mpi_send_pairs, cp_mpi_sendrecv_pairs: one
 *     message of values, errors and a tag word);
 *   - receives (MPI_Recv, the receive half of a converted MPI_Sendrecv): a receive whose
 *     values go on to a paired device buffer (a host-to-device copy) receives pairs into
 *     NAME and NAME_err, and that copy moves NAME_err into the device buffer's companion
 *     instead of zeroing it. A receive of pairs also takes plain floats (errors zero), so
 *     a receive converted opposite a send that is not still matches.
 * Only where nothing but such MPI calls names the variable between the copy and the call
 * (anything else could make the residuals stale), the copy is synchronous and the
 * variable can have a companion (a local float, float array, or float pointer declared
 * with malloc, calloc or new[] in a statement of its own; the companion is allocated
 * zeroed the same way and freed with it). Otherwise, and for the MPI calls cpconvert does
 * not convert (MPI_Isend, MPI_Bcast, ...), a warning says where the error terms are
 * dropped. Device pointers handed to MPI directly get the warning of any call that is not
 * converted (on_other_call). */

/* The float variable an argument names (`&x`, `x`, `&x[0]`, `(void *)&x`, `p + k` for a
 * float pointer p), a null cursor for anything else. */
static CXCursor mpi_var(const cp_node *n) {
  while (n && n->nkids && (n->kind == CXCursor_UnaryOperator || n->kind == CXCursor_ArraySubscriptExpr ||
                           n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr ||
                           n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_BinaryOperator))
    n = n->kind == CXCursor_CStyleCastExpr ? n->kids[n->nkids - 1] : n->kids[0];
  if (!n || n->kind != CXCursor_DeclRefExpr)
    return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(n->cur);
  CXType t = clang_getCanonicalType(clang_getCursorType(d));
  if (t.kind == CXType_ConstantArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  else if (t.kind == CXType_Pointer)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  return d.kind == CXCursor_VarDecl && t.kind == CXType_Float ? d : clang_getNullCursor();
}

static const char *node_text(host *h, const cp_node *n) {
  return cp_arena_strndup(arena(h), text(h) + n->begin, n->end - n->begin);
}

/* The body of object-like macro `name` when it is one identifier (#define REAL_MPI_TYPE
 * MPI_FLOAT), else NULL. */
typedef struct {
  host *h;
  const char *name, *body;
} macro_find;

static enum CXChildVisitResult find_macro(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  macro_find *m = data;
  if (c.kind != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(c))
    return CXChildVisit_Continue;
  CXString name = clang_getCursorSpelling(c);
  int other = strcmp(clang_getCString(name), m->name) != 0;
  clang_disposeString(name);
  if (other)
    return CXChildVisit_Continue;
  CXTranslationUnit tu = m->h->u->p.tu;
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  if (n == 2 && clang_getTokenKind(toks[1]) == CXToken_Identifier) {
    CXString s = clang_getTokenSpelling(tu, toks[1]);
    m->body = cp_arena_strdup(arena(m->h), clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return CXChildVisit_Break;
}

/* Whether argument `n` is the MPI constant `name`, written as is or through object-like
 * macros that name it. */
static int mpi_constant(host *h, const cp_node *n, const char *name) {
  const char *t = node_text(h, n);
  for (int depth = 0; t && depth < 8; depth++) {
    if (strcmp(t, name) == 0)
      return 1;
    macro_find m = {h, t, NULL};
    clang_visitChildren(clang_getTranslationUnitCursor(h->u->p.tu), find_macro, &m);
    t = m.body;
  }
  return 0;
}

/* One MPI call's float buffer: a whole call for sums, sends, receives and other calls; a
 * Sendrecv gives a send and a receive. */
static void add_mpi_use(host *h, mpi_kind kind, const cp_node *call, const char *api, int arg,
                        CXCursor v) {
  if (clang_Cursor_isNull(v))
    return;
  if (h->n_mpi == h->cap_mpi) {
    int cap = h->cap_mpi ? 2 * h->cap_mpi : 8;
    mpi_use *u = cp_arena_alloc(arena(h), (size_t)cap * sizeof *u);
    if (h->n_mpi)
      memcpy(u, h->mpi, (size_t)h->n_mpi * sizeof *u);
    h->mpi = u;
    h->cap_mpi = cap;
  }
  h->mpi[h->n_mpi++] = (mpi_use){kind, v, spelling_of(h, v), call, api, arg, 0, 0, 0, NULL};
}

/* Records the MPI calls on float host variables in `n`, before the walk (a copy back must
 * know what the MPI call after it does). */
static void find_mpi_uses(host *h, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    find_mpi_uses(h, n->kids[i]);
  if (n->kind != CXCursor_CallExpr)
    return;
  const char *name = spelling_of(h, clang_getCursorReferenced(n->cur));
  int nargs = cp_num_args(n->cur);
  if (strncmp(name, "MPI_", 4) != 0 || nargs < 1)
    return;
  int sum = (strcmp(name, "MPI_Allreduce") == 0 && nargs == 6) || (strcmp(name, "MPI_Reduce") == 0 && nargs == 7);
  if (sum && mpi_constant(h, cp_call_arg(n, nargs, 3), "MPI_FLOAT") &&
      mpi_constant(h, cp_call_arg(n, nargs, 4), "MPI_SUM")) {
    int in_place = mpi_constant(h, cp_call_arg(n, nargs, 0), "MPI_IN_PLACE");
    add_mpi_use(h, MPI_USE_SUM, n, name, in_place, mpi_var(cp_call_arg(n, nargs, in_place)));
  } else if (strcmp(name, "MPI_Sendrecv") == 0 && nargs == 12 &&
             mpi_constant(h, cp_call_arg(n, nargs, 2), "MPI_FLOAT") &&
             mpi_constant(h, cp_call_arg(n, nargs, 7), "MPI_FLOAT")) {
    add_mpi_use(h, MPI_USE_SEND, n, name, 0, mpi_var(cp_call_arg(n, nargs, 0)));
    add_mpi_use(h, MPI_USE_RECV, n, name, 5, mpi_var(cp_call_arg(n, nargs, 5)));
  } else if (((strcmp(name, "MPI_Send") == 0 && nargs == 6) || (strcmp(name, "MPI_Recv") == 0 && nargs == 7)) &&
             mpi_constant(h, cp_call_arg(n, nargs, 2), "MPI_FLOAT")) {
    add_mpi_use(h, name[4] == 'S' ? MPI_USE_SEND : MPI_USE_RECV, n, name, 0,
                mpi_var(cp_call_arg(n, nargs, 0)));
  } else {
    for (int i = 0; i < nargs; i++)
      add_mpi_use(h, MPI_USE_OTHER, n, name, i, mpi_var(cp_call_arg(n, nargs, i)));
  }
}

/* Whether every place in [from, to) that names variable `v` lies inside an MPI call that
 * only reads it (a recorded sum or send of v). */
static int only_mpi_reads(host *h, const cp_node *n, CXCursor v, unsigned from, unsigned to) {
  if (n->end <= from || n->begin >= to)
    return 1;
  for (int i = 0; i < h->n_mpi; i++)
    if (h->mpi[i].call == n && clang_equalCursors(h->mpi[i].var, v) &&
        (h->mpi[i].kind == MPI_USE_SUM || h->mpi[i].kind == MPI_USE_SEND))
      return 1;
  if (n->kind == CXCursor_DeclRefExpr && n->begin >= from && n->begin < to &&
      clang_equalCursors(clang_getCursorReferenced(n->cur), v))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (!only_mpi_reads(h, n->kids[i], v, from, to))
      return 0;
  return 1;
}

static const cp_node *decl_of(const cp_node *n, CXCursor var);

/* The allocation that initializes a float pointer's declaration (malloc, calloc, new[]),
 * through casts; NULL for anything else. */
static const cp_node *host_allocation(host *h, const cp_node *vd) {
  const cp_node *e = vd->nkids ? cp_node_strip(vd->kids[vd->nkids - 1]) : NULL;
  while (e && (e->kind == CXCursor_CStyleCastExpr || e->kind == CXCursor_CXXStaticCastExpr ||
               e->kind == CXCursor_CXXReinterpretCastExpr) && e->nkids)
    e = cp_node_strip(e->kids[e->nkids - 1]);
  if (!e)
    return NULL;
  if (e->kind == CXCursor_CXXNewExpr)
    return e;
  const char *fn = e->kind == CXCursor_CallExpr ? spelling_of(h, clang_getCursorReferenced(e->cur)) : "";
  return strcmp(fn, "malloc") == 0 || strcmp(fn, "calloc") == 0 ? e : NULL;
}

/* Whether `var` is assigned anywhere in `n` (`p = realloc(p, ...)`, `p = other`), or its
 * address taken (`&p`): its companion, allocated once beside the declaration, could no
 * longer match it. */
static int reassigned(host *h, const cp_node *n, CXCursor var) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_BinaryOperator && cp_node_assignment(text(h), n, &lhs, &rhs, op) &&
      cp_node_strip(lhs)->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(lhs)->cur), var))
    return 1;
  if (n->kind == CXCursor_UnaryOperator && n->nkids && text(h)[n->begin] == '&' &&
      cp_node_strip(n->kids[0])->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(n->kids[0])->cur), var) &&
      clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer)
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (reassigned(h, n->kids[i], var))
      return 1;
  return 0;
}

/* Why host variable `name` gets no companion (host_companion said no), for a warning. */
static const char *no_companion(host *h, const char *name) {
  return cp_arena_printf(arena(h), "'%s' cannot have a companion: it is not a local float, array "
                                   "or pointer allocated with malloc, calloc or new[] in a "
                                   "declaration of its own and never reassigned", name);
}

/* Declares NAME_err beside host variable `v` (once): `decltype(v) v_err{};` for a float or
 * float array, the declaration again with a zeroed allocation for a pointer. 0 if `v`
 * cannot have one here (declared with others or in a macro, reassigned later). */
static int host_companion(host *h, CXCursor v) {
  for (int i = 0; i < h->n_comp; i++)
    if (clang_equalCursors(h->comp[i], v))
      return 1;
  const cp_node *d = decl_of(h->f->body, v);
  if (!d || !d->parent || d->parent->kind != CXCursor_CompoundStmt || d->macro || d->nkids != 1 ||
      h->n_comp == MAX_COMPANIONS || reassigned(h, h->f->body, v))
    return 0;
  const char *name = spelling_of(h, v), *err = err_of(h, name);
  const char *decl;
  if (clang_getCanonicalType(clang_getCursorType(v)).kind != CXType_Pointer) {
    decl = cp_arena_printf(arena(h), "decltype(%s) %s{};", name, err);
  } else {
    const cp_node *a = host_allocation(h, d->kids[0]);
    if (!a)
      return 0;
    unsigned end = statement_end(h, d);
    const char *alloc = node_text(h, a);
    if (a->kind == CXCursor_CXXNewExpr)
      alloc = alloc[strlen(alloc) - 1] == ']' ? cp_arena_printf(arena(h), "%s()", alloc) : alloc;
    else if (strcmp(spelling_of(h, clang_getCursorReferenced(a->cur)), "malloc") == 0 && a->nkids == 2)
      alloc = cp_arena_printf(arena(h), "calloc(1, %s)", node_text(h, a->kids[1]));
    decl = cp_arena_printf(arena(h), "%.*s%s%.*s", (int)(a->begin - d->begin), text(h) + d->begin,
                           alloc, (int)(end - a->end), text(h) + a->end);
    decl = replace_word(h, decl, name, err);
  }
  insert_after(h, d, decl, CP_RULE_MPI);
  h->comp[h->n_comp++] = v;
  return 1;
}

/* Whether every converted function that takes a buffer of `v`'s pairing group carries its
 * sums as accumulate(fixed) (so the buffer holds fixed-point sums). */
static int fixed_sums(host *h, const cp_var *v) {
  int root = cp_group_root(h->run, v->group), any = 0;
  for (unsigned i = 0; i < h->run->n_funcs; i++) {
    const cp_func *g = &h->run->funcs[i];
    if (g->is_host)
      continue;
    for (unsigned j = 0; j < g->n_vars; j++) {
      const cp_var *p = &g->vars[j];
      if (!p->is_param || p->group < 0 || cp_group_root(h->run, p->group) != root)
        continue;
      if (!g->pragma || g->pragma->accum != CP_ACC_FIXED)
        return 0;
      any = 1;
    }
  }
  return any;
}

/* At a device-to-host copy of paired buffer `src` into `dst` (statement `s`): whether the
 * MPI sums and sends of dst that follow keep its residuals (then marked kept, and
 * dst's companion declared); the ones that cannot are marked dropped. */
static int mpi_keeps(host *h, const cp_node *dst, const cp_node *s, const cp_var *src, int can_keep) {
  CXCursor v = mpi_var(dst);
  int kept = 0;
  if (clang_Cursor_isNull(v))
    return 0;
  unsigned from = statement_end(h, s);
  for (int i = 0; i < h->n_mpi; i++) {
    mpi_use *m = &h->mpi[i];
    if (!clang_equalCursors(m->var, v) || m->call->begin < from)
      continue;
    if (m->kind == MPI_USE_RECV)
      break; /* overwritten by a receive: the copy's values are not sent */
    const char *why = m->kind == MPI_USE_OTHER
                          ? "cpconvert keeps them only through MPI_Send, MPI_Recv, MPI_Sendrecv, "
                            "MPI_Allreduce and MPI_Reduce (MPI_SUM)"
                      : !can_keep ? "the copy back is asynchronous, or of doubles"
                      : !only_mpi_reads(h, h->f->body, v, from, m->call->begin)
                          ? cp_arena_printf(arena(h), "'%s' is used between the copy back and this "
                                                      "call", m->name)
                      : !host_companion(h, v) ? no_companion(h, m->name)
                          : NULL;
    if (why) {
      m->dropped = !m->kept;
      m->why = why;
      continue;
    }
    m->kept = kept = 1;
    m->fixed = m->kind == MPI_USE_SUM && fixed_sums(h, src);
  }
  return kept;
}

/* The kept receive that last filled host variable `v` before offset `at`, with nothing but
 * MPI reads naming v since: a host-to-device copy of v then moves v's companion. */
static const mpi_use *received_pairs(host *h, CXCursor v, unsigned at) {
  const mpi_use *last = NULL;
  for (int i = 0; i < h->n_mpi; i++) {
    const mpi_use *m = &h->mpi[i];
    if (m->kind == MPI_USE_RECV && clang_equalCursors(m->var, v) && m->call->end <= at &&
        (!last || m->call->begin > last->call->begin))
      last = m;
  }
  return last && last->kept && only_mpi_reads(h, h->f->body, v, last->call->end, at) ? last : NULL;
}

/* Whether the values a receive into `m->var` brings go on to a paired device buffer: a
 * host-to-device copy out of the variable into one, with nothing but MPI reads naming the
 * variable in between. */
static int receive_wanted(host *h, cp_node *n, const mpi_use *m) {
  for (unsigned i = 0; i < n->nkids; i++)
    if (receive_wanted(h, n->kids[i], m))
      return 1;
  if (n->kind != CXCursor_CallExpr || n->begin < m->call->end)
    return 0;
  const char *name = spelling_of(h, clang_getCursorReferenced(n->cur));
  int nargs = cp_num_args(n->cur);
  if ((strcmp(name, "cudaMemcpy") != 0 && strcmp(name, "cudaMemcpyAsync") != 0) || nargs < 4 ||
      !mpi_constant(h, cp_call_arg(n, nargs, 3), "cudaMemcpyHostToDevice"))
    return 0;
  CXCursor src = mpi_var(cp_call_arg(n, nargs, 1));
  return !clang_Cursor_isNull(src) && clang_equalCursors(src, m->var) &&
         is_paired(root_of(h, cp_call_arg(n, nargs, 0))) &&
         only_mpi_reads(h, h->f->body, m->var, m->call->end, n->begin);
}

/* The argument text of buffer argument `m` with the variable renamed to its companion. */
static const char *companion_arg(host *h, const call_text *ct, const mpi_use *m) {
  return to_companion(h, ct->arg[m->arg], m->name);
}

static void warn_dropped(host *h, const mpi_use *m) {
  cp_diag_at(h->run, h->u, CP_WARNING, m->call->begin,
             "this %s moves '%s', recombined from a paired buffer, as floats: its error terms "
             "are dropped, because %s; call it right after a synchronous cudaMemcpy of floats "
             "into a local variable, array or malloc'ed pointer [%s]",
             m->api, m->name, m->why, cp_rule_name(CP_RULE_MPI));
}

/* The replacement of a converted sum. */
static const char *mpi_sum_call(host *h, const char *api, const call_text *ct, const mpi_use *m) {
  const char *err = companion_arg(h, ct, m), *fixed = m->fixed ? "_fixed" : "";
  if (strcmp(api, "MPI_Reduce") == 0)
    return cp_arena_printf(arena(h), "cp_mpi_reduce_sum%s(%s, %s, %s, %s, %s, %s)", fixed, ct->arg[0],
                           err, ct->arg[1], ct->arg[2], ct->arg[5], ct->arg[6]);
  return cp_arena_printf(arena(h), "cp_mpi_allreduce_sum%s(%s, %s, %s, %s, %s)", fixed, ct->arg[0],
                         err, ct->arg[1], ct->arg[2], ct->arg[5]);
}

/* The replacement of a send, a receive or a send-receive that moves pairs. `s` is the
 * call's send use (or NULL), `r` its receive use (or NULL). */
static const char *mpi_message_call(host *h, const call_text *ct, mpi_use *s, mpi_use *r) {
  if (r && !(r->kept = host_companion(h, r->var)))
    cp_diag_at(h->run, h->u, CP_WARNING, r->call->begin,
               "this %s receives pairs, but the received error terms are dropped, because %s [%s]",
               r->api, no_companion(h, r->name), cp_rule_name(CP_RULE_MPI));
  const char *se = s && s->kept ? companion_arg(h, ct, s) : "NULL";
  const char *re = r && r->kept ? companion_arg(h, ct, r) : "NULL";
  if (s && r)
    return cp_arena_printf(arena(h), "cp_mpi_sendrecv_pairs(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                           ct->arg[0], se, ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5], re,
                           ct->arg[6], ct->arg[8], ct->arg[9], ct->arg[10], ct->arg[11]);
  if (s)
    return cp_arena_printf(arena(h), "cp_mpi_send_pairs(%s, %s, %s, %s, %s, %s)", ct->arg[0], se,
                           ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5]);
  return cp_arena_printf(arena(h), "cp_mpi_recv_pairs(%s, %s, %s, %s, %s, %s, %s)", ct->arg[0], re,
                         ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5], ct->arg[6]);
}

/* An MPI call with recorded float buffers: converted, or warned about where it drops
 * error terms. The header then includes <cp/mpi.h> (convert.c). */
static void on_mpi(host *h, cp_node *call, const char *api, int nargs) {
  (void)nargs;
  mpi_use *sum = NULL, *send = NULL, *recv = NULL;
  for (int i = 0; i < h->n_mpi; i++) {
    mpi_use *m = &h->mpi[i];
    if (m->call != call)
      continue;
    if (m->dropped && !m->kept)
      warn_dropped(h, m);
    if (m->kind == MPI_USE_SUM)
      sum = m;
    else if (m->kind == MPI_USE_SEND)
      send = m;
    else if (m->kind == MPI_USE_RECV)
      recv = m;
  }
  call_text ct;
  const cp_node *s;
  int pairs = sum ? sum->kept : (send && send->kept) || (recv && receive_wanted(h, h->f->body, recv));
  if (!pairs || !(s = statement_for(h, call, api, &ct)))
    return;
  edit(h, s->begin + ct.b, ct.e - ct.b,
       sum ? mpi_sum_call(h, api, &ct, sum) : mpi_message_call(h, &ct, send, recv), CP_RULE_MPI);
}

/* An MPI call cpconvert does not convert: only the warnings. */
static void on_mpi_other(host *h, cp_node *call) {
  for (int i = 0; i < h->n_mpi; i++)
    if (h->mpi[i].call == call && h->mpi[i].dropped && !h->mpi[i].kept)
      warn_dropped(h, &h->mpi[i]);
}

/* free(p) or delete[] p of a host variable with a companion: the same for the companion. */
static void on_host_free(host *h, cp_node *n) {
  int is_free = n->kind == CXCursor_CallExpr && cp_num_args(n->cur) == 1 &&
                strcmp(spelling_of(h, clang_getCursorReferenced(n->cur)), "free") == 0;
  if (!is_free && n->kind != CXCursor_CXXDeleteExpr)
    return;
  CXCursor v = mpi_var(n->kids[n->nkids - 1]);
  const cp_node *s = statement_of(n);
  for (int i = 0; i < h->n_comp && s && !clang_Cursor_isNull(v); i++)
    if (clang_equalCursors(h->comp[i], v))
      insert_after(h, s, to_companion(h, statement_text(h, s), spelling_of(h, v)), CP_RULE_MPI);
}

static const api_row api_table[] = {
#define CP_HOST_API(name, kind) {#name, on_##kind},
#include "rules.def"
};

/* Whether parameter i of the function `call` calls is a pointer to const: the callee can
 * only read through it, so the companion needs no care. */
static int reads_only(cp_node *call, int i) {
  CXCursor fn = cp_callee(call->cur);
  if (clang_Cursor_isNull(fn) || i >= cp_num_args(fn))
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(fn, i)));
  return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* A paired buffer passed to a function that is not converted, through a pointer that is
 * not to const: quiet if the function's body is in the run's inputs and never writes
 * through that parameter; a warning if it writes (its error term is not updated) or if
 * its body is not visible. */
static void unfollowed_call(host *h, cp_node *call, const char *name, const cp_var *v, int i) {
  int visible;
  const cp_node *w = cp_param_write(h->run, cp_callee(call->cur), i, &visible);
  if (visible && !w)
    return;
  if (visible)
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "paired buffer '%s' is passed to '%s', which writes it but is not converted: "
               "its error term is not updated; zero %s" CP_ERR_SUFFIX " after it, or convert '%s' [%s]",
               v->name, name, v->name, name, cp_rule_name(CP_RULE_HOST_PAIR));
  else
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "paired buffer '%s' is passed to '%s', which cpconvert does not convert: it "
               "works on the values without their error terms (recombine them first if it "
               "computes with them), and if it writes the buffer, zero %s" CP_ERR_SUFFIX " after it [%s]",
               v->name, name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* Calls that take a paired buffer and are none of the above (a host helper, a library
 * template such as thrust::device_ptr or thrust::reduce, a method): cpconvert cannot know
 * what they do with it. One that only reads (a pointer to const) still reads values
 * without their error terms: a warning too, except for the CUDA runtime's own calls
 * (prefetch, attributes), which do not compute with the values (its other copies,
 * cudaMemcpy2D and the like, do warn: they copy values without their errors), and for
 * kernels left unconverted on purpose (a neighbour-list build reads positions in float). */
static void on_other_call(host *h, cp_node *call, const char *name) {
  int nargs = cp_num_args(call->cur);
  for (int i = 0; i < nargs; i++) {
    cp_var *v = root_of(h, cp_call_arg(call, nargs, i));
    if (!is_paired(v))
      continue;
    if (strncmp(name, "MPI_", 4) == 0 || strncmp(name, "nccl", 4) == 0)
      cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
                 "paired buffer '%s' is handed to '%s' directly: the message or reduction "
                 "moves its values without their error terms, which are dropped there; copy "
                 "it to a host buffer first (cpconvert keeps the errors through MPI_Send, "
                 "MPI_Recv, MPI_Sendrecv, MPI_Allreduce and MPI_Reduce of that buffer), or "
                 "for NCCL reduce recombined values as ncclDouble [%s]",
                 v->name, name, cp_rule_name(CP_RULE_MPI));
    else if (!reads_only(call, i))
      unfollowed_call(h, call, name, v, i);
    else if ((strncmp(name, "cuda", 4) != 0 || strncmp(name, "cudaMemcpy", 10) == 0) &&
             cp_cuda_kind(clang_getCursorReferenced(call->cur)) != 2) /* a kernel that reads:
                                                                       its own precision */
      cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
                 "paired buffer '%s' is read by '%s', which cpconvert does not convert: it "
                 "reads the values without their error terms, which are dropped there "
                 "(recombine into a buffer of its own first, e.g. with cp_recombine) [%s]",
                 v->name, name, cp_rule_name(CP_RULE_HOST_PAIR));
  }
}

/* p = q between paired pointers (a swap of double buffers), or p = nullptr: the same for
 * the companions. Any other value for a paired pointer cannot be followed. */
static void on_pointer_assignment(host *h, cp_node *n) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_CallExpr ||
      !cp_node_assignment(text(h), n, &lhs, &rhs, op) || strcmp(op, "=") != 0)
    return;
  const cp_node *target = cp_node_strip(lhs);
  if (target->kind != CXCursor_DeclRefExpr && target->kind != CXCursor_MemberRefExpr)
    return;
  cp_var *l = root_of(h, lhs);
  if (!is_paired(l))
    return;
  cp_var *r = root_of(h, rhs);
  const cp_node *value = cp_node_strip(rhs);
  int null = value->kind == CXCursor_CXXNullPtrLiteralExpr || value->kind == CXCursor_IntegerLiteral ||
             value->kind == CXCursor_GNUNullExpr;
  const cp_node *s = statement_of(n);
  if (!s || (!is_paired(r) && !null)) {
    error(h, n, "paired pointer '%s' is assigned a value cpconvert cannot follow to a buffer "
                "with a companion: assign '%s" CP_ERR_SUFFIX "' by hand too", l->name, l->name);
    return;
  }
  const char *stmt = to_companion(h, statement_text(h, s), l->name);
  if (is_paired(r) && r != l)
    stmt = to_companion(h, stmt, r->name);
  insert_after(h, s, stmt, CP_RULE_HOST_PAIR);
}

/* A struct declared with pointers into paired device buffers, `Bodies d = {(float4 *)d_buf,
 * (float4 *)d_buf + n};`: its companion fields get the same pointers into the companions, in
 * a statement after the declaration (`d.pos_err = (float4 *)d_buf_err;` ...). */
static void on_init_list(host *h, const cp_node *n) {
  const cp_node *var = n->parent, *s;
  if (n->kind != CXCursor_InitListExpr || !var || var->kind != CXCursor_VarDecl ||
      !(s = statement_of(var)))
    return;
  CXCursor fields[64];
  unsigned nf = cp_record_fields(clang_getCursorType(n->cur), fields, 64);
  const char *name = spelling_of(h, var->cur), *stmts = "";
  for (unsigned i = 0; i < nf; i++) {
    const cp_node *e = cp_init_element(text(h), n, i);
    cp_var *l = cp_field_var(h->run, fields[i]), *r = e ? root_of(h, e) : NULL;
    if (!is_paired(l) || !is_paired(r) || e->macro)
      continue;
    const char *value = to_companion(h, cp_arena_strndup(arena(h), text(h) + e->begin,
                                                         e->end - e->begin), r->name);
    stmts = cp_arena_printf(arena(h), "%s%s%s.%s = %s;", stmts, *stmts ? " " : "", name,
                            err_of(h, l->name), value);
    l->allocated = 1; /* it points into an allocation the run follows */
  }
  if (*stmts)
    insert_after(h, s, stmts, CP_RULE_HOST_PAIR);
}

/* A converted function named other than as the callee of a call: its address taken, for a
 * launch through a function pointer or cudaLaunchKernel, which are not followed. */
static void on_function_reference(host *h, const cp_node *n) {
  cp_func *g;
  if (n->kind != CXCursor_DeclRefExpr ||
      !(g = cp_func_of(h->run, cp_callee(n->cur))) || !cp_signature_changes(g))
    return;
  const cp_node *k = n, *p = n->parent;
  while (p && p->kind == CXCursor_UnexposedExpr) {
    k = p;
    p = p->parent;
  }
  if (p && p->kind == CXCursor_CallExpr && p->nkids > 0 &&
      (p->kids[0] == k || (cp_call_is_infix(p) && p->kids[1] == k)))
    return; /* the callee of a call or launch, or the operator of `a + b` */
  error(h, n, "converted function '%s' is used other than in a direct call or launch (a function "
              "pointer, cudaLaunchKernel); cpconvert cannot add its companion arguments there: "
              "launch it directly with <<<...>>>", g->name);
}

static void walk(host *h, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    walk(h, n->kids[i]);
  on_pointer_assignment(h, n);
  on_init_list(h, n);
  on_function_reference(h, n);
  on_host_free(h, n);
  if (n->kind != CXCursor_CallExpr)
    return;
  CXCursor ref = clang_getCursorReferenced(n->cur);
  cp_func *g = cp_func_of(h->run, ref);
  if (g) {
    on_call(h, n, g);
    return;
  }
  const char *name = spelling_of(h, ref);
  int nargs = cp_num_args(n->cur);
  for (size_t i = 0; i < sizeof api_table / sizeof api_table[0]; i++)
    if (strcmp(name, api_table[i].name) == 0) {
      if (nargs > 0)
        api_table[i].fn(h, n, name, nargs);
      return;
    }
  if (strncmp(name, "MPI_", 4) == 0)
    on_mpi_other(h, n);
  if (nargs > 0)
    on_other_call(h, n, *name ? name : "a call cpconvert cannot resolve");
}

/* The declaration statement of a local variable. */
static const cp_node *decl_of(const cp_node *n, CXCursor var) {
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, var))
    return n->parent;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *d = decl_of(n->kids[i], var);
    if (d)
      return d;
  }
  return NULL;
}

static void declare_companion(host *h, cp_var *v) {
  const cp_node *d = decl_of(h->f->body, v->decl);
  if (!d || !d->parent || d->parent->kind != CXCursor_CompoundStmt || d->macro) {
    cp_diag_at(h->run, h->u, CP_ERROR, d ? d->begin : h->f->body->begin,
               "cannot declare '%s" CP_ERR_SUFFIX "' beside '%s': declare '%s' in a statement of its own "
               "[%s]", v->name, v->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
    return;
  }
  CXString t = clang_getTypeSpelling(clang_getCursorType(v->decl));
  const char *type = clang_getCString(t);
  size_t n = strlen(type);
  const char *init = "nullptr"; /* float *p = q: p's companion starts as q's */
  CXCursor value = clang_Cursor_getVarDeclInitializer(v->decl);
  if (!clang_Cursor_isNull(value)) {
    const cp_node *vd = NULL;
    for (unsigned i = 0; i < d->nkids && !vd; i++)
      if (clang_equalCursors(d->kids[i]->cur, v->decl))
        vd = d->kids[i];
    cp_var *r = vd && vd->nkids ? root_of(h, vd->kids[vd->nkids - 1]) : NULL;
    if (is_paired(r)) {
      const cp_node *e = vd->kids[vd->nkids - 1];
      init = replace_word(h, cp_arena_strndup(arena(h), text(h) + e->begin, e->end - e->begin),
                          r->name, err_of(h, r->name));
      v->allocated = 1; /* a copy of an allocated pointer */
    }
  }
  const char *decl = cp_arena_printf(arena(h), "%s%s%s" CP_ERR_SUFFIX " = %s;", type,
                                     n && type[n - 1] == '*' ? "" : " ", v->name, init);
  clang_disposeString(t);
  insert_after(h, d, decl, CP_RULE_HOST_PAIR);
}

void cp_convert_host(cp_run *run, cp_func *f) {
  host h;
  memset(&h, 0, sizeof h);
  h.run = run;
  h.u = f->unit;
  h.f = f;
  find_mpi_uses(&h, f->body);
  walk(&h, f->body);
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (!is_paired(v) || v->is_param || v->external)
      continue;
    declare_companion(&h, v);
    const cp_node *d = decl_of(f->body, v->decl);
    if (!v->allocated)
      cp_diag_at(run, f->unit, CP_ERROR, d ? d->begin : f->body->begin,
                 "'%s' is paired (a converted kernel writes it) but '%s' does not allocate it "
                 "with cudaMalloc: allocate '%s" CP_ERR_SUFFIX "' the same size, zeroed, and pass it with it "
                 "[%s]", v->name, f->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
  }
}

/* Whether the struct of `field` already has a field called `name` (added by hand). */
static int struct_has_field(CXCursor field, const char *name) {
  CXCursor rec = clang_getCursorSemanticParent(field);
  return clang_Type_getOffsetOf(clang_getCursorType(rec), name) >= 0;
}

/* A diagnostic at a declaration site, in whichever file it is (an input or a header). */
static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_cursor(run, CP_ERROR, site->unit->p.tu, site->decl, "%s [%s]", msg,
                 cp_rule_name(CP_RULE_HOST_PAIR));
}

/* The companion declared at one site: the next line after the declaration, in its unit. */
static void declare_at_site(cp_run *run, const cp_var *v, const cp_site *site, const char *type,
                            const char *err) {
  CXFile file;
  unsigned b, end;
  CXSourceRange ext = clang_getCursorExtent(site->decl);
  clang_getExpansionLocation(clang_getRangeStart(ext), &file, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &end);
  cp_unit *u = cp_unit_for_file(run, site->unit->p.tu, file);
  const char *sep = type[strlen(type) - 1] == '*' ? "" : " ";
  int is_extern = !v->is_field && clang_Cursor_getStorageClass(site->decl) == CX_SC_Extern;
  if (!u) {
    site_error(run, site, "%s '%s' is paired, but it is declared outside the converted file: "
               "add '%s%s%s%s;' after it here, then convert again (or convert with --o-dir, "
               "which writes this file converted, or name it with --pair)", v->is_field ? "field" : "pointer",
               v->name, is_extern ? "extern " : "", type, sep, err);
    return;
  }
  host h;
  memset(&h, 0, sizeof h);
  h.run = run;
  h.u = u;
  h.f = &run->structs;
  const char *t = text(&h);
  unsigned semi = end;
  while (semi < u->opt.input_len && t[semi] != ';')
    semi++;
  unsigned at = line_insert_point(&h, semi < u->opt.input_len ? semi + 1 : end);
  const char *decl = cp_arena_printf(run->r->arena, "%s%s%s%s%s%s%s;", line_end(&h),
                                     indent_of(&h, b), is_extern ? "extern " : "", type, sep, err,
                                     v->is_field || is_extern ? "" : " = nullptr");
  for (size_t i = 0; i < u->edits.count; i++) /* a header seen from several inputs */
    if (u->edits.items[i].offset == at && strcmp(u->edits.items[i].text, decl) == 0)
      return;
  cp_apply_edit(run, &u->edits, at, 0, decl, CP_RULE_HOST_PAIR);
}

/* Paired pointer fields and file-scope pointers get their companion at every declaration
 * site the run can edit: a companion field on the next line of the struct (if the struct
 * has no field NAME_err yet, added by hand), a companion pointer beside the definition
 * (`= nullptr`) and beside each extern declaration (`extern`). A site in a file the run
 * does not write is an error that says what to add there. A pointer defined in no
 * converted file needs --pair; names given with --pair are trusted and left alone. */
void cp_convert_fields(cp_run *run) {
  cp_func *s = &run->structs;
  for (unsigned i = 0; i < s->n_vars; i++) {
    cp_var *v = &s->vars[i];
    /* symbols: symbol.c; an external (--pair) pointer's companion is declared elsewhere, but
     * a field's is declared in its struct, which is here */
    if (!is_paired(v) || (v->external && !v->is_field) || !v->n_sites || v->is_symbol)
      continue;
    const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, v->name);
    int defined = v->is_field;
    for (unsigned k = 0; k < v->n_sites; k++)
      defined |= clang_Cursor_getStorageClass(v->sites[k].decl) != CX_SC_Extern;
    if (!defined) {
      site_error(run, &v->sites[0], "'%s' is paired but defined outside the converted files: "
                 "define '%s' there (same type, allocated and zeroed with it) and convert with "
                 "--pair %s", v->name, err, v->name);
      continue;
    }
    if (!v->is_field || !struct_has_field(v->decl, err)) {
      CXString t = clang_getTypeSpelling(clang_getCursorType(v->decl));
      const char *type = cp_arena_strdup(run->r->arena, clang_getCString(t));
      clang_disposeString(t);
      for (unsigned k = 0; k < v->n_sites; k++)
        declare_at_site(run, v, &v->sites[k], type, err);
    }
    if (!v->allocated && !v->external)
      site_error(run, &v->sites[0],
                 "%s '%s' is paired (a converted kernel writes its buffer) but no cudaMalloc of "
                 "it is in the converted files: allocate '%s' the same size, zeroed, and copy "
                 "it with it, then name it with --pair", v->is_field ? "field" : "pointer",
                 v->name, err);
  }
}
